//! The batch engine: URNs checked in bulk, on every core, with results in
//! input order. `urnreg check`, `urnreg normalize`, the service's
//! `POST /api/check` and the bindings all run through it; each chooses only
//! what is written for a URN, as a [`Sink`].
//!
//! Two kinds of input:
//! - [`Batch::stream`]: a reader of lines (stdin, a file), cut into
//!   [`chunks`] of whole lines that the workers read in turn. Memory stays
//!   bounded by the chunks in flight (two per worker) and their output
//!   (handed on in parts past [`MAX_CHUNK_OUTPUT`]), whatever the input
//!   and whatever is written per line.
//! - [`Batch::rows`]: strings already in memory ([`Rows`]): the lines of a
//!   buffer ([`LineRows`]), a slice of strings, or the offsets and data of
//!   an Arrow string array ([`OffsetRows`]) or of each chunk of a chunked
//!   one ([`ChunkedRows`]), read in place.
//!
//! ```
//! use urnreg::batch::{Batch, Json, Options, Shown};
//!
//! let input = "urn:isbn:0451450523\nurn:isnb:0451450523\n";
//! let batch = Batch::new(None, Options::default(), Json::lines(Shown::All));
//! let mut out = Vec::new();
//! let summary = batch
//!     .stream(std::io::Cursor::new(input), |chunk, _| {
//!         out.extend_from_slice(chunk);
//!         Ok(())
//!     })
//!     .unwrap();
//! assert_eq!((summary.total(), summary.invalid()), (2, 0)); // syntax only
//! assert_eq!(String::from_utf8(out).unwrap().lines().count(), 2);
//! ```
//!
//! Limits: a line longer than [`MAX_LINE`] bytes is invalid
//! (`line-too-long`) and is not held in memory; at most [`MAX_JOBS`]
//! workers.

pub mod chunks;
mod engine;
mod rows;
mod sinks;
mod summary;

use std::fmt;
use std::io;
use std::sync::Arc;

pub use rows::{ChunkedRows, LineRows, Offset, OffsetRows, Rows};
pub use sinks::{Json, Shown};
pub use summary::{MAX_OTHER_NIDS, NOT_A_URN, OTHER_NIDS, Summary};

use crate::{Checker, Registry, Report, Syntax};

/// Lines longer than this many bytes (not counting the line break) are
/// invalid (`line-too-long`) and are not held in memory: a URN is rarely
/// longer than a few hundred bytes.
pub const MAX_LINE: usize = 1 << 20;

/// The most worker threads a batch runs.
pub const MAX_JOBS: usize = 256;

/// A stream hands a chunk's output on once it holds this many bytes
/// ([`Sink::held`]), in parts if need be, each in its turn: with the
/// chunk's input, what a worker holds stays bounded however much is
/// written per line (`check --format jsonl` writes the rules' source on
/// each line: a chunk of 8,192 lines of `urn:epc:x` writes 15 MB). A part
/// passes it by one input's output at most.
pub const MAX_CHUNK_OUTPUT: usize = 512 * 1024;

/// How the URNs of a batch are checked and counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The grammar (RFC 8141, or the legacy RFC 2141).
    pub syntax: Syntax,
    /// URNs valid only by their namespace owner's practice are invalid
    /// ([`Checker::strict`]).
    pub strict: bool,
    /// Look for warnings; off when only validity and errors are written
    /// ([`Checker::without_warnings`]).
    pub warnings: bool,
    /// Make findings' messages; off when only validity, kinds and keys are
    /// written ([`Checker::without_messages`]).
    pub messages: bool,
    /// Count by NID and error kind, not only the totals ([`Summary`]).
    pub detailed_summary: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            syntax: Syntax::Rfc8141,
            strict: false,
            warnings: true,
            messages: true,
            detailed_summary: false,
        }
    }
}

