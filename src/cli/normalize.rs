//! `urnreg normalize`: the equivalence key of each URN, one output line per
//! input (refined by the namespace's rules unless `--syntax-only`).
//!
//! An invalid URN has no key: its output line is empty, so outputs stay
//! aligned with inputs, and its error goes to stderr naming the line.
//! Streams go through the library's batch engine ([`urnreg::batch`]):
//! `--jobs` workers, keys written in place, stdout and stderr written a
//! chunk at a time, each in input order.

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use urnreg::Report;
use urnreg::batch::{Batch, Options, Sink, Summary};

use super::SyntaxArgs;
use super::check::{batch_error, cores, parse_jobs};
use super::db::DbArgs;
use super::input;
use super::output::{Palette, STDOUT};
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

    /// Worker threads for streamed input (default: one per core, at most
    /// 256). Output stays in input order.
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    jobs: Option<usize>,

    #[command(flatten)]
    db: DbArgs,

    /// URNs to normalize, or `-` to read one per line from stdin.
    #[arg(value_name = "URN")]
    urns: Vec<OsString>,
}

/// The keys of a chunk, one line per input, and the errors of its invalid
/// inputs.
#[derive(Default)]
struct Keys {
    keys: Vec<u8>,
    errors: Vec<u8>,
    /// Where an error's message is made.
    scratch: String,
}

/// Writes each key in place; an invalid input gets an empty line and its
/// error, coloured for stderr.
struct KeySink {
    palette: Palette,
}

impl Sink for KeySink {
    type Out = Keys;

    fn clear(&self, out: &mut Keys) {
        out.keys.clear();
        out.errors.clear();
    }

    #[inline]
    fn record(&self, report: &Report<'_, '_>, line: Option<u64>, out: &mut Keys) {
        if !report.write_key(&mut out.keys) {
            // Writing to a Vec cannot fail.
            let what = if line.is_some() { "line" } else { "URN" };
            let _ = write_invalid(
                report,
                what,
                line,
                &self.palette,
                &mut out.errors,
                &mut out.scratch,
            );
        }
        out.keys.push(b'\n');
    }

    fn held(&self, out: &Keys) -> usize {
        out.keys.len() + out.errors.len()
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let registry = if args.syntax_only {
        None
    } else {
        Some(Arc::new(args.db.registry()?))
    };
    let options = Options {
        syntax: args.syntax.syntax(),
        strict: args.syntax.is_strict(),
        // Only keys and errors are written.
        warnings: false,
        // Each error is written, with its message.
        messages: true,
        detailed_summary: false,
    };
    let sink = KeySink {
        palette: Palette::stderr(),
    };
    let batch = Batch::new(registry, options, sink).with_jobs(args.jobs.unwrap_or_else(cores));
    // A chunk's keys (tens of KB and more) are written straight through,
    // not copied into the buffer first: only smaller ones are gathered.
    let mut out = BufWriter::with_capacity(16 * 1024, io::stdout().lock());
    let mut err = io::stderr().lock();
    let mut write = |chunk: &Keys, flush: bool| -> io::Result<()> {
        out.write_all(&chunk.keys)?;
        if !chunk.errors.is_empty() {
            // Each chunk's keys before its errors, so that a terminal
            // showing both shows the empty lines before what they mean.
            out.flush()?;
            err.write_all(&chunk.errors)?;
        }
        if flush { out.flush() } else { Ok(()) }
    };
    let summary = if input::wants_stdin(&args.urns) {
        // A chunk ends where the input paused: answer at once (a
        // co-process waits for it).
        let _watch = input::watch_stdout();
        batch
            .stream(io::stdin(), |chunk, p| write(chunk, p.caught_up))
            .map_err(batch_error)?
    } else {
        if args.urns.is_empty() {
            return Err(super::UsageError(
                "no URN given: pass URNs as arguments, or '-' to read them from stdin".into(),
            )
            .into());
        }
        let mut summary = Summary::default();
        let mut checker = batch.checker();
        let mut keys = Keys::default();
        for (i, arg) in args.urns.iter().enumerate() {
            keys.keys.clear();
            keys.errors.clear();
            let report = checker.check(arg.as_encoded_bytes());
            summary.add(&report, false);
            if !report.write_key(&mut keys.keys) {
                write_invalid(
                    &report,
                    "URN",
                    Some(i as u64 + 1),
                    &batch.sink().palette,
                    &mut keys.errors,
                    &mut keys.scratch,
                )?;
                if let Some(note) = input::file_argument_note(arg, "`urnreg normalize - < {}`") {
                    keys.errors.extend_from_slice(note.as_bytes());
                    keys.errors.push(b'\n');
                }
            }
            keys.keys.push(b'\n');
            write(&keys, false).context(STDOUT)?;
        }
        summary
    };
    out.flush().context(STDOUT)?;
    Ok(ExitCode::from(u8::from(summary.invalid() > 0)))
}
