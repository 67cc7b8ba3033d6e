//! `urnreg normalize`: the equivalence key of each URN, one per line
//! (refined by the namespace's rules unless `--generic`).

use std::ffi::OsString;
use std::io::{self, BufReader, BufWriter, Write};
use std::process::ExitCode;

use urnreg::Urn;
use urnreg::validate::Validator;

use super::db::DbArgs;

use super::input::{self, LineReader, MAX_LINE};
use super::report::{Shown, write_caret};
use super::{Format, SyntaxArgs, format_for};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    syntax: SyntaxArgs,

    /// The RFC 8141 section 3.1 key only, without namespace rules.
    #[arg(long)]
    generic: bool,

    /// URNs to normalize, or `-` to read one per line from stdin.
    #[arg(value_name = "URN")]
    urns: Vec<OsString>,
}

pub fn run(args: Args, db: &DbArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    format_for(format, &[Format::Text], "normalize")?;
    let validator = if args.generic {
        None
    } else {
        Some(Validator::from_store(&db.open_for_read()?)?)
    };
    let syntax = args.syntax.syntax();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut failed = false;
    let mut one = |raw: &[u8], truncated: bool, out: &mut BufWriter<_>| -> io::Result<()> {
        let result = if truncated {
            Err(format!("line longer than {MAX_LINE} bytes"))
        } else {
            Urn::parse_bytes(raw, syntax).map_err(|e| e.to_string())
        };
        match result {
            Ok(urn) => match &validator {
                Some(v) => writeln!(out, "{}", v.key(&urn)),
                None => writeln!(out, "{}", urn.equivalence_key()),
            },
            Err(message) => {
                failed = true;
                out.flush()?;
                let mut err = io::stderr().lock();
                writeln!(err, "invalid URN")?;
                let offset = Urn::parse_bytes(raw, syntax)
                    .err()
                    .map_or(raw.len(), |e| e.offset());
                write_caret(&mut err, &Shown::new(raw), offset, "error", &message)
            }
        }
    };
    if input::wants_stdin(&args.urns) {
        let mut lines = LineReader::new(BufReader::new(io::stdin().lock()));
        while let Some(line) = lines.next_line()? {
            one(line.bytes, line.truncated, &mut out)?;
        }
    } else {
        if args.urns.is_empty() {
            return Err(super::UsageError(
                "no URN given: pass URNs as arguments, or '-' to read them from stdin".into(),
            )
            .into());
        }
        for arg in &args.urns {
            one(arg.as_encoded_bytes(), false, &mut out)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::from(u8::from(failed)))
}
