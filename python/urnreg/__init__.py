"""urnreg: URN namespaces (RFC 8141) from Python.

Check, normalize and compare URNs against the registry of namespaces and
each namespace's own rules (NSS syntax, check digits, equivalence), one at
a time or as Arrow arrays on every core. The verdicts, error kinds and
messages are those of the ``urnreg`` command line: both are the same Rust
library.

Scalar::

    >>> import urnreg
    >>> r = urnreg.check("URN:ISBN:0-395-36341-1")
    >>> r.valid, r.nid, r.key
    (True, 'ISBN', 'urn:isbn:9780395363416')
    >>> urnreg.check("urn:isbn:0-395-36341-2").errors[0]["kind"]
    'nss-check'

Vectorized (any Arrow string array, chunked array, or object speaking the
Arrow PyCapsule interface: pyarrow, Polars, DuckDB)::

    >>> import pyarrow as pa
    >>> urnreg.valid_arrow(pa.array(["urn:isbn:0451450523", "urn:isnb:1", None])).to_pylist()
    [True, False, None]

Engines: ``urnreg.duckdb``, ``urnreg.polars``, ``urnreg.pandas``,
``urnreg.spark``.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Union

from ._urnreg import MAX_LINE, Registry

__all__ = [
    "MAX_LINE",
    "Registry",
    "Report",
    "UrnError",
    "check",
    "check_arrow",
    "eq",
    "error_arrow",
    "nid_arrow",
    "normalize",
    "normalize_arrow",
    "parse",
    "valid",
    "valid_arrow",
]

_EMBEDDED: Optional[Registry] = None


def _registry(registry: Optional[Registry]) -> Registry:
    global _EMBEDDED
    if registry is not None:
        if not isinstance(registry, Registry):
            raise TypeError(
                f"registry is a urnreg.Registry (Registry.embedded() or Registry.from_path(path)), "
                f"not a {type(registry).__name__}"
            )
        return registry
    if _EMBEDDED is None:
        _EMBEDDED = Registry.embedded()
    return _EMBEDDED


class UrnError(ValueError):
    """An invalid URN: ``kind`` (the error kind, e.g. ``nss-check``),
    ``offset`` (the byte it points at) and the message of the first error."""

    def __init__(self, urn: str, kind: str, offset: int, message: str):
        super().__init__(f"{kind}: {message}")
        self.urn = urn
        self.kind = kind
        self.offset = offset
        self.message = message

    def __reduce__(self):
        # Pickled with its own arguments (multiprocessing, concurrent.futures
        # send exceptions between processes so).
        return (type(self), (self.urn, self.kind, self.offset, self.message))


@dataclass(frozen=True)
class Report:
    """The verdict on one URN, with the keys of ``urnreg check --format jsonl``."""

    input: str
    valid: bool
    nid: Optional[str]
    nss: Optional[str]
    r: Optional[str]
    q: Optional[str]
    f: Optional[str]
    key: Optional[str]
    errors: List[Dict[str, Any]] = field(default_factory=list)
    warnings: List[Dict[str, Any]] = field(default_factory=list)
    namespace: Optional[Dict[str, Any]] = None
    directives: Optional[List[Dict[str, Any]]] = None
    raw: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def to_dict(self) -> Dict[str, Any]:
        """The report as the JSON object of ``urnreg check --format jsonl``."""
        return json.loads(json.dumps(self.raw))


def check(
    urn: Union[str, bytes],
    *,
    strict: bool = False,
    syntax_only: bool = False,
    rfc2141: bool = False,
    registry: Optional[Registry] = None,
) -> Report:
    """Checks ``urn`` against its namespace (``syntax_only``: RFC 8141
    alone; ``strict``: a form valid only by the owner's practice is an
    error; ``rfc2141``: the legacy grammar). ``urn`` is a ``str``, or
    ``bytes`` read as they are (as the rows of a ``binary`` array); a
    ``str`` with a lone surrogate (``errors="surrogateescape"`` decoding)
    is checked as the bytes it stands for, so it is invalid
    (``non-ascii``) like any string with a byte that is not ASCII."""
    text = _registry(registry).check_json(urn, strict=strict, syntax_only=syntax_only, rfc2141=rfc2141)
    d = json.loads(text)
    return Report(
        input=d["input"],
        valid=d["valid"],
        nid=d.get("nid"),
        nss=d.get("nss"),
        r=d.get("r"),
        q=d.get("q"),
        f=d.get("f"),
        key=d.get("key"),
        errors=d.get("errors", []),
        warnings=d.get("warnings", []),
        namespace=d.get("namespace"),
        directives=d.get("directives"),
        raw=d,
    )


def valid(urn: Union[str, bytes], **options: Any) -> bool:
    """True if ``urn`` is valid (same options as :func:`check`)."""
    return check(urn, **options).valid


def parse(urn: Union[str, bytes], **options: Any) -> Report:
    """The report on a valid ``urn``; raises :class:`UrnError` (with the
    offset of the first error) for an invalid one."""
    report = check(urn, **options)
    if not report.valid:
        e = report.errors[0]
        raise UrnError(urn, e["kind"], e["offset"], e["message"])
    return report


def normalize(urn: Union[str, bytes], **options: Any) -> str:
    """The equivalence key of ``urn`` (RFC 8141 section 3.1, refined by
    its namespace's rules); raises :class:`UrnError` if it is invalid."""
    key = parse(urn, **options).key
    assert key is not None
    return key


def eq(a: Union[str, bytes], b: Union[str, bytes], **options: Any) -> bool:
    """True if ``a`` and ``b`` are URN-equivalent; raises
    :class:`UrnError` if either is invalid."""
    return normalize(a, **options) == normalize(b, **options)


# --- Arrow -----------------------------------------------------------------


def _pa():
    try:
        import pyarrow
        import pyarrow.compute  # noqa: F401
    except ImportError as e:  # pragma: no cover - the message is the point
        raise ImportError("urnreg's Arrow functions need pyarrow: pip install pyarrow") from e
    return pyarrow


def _chunks(values: Any) -> list:
    """The chunks of ``values`` as pyarrow string or large_string (or
    binary, large_binary) arrays."""
    pa = _pa()
    if isinstance(values, pa.ChunkedArray):
        whole = values
    elif isinstance(values, pa.Array):
        whole = pa.chunked_array([values])
    elif hasattr(values, "__arrow_c_stream__"):
        whole = pa.chunked_array(values)
    elif hasattr(values, "__arrow_c_array__"):
        whole = pa.chunked_array([pa.array(values)])
    elif isinstance(values, (str, bytes, bytearray, memoryview, Mapping)) or not hasattr(values, "__iter__"):
        # A string is no column of strings (it would be checked a
        # character at a time), nor a mapping (its keys), nor None.
        raise TypeError(
            f"urnreg checks an array of strings (pyarrow, or a list of str), not a {type(values).__name__}"
            + (": for one URN, call urnreg.check" if isinstance(values, (str, bytes)) else "")
        )
    else:
        whole = pa.chunked_array([_from_python(pa, list(values))])
    # The array's own type, not only its chunks': a ChunkedArray (an empty
    # Parquet file, a stream with no batch) may have none.
    cast = _cast_to(pa, whole.type)
    return [chunk if cast is None else chunk.cast(cast) for chunk in whole.chunks]


def _cast_to(pa, t):
    """None for a type the engine reads as it is, else the type to cast it
    to; a TypeError for a type that holds no strings."""
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t) or pa.types.is_large_binary(t):
        return None
    if pa.types.is_null(t) or _is_string_like(pa, t):
        return pa.large_string()
    if _is_binary_like(pa, t):
        return pa.large_binary()
    raise TypeError(f"urnreg checks arrays of strings, not {t}")


