//! `urnreg._urnreg`: the native half of the Python package. The Python
//! half (`urnreg/__init__.py`) wraps it in typed objects and reads Arrow
//! arrays through pyarrow.
//!
//! Arrow arrays are read in place: Python hands over the addresses of an
//! array's buffers (held alive by the caller for the call) and the batch
//! engine of the library checks the rows on every core with the GIL
//! released, through one more [`Sink`]: columns.

use std::sync::Arc;

use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use urnreg::batch::{Batch, ChunkedRows, MAX_LINE, Offset, OffsetRows, Options, Sink};
use urnreg::{Checker, Report, Syntax};

/// A registry of namespaces: the one shipped in the package, or a urnreg
/// database.
#[pyclass(module = "urnreg._urnreg", frozen)]
struct Registry {
    inner: Arc<urnreg::Registry>,
}

#[pymethods]
impl Registry {
    /// The registry shipped in the package (the IANA registry with
    /// urnreg's rules).
    #[staticmethod]
    fn embedded() -> Registry {
        Registry {
            inner: Arc::new(urnreg::Registry::embedded().clone()),
        }
    }

    /// The registry of a urnreg database (made by `urnreg init`, `urnreg
    /// import` or `urnreg serve`, opened read-only), or of a snapshot
    /// (`urnreg export`): a directory, a `registry.json` or an
    /// `urn-namespaces.xml`, read with its checksums verified. `path` is a
    /// `str`, `bytes` or `os.PathLike`, as `open()` takes it.
    #[staticmethod]
    fn from_path(path: &Bound<'_, PyAny>) -> PyResult<Registry> {
        // os.fsdecode takes what open() takes (bytes as the file system
        // encodes names) and says which type it is not.
        let os = path.py().import("os")?;
        let path: std::path::PathBuf = os.call_method1("fsdecode", (path,))?.extract()?;
        if let Some(at) = path.as_os_str().as_encoded_bytes().iter().position(|&b| b == 0) {
            // No file name holds one (Python's open() refuses it too).
            return Err(PyValueError::new_err(format!(
                "{path:?}: a path cannot hold a NUL byte (embedded null byte at byte {at})"
            )));
        }
        // The whole chain of causes, as the command line says it.
        let failed = |e: &dyn std::error::Error| {
            let mut message = format!("{}: {e}", path.display());
            let mut cause = e.source();
            while let Some(c) = cause {
                // A cause an error's own text already quotes, once.
                let text = c.to_string();
                if !message.contains(&text) {
                    message.push_str(&format!(": {text}"));
                }
                cause = c.source();
            }
            PyOSError::new_err(message)
        };
        match std::fs::metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(PyFileNotFoundError::new_err((
                    2,
                    format!("no database or snapshot at {}", path.display()),
                    path.display().to_string(),
                )));
            }
            Ok(meta) if !meta.is_dir() && !meta.is_file() => {
                // Opening a FIFO would wait for a writer; a device is no
                // database either (the command line's words).
                return Err(PyOSError::new_err(format!(
                    "{} is not a regular file (a FIFO, socket or device): an urnreg database is an SQLite file, a snapshot a directory or file",
                    path.display()
                )));
            }
            Ok(meta) if !meta.is_dir() && meta.len() == 0 => {
                return Err(PyOSError::new_err(format!(
                    "{}: an empty file (or a special file that gives its size as 0, as /proc's do), not an urnreg database or snapshot",
                    path.display()
                )));
            }
            _ => {}
        }
        let is_snapshot = path.is_dir()
            || path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("json") || e.eq_ignore_ascii_case("xml"));
        let inner = if is_snapshot {
            urnreg::snapshot::read(&path)
                .map_err(|e| failed(&e))?
                .snapshot
                .registry()
        } else {
            let store = urnreg::registry::Store::open_read_only(&path).map_err(|e| failed(&e))?;
            urnreg::Registry::from_store(&store).map_err(|e| failed(&e))?
        };
        Ok(Registry {
            inner: Arc::new(inner),
        })
    }

    /// The registered NIDs, in the registry's order.
    fn nids(&self) -> Vec<String> {
        self.inner.namespaces().map(|n| n.nid().to_string()).collect()
    }

    /// `{nid, kind, status, syntax, rules_source}` of a namespace, or None.
    fn namespace<'py>(&self, py: Python<'py>, nid: &str) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(ns) = self.inner.namespace(nid) else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("nid", ns.nid())?;
        d.set_item("kind", ns.kind().as_str())?;
        d.set_item("status", ns.status().as_str())?;
        d.set_item("syntax", ns.syntax_name())?;
        let source = ns.rules().ok().flatten().map(|r| r.source().to_string());
        d.set_item("rules_source", source)?;
        Ok(Some(d))
    }

    /// The report on one URN as `urnreg check --format jsonl` writes it
    /// (JSON text).
    ///
    /// `urn` is a `str` (its UTF-8), or `bytes` as they are (as a `binary`
    /// Arrow array's rows are read). A `str` that UTF-8 cannot encode (a
    /// lone surrogate, as `errors="surrogateescape"` decoding leaves for a
    /// byte that was not UTF-8) is checked as the bytes it stands for: the
    /// escaped byte back, else the surrogate as `surrogatepass` writes it;
    /// either way a verdict (`non-ascii`), never an exception.
    #[pyo3(signature = (urn, strict = false, syntax_only = false, rfc2141 = false))]
    fn check_json(
        &self,
        urn: &Bound<'_, PyAny>,
        strict: bool,
        syntax_only: bool,
        rfc2141: bool,
    ) -> PyResult<String> {
        // Kept for the call: the text's UTF-8, or its bytes re-encoded.
        let (text, encoded);
        let bytes: &[u8] = if let Ok(s) = urn.downcast::<PyString>() {
            match s.to_cow() {
                Ok(utf8) => {
                    text = utf8;
                    text.as_bytes()
                }
                Err(_) => {
                    let escaped = s
                        .call_method1("encode", ("utf-8", "surrogateescape"))
                        .or_else(|_| s.call_method1("encode", ("utf-8", "surrogatepass")))?;
                    encoded = escaped.downcast_into::<PyBytes>()?;
                    encoded.as_bytes()
                }
            }
        } else if let Ok(raw) = urn.downcast::<PyBytes>() {
            raw.as_bytes()
        } else {
            return Err(PyTypeError::new_err(format!(
                "urnreg checks a URN given as str (or bytes), not {}",
                urn.get_type().name()?
            )));
        };
        let registry = (!syntax_only).then_some(&*self.inner);
        let mut checker = Checker::with_registry(registry)
            .with_syntax(syntax(rfc2141))
            .strict(strict);
        let mut out = Vec::new();
        let report = if bytes.len() > MAX_LINE {
            // The limit of the Arrow paths (the batch engine's) and of the
            // command line's lines, so that a string gets one verdict
            // whichever way it is checked; its input shown cut where they
            // cut it (MAX_LINE bytes).
            checker.line_too_long(&bytes[..MAX_LINE], MAX_LINE)
        } else {
            checker.check(bytes)
        };
        report.write_json(&mut out, None);
        // The report's JSON is UTF-8 (text that is not goes as
        // `input_base64`).
        String::from_utf8(out).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Checks the rows of an Arrow string array, or of every chunk of a
    /// chunked one, given by their pyarrow buffers, on `jobs` threads (0:
    /// one per core) without the GIL: one batch over all the chunks, into
    /// one set of columns (nothing to join afterwards).
    ///
    /// Each chunk is `(rows, data, offsets, first, validity)`: its
    /// `pyarrow.Buffer`s (data and validity may be None), and `first`, the
    /// array's offset (its first row's index into the offsets buffer and
    /// the validity bitmap). Every buffer's size is checked against what
    /// the rows need before any of it is read: a wrong spec is a
    /// ValueError, never a read out of bounds.
    ///
    /// Returns Arrow buffers, ready for `pyarrow.Array.from_buffers`: the
    /// inputs' validity bitmap (None without nulls) and the `valid` bits;
    /// then, for each of nid, key, error kind and error message, its
    /// validity bitmap, offsets and data (None when not in `want`); then
    /// the error offsets' validity bitmap and int64 values. And the width
    /// of each string column's offsets: 4 (`string`) unless its text
    /// passes 2 GiB, then 8 (`large_string`). `want` names the columns to
    /// make: "nid", "key", "kind", "message", "offset" (valid is always
    /// made).
    #[pyo3(signature = (chunks, offset_width, strict = false, syntax_only = false, rfc2141 = false, jobs = 0, want = None))]
    #[allow(clippy::too_many_arguments)]
    fn _check_columns<'py>(
        &self,
        py: Python<'py>,
        chunks: Vec<ChunkSpec<'py>>,
        offset_width: usize,
        strict: bool,
        syntax_only: bool,
        rfc2141: bool,
        jobs: usize,
        want: Option<Vec<String>>,
    ) -> PyResult<HandedOver> {
        let wants = |name: &str| want.as_ref().is_none_or(|w| w.iter().any(|x| x == name));
        let sink = Columns {
            nid: wants("nid"),
            key: wants("key"),
            kind: wants("kind"),
            message: wants("message"),
            offset: wants("offset"),
        };
        if offset_width != 4 && offset_width != 8 {
            return Err(PyValueError::new_err("offsets are int32 or int64"));
        }
        let buffer_type = py.import("pyarrow")?.getattr("Buffer")?;
        let chunks = chunks
            .iter()
            .map(|spec| Chunk::of(spec, offset_width, &buffer_type))
            .collect::<PyResult<Vec<Chunk>>>()?;
        let rows: usize = chunks.iter().map(|c| c.rows).sum();
        // The validity bits of each chunk, from bit 0 (owned: a slice may
        // start mid-byte).
        let bits: Vec<Option<Vec<u8>>> = chunks
            .iter()
            .map(|c| {
                c.validity.map(|(address, _)| {
                    // SAFETY: `Chunk::of` checked that the live pyarrow
                    // buffer at `address` (kept referenced by the caller's
                    // `chunks` for the whole call) holds these bytes.
                    let raw = unsafe {
                        std::slice::from_raw_parts(address as *const u8, (c.first + c.rows).div_ceil(8))
                    };
                    shifted(raw, c.first, c.rows)
                })
            })
            .collect();
        let registry = (!syntax_only).then(|| Arc::clone(&self.inner));
        let options = Options {
            syntax: syntax(rfc2141),
            strict,
            warnings: false,
            // Messages only when their column is asked for.
            messages: sink.message,
            detailed_summary: false,
        };
        let batch = Batch::new(registry, options, sink).with_jobs(jobs);
        let all = if offset_width == 4 {
            run(py, &batch, chunked::<i32>(&chunks, &bits)?, rows)?
        } else {
            run(py, &batch, chunked::<i64>(&chunks, &bits)?, rows)?
        };
        all.hand_over(py)
    }
}

