//! `urnreg check`: validate URNs given as arguments or streamed one per
//! line, against the registry (or the generic syntax only).
//!
//! Streaming keeps memory constant: lines are read in chunks into reused
//! buffers, checked (by `--jobs` worker threads when asked), and written in
//! input order through bounded queues.

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Mutex, mpsc};

use anyhow::Context;
use urnreg::Syntax;
use urnreg::validate::Validator;

use super::db::DbArgs;
use super::input::{self, LineReader, MAX_LINE};
use super::report::Checked;
use super::{Format, SyntaxArgs, UsageError, format_for};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Check the generic RFC 8141 syntax only, without the registry.
    #[arg(long)]
    syntax_only: bool,

    #[command(flatten)]
    syntax: SyntaxArgs,

    /// Read URNs from this file, one per line.
    #[arg(long, value_name = "PATH", conflicts_with = "urns")]
    file: Option<PathBuf>,

    /// Worker threads for streamed input (default 1; 0 = one per core).
    /// Output stays in input order.
    #[arg(long, value_name = "N", default_value_t = 1)]
    jobs: usize,

    /// After the results, print counts by NID and by error kind (to stderr).
    #[arg(long)]
    summary: bool,

    /// URNs to check, or `-` to read one per line from stdin.
    #[arg(value_name = "URN")]
    urns: Vec<OsString>,
}

/// What a chunk of lines adds to the summary.
#[derive(Default)]
struct Stats {
    total: u64,
    invalid: u64,
    by_nid: HashMap<String, u64>,
    by_error: HashMap<&'static str, u64>,
}

impl Stats {
    fn add(&mut self, checked: &Checked<'_, '_>, detailed: bool) {
        self.total += 1;
        if !checked.is_valid() {
            self.invalid += 1;
        }
        if detailed {
            let nid = checked
                .urn
                .as_ref()
                .map_or("(not a URN)".to_string(), |u| u.nid().to_ascii_lowercase());
            *self.by_nid.entry(nid).or_default() += 1;
            for e in &checked.errors {
                *self.by_error.entry(e.kind).or_default() += 1;
            }
        }
    }

    fn merge(&mut self, other: Stats) {
        self.total += other.total;
        self.invalid += other.invalid;
        for (k, v) in other.by_nid {
            *self.by_nid.entry(k).or_default() += v;
        }
        for (k, v) in other.by_error {
            *self.by_error.entry(k).or_default() += v;
        }
    }

    fn print(&self) -> io::Result<()> {
        let mut err = io::stderr().lock();
        writeln!(
            err,
            "{} checked, {} valid, {} invalid",
            self.total,
            self.total - self.invalid,
            self.invalid
        )?;
        let mut nids: Vec<_> = self.by_nid.iter().collect();
        nids.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        writeln!(err, "by NID:")?;
        for (nid, n) in nids {
            writeln!(err, "  {n:>10}  {nid}")?;
        }
        let mut kinds: Vec<_> = self.by_error.iter().collect();
        kinds.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        writeln!(err, "by error kind:")?;
        for (kind, n) in kinds {
            writeln!(err, "  {n:>10}  {kind}")?;
        }
        Ok(())
    }
}

/// Everything needed to check and write one line.
struct Checker<'v> {
    syntax: Syntax,
    validator: Option<&'v Validator>,
    format: Format,
    summary: bool,
}

impl Checker<'_> {
    /// Checks one input and appends its output to `out`. In JSON format
    /// every object is preceded by ",\n" (the writer drops the first comma).
    fn one(&self, raw: &[u8], truncated: bool, out: &mut Vec<u8>, stats: &mut Stats) -> io::Result<()> {
        let checked = if truncated {
            Checked::too_long(raw, MAX_LINE)
        } else {
            Checked::new(raw, self.syntax, self.validator)
        };
        stats.add(&checked, self.summary);
        match self.format {
            Format::Jsonl => {
                checked.to_json().write_to(out);
                out.push(b'\n');
            }
            Format::Json => {
                out.extend_from_slice(b",\n");
                checked.to_json().write_to(out);
            }
            Format::Text | Format::Toml | Format::Xml | Format::Csv | Format::Html => {
                checked.write_text(out)?
            }
        }
        Ok(())
    }
}

/// A chunk of input lines: their bytes, one after another, and where each
/// ends and whether it was cut.
#[derive(Default)]
struct Chunk {
    bytes: Vec<u8>,
    lines: Vec<(usize, bool)>,
}

const CHUNK_LINES: usize = 4096;

fn read_chunk<R: BufRead + input::HasBuffer>(
    lines: &mut LineReader<R>,
    chunk: &mut Chunk,
) -> io::Result<bool> {
    chunk.bytes.clear();
    chunk.lines.clear();
    while chunk.lines.len() < CHUNK_LINES {
        let Some(line) = lines.next_line()? else { break };
        chunk.bytes.extend_from_slice(line.bytes);
        chunk.lines.push((chunk.bytes.len(), line.truncated));
        // Give results back promptly when the input comes slowly.
        if lines.would_block() {
            break;
        }
    }
    Ok(!chunk.lines.is_empty())
}

fn process_chunk(ctx: &Checker<'_>, chunk: &Chunk, out: &mut Vec<u8>, stats: &mut Stats) -> io::Result<()> {
    let mut start = 0;
    for &(end, truncated) in &chunk.lines {
        ctx.one(&chunk.bytes[start..end], truncated, out, stats)?;
        start = end;
    }
    Ok(())
}

/// Writes JSON array brackets and drops the comma before the first object.
struct Sink<W: Write> {
    out: W,
    format: Format,
    first: bool,
}

