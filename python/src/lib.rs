//! `urnreg._urnreg`: the native half of the Python package. The Python
//! half (`urnreg/__init__.py`) wraps it in typed objects and reads Arrow
//! arrays through pyarrow.
//!
//! Arrow arrays are read in place: Python hands over the addresses of an
//! array's buffers (held alive by the caller for the call) and the batch
//! engine of the library checks the rows on every core with the GIL
//! released, through one more [`Sink`]: columns.

use std::sync::Arc;

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use urnreg::batch::{Batch, OffsetRows, Options, Sink};
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
    /// `urn-namespaces.xml`, read with its checksums verified.
    #[staticmethod]
    fn from_path(path: std::path::PathBuf) -> PyResult<Registry> {
        let failed = |e: &dyn std::fmt::Display| PyOSError::new_err(format!("{}: {e}", path.display()));
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
    #[pyo3(signature = (urn, strict = false, syntax_only = false, rfc2141 = false))]
    fn check_json(&self, urn: &str, strict: bool, syntax_only: bool, rfc2141: bool) -> String {
        let registry = (!syntax_only).then_some(&*self.inner);
        let mut checker = Checker::with_registry(registry)
            .with_syntax(syntax(rfc2141))
            .strict(strict);
        let mut out = Vec::new();
        checker.check(urn.as_bytes()).write_json(&mut out, None);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Checks the rows of an Arrow string array given by the addresses of
    /// its buffers, on `jobs` threads (0: one per core) without the GIL.
    /// Returns Arrow buffers, ready for `pyarrow.Array.from_buffers`:
    /// the inputs' validity bitmap (None without nulls) and the `valid`
    /// bits; then, for each of nid, key, error kind and error message, its
    /// validity bitmap, int64 offsets and data (None when not in `want`);
    /// then the error offsets' validity bitmap and int64 values. `want`
    /// names the columns to make: "nid", "key", "kind", "message",
    /// "offset" (valid is always made).
    #[pyo3(signature = (rows, data, data_len, offsets, offset_width, validity, validity_bit, strict = false, syntax_only = false, rfc2141 = false, jobs = 0, want = None))]
    #[allow(clippy::too_many_arguments)]
    fn check_columns<'py>(
        &self,
        py: Python<'py>,
        rows: usize,
        data: usize,
        data_len: usize,
        offsets: usize,
        offset_width: usize,
        validity: usize,
        validity_bit: usize,
        strict: bool,
        syntax_only: bool,
        rfc2141: bool,
        jobs: usize,
        want: Option<Vec<String>>,
    ) -> PyResult<(Py<Buffers>, Vec<Option<Span>>)> {
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
        if rows > 0 && (offsets == 0 || (data == 0 && data_len > 0)) {
            return Err(PyValueError::new_err("an array without its buffers"));
        }
        // SAFETY: the caller (urnreg/__init__.py) passes the addresses and
        // lengths of live pyarrow buffers and keeps them referenced for
        // the whole call; they are only read. The layout is then checked
        // by OffsetRows::new before any row is read.
        let data: &[u8] = if data_len == 0 {
            &[]
        } else {
            unsafe { std::slice::from_raw_parts(data as *const u8, data_len) }
        };
        let bits: Option<Vec<u8>> = if validity == 0 {
            None
        } else {
            let bytes = (validity_bit + rows).div_ceil(8);
            // SAFETY: as above, the validity buffer holds at least this
            // many bytes for the array's offset and length.
            let raw = unsafe { std::slice::from_raw_parts(validity as *const u8, bytes) };
            Some(shifted(raw, validity_bit, rows))
        };
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
        let mut all = Cols::default();
        let result = if offset_width == 4 {
            // SAFETY: rows + 1 int32 offsets, as above.
            let offsets = unsafe { std::slice::from_raw_parts(offsets as *const i32, rows + 1) };
            let rows = OffsetRows::new(data, offsets, bits.as_deref()).map_err(PyValueError::new_err)?;
            py.allow_threads(|| {
                batch.rows(&rows, |cols, _| {
                    all.append(cols);
                    Ok(())
                })
            })
        } else {
            // SAFETY: rows + 1 int64 offsets, as above.
            let offsets = unsafe { std::slice::from_raw_parts(offsets as *const i64, rows + 1) };
            let rows = OffsetRows::new(data, offsets, bits.as_deref()).map_err(PyValueError::new_err)?;
            py.allow_threads(|| {
                batch.rows(&rows, |cols, _| {
                    all.append(cols);
                    Ok(())
                })
            })
        };
        result.map_err(|e| PyValueError::new_err(e.to_string()))?;
        // The columns are handed over without a copy: each buffer stays in
        // `Buffers`, which pyarrow holds (foreign_buffer's base) for as
        // long as an array uses it.
        let mut owned = Buffers::default();
        let present = all
            .state
            .contains(&NULL)
            .then(|| bitmap(&all.state, |s| s != NULL));
        let mut out = vec![
            present.map(|b| owned.bytes(b)),
            Some(owned.bytes(bitmap(&all.state, |s| s == VALID))),
        ];
        let Cols {
            nid,
            key,
            kind,
            message,
            offset,
            ..
        } = all;
        for col in [nid, key, kind, message] {
            if col.offsets.is_empty() {
                out.extend([None, None, None]);
            } else {
                out.push(Some(owned.bytes(bitmap(&col.present, |p| p == 1))));
                out.push(Some(owned.words(col.offsets)));
                out.push(Some(owned.bytes(col.data)));
            }
        }
        if offset.is_empty() {
            out.extend([None, None]);
        } else {
            out.push(Some(owned.bytes(bitmap(&offset, |o| o >= 0))));
            out.push(Some(owned.words(offset)));
        }
        Ok((Py::new(py, owned)?, out))
    }
}