/// One chunk of an Arrow string array as `check_arrow` passes it: `(rows,
/// data, offsets, first, validity)`, its buffers as `pyarrow.Buffer`s.
type ChunkSpec<'py> = (
    usize,
    Option<Bound<'py, PyAny>>,
    Option<Bound<'py, PyAny>>,
    usize,
    Option<Bound<'py, PyAny>>,
);

/// One chunk with where its buffers are, each checked to hold what its
/// rows need.
struct Chunk {
    rows: usize,
    /// The text: (address, size in bytes); (0, 0) when empty.
    data: (usize, usize),
    /// The first row's offset: its address; 0 without rows.
    offsets: usize,
    /// The array's offset into its offsets and validity bits.
    first: usize,
    /// The validity bitmap, when it has nulls.
    validity: Option<(usize, usize)>,
}

impl Chunk {
    /// Where the buffers of `spec` are, after checking that each is a
    /// `pyarrow.Buffer` large enough for the chunk's rows: `rows + 1`
    /// offsets of `width` bytes from row `first`, and `first + rows` bits.
    fn of(spec: &ChunkSpec<'_>, width: usize, buffer_type: &Bound<'_, PyAny>) -> PyResult<Chunk> {
        let (rows, data, offsets, first, validity) = spec;
        let (rows, first) = (*rows, *first);
        let span = |buffer: &Option<Bound<'_, PyAny>>| -> PyResult<Option<(usize, usize)>> {
            let Some(buffer) = buffer else { return Ok(None) };
            if !buffer.is_instance(buffer_type)? {
                return Err(PyTypeError::new_err(
                    "a chunk's buffers are pyarrow.Buffer objects",
                ));
            }
            let address: usize = buffer.getattr("address")?.extract()?;
            let size: usize = buffer.getattr("size")?.extract()?;
            Ok(Some((address, size)))
        };
        let too_small = |what: &str| {
            PyValueError::new_err(format!(
                "an Arrow string array whose {what} is too small for its length"
            ))
        };
        let data = span(data)?.filter(|&(_, size)| size > 0).unwrap_or((0, 0));
        let needed = first
            .checked_add(rows)
            .and_then(|n| n.checked_add(1))
            .and_then(|n| n.checked_mul(width))
            .ok_or_else(|| too_small("offsets buffer"))?;
        let offsets = match span(offsets)? {
            _ if rows == 0 => 0,
            // Offsets are read as integers of their width: aligned to it
            // (pyarrow's own buffers are aligned to 64 bytes; `check_arrow`
            // copies another producer's unaligned ones first).
            Some((address, size)) if size >= needed && address != 0 && address % width == 0 => {
                address + first * width
            }
            Some((address, size)) if size >= needed && address != 0 => {
                return Err(PyValueError::new_err(format!(
                    "an Arrow string array whose offsets buffer is not aligned to its {width}-byte integers"
                )));
            }
            _ => return Err(too_small("offsets buffer")),
        };
        let validity = match span(validity)? {
            Some((address, size))
                if address != 0 && size.checked_mul(8).is_some_and(|bits| bits >= first + rows) =>
            {
                Some((address, size))
            }
            Some(_) => return Err(too_small("validity bitmap")),
            None => None,
        };
        Ok(Chunk {
            rows,
            data,
            offsets,
            first,
            validity,
        })
    }
}

