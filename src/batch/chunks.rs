//! A stream cut into chunks of whole lines.
//!
//! Reading takes large blocks straight into a chunk's buffer and only
//! counts line breaks and finds the last one (both vectorized); the worker
//! that checks a chunk splits it into lines. A chunk holds at
//! most [`CHUNK_LINES`] lines and about [`CHUNK_BYTES`] bytes, so memory
//! stays bounded by the number of chunks in flight whatever the input.
//!
//! A UTF-8 byte-order mark at the very start of the input is skipped: it
//! is no part of the first line.
//!
//! A line is cut at [`MAX_LINE`] bytes, not counting its `\n` or `\r\n`:
//! the reader keeps one byte more than that of a longer line (so that the
//! worker sees it is too long) and skips the rest without keeping it.

use std::io::{self, Read};

use super::MAX_LINE;

/// A chunk ends once it holds this many lines...
pub const CHUNK_LINES: usize = 8192;
/// ... or this many bytes (a longer line still fits whole, up to the cut).
pub const CHUNK_BYTES: usize = 128 * 1024;
/// How much one `read` asks for...
const READ_SIZE: usize = 64 * 1024;
/// ... and at least, when chunks take few lines.
const MIN_READ_SIZE: usize = 4 * 1024;
/// How much of a chunk is checked as UTF-8 at once (to a line's end):
/// little, so that a walk that stops early (where a part of a chunk's
/// output ends) has not checked much past it.
const TEXT_STRETCH: usize = 8 * 1024;

/// Finds line breaks with one searcher made once per walk of a chunk:
/// `memchr::memchr` picks its searcher and makes it again on every call,
/// which on lines of 30 bytes was most of the cost of finding their ends.
struct LineBreaks {
    #[cfg(target_arch = "x86_64")]
    avx2: Option<memchr::arch::x86_64::avx2::memchr::One>,
}

impl LineBreaks {
    fn new() -> LineBreaks {
        LineBreaks {
            #[cfg(target_arch = "x86_64")]
            avx2: memchr::arch::x86_64::avx2::memchr::One::new(b'\n'),
        }
    }

    /// The offset of the first `\n` in `bytes`.
    #[inline]
    fn find(&self, bytes: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some(one) = &self.avx2 {
            return one.find(bytes);
        }
        memchr::memchr(b'\n', bytes)
    }
}

/// Lines read from the input: their bytes, terminators included, and the
/// number of the first one.
#[derive(Default, Debug)]
pub struct Chunk {
    bytes: Buffer,
    first_line: u64,
    lines: u64,
}

/// One line of a chunk.
pub struct Line<'c> {
    /// Its number in the input, from 1.
    pub number: u64,
    /// Its bytes, without the `\n` or `\r\n`, and at most [`MAX_LINE`].
    pub bytes: &'c [u8],
    /// The same as text, when the whole chunk is UTF-8.
    pub text: Option<&'c str>,
    /// True if and only if the line was longer than [`MAX_LINE`] and cut.
    pub truncated: bool,
}

/// Where a chunk's lines go on from: the byte a line starts at, and its
/// number ([`Chunk::for_each_line_from`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinePos {
    /// Offset of the line's first byte in the chunk.
    pub byte: usize,
    /// Its number in the input, from 1.
    pub number: u64,
}

impl Chunk {
    /// Calls `each` for every line, in order.
    pub fn for_each_line<'c>(&'c self, mut each: impl FnMut(Line<'c>)) {
        self.for_each_line_from(self.start(), |line| {
            each(line);
            true
        });
    }

    /// Where its first line starts.
    pub fn start(&self) -> LinePos {
        LinePos {
            byte: 0,
            number: self.first_line,
        }
    }

    /// Where it ends: past its last line.
    pub fn end(&self) -> LinePos {
        LinePos {
            byte: self.bytes.len(),
            number: self.first_line + self.lines,
        }
    }

