//! The answer of `POST /api/check`, written piece by piece as the
//! connection sends it: the batch engine checks the body's next lines only
//! when hyper asks for more, so an answer takes a piece of
//! [`ANSWER_PIECE`] bytes at a time (and what hyper holds of it before the
//! socket takes it, at most [`MAX_CONNECTION_BUFFER`]), never the whole:
//! 10,000 lines can answer 20 MB, and thousands of connections may ask at
//! once.

use std::convert::Infallible;
use std::ops::Range;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Bytes;
use hyper::body::{Body, Frame, SizeHint};

use crate::batch::{Batch, Json, Rows, Summary};

/// An answer's piece is handed to the connection once it holds this many
/// bytes (its last few objects may pass it; see [`Batch::rows_part`]).
pub const ANSWER_PIECE: usize = 32 * 1024;

/// The most a connection buffers of an answer before it waits for the
/// socket to take it, and of a request's head: hyper's `max_buf_size`, set
/// to hyper's own default (408 KiB), so that what it holds is counted.
/// (64 KiB made `POST /api/check` 20% slower: more writes, each smaller.)
pub const MAX_CONNECTION_BUFFER: usize = 8192 + 4096 * 100;

/// What a `POST /api/check` reserves of the memory budget for its answer,
/// besides its body, until the answer is sent: the connection's buffer,
/// and the last piece it took past it, which may pass ANSWER_PIECE by a
/// few objects (two pieces' worth).
pub const CHECK_ANSWER_BYTES: usize = MAX_CONNECTION_BUFFER + 2 * ANSWER_PIECE;

/// The lines of a request's body, owned (the body moves into the answer,
/// which outlives the handler): where each starts, cut as
/// [`crate::batch::LineRows`] cuts them (at `\n` or `\r\n`; a last line
/// without a break counts when it is not empty).
pub(crate) struct BodyLines {
    body: Bytes,
    /// Where each line starts; the bytes up to the next start, less its
    /// line break, are the line. (4 bytes a line: 40 KB for the 10,000
    /// lines a request may hold.)
    starts: Vec<u32>,
    /// The body without its final `\n`: where the last line ends.
    end: usize,
}

impl BodyLines {
    /// The lines of `body`; `None` when it is too large to index
    /// (4 GiB: far past the service's limits).
    pub(crate) fn new(body: Bytes) -> Option<BodyLines> {
        u32::try_from(body.len()).ok()?;
        // A byte-order mark at the very start is no part of the first line.
        let first = if body.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
        let end = body.strip_suffix(b"\n").unwrap_or(&body).len().max(first);
        let starts = if body.len() == first {
            Vec::new()
        } else {
            // (Every offset is below the body's length, which fits.)
            std::iter::once(first)
                .chain(memchr::memchr_iter(b'\n', &body[first..end]).map(|i| first + i + 1))
                .map(|at| at as u32)
                .collect()
        };
        Some(BodyLines { body, starts, end })
    }

    /// Row `i`'s bytes in the body, without its line break.
    fn span(&self, i: usize) -> Range<usize> {
        let start = self.starts[i] as usize;
        let end = self.starts.get(i + 1).map_or(self.end, |&next| next as usize - 1);
        let end = if end > start && self.body[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        start..end
    }
}

impl Rows for BodyLines {
    fn len(&self) -> usize {
        self.starts.len()
    }

    fn row(&self, i: usize) -> Option<&[u8]> {
        Some(&self.body[self.span(i)])
    }