def _from_python(pa, items, from_pandas: bool = False):
    """A ``large_string`` array of Python strings (None, and with
    ``from_pandas`` NaN, a null). A ``str`` that UTF-8 cannot encode (a
    lone surrogate, as ``errors="surrogateescape"`` decoding leaves for a
    byte that was not UTF-8), or ``bytes`` that are not UTF-8, make the
    array ``large_binary``, with such a string as the bytes it stands for,
    so that the row gets a verdict (``non-ascii``), as :func:`check` and a
    ``binary`` array's row give it, not the call an exception."""
    try:
        return pa.array(items, type=pa.large_string(), from_pandas=from_pandas)
    except (UnicodeEncodeError, pa.ArrowInvalid):
        pass  # a lone surrogate, or bytes that are not UTF-8
    except pa.ArrowTypeError as e:
        raise TypeError(f"urnreg checks strings (str or bytes): {e}") from None
    try:
        return pa.array([_encoded(x) for x in items], type=pa.large_binary(), from_pandas=from_pandas)
    except (pa.ArrowTypeError, pa.ArrowInvalid) as e:
        raise TypeError(f"urnreg checks strings (str or bytes): {e}") from None


def _from_series(series):
    """The Arrow array of a pandas Series: its own buffers where pandas
    keeps it in Arrow (``ArrowDtype``, the pyarrow-backed string dtypes, so
    pandas 3's default ``str``), a dictionary array for a ``category`` one,
    else made of its Python objects (:func:`_from_python`)."""
    pa = _pa()
    dtype = series.dtype
    if type(dtype).__name__ == "ArrowDtype" or str(getattr(dtype, "storage", "")).startswith("pyarrow"):
        # pandas' __arrow_array__: an Array or a ChunkedArray, not copied.
        return pa.array(series.array)
    if getattr(dtype, "name", None) == "category":
        # Its categories once each; categories pyarrow cannot make an array
        # of (str and bytes mixed, a lone surrogate) row by row below.
        try:
            return pa.array(series.array)
        except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeEncodeError):
            pass
    return _from_python(pa, series.astype(object), from_pandas=True)