    /// Calls `each` for every line from `from` (a line's start, from
    /// [`Chunk::start`] or an earlier call), in order, until `each`
    /// returns false: then returns where the next line starts, if there
    /// is one (`None`: every line was seen).
    pub fn for_each_line_from<'c>(
        &'c self,
        from: LinePos,
        mut each: impl FnMut(Line<'c>) -> bool,
    ) -> Option<LinePos> {
        let bytes = &self.bytes[..];
        let mut start = from.byte.min(bytes.len());
        // One UTF-8 check for a stretch of lines instead of one per line
        // (of TEXT_STRETCH bytes, to the end of a line: a walk that stops
        // early has not checked the whole chunk): `text` holds the lines
        // from `text_at` on when they are UTF-8.
        let (mut text, mut text_at, mut text_end): (Option<&str>, usize, usize) = (None, start, start);
        let mut number = from.number;
        let breaks = LineBreaks::new();
        while start < bytes.len() {
            let (end, next) = match breaks.find(&bytes[start..]) {
                Some(i) => {
                    let end = start + i;
                    // "\r\n" ends a line too; a lone "\r" is part of it.
                    let end = if end > start && bytes[end - 1] == b'\r' {
                        end - 1
                    } else {
                        end
                    };
                    (end, start + i + 1)
                }
                // The last line, without a line break: a '\r' ending the
                // input is its line break's half, not part of it.
                None => {
                    let end = bytes.len();
                    // (Not on a line cut at the limit: its last byte kept
                    // may be any.)
                    let whole = end - start <= MAX_LINE;
                    let cut = if whole && end > start && bytes[end - 1] == b'\r' {
                        end - 1
                    } else {
                        end
                    };
                    (cut, end)
                }
            };
            if next > text_end {
                // The next stretch, from this line on, to a line's end.
                let far = (start + TEXT_STRETCH).max(next).min(bytes.len());
                text_end = memchr::memchr(b'\n', &bytes[far..]).map_or(bytes.len(), |i| far + i + 1);
                text_at = start;
                text = utf8(&bytes[start..text_end]);
            }
            let truncated = end - start > MAX_LINE;
            let end = if truncated { start + MAX_LINE } else { end };
            let more = each(Line {
                number,
                bytes: &bytes[start..end],
                // A cut may split a character: only whole lines as text.
                text: text
                    .filter(|_| !truncated)
                    .map(|t| &t[start - text_at..end - text_at]),
                truncated,
            });
            number += 1;
            start = next;
            if !more && start < bytes.len() {
                return Some(LinePos { byte: start, number });
            }
        }
        None
    }

    /// How many lines it holds.
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// How many input bytes it holds.
    pub fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// Returns true if and only if it holds no input.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Gives back memory a chunk of huge lines took, so that the pool
    /// holds at most a few MiB per chunk between such lines.
    pub fn shrink(&mut self) {
        const KEEP: usize = 4 * CHUNK_BYTES;
        if self.bytes.capacity() > KEEP {
            self.bytes = Buffer::default();
        }
    }
}

/// A byte buffer whose memory past its length stays initialized: reading
/// into it zeroes only what it has never held (a `Vec` resized for each
/// read wrote zeros over 64 KiB first, every time).
#[derive(Default, Debug)]
struct Buffer {
    /// Every byte ever made room for; those past `len` are stale.
    data: Vec<u8>,
    len: usize,
}

impl std::ops::Deref for Buffer {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.data[..self.len]
    }
}

