//! The two drivers of a batch: a stream of lines read by the workers in
//! turn, and rows already in memory. Both check a chunk at a time into one
//! report updated in place, and hand the chunks' outputs on in input
//! order from a fixed pool of buffers (memory stays bounded).
//!
//! A stream's chunk hands its output on in parts once it passes
//! [`MAX_CHUNK_OUTPUT`] bytes: each part waits for its turn (the chunks
//! before it written) before the next is made, so the output held stays
//! bounded whatever is written per line (`--format jsonl` repeats the
//! rules' source on each line: 8,192 lines of `urn:epc:x` write 15 MB).
//! With more than one worker, chunks are cut to fewer lines when the lines
//! before wrote much, so that a chunk's output rarely has to wait for its
//! turn.

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, mpsc};

use super::chunks::{CHUNK_LINES, Chunk, ChunkReader, LinePos};
use super::{Error, MAX_CHUNK_OUTPUT, MAX_LINE, Progress, Rows, Shared, Sink, Summary};
use crate::{Checker, Report};

/// Checks the lines of `chunk` from `from` on into `out` (emptied first),
/// until `out` holds `max_out` bytes or more ([`Sink::held`]). Returns
/// where the rest of the chunk starts, if it stopped before its end, and
/// what it went through (`caught_up` is left false).
fn check_chunk<S: Sink>(
    chunk: &Chunk,
    from: LinePos,
    shared: &Shared<S>,
    checker: &mut Checker<'_>,
    out: &mut S::Out,
    summary: &mut Summary,
    max_out: usize,
) -> (Option<LinePos>, Progress) {
    shared.sink.clear(out);
    // One report for the chunk's lines of text, updated in place (a fresh
    // report per line cost a copy and a stall reading it back).
    let mut reused: Option<Report<'_, '_>> = None;
    let rest = chunk.for_each_line_from(from, |line| {
        match line.text {
            Some(text) if !line.truncated => {
                let report = match &mut reused {
                    Some(report) => {
                        checker.check_str_into(text, report);
                        report
                    }
                    None => reused.insert(checker.check_str(text)),
                };
                shared.record(report, line.number, out, summary);
            }
            _ if line.truncated => {
                let report = checker.line_too_long(line.bytes, MAX_LINE);
                shared.record(&report, line.number, out, summary);
            }
            _ => {
                let report = checker.check(line.bytes);
                shared.record(&report, line.number, out, summary);
            }
        }
        shared.sink.held(out) < max_out
    });
    let to = rest.unwrap_or_else(|| chunk.end());
    let progress = Progress {
        lines: to.number - from.number,
        bytes: (to.byte - from.byte) as u64,
        caught_up: false,
    };
    (rest, progress)
}

/// A chunk of input with the output written for it.
struct Slot<S: Sink> {
    chunk: Chunk,
    out: S::Out,
}

impl<S: Sink> Default for Slot<S> {
    fn default() -> Self {
        Slot {
            chunk: Chunk::default(),
            out: S::Out::default(),
        }
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

/// Where an output goes in the writer's order: its chunk's number and its
/// part in the chunk, both from 0.
type Key = (u64, u32);

/// What a worker hands the writer, in order of [`Key`]: an output and
/// whether it is its chunk's last part, or why it could not.
type Done<T> = (Key, Result<(T, bool), Error>);

/// A stream's output for the writer.
enum Piece<S: Sink> {
    /// A part of a chunk's output: more of the chunk follows.
    Part(S::Out, Progress),
    /// The chunk's last part, with its slot, which is free once written.
    Last(Slot<S>, Progress),
}

/// The writer's place, which a worker whose chunk's output passed
/// [`MAX_CHUNK_OUTPUT`] waits for before handing a part on.
#[derive(Default)]
struct Turn {
    state: Mutex<TurnState>,
    moved: Condvar,
    /// Workers waiting (the writer wakes them only then).
    waiting: AtomicUsize,
}

#[derive(Default)]
struct TurnState {
    /// The next output the writer writes.
    next: Key,
    /// The writer stopped: nothing more is written.
    stopped: bool,
}

impl Turn {
    /// Waits until `key` is the next output written; false if the writer
    /// stopped.
    fn wait_for(&self, key: Key) -> bool {
        let Ok(mut state) = self.state.lock() else {
            return false;
        };
        self.waiting.fetch_add(1, Ordering::SeqCst);
        while state.next != key && !state.stopped {
            match self.moved.wait(state) {
                Ok(s) => state = s,
                Err(_) => {
                    self.waiting.fetch_sub(1, Ordering::SeqCst);
                    return false;
                }
            }
        }
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        !state.stopped
    }

    /// The writer is at `next` (or has `stopped`).
    fn moved_to(&self, next: Key, stopped: bool) {
        if let Ok(mut state) = self.state.lock() {
            state.next = next;
            state.stopped |= stopped;
        }
        if self.waiting.load(Ordering::SeqCst) > 0 {
            self.moved.notify_all();
        }
    }
}

/// Stops the turn when the writer leaves, however it leaves.
struct StopOnDrop<'t>(&'t Turn);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.moved_to((u64::MAX, u32::MAX), true);
    }
}

