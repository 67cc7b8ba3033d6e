//! `urnreg check`: validate URNs given as arguments or streamed one per
//! line, against the registry (or the generic syntax only).
//!
//! Streams go through the library's batch engine ([`urnreg::batch`]):
//! chunks of whole lines checked by `--jobs` workers, written in input
//! order, memory bounded. This module only chooses what is written.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use urnreg::batch::{self, Batch, Json, MAX_JOBS, Options, Shown, Sink, Summary};
use urnreg::{Registry, Report};

use super::db::DbArgs;
use super::input;
use super::output::{Palette, STDOUT};
use super::report::write_text;
use super::{Format, FormatParser, SyntaxArgs, UsageError};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output format: text for people; json, one array; jsonl, one object
    /// per input line, streamed.
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json, Format::Jsonl]))]
    format: Format,

    /// Check the generic RFC 8141 syntax only, without the registry.
    #[arg(long, alias = "generic")]
    syntax_only: bool,

    #[command(flatten)]
    syntax: SyntaxArgs,

    /// Read URNs from this file, one per line (`-`: standard input).
    #[arg(long, value_name = "PATH", conflicts_with = "urns")]
    file: Option<PathBuf>,

    /// Worker threads for streamed input (default: one per core, at most
    /// 256). Output stays in input order.
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    jobs: Option<usize>,

    /// No per-URN output: the exit status says it all (with --summary,
    /// only the summary is printed).
    #[arg(long, short = 'q', conflicts_with = "only_invalid")]
    quiet: bool,

    /// Print only the invalid URNs.
    #[arg(long)]
    only_invalid: bool,

    /// Under each finding of a namespace's rules, the rules' whole source
    /// (text output; JSON always has it, as `source`).
    #[arg(long, short = 'v')]
    verbose: bool,

    /// After the results, print counts by NID and by error kind (to stderr).
    #[arg(long)]
    summary: bool,

    #[command(flatten)]
    db: DbArgs,

    /// URNs to check, or `-` to read one per line from stdin.
    #[arg(value_name = "URN")]
    urns: Vec<OsString>,
}

/// `--jobs`: 1 to [`MAX_JOBS`]; 0 means one per core.
pub fn parse_jobs(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of threads"))?;
    match n {
        0 => Ok(cores()),
        1..=MAX_JOBS => Ok(n),
        _ => Err(format!("at most {MAX_JOBS} threads")),
    }
}

pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_JOBS))
}

/// The text form of each shown report, coloured for a terminal.
struct Text {
    shown: Shown,
    palette: Palette,
    verbose: bool,
}

impl Text {
    /// Out of line: `record` stays a test and a call (with `-q` every
    /// line was paying the writer's frame for nothing).
    #[inline(never)]
    fn write(&self, report: &Report<'_, '_>, line: Option<u64>, out: &mut Vec<u8>) {
        // Writing to a Vec cannot fail.
        let _ = write_text(report, line, &self.palette, self.verbose, out);
    }
}

impl Sink for Text {
    type Out = Vec<u8>;

    fn clear(&self, out: &mut Vec<u8>) {
        out.clear();
        if out.capacity() > 4 << 20 {
            *out = Vec::with_capacity(1 << 20);
        }
    }

    #[inline]
    fn record(&self, report: &Report<'_, '_>, line: Option<u64>, out: &mut Vec<u8>) {
        if self.shown.shows(report) {
            self.write(report, line, out);
        }
    }

    fn held(&self, out: &Vec<u8>) -> usize {
        out.len()
    }
}

/// Writes JSON array brackets and drops the comma before the first object;
/// names standard output in its errors.
struct Output<W: Write> {
    out: W,
    format: Format,
    first: bool,
    quiet: bool,
}

impl<W: Write> Output<W> {
    fn start(&mut self) -> io::Result<()> {
        if self.format == Format::Json && !self.quiet {
            self.out.write_all(b"[")?;
        }
        Ok(())
    }

    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        let bytes = if self.format == Format::Json && self.first && !bytes.is_empty() {
            &bytes[1..]
        } else {
            bytes
        };
        if !bytes.is_empty() {
            self.first = false;
        }
        self.out.write_all(bytes)
    }

    fn finish(mut self) -> io::Result<()> {
        if self.format == Format::Json && !self.quiet {
            self.out.write_all(if self.first { b"]\n" } else { b"\n]\n" })?;
        }
        self.out.flush()
    }
}

/// A batch's error in the words `check` always used.
pub fn batch_error(e: batch::Error) -> anyhow::Error {
    match e {
        batch::Error::Read(e) => anyhow::Error::new(e).context("reading the input"),
        batch::Error::Write(e) => anyhow::Error::new(e).context(STDOUT),
        other => anyhow::Error::new(other),
    }
}

