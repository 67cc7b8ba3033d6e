//! `urnreg check`: validate URNs given as arguments or streamed one per
//! line, against the registry (or the generic syntax only).
//!
//! Streaming keeps memory bounded: lines are read in chunks of whole lines
//! ([`super::chunks`]) into a fixed pool of reused buffers, checked by
//! `--jobs` worker threads, and written in input order. When stdout
//! closes, every thread stops at once.

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex, mpsc};

use anyhow::Context as _;
use urnreg::{Checker, Registry, Report};

use super::chunks::{Chunk, ChunkReader};
use super::db::DbArgs;
use super::input::{self, MAX_LINE};
use super::output::{Palette, STDOUT};
use super::report::write_text;
use super::{Format, FormatParser, SyntaxArgs, UsageError};

/// The most worker threads `--jobs` takes.
pub const MAX_JOBS: usize = 256;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output format: text for people; json, one array; jsonl, one object
    /// per input line, streamed.
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json, Format::Jsonl]))]
    format: Format,

    /// Check the generic RFC 8141 syntax only, without the registry.
    #[arg(long)]
    syntax_only: bool,

    #[command(flatten)]
    syntax: SyntaxArgs,

    /// Read URNs from this file, one per line.
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
fn parse_jobs(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of threads"))?;
    match n {
        0 => Ok(cores()),
        1..=MAX_JOBS => Ok(n),
        _ => Err(format!("at most {MAX_JOBS} threads")),
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_JOBS))
}

/// The summary's line for inputs that are not URNs.
const NOT_A_URN: &str = "(not a URN)";

/// How many distinct unregistered NIDs the summary counts one by one...
const MAX_OTHER_NIDS: usize = 10_000;
/// ... before it counts the rest under this line.
const OTHER_NIDS: &str = "(other unregistered NIDs)";

/// A key of at most [`ShortKey::MAX`] bytes held in place: the summary
/// counts thousands of distinct NIDs, and comparing keys behind pointers
/// costs a cache miss each.
#[derive(Clone, Copy, PartialEq, Eq)]
struct ShortKey {
    len: u8,
    bytes: [u8; ShortKey::MAX],
}

/// Hashes the bytes in use only (the hash costs by the byte).
impl std::hash::Hash for ShortKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write(&self.bytes[..usize::from(self.len)]);
    }
}

impl ShortKey {
    /// NIDs are at most 32 bytes (RFC 8141 section 2), and so are the
    /// summary's own labels.
    const MAX: usize = 32;

    fn new(s: &str) -> ShortKey {
        let s = &s.as_bytes()[..s.len().min(Self::MAX)];
        let mut bytes = [0; Self::MAX];
        bytes[..s.len()].copy_from_slice(s);
        ShortKey {
            len: s.len() as u8,
            bytes,
        }
    }

    fn as_str(&self) -> &str {
        // Made from NIDs and our own labels: ASCII, whole.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("?")
    }
}

/// The counts of the summary (each worker keeps its own).
#[derive(Default)]
struct Stats {
    total: u64,
    invalid: u64,
    /// Registered namespaces, by [`urnreg::Namespace::index`].
    by_namespace: Vec<u64>,
    /// Inputs that are not URNs (counted apart from the NIDs: a fixed
    /// label needs no map).
    not_a_urn: u64,
    /// Other NIDs, lower-cased (foldhash, seeded per process, as in the
    /// library's checker).
    by_other_nid: HashMap<ShortKey, u64, foldhash::fast::RandomState>,
    /// Error kinds: a few dozen codes, so a list beats a hash.
    by_error: Vec<(&'static str, u64)>,
}

impl Stats {
    fn add(&mut self, report: &Report<'_, '_>, detailed: bool) {
        self.total += 1;
        if !report.is_valid() {
            self.invalid += 1;
        }
        if detailed {
            match (report.namespace(), report.urn()) {
                (Some(ns), _) => {
                    let i = ns.index();
                    if i >= self.by_namespace.len() {
                        self.by_namespace.resize(i + 1, 0);
                    }
                    self.by_namespace[i] += 1;
                }
                // Counted lower-cased (NIDs are case-insensitive).
                (None, Some(urn)) if urn.nid().bytes().any(|b| b.is_ascii_uppercase()) => {
                    self.count_other(&urn.nid().to_ascii_lowercase(), 1);
                }
                (None, Some(urn)) => self.count_other(urn.nid(), 1),
                (None, None) => self.not_a_urn += 1,
            }
            for e in report.errors() {
                self.count_error(e.code(), 1);
            }
        }
    }