/// How many lines a chunk takes when its lines wrote `per_16` bytes for
/// each 16 (`None`: nothing is known yet): about three quarters of
/// [`MAX_CHUNK_OUTPUT`]'s worth (a chunk that writes more than the last
/// rarely passes it), at least [`MIN_CHUNK_LINES`].
fn lines_for(per_16: Option<usize>) -> usize {
    match per_16 {
        None => FIRST_CHUNK_LINES,
        Some(0) => CHUNK_LINES,
        Some(n) => (MAX_CHUNK_OUTPUT / 4 * 3 * 16 / n).clamp(MIN_CHUNK_LINES, CHUNK_LINES),
    }
}

/// The lines of the first chunks, before any output per line is known.
const FIRST_CHUNK_LINES: usize = 256;
/// The fewest lines a chunk is cut to for its output's sake.
const MIN_CHUNK_LINES: usize = 16;

/// Why a worker stopped checking a chunk part way.
enum Stopped {
    /// The writer is gone (or stopped).
    Writer,
}

/// Checks `slot`'s chunk (number `seq`), handing each part of its output
/// that passes [`MAX_CHUNK_OUTPUT`] to the writer in its turn; returns
/// the last part's progress and the bytes written for the whole chunk.
fn check_parts<S: Sink>(
    slot: &mut Slot<S>,
    seq: u64,
    shared: &Shared<S>,
    checker: &mut Checker<'_>,
    summary: &mut Summary,
    done: &mpsc::SyncSender<Done<Piece<S>>>,
    turn: &Turn,
) -> Result<(u32, Progress, usize), Stopped> {
    let mut from = slot.chunk.start();
    let mut part = 0u32;
    let mut written = 0;
    loop {
        let (rest, progress) = check_chunk(
            &slot.chunk,
            from,
            shared,
            checker,
            &mut slot.out,
            summary,
            MAX_CHUNK_OUTPUT,
        );
        written += shared.sink.held(&slot.out);
        let Some(rest) = rest else {
            return Ok((part, progress, written));
        };
        // Past the limit: this part goes when it is its turn (every
        // chunk before written), and the next is made only then.
        if !turn.wait_for((seq, part)) {
            return Err(Stopped::Writer);
        }
        let out = std::mem::take(&mut slot.out);
        if done
            .send(((seq, part), Ok((Piece::Part(out, progress), false))))
            .is_err()
        {
            return Err(Stopped::Writer);
        }
        part += 1;
        from = rest;
    }
}