/// Checks `rows` (`n` in all, with `text` bytes of text) without the GIL
/// into one set of columns.
fn run<O: Offset>(
    py: Python<'_>,
    batch: &Batch<Columns>,
    (rows, text): (ChunkedRows<OffsetRows<'_, O>>, usize),
    n: usize,
) -> PyResult<Acc> {
    // The keys take about the room of the rows' text: reserved once.
    let mut all = Acc::new(n, text, batch.sink());
    py.allow_threads(|| {
        batch.rows(&rows, |cols, _| {
            all.append(cols);
            Ok(())
        })
    })
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(all)
}

/// The chunks as rows read in place, their layout checked, and how many
/// bytes of text their rows span (a slice's, not its whole buffer's).
fn chunked<'a, O: Offset>(
    chunks: &[Chunk],
    bits: &'a [Option<Vec<u8>>],
) -> PyResult<(ChunkedRows<OffsetRows<'a, O>>, usize)> {
    let mut rows = Vec::with_capacity(chunks.len());
    let mut text = 0;
    for (chunk, bits) in chunks.iter().zip(bits) {
        let (n, (data, data_len), offsets) = (chunk.rows, chunk.data, chunk.offsets);
        // SAFETY: live pyarrow buffers (the caller's `chunks` keeps them
        // referenced for the whole call) that `Chunk::of` checked to hold
        // `data_len` bytes and `n + 1` offsets, only read. OffsetRows::new
        // then checks the offsets against the data before any row is read.
        let data: &[u8] = if data_len == 0 {
            &[]
        } else {
            unsafe { std::slice::from_raw_parts(data as *const u8, data_len) }
        };
        let offsets: &[O] = if offsets == 0 || n == 0 {
            // No rows: no offset is read (an empty array's offsets buffer
            // may itself be empty).
            &[]
        } else {
            unsafe { std::slice::from_raw_parts(offsets as *const O, n + 1) }
        };
        rows.push(OffsetRows::new(data, offsets, bits.as_deref()).map_err(PyValueError::new_err)?);
        // In order and within the data: checked by OffsetRows::new.
        if let (Some(first), Some(last)) = (offsets.first(), offsets.last()) {
            text += last.index().unwrap_or(0) - first.index().unwrap_or(0);
        }
    }
    Ok((ChunkedRows::new(rows), text))
}