    fn block(&self, range: Range<usize>) -> Option<&[u8]> {
        let last = range.end.checked_sub(1)?;
        if range.start > last || last >= self.starts.len() {
            return None;
        }
        self.body
            .get(self.starts[range.start] as usize..self.span(last).end)
    }
}

/// The answer's body: each time the connection asks for more, the next
/// lines' objects, one piece of about [`ANSWER_PIECE`] bytes.
pub(crate) struct CheckAnswer {
    batch: Batch<Json>,
    lines: BodyLines,
    next: usize,
    summary: Summary,
}

impl CheckAnswer {
    pub(crate) fn new(batch: Batch<Json>, lines: BodyLines) -> CheckAnswer {
        CheckAnswer {
            batch,
            lines,
            next: 0,
            summary: Summary::default(),
        }
    }
}

impl Body for CheckAnswer {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        if this.next >= this.lines.len() {
            return Poll::Ready(None);
        }
        // A piece's objects, and some room for the last one to pass it.
        let mut out = Vec::with_capacity(ANSWER_PIECE + 4096);
        this.next = this
            .batch
            .rows_part(&this.lines, this.next, ANSWER_PIECE, &mut out, &mut this.summary);
        Poll::Ready(Some(Ok(Frame::data(Bytes::from(out)))))
    }

    fn is_end_stream(&self) -> bool {
        self.next >= self.lines.len()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::Registry;
    use crate::batch::{LineRows, Options, Shown};

    /// The lines are those `LineRows` cuts from the same bytes, with the
    /// same blocks.
    #[test]
    fn body_lines_are_line_rows() {
        for body in [
            &b""[..],
            b"\n",
            b"\n\n",
            b"a",
            b"a\n",
            b"a\r\n",
            b"a\r",
            b"\r\n\r\n",
            b"a\nb",
            b"a\n\nb\r\n",
            b"urn:a:b\r\nurn:\xff\n\r\rx\n",
            b"\xEF\xBB\xBF",
            b"\xEF\xBB\xBF\n",
            b"\xEF\xBB\xBFurn:a:b\n\xEF\xBB\xBFc",
        ] {
            let ours = BodyLines::new(Bytes::copy_from_slice(body)).unwrap();
            let theirs = LineRows::new(body);
            assert_eq!(ours.len(), theirs.len(), "{body:?}");
            for i in 0..ours.len() {
                assert_eq!(ours.row(i), theirs.row(i), "{body:?} row {i}");
                for j in i..=ours.len() {
                    assert_eq!(
                        ours.block(i..j).map(<[u8]>::to_vec),
                        theirs.block(i..j).map(<[u8]>::to_vec),
                        "{body:?} {i}..{j}"
                    );
                }
            }
        }
    }

    /// The pieces together are the whole answer; each holds about
    /// ANSWER_PIECE bytes, never the whole when it is longer.
    #[test]
    fn the_answer_comes_in_bounded_pieces() {
        let body: String = (0..3000)
            .map(|i| match i % 3 {
                0 => "urn:epc:x\n".to_string(),
                1 => format!("urn:isbn:04514505{:02}\n", i % 100),
                _ => "not a urn\r\n".to_string(),
            })
            .collect();
        let batch = || {
            Batch::new(
                Some(Arc::new(Registry::embedded().clone())),
                Options::default(),
                Json::lines(Shown::All),
            )
        };
        let mut whole = Vec::new();
        batch().rows_into(&LineRows::new(body.as_bytes()), &mut whole);
        assert!(whole.len() > 20 * ANSWER_PIECE, "{}", whole.len());
        let mut answer = CheckAnswer::new(batch(), BodyLines::new(Bytes::from(body)).unwrap());
        let waker = std::task::Waker::noop();
        let mut cx = Context::from_waker(waker);
        let mut joined = Vec::new();
        let mut pieces = 0;
        while !answer.is_end_stream() {
            let Poll::Ready(Some(Ok(frame))) = Pin::new(&mut answer).poll_frame(&mut cx) else {
                panic!("a piece was due");
            };
            let piece = frame.into_data().unwrap();
            // Past the piece's size by a few objects at most: within the
            // two pieces an answer reserves.
            assert!(piece.len() < 2 * ANSWER_PIECE, "{}", piece.len());
            joined.extend_from_slice(&piece);
            pieces += 1;
        }
        assert!(pieces > 20, "{pieces}");
        assert!(joined == whole, "the pieces differ from the whole");
        assert!(matches!(
            Pin::new(&mut answer).poll_frame(&mut cx),
            Poll::Ready(None)
        ));
    }
}
