//! The two drivers of a batch: a stream of lines read by the workers in
//! turn, and rows already in memory. Both check a chunk at a time into one
//! report updated in place, and hand the chunks' outputs on in input
//! order from a fixed pool of buffers (memory stays bounded).

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use super::chunks::{CHUNK_LINES, Chunk, ChunkReader};
use super::{Error, MAX_LINE, Progress, Rows, Shared, Sink, Summary};
use crate::{Checker, Report};

/// Checks every line of `chunk` into `out`.
fn check_chunk<S: Sink>(
    chunk: &Chunk,
    shared: &Shared<S>,
    checker: &mut Checker<'_>,
    out: &mut S::Out,
    summary: &mut Summary,
) {
    shared.sink.clear(out);
    // One report for the chunk's lines of text, updated in place (a fresh
    // report per line cost a copy and a stall reading it back).
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
    });
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

/// What a worker hands the writer: a chunk with its output, in order of
/// `seq`, or why it could not.
type Done<T> = (u64, Result<T, Error>);

/// One stream worker: takes a free slot, reads the next lines into it (its
/// turn at the input), checks them, and hands the slot to the writer,
/// until the input ends or the writer is gone. Returns its counts.
fn stream_worker<S: Sink, R: Read>(
    shared: &Shared<S>,
    free: &Mutex<mpsc::Receiver<Slot<S>>>,
    input: &Mutex<Input<R>>,
    done: &mpsc::SyncSender<Done<Slot<S>>>,
    worker: usize,
) -> Summary {
    let mut checker = shared.checker();
    let mut summary = Summary::default();
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
                    let _ = done.send((input.next_seq, Err(Error::Read(e))));
                    break;
                }
            }
        };
        // A bug must not leave the writer waiting for this chunk forever:
        // it becomes an error.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            check_chunk(&slot.chunk, shared, &mut checker, &mut slot.out, &mut summary);
            slot
        }))
        .map_err(|_| Error::Worker(worker));
        if done.send((seq, result)).is_err() {
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
            check_chunk(&slot.chunk, shared, &mut checker, &mut slot.out, &mut summary);
            // The input may come slowly: every chunk is a time to flush.
            let progress = Progress {
                lines: slot.chunk.lines(),
                bytes: slot.chunk.len(),
                caught_up: true,
            };
            write(&slot.out, progress).map_err(Error::Write)?;
            slot.chunk.shrink();
        }
        return Ok(summary);
    }
    // A fixed pool of slots bounds memory: a worker waits for a free slot,
    // the writer for checked ones.
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
    let (done_tx, done_rx) = mpsc::sync_channel::<Done<Slot<S>>>(pool);
    let mut workers = Vec::with_capacity(jobs);
    for i in 0..jobs {
        let (shared, free, input, done) = (
            Arc::clone(shared),
            Arc::clone(&free),
            Arc::clone(&input),
            done_tx.clone(),
        );
        // Not scoped: a worker blocked on a slow input must not hold the
        // caller once the output is gone.
        let worker = std::thread::Builder::new()
            .name(format!("urnreg-batch-{i}"))
            .spawn(move || stream_worker(&shared, &free, &input, &done, i + 1))
            .map_err(Error::Spawn)?;
        workers.push(worker);
    }
    drop(done_tx);
    in_order(done_rx, |mut slot: Slot<S>, caught_up| {
        let progress = Progress {
            lines: slot.chunk.lines(),
            bytes: slot.chunk.len(),
            caught_up,
        };
        write(&slot.out, progress).map_err(Error::Write)?;
        slot.chunk.shrink();
        let _ = free_tx.send(slot);
        Ok(())
    })?;
    // Every worker has stopped (the channel closed when the last one did).
    let mut summary = Summary::default();
    for (i, worker) in workers.into_iter().enumerate() {
        summary.merge(worker.join().map_err(|_| Error::Worker(i + 1))?);
    }
    Ok(summary)
}

/// Hands what the workers send to `each` in order of sequence number; an
/// error waits for its turn too (what came before it is handed on first).
/// `each` is told whether it is caught up with the workers.
fn in_order<T>(
    done: mpsc::Receiver<Done<T>>,
    mut each: impl FnMut(T, bool) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut pending = BTreeMap::new();
    let mut next = 0u64;
    for (seq, result) in &done {
        pending.insert(seq, result);
        while let Some(result) = pending.remove(&next) {
            let caught_up = pending.is_empty();
            each(result?, caught_up)?;
            next += 1;
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
    let mut bytes = 0u64;
    let mut reused: Option<Report<'_, '_>> = None;
    // The rows' buffer checked as UTF-8 at once, when they lie in one (a
    // check per row of some 30 bytes cost more than the rest of reading
    // it): up to its first byte that is not UTF-8, and only for rows of
    // URN size on average, so that a row past MAX_LINE (read no further
    // than its limit) or long unused bytes never make the check longer.
    let block = rows
        .block(range.clone())
        .filter(|b| b.len() / range.len().max(1) <= BLOCK_ROW_BYTES)
        .map(|b| match std::str::from_utf8(b) {
            Ok(text) => text,
            Err(e) => std::str::from_utf8(&b[..e.valid_up_to()]).unwrap_or_default(),
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
                let report = match &mut reused {
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
                            (out, p)
                        }))
                        .map_err(|_| Error::Worker(i + 1));
                        if done.send((c as u64, result)).is_err() {
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
        let written = in_order(done_rx, |(out, progress), caught_up| {
            write(
                &out,
                Progress {
                    caught_up,
                    ..progress
                },
            )
            .map_err(Error::Write)?;
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
