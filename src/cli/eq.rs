//! `urnreg eq`: are two URNs URN-equivalent (RFC 8141 section 3.1, refined
//! by the namespace's own rules unless `--generic`)?

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use urnreg::Urn;
use urnreg::validate::Validator;

use super::db::DbArgs;

use super::report::{Shown, write_caret};
use super::{Format, QuietExit, SyntaxArgs, format_for};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    syntax: SyntaxArgs,

    /// Compare by RFC 8141 section 3.1 only, without namespace rules.
    #[arg(long)]
    generic: bool,

    /// The first URN.
    a: OsString,
    /// The second URN.
    b: OsString,
}

pub fn run(args: Args, db: &DbArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    format_for(format, &[Format::Text], "eq")?;
    let syntax = args.syntax.syntax();
    let a = parse_arg(1, &args.a, syntax)?;
    let b = parse_arg(2, &args.b, syntax)?;
    let same = if args.generic {
        a.is_equivalent(&b)
    } else {
        let validator = Validator::from_store(&db.open_for_read()?)?;
        validator.key(&a) == validator.key(&b)
    };
    writeln!(
        io::stdout().lock(),
        "{}",
        if same { "equivalent" } else { "not equivalent" }
    )?;
    Ok(ExitCode::from(u8::from(!same)))
}

/// Parses argument `n`; on failure says which one and where, and exits 2.
fn parse_arg(n: usize, raw: &OsString, syntax: urnreg::Syntax) -> Result<Urn<'_>, QuietExit> {
    let raw = raw.as_encoded_bytes();
    Urn::parse_bytes(raw, syntax).map_err(|err| {
        let mut stderr = io::stderr().lock();
        let _ = writeln!(stderr, "error: URN {n} is invalid");
        let _ = write_caret(
            &mut stderr,
            &Shown::new(raw),
            err.offset(),
            "error",
            &err.to_string(),
        );
        QuietExit(2)
    })
}