/// Where a buffer is: (address, length in bytes).
type Span = (usize, usize);

/// The columns handed to Python: the object owning their memory, where
/// each buffer is, and each string column's offset width.
type HandedOver = (Py<Buffers>, Vec<Option<Span>>, Vec<usize>);

/// The memory of the columns handed to Python: pyarrow reads it in place
/// (`pyarrow.foreign_buffer(address, size, base=this)`) and keeps this
/// object alive while an array uses it. Never changed once made, so the
/// addresses stay valid.
#[pyclass(module = "urnreg._urnreg", frozen)]
#[derive(Default)]
struct Buffers {
    kept: Vec<Box<dyn std::any::Any + Send + Sync>>,
}

impl Buffers {
    /// Keeps `v` (little-endian numbers, as Arrow's offsets and values on
    /// the platforms the wheel is built for): its (address, length in
    /// bytes). Moving a Vec does not move its elements.
    fn keep<T: Copy + Send + Sync + 'static>(&mut self, v: Vec<T>) -> Span {
        let at = (v.as_ptr() as usize, std::mem::size_of_val(v.as_slice()));
        self.kept.push(Box::new(v));
        at
    }
}

/// Row state in [`Cols::state`].
const INVALID: u8 = 0;
const VALID: u8 = 1;
const NULL: u8 = 2;

