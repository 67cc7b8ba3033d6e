//! Inputs already in memory, read in place by [`super::Batch::rows`].

/// Strings in memory, by index: each row is an input (`None`: a missing
/// one, such as a null of an Arrow array).
pub trait Rows: Sync {
    /// How many rows.
    fn len(&self) -> usize;

    /// Returns true if and only if there are no rows.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Row `i` (below [`Rows::len`]).
    fn row(&self, i: usize) -> Option<&[u8]>;

    /// Hands `each` the rows of `range` (within [`Rows::len`]) in order,
    /// with their numbers: by [`Rows::row`] unless the rows can be walked
    /// faster in order.
    fn each_row<'s>(&'s self, range: std::ops::Range<usize>, mut each: impl FnMut(usize, Option<&'s [u8]>)) {
        for i in range {
            each(i, self.row(i));
        }
    }

    /// The one buffer the rows of `range` lie in, one after another (with
    /// whatever separates them), when they do: the engine then checks it
    /// as UTF-8 once, not row by row. `None` (the default): row by row.
    /// The engine finds each row in it by address and checks it lies
    /// inside, so a wrong block costs speed, never a wrong row.
    fn block(&self, _range: std::ops::Range<usize>) -> Option<&[u8]> {
        None
    }
}

impl<S: AsRef<str> + Sync> Rows for [S] {
    fn len(&self) -> usize {
        <[S]>::len(self)
    }

    fn row(&self, i: usize) -> Option<&[u8]> {
        Some(self[i].as_ref().as_bytes())
    }
}

/// A `Vec` of strings is rows as its slice is: `batch.rows(&urns, ...)`.
///
/// ```
/// use urnreg::batch::{Batch, Json, Options, Shown};
///
/// let urns: Vec<String> = vec!["urn:example:a".into(), "urn:example:a b".into()];
/// let batch = Batch::new(None, Options::default(), Json::lines(Shown::None));
/// let summary = batch.rows(&urns, |_, _| Ok(()))?;
/// assert_eq!((summary.total(), summary.invalid()), (2, 1));
/// # Ok::<(), urnreg::batch::Error>(())
/// ```
impl<S: AsRef<str> + Sync> Rows for Vec<S> {
    fn len(&self) -> usize {
        self.as_slice().len()
    }

    fn row(&self, i: usize) -> Option<&[u8]> {
        Rows::row(self.as_slice(), i)
    }
}

/// The lines of a buffer, as the stream reader cuts them: each ends at
/// `\n` or `\r\n` (the break is not part of it), a last line without a
/// break counts when it is not empty, and a UTF-8 byte-order mark at the
/// very start is no part of the first line.
#[derive(Clone, Debug, Default)]
pub struct LineRows<'a> {
    buffer: &'a [u8],
    lines: Vec<&'a [u8]>,
}

impl<'a> LineRows<'a> {
    /// The lines of `buffer` (found once, not copied).
    pub fn new(buffer: &'a [u8]) -> LineRows<'a> {
        let buffer = buffer.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(buffer);
        let body = buffer.strip_suffix(b"\n").unwrap_or(buffer);
        let lines = if buffer.is_empty() {
            Vec::new()
        } else {
            body.split(|&b| b == b'\n')
                .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
                .collect()
        };
        LineRows { buffer, lines }
    }
}

impl Rows for LineRows<'_> {
    fn len(&self) -> usize {
        self.lines.len()
    }

    fn row(&self, i: usize) -> Option<&[u8]> {
        Some(self.lines[i])
    }

    fn block(&self, range: std::ops::Range<usize>) -> Option<&[u8]> {
        let (first, last) = (
            self.lines.get(range.start)?,
            self.lines.get(range.end.checked_sub(1)?)?,
        );
        // Where the lines are in the buffer they were cut from.
        let at = |line: &[u8]| (line.as_ptr() as usize).checked_sub(self.buffer.as_ptr() as usize);
        self.buffer.get(at(first)?..at(last)? + last.len())
    }
}

/// An offset type of [`OffsetRows`]: `i32` (an Arrow `Utf8` or `Binary`
/// array) or `i64` (`LargeUtf8`, `LargeBinary`).
pub trait Offset: Copy + Sync {
    /// As an index; `None` when negative or too large.
    fn index(self) -> Option<usize>;
}

impl Offset for i32 {
    fn index(self) -> Option<usize> {
        usize::try_from(self).ok()
    }
}