impl Buffer {
    fn capacity(&self) -> usize {
        self.data.len()
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    fn extend_from_slice(&mut self, bytes: &[u8]) {
        self.spare(bytes.len())[..bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    /// At least `n` writable bytes after the end (`commit` takes them in).
    fn spare(&mut self, n: usize) -> &mut [u8] {
        if self.data.len() < self.len + n {
            self.data.resize(self.len + n, 0);
        }
        &mut self.data[self.len..]
    }

    /// Takes in `n` bytes written into [`Buffer::spare`].
    fn commit(&mut self, n: usize) {
        self.len = (self.len + n).min(self.data.len());
    }

    /// Removes the bytes of `range`, moving those after it down.
    fn remove(&mut self, range: std::ops::Range<usize>) {
        self.data.copy_within(range.end..self.len, range.start);
        self.len -= range.len();
    }
}

/// Counts the line breaks in `bytes`: byte-wide counters over blocks of
/// 255 bytes, a loop the compiler vectorizes.
fn count_newlines(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|block| usize::from(block.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'))))
        .sum()
}

/// The offset of the `n`-th line break (from 0) in `bytes`, if any:
/// counts whole blocks first, then looks inside the one that holds it.
fn nth_newline(bytes: &[u8], mut n: usize) -> Option<usize> {
    let mut start = 0;
    for block in bytes.chunks(255) {
        let found = count_newlines(block);
        if n < found {
            return memchr::memchr_iter(b'\n', block).nth(n).map(|i| start + i);
        }
        n -= found;
        start += block.len();
    }
    None
}

/// Cuts a stream into [`Chunk`]s.
pub struct ChunkReader<R> {
    reader: R,
    /// Bytes read past the end of the last chunk, from `carry_at` on: the
    /// start of the next.
    carry: Buffer,
    carry_at: usize,
    /// Skipping the rest of a line longer than [`MAX_LINE`].
    skipping: bool,
    at_end: bool,
    last_read_short: bool,
    next_line: u64,
    /// The most lines a chunk holds ([`CHUNK_LINES`] unless set lower).
    max_lines: usize,
    /// The bytes of a line, on average, in the last chunk cut by reading.
    line_bytes: usize,
    /// Nothing has been read yet: a byte-order mark may start the input.
    at_start: bool,
}

impl<R: Read> ChunkReader<R> {
    /// Lines of `reader`, numbered from 1.
    pub fn new(reader: R) -> Self {
        ChunkReader {
            reader,
            carry: Buffer::default(),
            carry_at: 0,
            skipping: false,
            at_end: false,
            last_read_short: false,
            next_line: 1,
            max_lines: CHUNK_LINES,
            line_bytes: 64,
            at_start: true,
        }
    }

    /// Skips a UTF-8 byte-order mark at the very start of the input (as
    /// Windows tools write one): it is no part of the first line. Reads
    /// only until the first bytes tell: input that cannot start one (a
    /// co-process's first line) is not waited on.
    fn skip_bom(&mut self) -> io::Result<()> {
        const BOM: &[u8] = b"\xEF\xBB\xBF";
        self.at_start = false;
        let mut carry = std::mem::take(&mut self.carry);
        let mut read = Ok(());
        while carry.len() < BOM.len() && BOM.starts_with(&carry) && !self.at_end {
            match self.read_more(&mut carry, READ_SIZE) {
                Ok(short) => self.last_read_short = short,
                Err(e) => {
                    read = Err(e);
                    break;
                }
            }
        }
        if carry.starts_with(BOM) {
            carry.remove(0..BOM.len());
        }
        self.carry = carry;
        read
    }

    /// Chunks from now on hold at most `lines` lines (1 to
    /// [`CHUNK_LINES`]): fewer when each line's output is large, so that a
    /// chunk's output stays near a size.
    pub fn set_max_lines(&mut self, lines: usize) {
        self.max_lines = lines.clamp(1, CHUNK_LINES);
    }

    /// Reads more into `bytes`, dropping what belongs to a line being
    /// skipped. Returns true if the read came back short (the source had
    /// no more ready, or its end was reached).
    fn read_more(&mut self, bytes: &mut Buffer, want: usize) -> io::Result<bool> {
        let start = bytes.len();
        let n = loop {
            match self.reader.read(&mut bytes.spare(want)[..want]) {
                Ok(n) => break n.min(want),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        };
        bytes.commit(n);
        if n == 0 {
            self.at_end = true;
        }
        if self.skipping {
            match memchr::memchr(b'\n', &bytes[start..]) {
                Some(i) => {
                    bytes.remove(start..start + i + 1);
                    self.skipping = false;
                }
                None => bytes.truncate(start),
            }
        }
        Ok(n < want)
    }

    /// Fills `chunk` with the next lines; false at the end of input.
    pub fn fill(&mut self, chunk: &mut Chunk) -> io::Result<bool> {
        if self.at_start {
            self.skip_bom()?;
        }
        let bytes = &mut chunk.bytes;
        bytes.clear();
        // Chunks of few lines: cut out of the carry when it holds enough
        // of them (a read past the last chunk's end).
        if self.max_lines < CHUNK_LINES
            && let Some(i) = nth_newline(&self.carry[self.carry_at..], self.max_lines - 1)
        {
            bytes.extend_from_slice(&self.carry[self.carry_at..self.carry_at + i + 1]);
            self.carry_at += i + 1;
            chunk.first_line = self.next_line;
            chunk.lines = self.max_lines as u64;
            self.next_line += self.max_lines as u64;
            return Ok(true);
        }
        let carried = &self.carry[self.carry_at..];
        bytes.extend_from_slice(carried);
        self.carry.clear();
        self.carry_at = 0;
        // Bytes up to `scanned` are counted: `lines` line breaks, the last
        // ending at `complete` (0: none yet).
        let (mut scanned, mut lines, mut complete) = (0, 0, 0);
        // Whether the last read came back short: the source has nothing
        // more ready, so whole lines already read are given back at once.
        let mut short = self.last_read_short;
        let cut = loop {
            let fresh = &bytes[scanned..];
            let found = count_newlines(fresh);
            if lines + found >= self.max_lines {
                // Cut right after the max_lines-th line break.
                let at =
                    nth_newline(fresh, self.max_lines - lines - 1).map_or(bytes.len(), |i| scanned + i + 1);
                lines = self.max_lines;
                break at;
            }
            if found > 0 {
                lines += found;
                complete = scanned + memchr::memrchr(b'\n', fresh).map_or(0, |i| i + 1);
            }
            scanned = bytes.len();
            if bytes.len() - complete > MAX_LINE + 1 {
                // The line after the last break is too long: keep enough of
                // it to say so, skip the rest up to its line break.
                let keep = complete + MAX_LINE + 1;
                match memchr::memchr(b'\n', &bytes[keep..]) {
                    Some(i) => self.carry.extend_from_slice(&bytes[keep + i + 1..]),
                    None => self.skipping = true,
                }
                bytes.truncate(keep);
                lines += 1;
                break keep;
            }
            if self.at_end {
                if bytes.len() > complete {
                    lines += 1; // the last line, without a line break
                }
                break bytes.len();
            }
            if complete > 0 && (short || bytes.len() >= CHUNK_BYTES) {
                break complete;
            }
            // Chunks of few lines read about what they need (as long as
            // the last chunk's lines), not a whole block whose rest is
            // copied out to the next chunk and back.
            let want = if self.max_lines < CHUNK_LINES && !self.skipping {
                let per_line = self.line_bytes.max(1);
                ((self.max_lines - lines + 1) * per_line).clamp(MIN_READ_SIZE, READ_SIZE)
            } else {
                READ_SIZE
            };
            short = self.read_more(bytes, want)?;
        };
        self.last_read_short = short;
        if cut < bytes.len() {
            self.carry.extend_from_slice(&bytes[cut..]);
            bytes.truncate(cut);
        }
        chunk.first_line = self.next_line;
        chunk.lines = lines as u64;
        self.next_line += lines as u64;
        if let Some(per_line) = bytes.len().checked_div(lines) {
            self.line_bytes = per_line;
        }
        Ok(!bytes.is_empty())
    }
}

/// `bytes` as text when it is all UTF-8: checked with SIMD (a stretch of
/// URNs is mostly ASCII, which std's check walks a word at a time).
#[inline]
pub(crate) fn utf8(bytes: &[u8]) -> Option<&str> {
    simdutf8::basic::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out its bytes a few at a time, like a pipe.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn all_lines(input: &[u8], step: usize) -> Vec<(u64, Vec<u8>, bool)> {
        let mut reader = ChunkReader::new(Trickle(input, step));
        let mut chunk = Chunk::default();
        let mut seen = Vec::new();
        while reader.fill(&mut chunk).unwrap() {
            let before = seen.len();
            chunk.for_each_line(|l| {
                if let Some(t) = l.text {
                    assert_eq!(t.as_bytes(), l.bytes);
                }
                seen.push((l.number, l.bytes.to_vec(), l.truncated));
            });
            assert_eq!(seen.len() - before, chunk.lines() as usize);
            assert!(chunk.lines() as usize <= CHUNK_LINES);
        }
        seen
    }

    #[test]
    fn lines_are_numbered_and_terminators_dropped() {
        for step in [1, 3, 7, READ_SIZE] {
            let got = all_lines(b"a\nb\r\n\nc\rd\nlast\r", step);
            let want: Vec<(u64, Vec<u8>, bool)> = vec![
                (1, b"a".to_vec(), false),
                (2, b"b".to_vec(), false),
                (3, b"".to_vec(), false),
                (4, b"c\rd".to_vec(), false),
                (5, b"last".to_vec(), false),
            ];
            assert_eq!(got, want, "step {step}");
        }
        assert!(all_lines(b"", 5).is_empty());
        assert_eq!(all_lines(b"\n", 5), vec![(1, Vec::new(), false)]);
    }

    #[test]
    fn many_short_lines_make_several_chunks() {
        let input = "x\n".repeat(3 * CHUNK_LINES + 5);
        for step in [100, READ_SIZE] {
            let got = all_lines(input.as_bytes(), step);
            assert_eq!(got.len(), 3 * CHUNK_LINES + 5);
            assert!(
                got.iter()
                    .enumerate()
                    .all(|(i, l)| l.0 == i as u64 + 1 && l.1 == b"x")
            );
        }
    }

    /// The limit excludes the terminator; longer lines are cut at it, and
    /// the rest of them is skipped, not taken for lines of its own.
    #[test]
    fn long_lines_are_cut_at_the_limit() {
        let exact = "a".repeat(MAX_LINE);
        let over = "b".repeat(MAX_LINE + 1);
        let huge = "c".repeat(3 * MAX_LINE + 17);
        let input = format!("{exact}\r\n{over}\n{huge}\nok\n{exact}\n{huge}");
        for step in [READ_SIZE, 100_000] {
            let got = all_lines(input.as_bytes(), step);
            let summary: Vec<(u64, usize, bool)> = got.iter().map(|l| (l.0, l.1.len(), l.2)).collect();
            assert_eq!(
                summary,
                vec![
                    (1, MAX_LINE, false),
                    (2, MAX_LINE, true),
                    (3, MAX_LINE, true),
                    (4, 2, false),
                    (5, MAX_LINE, false),
                    (6, MAX_LINE, true),
                ],
                "step {step}"
            );
        }
    }

    #[test]
    fn line_breaks_are_counted_and_found() {
        let text: Vec<u8> = (0..2000u32)
            .map(|i| if i % 7 == 3 { b'\n' } else { b'a' })
            .collect();
        let naive: Vec<usize> = text
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .map(|(i, _)| i)
            .collect();
        assert_eq!(count_newlines(&text), naive.len());
        for (n, at) in naive.iter().enumerate() {
            assert_eq!(nth_newline(&text, n), Some(*at));
        }
        assert_eq!(nth_newline(&text, naive.len()), None);
        assert_eq!(count_newlines(&[b'\n'; 1000]), 1000);
    }

    /// Chunks cut to fewer lines give the same lines, in order; a chunk's
    /// lines walked in parts are its lines.
    #[test]
    fn fewer_lines_per_chunk_and_lines_in_parts() {
        let input: String = (0..3000).map(|i| format!("line {i}\r\n")).collect();
        let whole = all_lines(input.as_bytes(), READ_SIZE);
        for (max, step) in [(7, READ_SIZE), (1, 100), (300, 13), (CHUNK_LINES, 1000)] {
            let mut reader = ChunkReader::new(Trickle(input.as_bytes(), step));
            reader.set_max_lines(max);
            let mut chunk = Chunk::default();
            let mut seen = Vec::new();
            while reader.fill(&mut chunk).unwrap() {
                assert!(chunk.lines() as usize <= max);
                // In parts of 3 lines, each part starting where the last
                // stopped.
                let mut from = chunk.start();
                loop {
                    let mut n = 0;
                    let rest = chunk.for_each_line_from(from, |l| {
                        seen.push((l.number, l.bytes.to_vec(), l.truncated));
                        n += 1;
                        n < 3
                    });
                    match rest {
                        Some(rest) => from = rest,
                        None => break,
                    }
                }
            }
            assert!(seen == whole, "{max} lines, reads of {step}");
        }
    }

    /// A UTF-8 byte-order mark at the very start is skipped, however the
    /// reads cut it; anywhere else, or alone, it stays.
    #[test]
    fn a_byte_order_mark_at_the_start_is_skipped() {
        for step in [1, 2, 3, 5, READ_SIZE] {
            let got = all_lines(b"\xEF\xBB\xBFurn:a:b\n\xEF\xBB\xBFc\n", step);
            assert_eq!(
                got,
                vec![
                    (1, b"urn:a:b".to_vec(), false),
                    (2, b"\xEF\xBB\xBFc".to_vec(), false)
                ],
                "step {step}"
            );
            assert_eq!(all_lines(b"\xEF\xBB\xBF", step), vec![], "step {step}");
            assert_eq!(
                all_lines(b"\xEF\xBBx\n", step),
                vec![(1, b"\xEF\xBBx".to_vec(), false)]
            );
            assert_eq!(
                all_lines(b"\xEF\xBB", step),
                vec![(1, b"\xEF\xBB".to_vec(), false)]
            );
        }
    }

    #[test]
    fn invalid_utf8_gives_bytes_only() {
        let got = all_lines(b"ok\n\xff\n", 10);
        assert_eq!(got.len(), 2);
        let mut reader = ChunkReader::new(Trickle(b"ok\n\xff\n", 10));
        let mut chunk = Chunk::default();
        assert!(reader.fill(&mut chunk).unwrap());
        chunk.for_each_line(|l| assert!(l.text.is_none()));
    }
}