/// What is written for each checked input. A worker fills one `Out` per
/// chunk of inputs; the chunks are handed to the caller in input order.
pub trait Sink: Send + Sync + 'static {
    /// The output of one chunk, reused from chunk to chunk.
    type Out: Default + Send + 'static;

    /// Empties `out` for the next chunk (keeping its storage).
    fn clear(&self, out: &mut Self::Out);

    /// Records the report on one input: `line` is its number in the batch
    /// (from 1), `None` for a single URN outside a batch.
    fn record(&self, report: &Report<'_, '_>, line: Option<u64>, out: &mut Self::Out);

    /// Records a missing input (a null of an Arrow array). Nothing by
    /// default.
    fn record_null(&self, line: u64, out: &mut Self::Out) {
        let _ = (line, out);
    }

    /// How many bytes `out` holds: a stream hands a chunk's output on
    /// once it passes [`MAX_CHUNK_OUTPUT`], and [`Batch::rows_part`] stops
    /// once it passes its limit, so that memory stays bounded whatever is
    /// written per input. 0 by default: the output is never cut (a sink
    /// whose output stays small).
    fn held(&self, out: &Self::Out) -> usize {
        let _ = out;
        0
    }
}

/// Where the caller is, handed with each chunk's output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Inputs in this chunk.
    pub lines: u64,
    /// Bytes of input in this chunk (line breaks included).
    pub bytes: u64,
    /// No later chunk is ready yet: a good time to flush, so that a slow
    /// producer (a co-process) sees its answers.
    pub caught_up: bool,
}

impl Progress {
    /// The same, saying whether the writer is caught up.
    pub(crate) fn with_caught_up(self, caught_up: bool) -> Progress {
        Progress { caught_up, ..self }
    }
}

/// Why a batch stopped.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// Reading the input failed (what came before it was handed on).
    Read(io::Error),
    /// The caller's writer failed (for example, a closed pipe).
    Write(io::Error),
    /// A worker thread could not be started.
    Spawn(io::Error),
    /// A worker thread failed (a bug); its number, from 1.
    Worker(usize),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Read(_) => f.write_str("reading the input"),
            Error::Write(_) => f.write_str("writing the output"),
            Error::Spawn(_) => f.write_str("starting a worker thread"),
            Error::Worker(n) => write!(f, "worker thread {n} failed"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Read(e) | Error::Write(e) | Error::Spawn(e) => Some(e),
            Error::Worker(_) => None,
        }
    }
}

/// A batch: the registry and options to check with, the sink, and how many
/// workers. Cheap to clone (shared behind an `Arc`).
pub struct Batch<S: Sink> {
    shared: Arc<Shared<S>>,
    jobs: usize,
}

impl<S: Sink> Clone for Batch<S> {
    fn clone(&self) -> Self {
        Batch {
            shared: Arc::clone(&self.shared),
            jobs: self.jobs,
        }
    }
}

/// What every worker reads.
struct Shared<S> {
    registry: Option<Arc<Registry>>,
    options: Options,
    sink: S,
}

impl<S: Sink> Shared<S> {
    fn checker(&self) -> Checker<'_> {
        let checker = Checker::with_registry(self.registry.as_deref())
            .with_syntax(self.options.syntax)
            .strict(self.options.strict);
        let checker = if self.options.warnings {
            checker
        } else {
            checker.without_warnings()
        };
        if self.options.messages {
            checker
        } else {
            checker.without_messages()
        }
    }

    /// Counts one report and hands it to the sink.
    #[inline]
    fn record(&self, report: &Report<'_, '_>, line: u64, out: &mut S::Out, summary: &mut Summary) {
        summary.add(report, self.options.detailed_summary);
        self.sink.record(report, Some(line), out);
    }
}

impl<S: Sink> Batch<S> {
    /// A batch against `registry` (the generic syntax only without one),
    /// with one worker.
    pub fn new(registry: Option<Arc<Registry>>, options: Options, sink: S) -> Batch<S> {
        Batch {
            shared: Arc::new(Shared {
                registry,
                options,
                sink,
            }),
            jobs: 1,
        }
    }

    /// The same batch with `jobs` workers (1 to [`MAX_JOBS`]; 0 means one
    /// per core).
    pub fn with_jobs(mut self, jobs: usize) -> Batch<S> {
        self.jobs = match jobs {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
        .clamp(1, MAX_JOBS);
        self
    }

    /// How many workers it runs.
    pub fn jobs(&self) -> usize {
        self.jobs
    }

    /// The sink.
    pub fn sink(&self) -> &S {
        &self.shared.sink
    }

    /// The registry it checks against, if any.
    pub fn registry(&self) -> Option<&Registry> {
        self.shared.registry.as_deref()
    }

    /// The options.
    pub fn options(&self) -> Options {
        self.shared.options
    }

    /// A checker with this batch's registry and options, for inputs
    /// outside a batch (URNs given one by one); see [`Batch::record`].
    pub fn checker(&self) -> Checker<'_> {
        self.shared.checker()
    }