/// Prints the summary to stderr; `registry` names the registered
/// namespaces.
fn print_summary(summary: &Summary, registry: Option<&Registry>) -> io::Result<()> {
    // Buffered: the list of NIDs can be thousands of lines.
    let mut err = BufWriter::new(io::stderr().lock());
    writeln!(
        err,
        "{} checked, {} valid, {} invalid",
        summary.total(),
        summary.total() - summary.invalid(),
        summary.invalid()
    )?;
    writeln!(err, "by NID:")?;
    for (nid, n) in summary.by_nid(registry) {
        writeln!(err, "  {n:>10}  {nid}")?;
    }
    writeln!(err, "by error kind:")?;
    for (kind, n) in summary.by_error() {
        writeln!(err, "  {n:>10}  {kind}")?;
    }
    err.flush()
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let registry = if args.syntax_only {
        None
    } else {
        Some(Arc::new(args.db.registry()?))
    };
    let shown = if args.quiet {
        Shown::None
    } else if args.only_invalid {
        Shown::Invalid
    } else {
        Shown::All
    };
    let options = Options {
        syntax: args.syntax.syntax(),
        strict: args.syntax.is_strict(),
        // Nothing per URN is shown: only validity (and error kinds) count.
        warnings: shown != Shown::None,
        messages: shown != Shown::None,
        detailed_summary: args.summary,
    };
    let jobs = args.jobs.unwrap_or_else(cores);
    match args.format {
        Format::Json => run_with(
            Batch::new(registry, options, Json::array_elements(shown)),
            jobs,
            &args,
        ),
        Format::Jsonl => run_with(Batch::new(registry, options, Json::lines(shown)), jobs, &args),
        _ => {
            let text = Text {
                shown,
                palette: Palette::stdout(),
                verbose: args.verbose,
            };
            run_with(Batch::new(registry, options, text), jobs, &args)
        }
    }
}

fn run_with<S: Sink<Out = Vec<u8>>>(batch: Batch<S>, jobs: usize, args: &Args) -> anyhow::Result<ExitCode> {
    let batch = batch.with_jobs(jobs);
    let mut output = Output {
        // A chunk's output (tens of KB and more) is written straight
        // through, not copied into the buffer first: only smaller ones
        // are gathered.
        out: BufWriter::with_capacity(16 * 1024, io::stdout().lock()),
        format: args.format,
        first: true,
        quiet: args.quiet,
    };
    output.start().context(STDOUT)?;
    // `--file -` is standard input, as `-` is.
    let file_is_stdin = args.file.as_ref().is_some_and(|p| p.as_os_str() == "-");
    // Said after the results (not amid a JSON document).
    let mut notes = Vec::new();
    let summary = if let Some(path) = args.file.as_ref().filter(|_| !file_is_stdin) {
        let file = File::open(path).with_context(|| format!("opening {}", path.display()))?;
        let size = file.metadata().map(|m| m.len()).unwrap_or(0);
        let progress = io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(size);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar
        });
        // `-q` writes nothing there: its reader leaving says nothing.
        let _watch = (!args.quiet).then(input::watch_stdout);
        let summary = batch
            .stream(file, |out, p| {
                output.write(out)?;
                if let Some(bar) = &progress {
                    bar.inc(p.bytes);
                }
                if p.caught_up { output.out.flush() } else { Ok(()) }
            })
            .map_err(batch_error)?;
        if let Some(p) = progress {
            p.finish_and_clear();
        }
        summary
    } else if file_is_stdin || input::wants_stdin(&args.urns) {
        // `-q` writes nothing there: its reader leaving says nothing.
        let _watch = (!args.quiet).then(input::watch_stdout);
        batch
            .stream(io::stdin(), |out, p| {
                output.write(out)?;
                // Caught up with the workers: let a slow producer see results.
                if p.caught_up { output.out.flush() } else { Ok(()) }
            })
            .map_err(batch_error)?
    } else if args.urns.is_empty() {
        return Err(
            UsageError("no URN given: pass URNs as arguments, '-' for stdin, or --file PATH".into()).into(),
        );
    } else {
        let mut summary = Summary::default();
        let mut checker = batch.checker();
        let mut out = Vec::new();
        for arg in &args.urns {
            out.clear();
            let report = match arg.to_str() {
                Some(text) => checker.check_str(text),
                None => checker.check(arg.as_encoded_bytes()),
            };
            batch.record(&report, None, &mut out, &mut summary);
            output.write(&out).context(STDOUT)?;
            if !report.is_valid()
                && !args.quiet
                && let Some(note) = input::file_argument_note(arg, "`urnreg check --file {}`")
            {
                notes.push(note);
            }
        }
        summary
    };
    output.finish().context(STDOUT)?;
    for note in notes {
        eprintln!("{note}");
    }
    if args.summary {
        print_summary(&summary, batch.registry())?;
    }
    Ok(ExitCode::from(u8::from(summary.invalid() > 0)))
}