    /// Counts `n` URNs of an unregistered NID: a stream of random NIDs
    /// must not grow the summary without bound.
    fn count_other(&mut self, nid: &str, n: u64) {
        let nid = ShortKey::new(nid);
        if let Some(count) = self.by_other_nid.get_mut(&nid) {
            *count += n;
            return;
        }
        let key = if self.by_other_nid.len() < MAX_OTHER_NIDS {
            nid
        } else {
            ShortKey::new(OTHER_NIDS)
        };
        *self.by_other_nid.entry(key).or_default() += n;
    }

    fn count_error(&mut self, code: &'static str, n: u64) {
        // The same code is nearly always the same literal: compare where
        // it is before what it says.
        let same = |k: &&str| std::ptr::eq(*k, code) || *k == code;
        match self.by_error.iter_mut().find(|(k, _)| same(k)) {
            Some((_, count)) => *count += n,
            None => self.by_error.push((code, n)),
        }
    }

    fn merge(&mut self, other: Stats) {
        self.total += other.total;
        self.invalid += other.invalid;
        self.not_a_urn += other.not_a_urn;
        if other.by_namespace.len() > self.by_namespace.len() {
            self.by_namespace.resize(other.by_namespace.len(), 0);
        }
        for (mine, n) in self.by_namespace.iter_mut().zip(other.by_namespace) {
            *mine += n;
        }
        for (k, v) in &other.by_other_nid {
            self.count_other(k.as_str(), *v);
        }
        for (k, v) in other.by_error {
            self.count_error(k, v);
        }
    }

    /// Prints the summary; `registry` names the registered namespaces.
    fn print(&self, registry: Option<&Registry>) -> io::Result<()> {
        // Buffered: the list of NIDs can be thousands of lines.
        let mut err = BufWriter::new(io::stderr().lock());
        writeln!(
            err,
            "{} checked, {} valid, {} invalid",
            self.total,
            self.total - self.invalid,
            self.invalid
        )?;
        let mut nids: Vec<(&str, u64)> = registry
            .map(|r| {
                r.namespaces()
                    .zip(&self.by_namespace)
                    .filter(|(_, n)| **n > 0)
                    .map(|(ns, n)| (ns.nid(), *n))
                    .collect()
            })
            .unwrap_or_default();
        nids.extend(self.by_other_nid.iter().map(|(k, v)| (k.as_str(), *v)));
        if self.not_a_urn > 0 {
            nids.push((NOT_A_URN, self.not_a_urn));
        }
        nids.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        writeln!(err, "by NID:")?;
        for (nid, n) in nids {
            writeln!(err, "  {n:>10}  {nid}")?;
        }
        let mut kinds: Vec<_> = self.by_error.iter().map(|(k, n)| (k, n)).collect();
        kinds.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        writeln!(err, "by error kind:")?;
        for (kind, n) in kinds {
            writeln!(err, "  {n:>10}  {kind}")?;
        }
        err.flush()
    }
}

/// Which results are written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shown {
    All,
    Invalid,
    None,
}

/// Everything needed to check and write one line (shared by the workers;
/// each makes its own [`Checker`]).
struct Job {
    syntax: SyntaxArgs,
    registry: Option<Registry>,
    format: Format,
    shown: Shown,
    summary: bool,
    palette: Palette,
}

impl Job {
    fn checker(&self) -> Checker<'_> {
        let checker = self.syntax.checker(self.registry.as_ref());
        // Nothing per URN is shown: only validity (and error kinds) count.
        if self.shown == Shown::None {
            checker.without_warnings()
        } else {
            checker
        }
    }

    /// Checks one input and appends its output to `out`. In JSON format
    /// every object is preceded by ",\n" (the sink drops the first comma).
    #[allow(clippy::too_many_arguments)]
    fn one<'r>(
        &self,
        checker: &mut Checker<'r>,
        raw: &[u8],
        text: Option<&str>,
        truncated: bool,
        line: Option<u64>,
        out: &mut Vec<u8>,
        stats: &mut Stats,
    ) {
        // Each report is used where it is made: merging the three into one
        // variable copied it (and stalled on reading it back) every line.
        match text {
            _ if truncated => self.show(&checker.line_too_long(raw, MAX_LINE), line, out, stats),
            Some(text) => self.show(&checker.check_str(text), line, out, stats),
            None => self.show(&checker.check(raw), line, out, stats),
        }
    }

    /// Counts `report` and appends its output to `out`.
    #[inline]
    fn show(&self, report: &Report<'_, '_>, line: Option<u64>, out: &mut Vec<u8>, stats: &mut Stats) {
        stats.add(report, self.summary);
        match self.shown {
            Shown::None => return,
            Shown::Invalid if report.is_valid() => return,
            _ => {}
        }
        match self.format {
            Format::Json => {
                out.extend_from_slice(b",\n");
                report.write_json(out, line);
            }
            Format::Jsonl => {
                report.write_json(out, line);
                out.push(b'\n');
            }
            // Writing to a Vec cannot fail.
            _ => drop(write_text(report, line, &self.palette, out)),
        }
    }
}