fn syntax(rfc2141: bool) -> Syntax {
    if rfc2141 { Syntax::Rfc2141 } else { Syntax::Rfc8141 }
}

/// The validity bits of `rows` rows starting at bit `from` of `raw`, as a
/// bitmap starting at bit 0.
fn shifted(raw: &[u8], from: usize, rows: usize) -> Vec<u8> {
    if from == 0 {
        return raw[..rows.div_ceil(8)].to_vec();
    }
    let mut out = vec![0u8; rows.div_ceil(8)];
    for i in 0..rows {
        let j = from + i;
        if raw[j / 8] & (1 << (j % 8)) != 0 {
            out[i / 8] |= 1 << (i % 8);
        }
    }
    out
}

/// A column of strings of one chunk: its text, where each row's text
/// ends in it, and whether each row has a value.
#[derive(Default)]
struct StrCol {
    ends: Vec<usize>,
    data: Vec<u8>,
    present: Vec<bool>,
}

impl StrCol {
    fn push(&mut self, text: Option<&[u8]>) {
        self.data.extend_from_slice(text.unwrap_or_default());
        self.close(text.is_some());
    }

    /// Ends a row whose text was written into `data` directly.
    fn close(&mut self, present: bool) {
        self.ends.push(self.data.len());
        self.present.push(present);
    }

    fn clear(&mut self) {
        self.ends.clear();
        self.data.clear();
        self.present.clear();
    }
}

/// The columns of one chunk ([`Acc`] gathers the chunks).
#[derive(Default)]
struct Cols {
    /// [`VALID`], [`INVALID`] or [`NULL`] per row.
    state: Vec<u8>,
    nid: StrCol,
    key: StrCol,
    kind: StrCol,
    message: StrCol,
    offset: Vec<i64>,
    /// Room for the messages made on demand ([`urnreg::Finding::message_in`]).
    scratch: String,
}

/// An Arrow bitmap built a bit at a time (least significant first).
#[derive(Default)]
struct Bits {
    bytes: Vec<u8>,
    len: usize,
}

