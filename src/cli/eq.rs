//! `urnreg eq`: are two URNs URN-equivalent (RFC 8141 section 3.1, refined
//! by the namespace's own rules unless `--syntax-only`)?
//!
//! A URN that fails its namespace's rules is equivalent to nothing: `eq`
//! then says which side is invalid and why, and exits 2.

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use super::db::DbArgs;
use super::output::{self, Palette, paint};
use super::report::write_invalid;
use super::{QuietExit, SyntaxArgs};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    syntax: SyntaxArgs,

    /// Compare by the generic RFC 8141 syntax and section 3.1 only: no
    /// registry lookup, no namespace rules (as `check --syntax-only`).
    /// (`--generic` is the old name.)
    #[arg(long, alias = "generic")]
    syntax_only: bool,

    #[command(flatten)]
    db: DbArgs,

    /// The first URN.
    a: OsString,
    /// The second URN.
    b: OsString,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let registry = if args.syntax_only {
        None
    } else {
        Some(args.db.registry()?)
    };
    let mut checker = args.syntax.checker(registry.as_ref());
    let a = checker.check(args.a.as_encoded_bytes());
    let b = checker.check(args.b.as_encoded_bytes());
    let mut invalid = false;
    for (n, report) in [(1, &a), (2, &b)] {
        if !report.is_valid() {
            write_invalid(
                report,
                "URN",
                Some(n),
                &Palette::stderr(),
                &mut io::stderr().lock(),
                &mut String::new(),
            )?;
            invalid = true;
        }
    }
    if invalid {
        return Err(QuietExit(2).into());
    }
    let same = a.key() == b.key();
    let palette = Palette::stdout();
    let mut out = output::stdout();
    if same {
        writeln!(out, "{}", paint(palette.good, "equivalent"))?;
    } else {
        writeln!(out, "{}", paint(palette.error, "not equivalent"))?;
    }
    out.finish()?;
    Ok(ExitCode::from(u8::from(!same)))
}