/// Checks every line of `chunk`, writing into its `out`.
fn process(chunk: &mut Chunk, ctx: &Job, checker: &mut Checker<'_>, stats: &mut Stats) {
    let mut out = std::mem::take(&mut chunk.out);
    out.clear();
    // One report for the chunk's lines of text, updated in place.
    let mut reused: Option<Report<'_, '_>> = None;
    chunk.for_each_line(|line| match line.text {
        Some(text) if !line.truncated => {
            let report = match &mut reused {
                Some(report) => {
                    checker.check_str_into(text, report);
                    report
                }
                None => reused.insert(checker.check_str(text)),
            };
            ctx.show(report, Some(line.number), &mut out, stats);
        }
        _ => ctx.one(
            checker,
            line.bytes,
            line.text,
            line.truncated,
            Some(line.number),
            &mut out,
            stats,
        ),
    });
    chunk.out = out;
}

/// Writes JSON array brackets and drops the comma before the first object;
/// names standard output in its errors.
struct Sink<W: Write> {
    out: W,
    format: Format,
    first: bool,
    quiet: bool,
}

impl<W: Write> Sink<W> {
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

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    fn finish(mut self) -> io::Result<()> {
        if self.format == Format::Json && !self.quiet {
            self.out.write_all(if self.first { b"]\n" } else { b"\n]\n" })?;
        }
        self.out.flush()
    }
}

/// The input, shared by the workers: each takes its turn to read the next
/// chunk, which is numbered in input order.
struct Input<R> {
    lines: ChunkReader<R>,
    next_seq: u64,
    /// The input ended, or failed: no worker reads again.
    done: bool,
}

/// What a worker hands the writer: a chunk with its output, in order of
/// `seq`, or why it could not.
type Done = (u64, anyhow::Result<Chunk>);

/// One worker: takes a free chunk, reads the next lines into it (its turn
/// at the input), checks them, and hands the chunk to the writer, until
/// the input ends or the writer is gone. Returns its summary counts.
fn work<R: Read>(
    job: &Job,
    free: &Mutex<mpsc::Receiver<Chunk>>,
    input: &Mutex<Input<R>>,
    done: &mpsc::SyncSender<Done>,
    worker: usize,
) -> Stats {
    let mut checker = job.checker();
    let mut stats = Stats::default();
    loop {
        let next = match free.lock() {
            Ok(free) => free.recv(),
            Err(_) => break,
        };
        let Ok(mut chunk) = next else {
            break; // the writer is gone
        };
        let seq = {
            let Ok(mut input) = input.lock() else {
                break;
            };
            if input.done {
                break;
            }
            match input.lines.fill(&mut chunk) {
                Ok(true) => {
                    input.next_seq += 1;
                    input.next_seq - 1
                }
                Ok(false) => {
                    input.done = true;
                    break;
                }
                Err(e) => {
                    input.done = true;
                    let _ = done.send((
                        input.next_seq,
                        Err(anyhow::Error::new(e).context("reading the input")),
                    ));
                    break;
                }
            }
        };
        // A bug must not leave the writer waiting for this chunk forever:
        // it becomes an error.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            process(&mut chunk, job, &mut checker, &mut stats);
            chunk
        }))
        .map_err(|_| anyhow::anyhow!("worker thread {worker} failed"));
        if done.send((seq, result)).is_err() {
            break;
        }
    }
    stats
}