def _encoded(x):
    if not isinstance(x, str):
        return x
    try:
        return x.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return x.encode("utf-8", "surrogatepass")


def _is_string_like(pa, t) -> bool:
    """String views, and dictionaries of strings (categoricals)."""
    view = getattr(pa.types, "is_string_view", None)
    if view is not None and view(t):
        return True
    if pa.types.is_dictionary(t):
        return pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type) or _is_string_like(pa, t.value_type)
    return False


def _is_binary_like(pa, t) -> bool:
    """Binary views and dictionaries of bytes: read as ``binary`` is."""
    view = getattr(pa.types, "is_binary_view", None)
    if view is not None and view(t):
        return True
    if pa.types.is_dictionary(t):
        v = t.value_type
        return pa.types.is_binary(v) or pa.types.is_large_binary(v) or _is_binary_like(pa, v)
    return False


def _is_large(pa, t) -> bool:
    return pa.types.is_large_string(t) or pa.types.is_large_binary(t)


def _checked(values, registry, strict, syntax_only, rfc2141, jobs, want) -> dict:
    """name -> array of the columns in ``want``, and valid: one batch over
    every chunk of ``values``, into one set of columns."""
    pa = _pa()
    reg = _registry(registry)
    jobs = _jobs(jobs)
    chunks = _chunks(values)
    # One offset width: the chunks of one array share its type (`_chunks`
    # casts all of them or none), and a buffer too small for it is refused
    # below.
    width = 8 if chunks and _is_large(pa, chunks[0].type) else 4
    n = sum(len(c) for c in chunks)
    if jobs == 0 and n < _PARALLEL_ROWS:
        # A DuckDB vector (2,048 rows) or a small batch: starting threads
        # would cost more than they save.
        jobs = 1
    # Each chunk by its buffers: the engine checks their sizes against its
    # rows before it reads them in place.
    specs = []
    for i, chunk in enumerate(chunks):
        validity, offsets, data = chunk.buffers()[:3]
        if len(chunk) and offsets is not None and offsets.address % width:
            # Offsets the engine reads as integers, so aligned to their
            # width: pyarrow's always are, another producer's (through the
            # C data interface) may not be. A copy of the rows, aligned.
            chunks[i] = chunk = pa.concat_arrays([chunk])
            validity, offsets, data = chunk.buffers()[:3]
        nulls = chunk.null_count and validity is not None
        specs.append((len(chunk), data, offsets, chunk.offset, validity if nulls else None))
    owner, cols, widths = reg._check_columns(
        specs,
        width,
        strict=strict,
        syntax_only=syntax_only,
        rfc2141=rfc2141,
        jobs=jobs,
        want=list(want),
    )
    # The chunks' buffers were read in place: `chunks` kept them alive
    # until here. The columns' buffers are read in place too, kept alive
    # by `owner`.
    del chunks
    bufs = [None if b is None else pa.foreign_buffer(b[0], b[1], base=owner) for b in cols]
    return _arrays(n, bufs, widths, want)


def _jobs(jobs: Any) -> int:
    """``jobs`` as the engine takes it: 0 (every core) or a number of
    threads (more than it runs are as many as it runs)."""
    if not isinstance(jobs, int):
        try:
            jobs = operator.index(jobs)
        except TypeError:
            raise TypeError(f"jobs is a number of threads (0: every core), not a {type(jobs).__name__}") from None
    if jobs < 0:
        raise ValueError(f"jobs is a number of threads (0: every core), not {jobs}")
    # The engine runs at most a few hundred: a larger number says as much.
    return min(jobs, 1 << 16)