/// Where a buffer is: (address, length in bytes).
type Span = (usize, usize);

/// The memory of the columns handed to Python: pyarrow reads it in place
/// (`pyarrow.foreign_buffer(address, size, base=this)`) and keeps this
/// object alive while an array uses it. Never changed once made, so the
/// addresses stay valid.
#[pyclass(module = "urnreg._urnreg", frozen)]
#[derive(Default)]
struct Buffers {
    bytes: Vec<Vec<u8>>,
    words: Vec<Vec<i64>>,
}

impl Buffers {
    /// Keeps `b`: its (address, length in bytes).
    fn bytes(&mut self, b: Vec<u8>) -> Span {
        let at = (b.as_ptr() as usize, b.len());
        self.bytes.push(b);
        at
    }

    /// Keeps `w` (little-endian i64s, as Arrow's offsets and int64 values
    /// on the platforms the wheel is built for): its (address, length in
    /// bytes).
    fn words(&mut self, w: Vec<i64>) -> Span {
        let at = (w.as_ptr() as usize, w.len() * 8);
        self.words.push(w);
        at
    }
}

/// Row state in [`Cols::state`].
const INVALID: u8 = 0;
const VALID: u8 = 1;
const NULL: u8 = 2;

/// An Arrow bitmap (least significant bit first) of `values` by `keep`.
fn bitmap<T: Copy>(values: &[T], keep: impl Fn(T) -> bool) -> Vec<u8> {
    let mut out = vec![0u8; values.len().div_ceil(8)];
    for (i, &v) in values.iter().enumerate() {
        if keep(v) {
            out[i / 8] |= 1 << (i % 8);
        }
    }
    out
}

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

/// A column of strings: Arrow offsets (from 0), data, and for each row
/// whether it has a value (1) or is null (0).
#[derive(Default)]
struct StrCol {
    offsets: Vec<i64>,
    data: Vec<u8>,
    present: Vec<u8>,
}

impl StrCol {
    fn push(&mut self, text: Option<&[u8]>) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.data.extend_from_slice(text.unwrap_or_default());
        self.offsets.push(self.data.len() as i64);
        self.present.push(u8::from(text.is_some()));
    }

    fn append(&mut self, other: &StrCol) {
        if other.offsets.is_empty() {
            return;
        }
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        let base = self.data.len() as i64;
        self.data.extend_from_slice(&other.data);
        self.offsets
            .extend(other.offsets.iter().skip(1).map(|o| base + o));
        self.present.extend_from_slice(&other.present);
    }

    fn clear(&mut self) {
        self.offsets.clear();
        self.data.clear();
        self.present.clear();
    }
}

/// The columns of a chunk (and of the whole array once appended).
#[derive(Default)]
struct Cols {
    /// [`VALID`], [`INVALID`] or [`NULL`] per row.
    state: Vec<u8>,
    nid: StrCol,
    key: StrCol,
    kind: StrCol,
    message: StrCol,
    offset: Vec<i64>,
}

impl Cols {
    fn append(&mut self, other: &Cols) {
        self.state.extend_from_slice(&other.state);
        self.nid.append(&other.nid);
        self.key.append(&other.key);
        self.kind.append(&other.kind);
        self.message.append(&other.message);
        self.offset.extend_from_slice(&other.offset);
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
            out.nid.push(report.urn().map(|u| u.nid().as_bytes()));
        }
        if self.key {
            let start = out.key.data.len();
            if report.write_key(&mut out.key.data) {
                // Written in place: close the row over it.
                if out.key.offsets.is_empty() {
                    out.key.offsets.push(0);
                }
                out.key.offsets.push(out.key.data.len() as i64);
                out.key.present.push(1);
            } else {
                out.key.data.truncate(start);
                out.key.push(None);
            }
        }
        let error = report.errors().next();
        if self.kind {
            out.kind.push(error.map(|e| e.code().as_bytes()));
        }
        if self.message {
            out.message
                .push(error.map(|e| e.to_string()).as_deref().map(str::as_bytes));
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
    m.add("MAX_LINE", urnreg::batch::MAX_LINE)?;
    Ok(())
}
