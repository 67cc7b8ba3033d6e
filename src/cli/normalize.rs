//! `urnreg normalize`: the equivalence key of each URN, one output line per
//! input (refined by the namespace's rules unless `--syntax-only`).
//!
//! An invalid URN has no key: its output line is empty, so outputs stay
//! aligned with inputs, and its error goes to stderr naming the line.

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Context as _;
use urnreg::Report;

use super::SyntaxArgs;
use super::chunks::{Chunk, ChunkReader};
use super::db::DbArgs;
use super::input::{self, MAX_LINE};
use super::output::{self, Stdout};
use super::report::write_invalid;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    syntax: SyntaxArgs,

    /// The generic RFC 8141 syntax and section 3.1 key only: no registry
    /// lookup, no namespace rules (as `check --syntax-only`).
    /// (`--generic` is the old name.)
    #[arg(long, alias = "generic")]
    syntax_only: bool,

    #[command(flatten)]
    db: DbArgs,

    /// URNs to normalize, or `-` to read one per line from stdin.
    #[arg(value_name = "URN")]
    urns: Vec<OsString>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let registry = if args.syntax_only {
        None
    } else {
        Some(args.db.registry()?)
    };
    let mut checker = args.syntax.checker(registry.as_ref());
    let mut out = output::stdout();
    let mut failed = false;
    // `what` names the input in an error ("line 7", "URN 2"): made only
    // for an invalid one.
    let mut one = |report: Report<'_, '_>, what: (&str, u64), out: &mut Stdout| -> anyhow::Result<()> {
        match report.key() {
            Some(key) => Ok(writeln!(out, "{key}")?),
            None => {
                failed = true;
                writeln!(out)?;
                out.flush()?;
                write_invalid(&report, &format!("{} {}", what.0, what.1))?;
                Ok(())
            }
        }
    };
    if input::wants_stdin(&args.urns) {
        // The same chunks of lines as `check` reads (one place cuts long
        // lines and drops line breaks).
        let mut lines = ChunkReader::new(io::stdin().lock());
        let mut chunk = Chunk::default();
        while lines.fill(&mut chunk).context("reading the input")? {
            let mut written = Ok(());
            chunk.for_each_line(|line| {
                if written.is_ok() {
                    let report = if line.truncated {
                        checker.line_too_long(line.bytes, MAX_LINE)
                    } else {
                        checker.check(line.bytes)
                    };
                    written = one(report, ("line", line.number), &mut out);
                }
            });
            written?;
            // A chunk ends where the input paused: answer at once (a
            // co-process waits for it).
            out.flush()?;
        }
    } else {
        if args.urns.is_empty() {
            return Err(super::UsageError(
                "no URN given: pass URNs as arguments, or '-' to read them from stdin".into(),
            )
            .into());
        }
        for (i, arg) in args.urns.iter().enumerate() {
            one(
                checker.check(arg.as_encoded_bytes()),
                ("URN", i as u64 + 1),
                &mut out,
            )?;
        }
    }
    out.finish()?;
    Ok(ExitCode::from(u8::from(failed)))
}