/// One stream worker: takes a free slot, reads the next lines into it (its
/// turn at the input), checks them, and hands the slot to the writer,
/// until the input ends or the writer is gone. Returns its counts.
fn stream_worker<S: Sink, R: Read>(
    shared: &Shared<S>,
    free: &Mutex<mpsc::Receiver<Slot<S>>>,
    input: &Mutex<Input<R>>,
    done: &mpsc::SyncSender<Done<Piece<S>>>,
    turn: &Turn,
    worker: usize,
) -> Summary {
    let mut checker = shared.checker();
    let mut summary = Summary::default();
    // What the last chunk wrote per 16 lines, for the next one's size.
    let mut per_16: Option<usize> = None;
    loop {
        let next = match free.lock() {
            Ok(free) => free.recv(),
            Err(_) => break,
        };
        let Ok(mut slot) = next else {
            break; // the writer is gone
        };
        let seq = {
            let Ok(mut input) = input.lock() else {
                break;
            };
            if input.done {
                break;
            }
            if per_16.is_some() {
                input.lines.set_max_lines(lines_for(per_16));
            }
            match input.lines.fill(&mut slot.chunk) {
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
                    let _ = done.send(((input.next_seq, 0), Err(Error::Read(e))));
                    break;
                }
            }
        };
        // A bug must not leave the writer waiting for this chunk forever:
        // it becomes an error.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            check_parts(&mut slot, seq, shared, &mut checker, &mut summary, done, turn)
        }));
        let sent = match result {
            Ok(Ok((part, progress, written))) => {
                per_16 = Some(written.saturating_mul(16) / (slot.chunk.lines().max(1) as usize));
                done.send(((seq, part), Ok((Piece::Last(slot, progress), true))))
            }
            Ok(Err(Stopped::Writer)) => break,
            // (Its parts before are written: this one is the error.)
            Err(_) => done.send(((seq, 0), Err(Error::Worker(worker)))),
        };
        if sent.is_err() {
            break;
        }
    }
    summary
}

/// [`super::Batch::stream`].
pub(super) fn stream<S: Sink, R: Read + Send + 'static>(
    shared: &Arc<Shared<S>>,
    jobs: usize,
    reader: R,
    mut write: impl FnMut(&S::Out, Progress) -> io::Result<()>,
) -> Result<Summary, Error> {
    let mut lines = ChunkReader::new(reader);
    if jobs <= 1 {
        let mut checker = shared.checker();
        let mut summary = Summary::default();
        let mut slot = Slot::<S>::default();
        while lines.fill(&mut slot.chunk).map_err(Error::Read)? {
            let mut from = slot.chunk.start();
            loop {
                let (rest, progress) = check_chunk(
                    &slot.chunk,
                    from,
                    shared,
                    &mut checker,
                    &mut slot.out,
                    &mut summary,
                    MAX_CHUNK_OUTPUT,
                );
                // The input may come slowly: the end of every chunk is a
                // time to flush.
                let caught_up = rest.is_none();
                write(&slot.out, progress.with_caught_up(caught_up)).map_err(Error::Write)?;
                match rest {
                    Some(rest) => from = rest,
                    None => break,
                }
            }
            slot.chunk.shrink();
        }
        return Ok(summary);
    }
    // A fixed pool of slots bounds memory: a worker waits for a free slot,
    // the writer for checked ones. The first chunks are small, until their
    // output says how many lines fit.
    lines.set_max_lines(lines_for(None));
    let pool = jobs * 2;
    let (free_tx, free_rx) = mpsc::sync_channel::<Slot<S>>(pool);
    for _ in 0..pool {
        let _ = free_tx.send(Slot::default());
    }
    let free = Arc::new(Mutex::new(free_rx));
    let input = Arc::new(Mutex::new(Input {
        lines,
        next_seq: 0,
        done: false,
    }));
    let turn = Arc::new(Turn::default());
    let (done_tx, done_rx) = mpsc::sync_channel::<Done<Piece<S>>>(pool);
    let mut workers = Vec::with_capacity(jobs);
    for i in 0..jobs {
        let (shared, free, input, done, turn) = (
            Arc::clone(shared),
            Arc::clone(&free),
            Arc::clone(&input),
            done_tx.clone(),
            Arc::clone(&turn),
        );
        // Not scoped: a worker blocked on a slow input must not hold the
        // caller once the output is gone.
        let worker = std::thread::Builder::new()
            .name(format!("urnreg-batch-{i}"))
            .spawn(move || stream_worker(&shared, &free, &input, &done, &turn, i + 1))
            .map_err(Error::Spawn)?;
        workers.push(worker);
    }
    drop(done_tx);
    in_order(done_rx, Some(&turn), |piece: Piece<S>, caught_up| {
        match piece {
            Piece::Part(out, progress) => write(&out, progress).map_err(Error::Write)?,
            Piece::Last(mut slot, progress) => {
                write(&slot.out, progress.with_caught_up(caught_up)).map_err(Error::Write)?;
                slot.chunk.shrink();
                let _ = free_tx.send(slot);
            }
        }
        Ok(())
    })?;
    // Every worker has stopped (the channel closed when the last one did).
    let mut summary = Summary::default();
    for (i, worker) in workers.into_iter().enumerate() {
        summary.merge(worker.join().map_err(|_| Error::Worker(i + 1))?);
    }
    Ok(summary)
}