impl Bits {
    fn with_capacity(bits: usize) -> Bits {
        Bits {
            bytes: Vec::with_capacity(bits.div_ceil(8)),
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, bit: bool) {
        if self.len.is_multiple_of(8) {
            self.bytes.push(0);
        }
        if bit {
            // Pushed above when the byte began.
            if let Some(last) = self.bytes.last_mut() {
                *last |= 1 << (self.len % 8);
            }
        }
        self.len += 1;
    }

    /// Appends `bit(item)` for each of `items`, eight to a byte when the
    /// bitmap ends at a byte's end (the engine's chunks are CHUNK_LINES,
    /// 8,192, rows but for the last, so nearly always); else bit by bit.
    fn extend_with<T>(&mut self, items: &[T], bit: impl Fn(&T) -> bool) {
        if !self.len.is_multiple_of(8) {
            for item in items {
                self.push(bit(item));
            }
            return;
        }
        self.bytes.reserve(items.len().div_ceil(8));
        for group in items.chunks(8) {
            let byte = group
                .iter()
                .enumerate()
                .fold(0u8, |byte, (i, item)| byte | u8::from(bit(item)) << i);
            self.bytes.push(byte);
        }
        self.len += items.len();
    }
}

/// The offsets of a whole string column: int32 (`string`) while the text
/// fits, int64 (`large_string`) once it passes 2 GiB.
enum Ends {
    Narrow(Vec<i32>),
    Wide(Vec<i64>),
}

impl Ends {
    fn push(&mut self, end: usize) {
        match self {
            Ends::Narrow(v) => match i32::try_from(end) {
                Ok(end) => v.push(end),
                Err(_) => {
                    let mut wide = Vec::with_capacity(v.capacity());
                    wide.extend(v.iter().map(|&o| i64::from(o)));
                    wide.push(end as i64);
                    *self = Ends::Wide(wide);
                }
            },
            Ends::Wide(v) => v.push(end as i64),
        }
    }

    /// Appends `base + end` for each of a chunk's `ends` (ascending): in
    /// one pass while they fit in 32 bits.
    fn extend_shifted(&mut self, base: usize, ends: &[usize]) {
        // A row ends where the next begins: the last end is the largest.
        debug_assert!(ends.is_sorted());
        if let Ends::Narrow(v) = self
            && let Some(&last) = ends.last()
            && i32::try_from(base + last).is_ok()
        {
            v.extend(ends.iter().map(|&end| (base + end) as i32));
            return;
        }
        for &end in ends {
            self.push(base + end);
        }
    }
}

/// A whole string column, appended chunk by chunk.
struct AccStr {
    present: Bits,
    ends: Ends,
    data: Vec<u8>,
}

impl AccStr {
    fn new(rows: usize, data: usize) -> AccStr {
        let mut ends = Vec::with_capacity(rows + 1);
        ends.push(0);
        AccStr {
            present: Bits::with_capacity(rows),
            ends: Ends::Narrow(ends),
            data: Vec::with_capacity(data),
        }
    }

    fn append(&mut self, chunk: &StrCol) {
        let base = self.data.len();
        self.data.extend_from_slice(&chunk.data);
        self.ends.extend_shifted(base, &chunk.ends);
        self.present.extend_with(&chunk.present, |&present| present);
    }
}

/// The columns of the whole input, as the chunks come in order: bitmaps
/// packed at once, int32 offsets while they fit, room for the rows made
/// once (no second copy of a column as it grows or is joined).
struct Acc {
    present: Bits,
    any_null: bool,
    valid: Bits,
    strs: [Option<AccStr>; 4],
    offset: Option<(Bits, Vec<i64>)>,
}

impl Acc {
    fn new(rows: usize, text: usize, sink: &Columns) -> Acc {
        let col = |wanted: bool, data| wanted.then(|| AccStr::new(rows, data));
        Acc {
            present: Bits::with_capacity(rows),
            any_null: false,
            valid: Bits::with_capacity(rows),
            strs: [
                col(sink.nid, 0),
                col(sink.key, text),
                col(sink.kind, 0),
                col(sink.message, 0),
            ],
            offset: sink
                .offset
                .then(|| (Bits::with_capacity(rows), Vec::with_capacity(rows))),
        }
    }