impl<W: Write> Sink<W> {
    fn start(&mut self) -> io::Result<()> {
        if self.format == Format::Json {
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
        if self.format == Format::Json {
            self.out.write_all(if self.first { b"]\n" } else { b"\n]\n" })?;
        }
        self.out.flush()
    }
}

/// Streams `reader` through `jobs` workers, writing results in order.
fn stream<R: BufRead + input::HasBuffer + Send>(
    reader: R,
    ctx: &Checker<'_>,
    jobs: usize,
    sink: &mut Sink<impl Write>,
    progress: Option<&indicatif::ProgressBar>,
) -> anyhow::Result<Stats> {
    let mut lines = LineReader::new(reader);
    let mut stats = Stats::default();
    if jobs <= 1 {
        let (mut chunk, mut out) = (Chunk::default(), Vec::with_capacity(1 << 16));
        while read_chunk(&mut lines, &mut chunk)? {
            out.clear();
            process_chunk(ctx, &chunk, &mut out, &mut stats)?;
            sink.write(&out)?;
            if let Some(p) = progress {
                p.inc(chunk.bytes.len() as u64 + chunk.lines.len() as u64);
            }
            if lines.would_block() {
                sink.out.flush()?;
            }
        }
        return Ok(stats);
    }
    // Bounded queues keep memory constant: at most 2 * jobs chunks in flight.
    let (work_tx, work_rx) = mpsc::sync_channel::<(u64, Chunk)>(jobs * 2);
    let (done_tx, done_rx) = mpsc::sync_channel::<io::Result<(u64, Vec<u8>, Stats, Chunk)>>(jobs * 2);
    let work_rx = Mutex::new(work_rx);
    let (spare_tx, spare_rx) = mpsc::channel::<Chunk>();
    std::thread::scope(|scope| -> anyhow::Result<Stats> {
        for _ in 0..jobs {
            let (work_rx, done_tx) = (&work_rx, done_tx.clone());
            scope.spawn(move || {
                loop {
                    let next = work_rx.lock().map(|rx| rx.recv());
                    let Ok(Ok((seq, chunk))) = next else { break };
                    let mut out = Vec::with_capacity(chunk.bytes.len() * 4);
                    let mut stats = Stats::default();
                    let result =
                        process_chunk(ctx, &chunk, &mut out, &mut stats).map(|()| (seq, out, stats, chunk));
                    if done_tx.send(result).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done_tx);
        // The writer runs here; the reader in its own thread.
        let reader = scope.spawn(move || -> io::Result<()> {
            let mut seq = 0;
            loop {
                let mut chunk = spare_rx.try_recv().unwrap_or_default();
                if !read_chunk(&mut lines, &mut chunk)? {
                    break;
                }
                if work_tx.send((seq, chunk)).is_err() {
                    break;
                }
                seq += 1;
            }
            Ok(())
        });
        let mut pending = BTreeMap::new();
        let mut next = 0u64;
        let mut failure = None;
        for result in done_rx {
            match result {
                Ok((seq, out, chunk_stats, chunk)) => {
                    stats.merge(chunk_stats);
                    pending.insert(seq, (out, chunk));
                    while let Some((out, chunk)) = pending.remove(&next) {
                        if failure.is_none()
                            && let Err(e) = sink.write(&out)
                        {
                            failure = Some(e);
                        }
                        if let Some(p) = progress {
                            p.inc(chunk.bytes.len() as u64 + chunk.lines.len() as u64);
                        }
                        let _ = spare_tx.send(chunk);
                        next += 1;
                    }
                }
                Err(e) => failure = failure.or(Some(e)),
            }
            if failure.is_some() {
                // Stop the workers and the reader: drop the queue behind them.
                break;
            }
        }
        if let Some(e) = failure {
            return Err(e.into());
        }
        reader
            .join()
            .map_err(|_| anyhow::anyhow!("the reader thread failed"))??;
        Ok(stats)
    })
}

pub fn run(args: Args, db: &DbArgs, format: Option<Format>) -> anyhow::Result<ExitCode> {
    let format = format_for(format, &[Format::Text, Format::Json, Format::Jsonl], "check")?;
    let store_and_validator;
    let validator = if args.syntax_only {
        None
    } else {
        store_and_validator = Validator::from_store(&db.open_for_read()?)?;
        Some(&store_and_validator)
    };
    let ctx = Checker {
        syntax: args.syntax.syntax(),
        validator,
        format,
        summary: args.summary,
    };
    let jobs = match args.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let mut sink = Sink {
        out: BufWriter::with_capacity(64 * 1024, io::stdout().lock()),
        format,
        first: true,
    };
    sink.start()?;
    let stats = if let Some(path) = &args.file {
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
        let stats = stream(
            BufReader::with_capacity(1 << 16, file),
            &ctx,
            jobs,
            &mut sink,
            progress.as_ref(),
        )?;
        if let Some(p) = progress {
            p.finish_and_clear();
        }
        stats
    } else if input::wants_stdin(&args.urns) {
        stream(
            BufReader::with_capacity(1 << 16, io::stdin()),
            &ctx,
            jobs,
            &mut sink,
            None,
        )?
    } else if args.urns.is_empty() {
        return Err(
            UsageError("no URN given: pass URNs as arguments, '-' for stdin, or --file PATH".into()).into(),
        );
    } else {
        let mut stats = Stats::default();
        let mut out = Vec::new();
        for arg in &args.urns {
            out.clear();
            ctx.one(arg.as_encoded_bytes(), false, &mut out, &mut stats)?;
            sink.write(&out)?;
        }
        stats
    };
    sink.finish()?;
    if args.summary {
        stats.print()?;
    }
    Ok(ExitCode::from(u8::from(stats.invalid > 0)))
}