/// Hands what the workers send to `each` in order of [`Key`], a chunk's
/// parts in turn and its last part before the next chunk; an error waits
/// for its turn too (what came before it is handed on first): a chunk's
/// error comes after the parts its worker sent before it. `each` is told
/// whether it is caught up with the workers (a chunk's last part, and
/// nothing later ready). Moves `turn` along as it goes, and stops it when
/// it returns.
fn in_order<T>(
    done: mpsc::Receiver<Done<T>>,
    turn: Option<&Turn>,
    mut each: impl FnMut(T, bool) -> Result<(), Error>,
) -> Result<(), Error> {
    let _stop = turn.map(StopOnDrop);
    let mut pending: BTreeMap<Key, (T, bool)> = BTreeMap::new();
    let mut failed: BTreeMap<u64, Error> = BTreeMap::new();
    let mut next: Key = (0, 0);
    for (key, result) in &done {
        match result {
            Ok(item) => {
                pending.insert(key, item);
            }
            Err(e) => {
                failed.entry(key.0).or_insert(e);
            }
        }
        loop {
            if let Some((item, last)) = pending.remove(&next) {
                next = if last {
                    (next.0 + 1, 0)
                } else {
                    (next.0, next.1 + 1)
                };
                each(item, last && pending.is_empty())?;
                if let Some(turn) = turn {
                    turn.moved_to(next, false);
                }
            } else if let Some(e) = failed.remove(&next.0) {
                return Err(e);
            } else {
                break;
            }
        }
    }
    Ok(())
}

/// Checks rows `range` of `rows` into `out` (appended to what it holds).
pub(super) fn check_rows<S: Sink, T: Rows + ?Sized>(
    rows: &T,
    range: std::ops::Range<usize>,
    shared: &Shared<S>,
    checker: &mut Checker<'_>,
    out: &mut S::Out,
    summary: &mut Summary,
) -> Progress {
    check_rows_reusing(rows, range, shared, checker, out, summary, &mut None)
}

/// [`check_rows`], updating in place the report an earlier call left in
/// `reused` (a caller checking rows a few at a time makes no new one for
/// each few).
pub(super) fn check_rows_reusing<'t, 'r, S: Sink, T: Rows + ?Sized>(
    rows: &'t T,
    range: std::ops::Range<usize>,
    shared: &Shared<S>,
    checker: &mut Checker<'r>,
    out: &mut S::Out,
    summary: &mut Summary,
    reused: &mut Option<Report<'t, 'r>>,
) -> Progress {
    let mut bytes = 0u64;
    // The rows' buffer checked as UTF-8 at once, when they lie in one (a
    // check per row of some 30 bytes cost more than the rest of reading
    // it): up to its first byte that is not UTF-8, and only for rows of
    // URN size on average, so that a row past MAX_LINE (read no further
    // than its limit) or long unused bytes never make the check longer.
    let block = rows
        .block(range.clone())
        .filter(|b| b.len() / range.len().max(1) <= BLOCK_ROW_BYTES)
        .map(|b| match super::chunks::utf8(b) {
            Some(text) => text,
            // Not all of it: std's check finds where it stops being so.
            None => match std::str::from_utf8(b) {
                Ok(text) => text,
                Err(e) => std::str::from_utf8(&b[..e.valid_up_to()]).unwrap_or_default(),
            },
        });
    rows.each_row(range.clone(), |i, row| {
        let line = i as u64 + 1;
        let Some(row) = row else {
            shared.sink.record_null(line, out);
            return;
        };
        bytes += row.len() as u64;
        if row.len() > MAX_LINE {
            // The input shown is cut where a stream cuts it.
            let report = checker.line_too_long(&row[..MAX_LINE], MAX_LINE);
            shared.record(&report, line, out, summary);
            return;
        }
        match block
            .and_then(|b| text_within(b, row))
            .map_or_else(|| std::str::from_utf8(row), Ok)
        {
            Ok(text) => {
                let report = match reused {
                    Some(report) => {
                        checker.check_str_into(text, report);
                        report
                    }
                    None => reused.insert(checker.check_str(text)),
                };
                shared.record(report, line, out, summary);
            }
            Err(_) => {
                let report = checker.check(row);
                shared.record(&report, line, out, summary);
            }
        }
    });
    Progress {
        lines: range.len() as u64,
        bytes,
        caught_up: true,
    }
}