    fn append(&mut self, chunk: &Cols) {
        self.present.extend_with(&chunk.state, |&s| s != NULL);
        self.any_null |= chunk.state.contains(&NULL);
        self.valid.extend_with(&chunk.state, |&s| s == VALID);
        let cols = [&chunk.nid, &chunk.key, &chunk.kind, &chunk.message];
        for (acc, col) in self.strs.iter_mut().zip(cols) {
            if let Some(acc) = acc {
                acc.append(col);
            }
        }
        if let Some((bits, values)) = &mut self.offset {
            bits.extend_with(&chunk.offset, |&o| o >= 0);
            values.extend_from_slice(&chunk.offset);
        }
    }

    /// The buffers, kept by one `Buffers` object, and each string column's
    /// offset width (see [`Registry::_check_columns`]).
    fn hand_over(self, py: Python<'_>) -> PyResult<HandedOver> {
        let mut owned = Buffers::default();
        let mut out = vec![
            self.any_null.then(|| owned.keep(self.present.bytes)),
            Some(owned.keep(self.valid.bytes)),
        ];
        let mut widths = Vec::with_capacity(4);
        for col in self.strs {
            match col {
                None => {
                    out.extend([None, None, None]);
                    widths.push(0);
                }
                Some(col) => {
                    out.push(Some(owned.keep(col.present.bytes)));
                    match col.ends {
                        Ends::Narrow(v) => {
                            out.push(Some(owned.keep(v)));
                            widths.push(4);
                        }
                        Ends::Wide(v) => {
                            out.push(Some(owned.keep(v)));
                            widths.push(8);
                        }
                    }
                    out.push(Some(owned.keep(col.data)));
                }
            }
        }
        match self.offset {
            None => out.extend([None, None]),
            Some((bits, values)) => {
                out.push(Some(owned.keep(bits.bytes)));
                out.push(Some(owned.keep(values)));
            }
        }
        Ok((Py::new(py, owned)?, out, widths))
    }
}

/// The sink of the bindings: one row of each column asked for per input.
struct Columns {
    nid: bool,
    key: bool,
    kind: bool,
    message: bool,
    offset: bool,
}

impl Sink for Columns {
    type Out = Cols;

    fn clear(&self, out: &mut Cols) {
        out.state.clear();
        out.nid.clear();
        out.key.clear();
        out.kind.clear();
        out.message.clear();
        out.offset.clear();
    }

    fn record(&self, report: &Report<'_, '_>, _line: Option<u64>, out: &mut Cols) {
        out.state.push(if report.is_valid() { VALID } else { INVALID });
        if self.nid {
            out.nid.push(report.nid().map(str::as_bytes));
        }
        if self.key {
            let start = out.key.data.len();
            if report.write_key(&mut out.key.data) {
                // Written in place: close the row over it.
                out.key.close(true);
            } else {
                out.key.data.truncate(start);
                out.key.push(None);
            }
        }
        if !(self.kind || self.message || self.offset) {
            return;
        }
        let error = report.errors().next();
        if self.kind {
            out.kind.push(error.map(|e| e.code().as_bytes()));
        }
        if self.message {
            match error {
                Some(e) => {
                    let message = e.message_in(&mut out.scratch);
                    out.message.data.extend_from_slice(message.as_bytes());
                    out.message.close(true);
                }
                None => out.message.push(None),
            }
        }
        if self.offset {
            out.offset.push(error.map_or(-1, |e| e.offset() as i64));
        }
    }

    fn record_null(&self, _line: u64, out: &mut Cols) {
        out.state.push(NULL);
        for (wanted, col) in [
            (self.nid, &mut out.nid),
            (self.key, &mut out.key),
            (self.kind, &mut out.kind),
            (self.message, &mut out.message),
        ] {
            if wanted {
                col.push(None);
            }
        }
        if self.offset {
            out.offset.push(-1);
        }
    }
}

#[pymodule]
fn _urnreg(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Registry>()?;
    m.add_class::<Buffers>()?;
    m.add("MAX_LINE", MAX_LINE)?;
    Ok(())
}