/// Streams `reader` through `jobs` workers, writing results in order.
///
/// The workers read the input themselves, in turn: no thread only moves
/// bytes, and none waits to be woken for each chunk. They are not joined
/// when the output closes: one of them may be blocked on a slow input, and
/// the process ends without it.
fn stream<R>(
    reader: R,
    job: &Arc<Job>,
    jobs: usize,
    sink: &mut Sink<impl Write>,
    progress: Option<&indicatif::ProgressBar>,
) -> anyhow::Result<Stats>
where
    R: Read + Send + 'static,
{
    let mut lines = ChunkReader::new(reader);
    let mut stats = Stats::default();
    if jobs <= 1 {
        let mut checker = job.checker();
        let mut chunk = Chunk::default();
        while lines.fill(&mut chunk).context("reading the input")? {
            process(&mut chunk, job, &mut checker, &mut stats);
            sink.write(&chunk.out).context(STDOUT)?;
            chunk.shrink();
            if let Some(p) = progress {
                p.inc(chunk.len());
            }
            // The input may come slowly: let its producer see results.
            sink.flush().context(STDOUT)?;
        }
        return Ok(stats);
    }
    // A fixed pool of chunks bounds memory: a worker waits for a free
    // chunk, the writer for checked ones.
    let pool = jobs * 2;
    let (free_tx, free_rx) = mpsc::sync_channel::<Chunk>(pool);
    for _ in 0..pool {
        free_tx
            .send(Chunk::default())
            .expect("the pool has room for every chunk");
    }
    let free = Arc::new(Mutex::new(free_rx));
    let input = Arc::new(Mutex::new(Input {
        lines,
        next_seq: 0,
        done: false,
    }));
    let (done_tx, done_rx) = mpsc::sync_channel::<Done>(pool);
    let mut workers = Vec::with_capacity(jobs);
    for i in 0..jobs {
        let (job, free, input, done) = (
            Arc::clone(job),
            Arc::clone(&free),
            Arc::clone(&input),
            done_tx.clone(),
        );
        let worker = std::thread::Builder::new()
            .name(format!("urnreg-check-{i}"))
            .spawn(move || work(&job, &free, &input, &done, i + 1))
            .with_context(|| format!("starting worker thread {}", i + 1))?;
        workers.push(worker);
    }
    drop(done_tx);
    let mut pending = BTreeMap::new();
    let mut next = 0u64;
    for (seq, result) in &done_rx {
        // An error waits for its turn too: what came before it is written.
        pending.insert(seq, result);
        while let Some(result) = pending.remove(&next) {
            let mut chunk = result?;
            sink.write(&chunk.out).context(STDOUT)?;
            if let Some(p) = progress {
                p.inc(chunk.len());
            }
            chunk.shrink();
            let _ = free_tx.send(chunk);
            next += 1;
        }
        // Caught up with the workers: let a slow producer see results.
        if pending.is_empty() {
            sink.flush().context(STDOUT)?;
        }
    }
    // Every worker has stopped (the channel closed when the last one did).
    for (i, worker) in workers.into_iter().enumerate() {
        let counted = worker
            .join()
            .map_err(|_| anyhow::anyhow!("worker thread {} failed", i + 1))?;
        stats.merge(counted);
    }
    Ok(stats)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let format = args.format;
    let registry = if args.syntax_only {
        None
    } else {
        Some(args.db.registry()?)
    };
    let ctx = Arc::new(Job {
        syntax: args.syntax,
        registry,
        format,
        shown: if args.quiet {
            Shown::None
        } else if args.only_invalid {
            Shown::Invalid
        } else {
            Shown::All
        },
        summary: args.summary,
        palette: Palette::stdout(),
    });
    let jobs = args.jobs.unwrap_or_else(cores);
    let mut sink = Sink {
        out: BufWriter::with_capacity(64 * 1024, io::stdout().lock()),
        format,
        first: true,
        quiet: args.quiet,
    };
    sink.start().context(STDOUT)?;
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
        let stats = stream(file, &ctx, jobs, &mut sink, progress.as_ref())?;
        if let Some(p) = progress {
            p.finish_and_clear();
        }
        stats
    } else if input::wants_stdin(&args.urns) {
        stream(io::stdin(), &ctx, jobs, &mut sink, None)?
    } else if args.urns.is_empty() {
        return Err(
            UsageError("no URN given: pass URNs as arguments, '-' for stdin, or --file PATH".into()).into(),
        );
    } else {
        let mut stats = Stats::default();
        let mut checker = ctx.checker();
        let mut out = Vec::new();
        for arg in &args.urns {
            out.clear();
            ctx.one(
                &mut checker,
                arg.as_encoded_bytes(),
                arg.to_str(),
                false,
                None,
                &mut out,
                &mut stats,
            );
            sink.write(&out).context(STDOUT)?;
        }
        stats
    };
    sink.finish().context(STDOUT)?;
    if args.summary {
        stats.print(ctx.registry.as_ref())?;
    }
    Ok(ExitCode::from(u8::from(stats.invalid > 0)))
}