/// The most bytes a row may take on average for its chunk's buffer to be
/// checked as UTF-8 at once ([`Rows::block`]); URNs take a few dozen.
const BLOCK_ROW_BYTES: usize = 1024;

/// `row` as text, when it lies inside `block` (found by its address) and
/// begins and ends between characters; else `None`, and the caller checks
/// the row on its own. Only ever the row's own bytes: a row of another
/// buffer, or one that runs past the block, is not inside it.
fn text_within<'b>(block: &'b str, row: &[u8]) -> Option<&'b str> {
    let at = (row.as_ptr() as usize).checked_sub(block.as_ptr() as usize)?;
    block.get(at..at.checked_add(row.len())?)
}

/// [`super::Batch::rows`]: chunks of [`CHUNK_LINES`] rows, taken in turn by
/// scoped workers (nothing blocks on input here).
pub(super) fn rows<S: Sink, T: Rows + ?Sized>(
    shared: &Shared<S>,
    jobs: usize,
    rows: &T,
    mut write: impl FnMut(&S::Out, Progress) -> io::Result<()>,
) -> Result<Summary, Error> {
    let n = rows.len();
    let chunks = n.div_ceil(CHUNK_LINES);
    let range = |c: usize| c * CHUNK_LINES..((c + 1) * CHUNK_LINES).min(n);
    if jobs <= 1 || chunks <= 1 {
        let mut checker = shared.checker();
        let mut summary = Summary::default();
        let mut out = S::Out::default();
        for c in 0..chunks {
            shared.sink.clear(&mut out);
            let progress = check_rows(rows, range(c), shared, &mut checker, &mut out, &mut summary);
            write(&out, progress).map_err(Error::Write)?;
        }
        return Ok(summary);
    }
    let jobs = jobs.min(chunks);
    let pool = jobs * 2;
    let (free_tx, free_rx) = mpsc::sync_channel::<S::Out>(pool);
    for _ in 0..pool {
        let _ = free_tx.send(S::Out::default());
    }
    let free = Mutex::new(free_rx);
    let next_chunk = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (done_tx, done_rx) = mpsc::sync_channel::<Done<(S::Out, Progress)>>(pool);
        let mut workers = Vec::with_capacity(jobs);
        for i in 0..jobs {
            let done = done_tx.clone();
            let (free, next_chunk, stop) = (&free, &next_chunk, &stop);
            let worker = std::thread::Builder::new()
                .name(format!("urnreg-rows-{i}"))
                .spawn_scoped(scope, move || {
                    let mut checker = shared.checker();
                    let mut summary = Summary::default();
                    while !stop.load(Ordering::Relaxed) {
                        let Ok(mut out) = free.lock().map_err(drop).and_then(|f| f.recv().map_err(drop))
                        else {
                            break;
                        };
                        let c = next_chunk.fetch_add(1, Ordering::Relaxed);
                        if c >= chunks {
                            break;
                        }
                        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            shared.sink.clear(&mut out);
                            let p = check_rows(rows, range(c), shared, &mut checker, &mut out, &mut summary);
                            ((out, p), true)
                        }))
                        .map_err(|_| Error::Worker(i + 1));
                        if done.send(((c as u64, 0), result)).is_err() {
                            break;
                        }
                    }
                    summary
                })
                .map_err(Error::Spawn);
            match worker {
                Ok(w) => workers.push(w),
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
        drop(done_tx);
        let written = in_order(done_rx, None, |(out, progress): (S::Out, Progress), caught_up| {
            write(&out, progress.with_caught_up(caught_up)).map_err(Error::Write)?;
            let _ = free_tx.send(out);
            Ok(())
        });
        if written.is_err() {
            // Stop the workers: they see the flag, or find the pool or the
            // writer gone.
            stop.store(true, Ordering::Relaxed);
            drop(free_tx);
        }
        let mut summary = Summary::default();
        for (i, worker) in workers.into_iter().enumerate() {
            let counted = worker.join().map_err(|_| Error::Worker(i + 1));
            if let Ok(counted) = counted {
                summary.merge(counted);
            } else if written.is_ok() {
                return Err(Error::Worker(i + 1));
            }
        }
        written.map(|()| summary)
    })
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::super::{Batch, ChunkedRows, Json, LineRows, OffsetRows, Options, Rows, Shown};
    use super::*;
    use crate::Registry;

    /// A big input with valid, invalid and odd lines (more than one chunk).
    fn input() -> String {
        let kinds = [
            "urn:isbn:0451450523",
            "urn:isbn:0451450524",
            "URN:X-Y:a%2c",
            "not a urn",
            "",
        ];
        (0..3 * CHUNK_LINES + 17)
            .map(|i| {
                format!(
                    "{}{}\n",
                    kinds[i % kinds.len()],
                    if i % 7 == 0 { "" } else { "x" }
                )
            })
            .collect()
    }

    fn batch(jobs: usize, shown: Shown) -> Batch<Json> {
        let registry = Some(Arc::new(Registry::embedded().clone()));
        let options = Options {
            detailed_summary: true,
            ..Options::default()
        };
        Batch::new(registry, options, Json::lines(shown)).with_jobs(jobs)
    }

    fn streamed(jobs: usize, text: &str) -> (Vec<u8>, Summary) {
        let mut out = Vec::new();
        let summary = batch(jobs, Shown::All)
            .stream(Cursor::new(text.to_string().into_bytes()), |chunk, _| {
                out.extend_from_slice(chunk);
                Ok(())
            })
            .unwrap();
        (out, summary)
    }

    /// Any number of workers writes what one writes, in input order, and
    /// counts the same; rows in memory give the same as the stream.
    #[test]
    fn every_driver_and_any_jobs_say_the_same_in_order() {
        let text = input();
        let (one, summary) = streamed(1, &text);
        assert_eq!(summary.total() as usize, 3 * CHUNK_LINES + 17);
        for jobs in [2, 3, 8] {
            let (many, counted) = streamed(jobs, &text);
            assert!(one == many, "stream, {jobs} jobs");
            assert_eq!(
                (counted.total(), counted.invalid(), counted.by_error()),
                (summary.total(), summary.invalid(), summary.by_error())
            );
        }
        let lines: Vec<&str> = text.lines().collect();
        for jobs in [1, 2, 3] {
            let mut out = Vec::new();
            let counted = batch(jobs, Shown::All)
                .rows(&lines[..], |chunk, _| {
                    out.extend_from_slice(chunk);
                    Ok(())
                })
                .unwrap();
            assert!(one == out, "rows, {jobs} jobs");
            assert_eq!(counted.invalid(), summary.invalid());
        }
        // All rows into the caller's buffer, after what it holds.
        let mut into = b"kept".to_vec();
        let counted = batch(3, Shown::All).rows_into(&lines[..], &mut into);
        assert!(into.starts_with(b"kept") && into[4..] == one[..]);
        assert_eq!(counted.by_error(), summary.by_error());
        // The Arrow layout: offsets into one buffer, with nulls skipped.
        let data = "urn:a:bnope";
        let rows = OffsetRows::new(data.as_bytes(), &[0i32, 7, 7, 11], Some(&[0b101])).unwrap();
        let mut out = Vec::new();
        let counted = batch(2, Shown::All)
            .rows(&rows, |chunk, _| {
                out.extend_from_slice(chunk);
                Ok(())
            })
            .unwrap();
        assert_eq!((counted.total(), counted.invalid()), (2, 2));
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("{\"line\":1,") && text.contains("{\"line\":3,"),
            "{text}"
        );
    }

    /// Rows whose buffer is checked as UTF-8 at once say what rows checked
    /// one by one say: a row that splits a character between itself and
    /// the next is not text, whole rows around it are; bytes that are not
    /// UTF-8 anywhere fall back to the check of each row.
    #[test]
    fn rows_checked_as_one_block_say_what_each_row_says() {
        /// The same rows without a block: each checked on its own.
        struct RowByRow<R>(R);
        impl<R: Rows> Rows for RowByRow<R> {
            fn len(&self) -> usize {
                self.0.len()
            }
            fn row(&self, i: usize) -> Option<&[u8]> {
                self.0.row(i)
            }
        }
        fn checked<R: Rows + ?Sized>(rows: &R) -> String {
            let mut out = Vec::new();
            batch(1, Shown::All).rows_into(rows, &mut out);
            String::from_utf8(out).unwrap()
        }
        fn same<R: Rows>(rows: R, what: &str) {
            assert_eq!(checked(&rows), checked(&RowByRow(rows)), "{what}");
        }
        // "é" is C3 A9: rows 1 and 2 split it; row 4 is a lone FF.
        let pieces: [&[u8]; 7] = [
            b"urn:ab:c",
            b"urn:ab:\xc3",
            b"\xa9x",
            b"urn:ab:d\xc3\xa9",
            b"\xff",
            b"urn:ab:e",
            b"",
        ];
        let data = pieces.concat();
        let mut offsets = vec![0i32];
        for p in pieces {
            offsets.push(offsets.last().unwrap() + p.len() as i32);
        }
        let rows = OffsetRows::new(&data, &offsets, None).unwrap();
        assert_eq!(rows.block(0..7), Some(&data[..]));
        assert!(std::str::from_utf8(&data).is_err(), "the lone FF");
        let text = std::str::from_utf8(rows.block(0..4).unwrap()).unwrap();
        assert_eq!(text_within(text, rows.row(0).unwrap()), Some("urn:ab:c"));
        assert_eq!(
            text_within(text, rows.row(1).unwrap()),
            None,
            "ends inside a character"
        );
        assert_eq!(text_within(text, rows.row(2).unwrap()), None, "starts inside one");
        assert_eq!(text_within(text, rows.row(3).unwrap()), Some("urn:ab:d\u{e9}"));
        assert_eq!(text_within(text, b"elsewhere"), None, "not in the block");
        for range in [0..4, 0..7, 3..7, 5..7] {
            let part = OffsetRows::new(&data, &offsets[range.start..=range.end], None).unwrap();
            same(part, &format!("offsets {range:?}"));
        }
        // Chunks, and a batch range across two of them (no block there).
        let (first, second) = (
            OffsetRows::new(&data, &offsets[..4], None).unwrap(),
            OffsetRows::new(&data, &offsets[3..], None).unwrap(),
        );
        let chunked = ChunkedRows::new(vec![first, second]);
        assert_eq!(chunked.block(2..5), None);
        same(chunked, "chunks");
        // Lines cut from one body, with the same bytes.
        let body = b"urn:ab:c\r\nurn:ab:\xc3\n\xa9x\nurn:ab:d\xc3\xa9\n\xff\nurn:ab:e\n\n";
        let lines = LineRows::new(body);
        assert_eq!(lines.block(0..lines.len()).map(<[u8]>::len), Some(body.len() - 1));
        assert_eq!(lines.block(3..4), Some(&b"urn:ab:d\xc3\xa9"[..]));
        same(lines, "lines");
        // A row past MAX_LINE: its buffer is not checked at once, and the
        // row is cut at the limit as before.
        let long = [b"urn:ab:".as_slice(), &vec![b'a'; MAX_LINE + 10]].concat();
        let long_offsets = [0i32, 8, long.len() as i32];
        let long_rows = OffsetRows::new(&long, &long_offsets, None).unwrap();
        same(long_rows, "a row past MAX_LINE");
    }

    /// A read error comes after every chunk before it; a write error stops
    /// the batch at once.
    #[test]
    fn errors_stop_the_batch_in_order() {
        struct FailAfter(Cursor<Vec<u8>>);
        impl Read for FailAfter {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                match self.0.read(buf)? {
                    0 => Err(io::Error::other("disk gone")),
                    n => Ok(n),
                }
            }
        }
        let text = input();
        for jobs in [1, 3] {
            let mut lines = 0;
            let result =
                batch(jobs, Shown::All).stream(FailAfter(Cursor::new(text.clone().into_bytes())), |_, p| {
                    lines += p.lines;
                    Ok(())
                });
            assert!(matches!(result, Err(Error::Read(_))), "{jobs} jobs");
            assert_eq!(
                lines as usize,
                3 * CHUNK_LINES + 17,
                "everything read was written first"
            );
            let mut calls = 0;
            let result = batch(jobs, Shown::All).stream(Cursor::new(text.clone().into_bytes()), |_, _| {
                calls += 1;
                Err(io::Error::from(io::ErrorKind::BrokenPipe))
            });
            assert!(matches!(result, Err(Error::Write(_))));
            assert_eq!(calls, 1);
            let rows: Vec<&str> = text.lines().collect();
            let mut calls = 0;
            let result = batch(jobs, Shown::All).rows(&rows[..], |_, _| {
                calls += 1;
                Err(io::Error::from(io::ErrorKind::BrokenPipe))
            });
            assert!(matches!(result, Err(Error::Write(_))));
            assert_eq!(calls, 1);
        }
    }

    /// A chunk whose output is large hands it on in parts of about
    /// MAX_CHUNK_OUTPUT bytes, in order, with any number of workers; the
    /// parts' progress adds up to the input.
    #[test]
    fn large_outputs_are_handed_on_in_bounded_parts() {
        // Each `urn:epc:x` object carries the EPC rules' source (some
        // 1.9 KB): 3 chunks of them write some 45 MB.
        let text: String = (0..3 * CHUNK_LINES + 5)
            .map(|i| {
                if i % 50 == 0 {
                    "urn:isbn:0451450523\n"
                } else {
                    "urn:epc:x\n"
                }
            })
            .collect();
        let mut whole: Option<Vec<u8>> = None;
        for jobs in [1, 2, 3, 8] {
            let (mut out, mut lines, mut bytes, mut largest) = (Vec::new(), 0, 0, 0);
            let summary = batch(jobs, Shown::All)
                .stream(Cursor::new(text.clone().into_bytes()), |part, p| {
                    largest = largest.max(part.len());
                    out.extend_from_slice(part);
                    lines += p.lines;
                    bytes += p.bytes;
                    Ok(())
                })
                .unwrap();
            assert_eq!(summary.total() as usize, 3 * CHUNK_LINES + 5);
            assert_eq!(
                (lines, bytes as usize),
                (summary.total(), text.len()),
                "{jobs} jobs"
            );
            assert!(largest > MAX_CHUNK_OUTPUT / 2, "{jobs} jobs: {largest}");
            assert!(largest < MAX_CHUNK_OUTPUT + 4096, "{jobs} jobs: {largest}");
            assert!(out.len() > 40_000_000, "{}", out.len());
            match &whole {
                None => whole = Some(out),
                Some(one) => assert!(*one == out, "{jobs} jobs"),
            }
        }
        // A chunk's parts, then the chunk's error: a read error after a
        // chunk cut in parts comes after all of them.
        struct FailAfter(Cursor<Vec<u8>>);
        impl Read for FailAfter {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                match self.0.read(buf)? {
                    0 => Err(io::Error::other("disk gone")),
                    n => Ok(n),
                }
            }
        }
        for jobs in [1, 4] {
            let mut lines = 0;
            let result =
                batch(jobs, Shown::All).stream(FailAfter(Cursor::new(text.clone().into_bytes())), |_, p| {
                    lines += p.lines;
                    Ok(())
                });
            assert!(matches!(result, Err(Error::Read(_))), "{jobs} jobs");
            assert_eq!(lines as usize, 3 * CHUNK_LINES + 5, "{jobs} jobs");
        }
    }

    /// Only invalid inputs, or none, are written as asked; the counts are
    /// the same.
    #[test]
    fn shown_filters_what_is_written() {
        let text = input();
        let mut written = Vec::new();
        let summary = batch(2, Shown::Invalid)
            .stream(Cursor::new(text.clone().into_bytes()), |chunk, _| {
                written.extend_from_slice(chunk);
                Ok(())
            })
            .unwrap();
        let objects = written.iter().filter(|&&b| b == b'\n').count();
        assert_eq!(objects as u64, summary.invalid());
        let mut none = 0;
        batch(2, Shown::None)
            .stream(Cursor::new(text.into_bytes()), |chunk, _| {
                none += chunk.len();
                Ok(())
            })
            .unwrap();
        assert_eq!(none, 0);
    }
}