    /// Counts `report` (one input outside a batch, `line` `None`) and
    /// hands it to the sink.
    pub fn record(
        &self,
        report: &Report<'_, '_>,
        line: Option<u64>,
        out: &mut S::Out,
        summary: &mut Summary,
    ) {
        summary.add(report, self.shared.options.detailed_summary);
        self.shared.sink.record(report, line, out);
    }

    /// Checks every line of `reader`, handing each chunk's output to
    /// `write` in input order, and returns the counts.
    ///
    /// Lines end at `\n` or `\r\n`. With more than one worker, the workers
    /// read the input in turn; they are not waited for when `write` fails
    /// (one may be blocked on a slow input: the caller can exit without
    /// it).
    ///
    /// # Errors
    ///
    /// [`Error::Read`] once the chunks before the failure are written,
    /// [`Error::Write`] as soon as `write` fails, [`Error::Spawn`] and
    /// [`Error::Worker`].
    pub fn stream<R>(
        &self,
        reader: R,
        write: impl FnMut(&S::Out, Progress) -> io::Result<()>,
    ) -> Result<Summary, Error>
    where
        R: io::Read + Send + 'static,
    {
        engine::stream(&self.shared, self.jobs, reader, write)
    }

    /// Checks every row of `rows` (read in place, never copied), handing
    /// each chunk's output to `write` in row order, and returns the counts.
    /// A row is numbered from 1.
    ///
    /// # Errors
    ///
    /// [`Error::Write`] as soon as `write` fails, [`Error::Spawn`] and
    /// [`Error::Worker`].
    pub fn rows<T>(
        &self,
        rows: &T,
        write: impl FnMut(&S::Out, Progress) -> io::Result<()>,
    ) -> Result<Summary, Error>
    where
        T: Rows + ?Sized,
    {
        engine::rows(&self.shared, self.jobs, rows, write)
    }

    /// Checks every row of `rows` on the calling thread, appending the
    /// output of them all to `out`, and returns the counts: for a caller
    /// that hands the whole output on as one buffer, sized by it once,
    /// with no copy from chunk to chunk.
    pub fn rows_into<T>(&self, rows: &T, out: &mut S::Out) -> Summary
    where
        T: Rows + ?Sized,
    {
        let mut checker = self.shared.checker();
        let mut summary = Summary::default();
        engine::check_rows(rows, 0..rows.len(), &self.shared, &mut checker, out, &mut summary);
        summary
    }

    /// Checks the rows of `rows` from row `start` on, on the calling
    /// thread, appending their output to `out` until it holds `max_bytes`
    /// or more ([`Sink::held`]) or the rows end, and counts them in
    /// `summary`. Returns the first row not checked (`rows.len()` at the
    /// end): the caller hands `out` on and calls again from there, for an
    /// output written piece by piece in bounded memory (a service's
    /// answer). Rows are checked a few at a time, half as many as the
    /// output so far says fit (at most [`PART_ROWS`]): `out` passes
    /// `max_bytes` by the output of at most PART_ROWS rows, usually of one.
    pub fn rows_part<T>(
        &self,
        rows: &T,
        start: usize,
        max_bytes: usize,
        out: &mut S::Out,
        summary: &mut Summary,
    ) -> usize
    where
        T: Rows + ?Sized,
    {
        let mut checker = self.shared.checker();
        let mut reused = None;
        let sink = &self.shared.sink;
        let (first, before) = (start.min(rows.len()), sink.held(out));
        let mut at = first;
        loop {
            let held = sink.held(out);
            if at >= rows.len() || held >= max_bytes {
                return at;
            }
            // Each step checks its rows' buffer as UTF-8 at once: half the
            // rows that the output so far says fit, and no more than were
            // checked before (one at first): rows longer than those before
            // pass the limit by little.
            let done = at - first;
            let per_row = (held.saturating_sub(before) / done.max(1)).max(1);
            let step = ((max_bytes - held) / per_row / 2).min(done).clamp(1, PART_ROWS);
            let end = (at + step).min(rows.len());
            engine::check_rows_reusing(
                rows,
                at..end,
                &self.shared,
                &mut checker,
                out,
                summary,
                &mut reused,
            );
            at = end;
        }
    }
}

/// The most rows [`Batch::rows_part`] checks between two looks at its
/// output.
pub const PART_ROWS: usize = 16;
