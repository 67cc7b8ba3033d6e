//! Where URNs come from: arguments, or lines of a stream read in constant
//! memory.

use std::ffi::OsString;
use std::io::{self, BufRead, IsTerminal};

/// Lines longer than this are reported as too long instead of being held in
/// memory (a URN is rarely longer than a few hundred bytes).
pub const MAX_LINE: usize = 1 << 20;

/// One input line: its bytes without the `\n` / `\r\n` terminator, and
/// whether it had to be cut at [`MAX_LINE`].
pub struct Line<'b> {
    pub bytes: &'b [u8],
    pub truncated: bool,
}

/// Reads lines of at most [`MAX_LINE`] bytes, reusing one buffer.
pub struct LineReader<R> {
    reader: R,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(reader: R) -> Self {
        LineReader {
            reader,
            buf: Vec::with_capacity(256),
        }
    }

    /// True if and only if the next read has to wait for the source, so
    /// that output can be flushed first.
    pub fn would_block(&mut self) -> bool
    where
        R: HasBuffer,
    {
        self.reader.buffered_is_empty()
    }

    /// The next line, or `None` at the end of input.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        let found = self.next_line_into(&mut buf);
        self.buf = buf;
        Ok(found?.map(|truncated| Line {
            bytes: &self.buf,
            truncated,
        }))
    }

    /// Appends the next line (without its `\n` or `\r\n`) to `dest`;
    /// `Some(truncated)`, or `None` at the end of input. A line is cut at
    /// [`MAX_LINE`] bytes, not counting its terminator, and the rest of it
    /// is skipped without being kept.
    fn next_line_into(&mut self, dest: &mut Vec<u8>) -> io::Result<Option<bool>> {
        let start = dest.len();
        // One byte more than the limit may be kept: a '\r' before '\n'.
        let keep = MAX_LINE + 1;
        let mut saw_any = false;
        let mut had_newline = false;
        let mut overflow = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                if !saw_any {
                    return Ok(None);
                }
                break;
            }
            saw_any = true;
            let (chunk, used, done) = match memchr_newline(available) {
                Some(i) => (&available[..i], i + 1, true),
                None => (available, available.len(), false),
            };
            let room = keep.saturating_sub(dest.len() - start);
            if chunk.len() > room {
                overflow = true;
            }
            dest.extend_from_slice(&chunk[..chunk.len().min(room)]);
            self.reader.consume(used);
            if done {
                had_newline = true;
                break;
            }
        }
        // "\r\n" ends a line too; a "\r" not followed by "\n" is part of it.
        if had_newline && !overflow && dest.last() == Some(&b'\r') && dest.len() > start {
            dest.pop();
        }
        let truncated = overflow || dest.len() - start > MAX_LINE;
        if truncated {
            dest.truncate(start + MAX_LINE);
        }
        Ok(Some(truncated))
    }
}

fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    memchr::memchr(b'\n', bytes)
}

/// Readers that can tell whether they hold unread bytes.
pub trait HasBuffer {
    fn buffered_is_empty(&self) -> bool;
}

impl<R> HasBuffer for io::BufReader<R> {
    fn buffered_is_empty(&self) -> bool {
        self.buffer().is_empty()
    }
}

/// True if the command should read stdin: `-` given, or nothing given and
/// stdin is not a terminal.
pub fn wants_stdin(args: &[OsString]) -> bool {
    match args {
        [] => !io::stdin().is_terminal(),
        [one] => one == "-",
        _ => false,
    }
}