impl Offset for i64 {
    fn index(self) -> Option<usize> {
        usize::try_from(self).ok()
    }
}

/// Strings in the layout of an Arrow string array: `data` holds them one
/// after another, row `i` is `data[offsets[i]..offsets[i + 1]]`, and an
/// optional validity bitmap (bit `i`, least significant first, 1 = present)
/// marks nulls. Nothing is copied.
#[derive(Clone, Copy, Debug)]
pub struct OffsetRows<'a, O> {
    data: &'a [u8],
    offsets: &'a [O],
    validity: Option<&'a [u8]>,
}

impl<'a, O: Offset> OffsetRows<'a, O> {
    /// Checks the layout once (offsets within `data` and never going back,
    /// a validity bitmap long enough), so that reading a row cannot fail.
    ///
    /// # Errors
    ///
    /// What is wrong with the layout (it comes from outside: an array
    /// handed over by another library must not make us read out of bounds).
    pub fn new(data: &'a [u8], offsets: &'a [O], validity: Option<&'a [u8]>) -> Result<Self, String> {
        let rows = offsets.len().saturating_sub(1);
        let mut last = 0;
        for (i, o) in offsets.iter().enumerate() {
            let o = o
                .index()
                .ok_or_else(|| format!("offset {i} is negative or too large"))?;
            if (i > 0 && o < last) || o > data.len() {
                return Err(format!(
                    "offset {i} ({o}) is out of order or past the data ({} bytes)",
                    data.len()
                ));
            }
            last = o;
        }
        if let Some(bits) = validity
            && bits.len() * 8 < rows
        {
            return Err(format!(
                "the validity bitmap has {} bits for {rows} rows",
                bits.len() * 8
            ));
        }
        Ok(OffsetRows {
            data,
            offsets,
            validity,
        })
    }
}

impl<O: Offset> Rows for OffsetRows<'_, O> {
    fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    fn row(&self, i: usize) -> Option<&[u8]> {
        if let Some(bits) = self.validity
            && bits[i / 8] & (1 << (i % 8)) == 0
        {
            return None;
        }
        // Checked in `new`: in bounds and in order.
        let (start, end) = (self.offsets[i].index()?, self.offsets[i + 1].index()?);
        self.data.get(start..end)
    }

    fn block(&self, range: std::ops::Range<usize>) -> Option<&[u8]> {
        let (start, end) = (self.offsets.get(range.start)?, self.offsets.get(range.end)?);
        self.data.get(start.index()?..end.index()?)
    }
}

/// Rows of several [`Rows`] one after another, numbered as one: the
/// chunks of an Arrow chunked array (a Parquet file's row groups), checked
/// in one batch without joining them first.
#[derive(Clone, Debug)]
pub struct ChunkedRows<R> {
    chunks: Vec<R>,
    /// The row number each chunk starts at, and the total after the last.
    starts: Vec<usize>,
}

impl<R: Rows> ChunkedRows<R> {
    /// The rows of `chunks`, in order.
    pub fn new(chunks: Vec<R>) -> ChunkedRows<R> {
        let mut starts = Vec::with_capacity(chunks.len() + 1);
        let mut total = 0;
        for chunk in &chunks {
            starts.push(total);
            total += chunk.len();
        }
        starts.push(total);
        ChunkedRows { chunks, starts }
    }
}