_FIELDS = ("nid", "key", "kind", "message", "offset")
# Below this many rows an array is checked on the calling thread.
_PARALLEL_ROWS = 32_768
_NAMES = {"nid": "nid", "key": "key", "kind": "error_kind", "message": "error_message", "offset": "error_offset"}


def _arrays(n: int, cols: list, widths: list, want) -> dict:
    """The Arrow arrays of the columns, built on the buffers the engine made:
    ``string`` columns (``large_string`` past 2 GiB of text)."""
    pa = _pa()
    present = cols[0]
    out = {"valid": pa.Array.from_buffers(pa.bool_(), n, [present, cols[1]])}
    for i, name in enumerate(("nid", "key", "kind", "message")):
        if name in want:
            bits, offsets, data = cols[2 + 3 * i : 5 + 3 * i]
            kind = pa.large_string() if widths[i] == 8 else pa.string()
            out[_NAMES[name]] = pa.Array.from_buffers(kind, n, [bits, offsets, data])
    if "offset" in want:
        out["error_offset"] = pa.Array.from_buffers(pa.int64(), n, [cols[14], cols[15]])
    return out


def check_arrow(
    values: Any,
    *,
    strict: bool = False,
    syntax_only: bool = False,
    rfc2141: bool = False,
    registry: Optional[Registry] = None,
    jobs: int = 0,
):
    """Checks every string of ``values`` (a pyarrow Array or ChunkedArray,
    or any object with ``__arrow_c_array__`` / ``__arrow_c_stream__``) on
    ``jobs`` threads (0: every core), the GIL released. Returns a
    ``pyarrow.StructArray`` with ``valid``, ``nid``, ``key`` (the
    namespace's equivalence key of a valid URN), ``error_kind``,
    ``error_message`` and ``error_offset`` (of the first error); a null
    input gives a null in every field."""
    pa = _pa()
    cols = _checked(values, registry, strict, syntax_only, rfc2141, jobs, _FIELDS)
    names = ["valid", "nid", "key", "error_kind", "error_message", "error_offset"]
    return pa.StructArray.from_arrays([cols[n] for n in names], names=names)


def valid_arrow(
    values: Any,
    *,
    strict: bool = False,
    syntax_only: bool = False,
    rfc2141: bool = False,
    registry: Optional[Registry] = None,
    jobs: int = 0,
):
    """A boolean array: is each URN valid (null for a null). Makes no other
    column: the fastest check."""
    return _checked(values, registry, strict, syntax_only, rfc2141, jobs, ())["valid"]


def normalize_arrow(
    values: Any,
    *,
    strict: bool = False,
    syntax_only: bool = False,
    rfc2141: bool = False,
    registry: Optional[Registry] = None,
    jobs: int = 0,
):
    """The equivalence key of each URN (null for an invalid one or a null)."""
    return _checked(values, registry, strict, syntax_only, rfc2141, jobs, ("key",))["key"]


def nid_arrow(
    values: Any,
    *,
    strict: bool = False,
    syntax_only: bool = False,
    rfc2141: bool = False,
    registry: Optional[Registry] = None,
    jobs: int = 0,
):
    """The NID of each URN as written (null when the input has no well-formed ``urn:NID:``; an invalid NSS keeps its NID)."""
    return _checked(values, registry, strict, syntax_only, rfc2141, jobs, ("nid",))["nid"]


def error_arrow(
    values: Any,
    *,
    strict: bool = False,
    syntax_only: bool = False,
    rfc2141: bool = False,
    registry: Optional[Registry] = None,
    jobs: int = 0,
):
    """The first error's kind of each URN (null when valid), e.g.
    ``nss-check``: what ``urn_error`` (DuckDB, Spark SQL) and ``.urn.error()``
    (Polars, pandas) give; the message is ``error_message`` in
    :func:`check_arrow`."""
    return _checked(values, registry, strict, syntax_only, rfc2141, jobs, ("kind",))["error_kind"]


def _error_message_arrow(
    values: Any,
    *,
    strict: bool = False,
    registry: Optional[Registry] = None,
):
    """The first error's message of each URN (null when valid): the
    engines' ``error_message``."""
    return _checked(values, registry, strict, False, False, 0, ("message",))["error_message"]