impl<R: Rows> Rows for ChunkedRows<R> {
    fn len(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    fn row(&self, i: usize) -> Option<&[u8]> {
        let c = self.chunk_of(i);
        self.chunks[c].row(i - self.starts[c])
    }

    /// The chunk of the first row found once, then each chunk in turn.
    fn each_row<'s>(&'s self, range: std::ops::Range<usize>, mut each: impl FnMut(usize, Option<&'s [u8]>)) {
        if range.is_empty() {
            return;
        }
        let mut c = self.chunk_of(range.start);
        let mut i = range.start;
        while i < range.end {
            let (start, end) = (self.starts[c], self.starts[c + 1].min(range.end));
            self.chunks[c].each_row(i - start..end - start, |j, row| each(start + j, row));
            i = end;
            c += 1;
        }
    }

    fn block(&self, range: std::ops::Range<usize>) -> Option<&[u8]> {
        if range.is_empty() || range.end > self.len() {
            return None;
        }
        self.block_within_a_chunk(range)
    }
}

impl<R: Rows> ChunkedRows<R> {
    /// The block of `range` when it lies in one chunk (most ranges do).
    fn block_within_a_chunk(&self, range: std::ops::Range<usize>) -> Option<&[u8]> {
        let c = self.chunk_of(range.start);
        let start = self.starts[c];
        if range.end > self.starts[c + 1] {
            return None;
        }
        self.chunks[c].block(range.start - start..range.end - start)
    }
}

impl<R> ChunkedRows<R> {
    /// The chunk holding row `i`: the last one starting at or before it
    /// (an empty chunk shares its start with the next one, which wins).
    fn chunk_of(&self, i: usize) -> usize {
        self.starts[..self.chunks.len()].partition_point(|&s| s <= i) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_as_the_stream_reader_ends_them() {
        let rows = |b: &[u8]| {
            let r = LineRows::new(b);
            (0..r.len())
                .map(|i| r.row(i).unwrap().to_vec())
                .collect::<Vec<_>>()
        };
        assert_eq!(rows(b""), Vec::<Vec<u8>>::new());
        assert_eq!(rows(b"\n"), vec![b"".to_vec()]);
        assert_eq!(rows(b"a\r\nb"), vec![b"a".to_vec(), b"b".to_vec()]);
        assert_eq!(rows(b"a\n\n"), vec![b"a".to_vec(), b"".to_vec()]);
        assert_eq!(rows(b"c\rd\n"), vec![b"c\rd".to_vec()]);
        // A byte-order mark at the very start only.
        assert_eq!(
            rows(b"\xEF\xBB\xBFa\n\xEF\xBB\xBFb"),
            vec![b"a".to_vec(), b"\xEF\xBB\xBFb".to_vec()]
        );
        assert_eq!(rows(b"\xEF\xBB\xBF"), Vec::<Vec<u8>>::new());
    }

    #[test]
    fn offsets_are_checked_once_and_rows_read_in_place() {
        let data = b"urn:a:bxurn:c:d";
        let rows = OffsetRows::new(data, &[0i32, 7, 8, 15], Some(&[0b101])).unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows.row(0), Some(&b"urn:a:b"[..]));
        assert_eq!(rows.row(1), None, "null");
        assert_eq!(rows.row(2), Some(&b"urn:c:d"[..]));
        let large = OffsetRows::new(data, &[0i64, 15], None).unwrap();
        assert_eq!(large.row(0), Some(&data[..]));
        assert!(OffsetRows::new(data, &[0i32, 16], None).is_err(), "past the data");
        assert!(OffsetRows::new(data, &[0i32, 7, 3], None).is_err(), "backwards");
        assert!(OffsetRows::new(data, &[-1i32, 3], None).is_err(), "negative");
        assert!(
            OffsetRows::new(data, &[0i32; 10], Some(&[0])).is_err(),
            "bitmap too short"
        );
        assert_eq!(OffsetRows::<i32>::new(data, &[], None).unwrap().len(), 0);
    }

    #[test]
    fn chunks_are_numbered_as_one_array() {
        let data = b"urn:a:burn:c:d";
        let first = OffsetRows::new(data, &[0i32, 7], None).unwrap();
        let empty = OffsetRows::new(data, &[7i32], None).unwrap();
        let second = OffsetRows::new(data, &[7i32, 7, 14], Some(&[0b10])).unwrap();
        let rows = ChunkedRows::new(vec![empty, first, empty, empty, second, empty]);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows.row(0), Some(&b"urn:a:b"[..]));
        assert_eq!(rows.row(1), None, "null in the second chunk");
        assert_eq!(rows.row(2), Some(&b"urn:c:d"[..]));
        for range in [0..3, 1..3, 2..3, 1..2, 3..3] {
            let mut walked = Vec::new();
            rows.each_row(range.clone(), |i, row| walked.push((i, row)));
            let by_index: Vec<_> = range.map(|i| (i, rows.row(i))).collect();
            assert_eq!(walked, by_index);
        }
        let none = ChunkedRows::<OffsetRows<'_, i32>>::new(Vec::new());
        assert_eq!(none.len(), 0);
        // A block only within one chunk: across two, the rows go one by one.
        assert_eq!(rows.block(1..3), Some(&b"urn:c:d"[..]));
        assert_eq!(rows.block(0..1), Some(&b"urn:a:b"[..]));
        assert_eq!(rows.block(0..2), None);
        assert_eq!(rows.block(2..4), None, "past the end");
        assert_eq!(none.block(0..0), None);
    }
}
