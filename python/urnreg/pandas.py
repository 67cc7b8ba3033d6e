"""urnreg in pandas: the ``urn`` Series accessor.

    >>> import pandas as pd, urnreg.pandas  # registers the accessor
    >>> pd.Series(["urn:isbn:0451450523", "urn:isnb:1"]).urn.valid().tolist()
    [True, False]

``.urn.valid()``, ``.urn.key()``, ``.urn.nid()``, ``.urn.error()`` (the
first error's kind), ``.urn.error_message()`` and ``.urn.check()`` (a
DataFrame of every field of :func:`urnreg.check_arrow`), computed over
Arrow on every core: a Series pandas keeps in Arrow (``ArrowDtype``, the
pyarrow-backed string dtypes such as pandas 3's default ``str``) is read
in place, a ``category`` one as a dictionary, an ``object`` one made into
Arrow from its Python objects (``str`` or ``bytes``).

``valid`` is pandas' nullable ``boolean`` and ``error_offset`` ``Int64``
(``<NA>`` for a missing value); a text column is what pyarrow makes of a
``string`` array, so its missing values are ``NaN`` in pandas 3 (its
``str`` dtype) and ``None`` in pandas 2 (an ``object`` column).
"""

from __future__ import annotations

from typing import Optional

import pandas as pd

from . import Registry, _error_message_arrow, _from_series, check_arrow, error_arrow, nid_arrow, normalize_arrow, valid_arrow

__all__ = ["UrnAccessor"]


def _nullable(arrow_type):
    """pandas' nullable dtypes for the verdicts and offsets (``boolean``,
    ``Int64``), so a missing value is ``<NA>`` in a column that keeps its
    type, not ``None`` in an ``object`` column or ``NaN`` in a ``float64``
    one."""
    import pyarrow as pa

    if arrow_type == pa.bool_():
        return pd.BooleanDtype()
    if arrow_type == pa.int64():
        return pd.Int64Dtype()
    return None


@pd.api.extensions.register_series_accessor("urn")
class UrnAccessor:
    """``series.urn``: URN checks on a Series of strings."""

    def __init__(self, series: pd.Series):
        self._series = series

    def _values(self):
        return _from_series(self._series)

    def _checked(self, registry, strict):
        return check_arrow(self._values(), registry=registry, strict=strict)

    def _field(self, fn, registry, strict) -> pd.Series:
        out = fn(self._values(), registry=registry, strict=strict).to_pandas(types_mapper=_nullable)
        out.index = self._series.index
        out.name = self._series.name
        return out

    def valid(self, *, registry: Optional[Registry] = None, strict: bool = False) -> pd.Series:
        """True if valid, ``<NA>`` for a missing value: pandas' nullable
        ``boolean`` dtype, so ``df[series.urn.valid().fillna(False)]`` and
        ``~valid`` work with missing values."""
        return self._field(valid_arrow, registry, strict)

    def key(self, *, registry: Optional[Registry] = None, strict: bool = False) -> pd.Series:
        """The namespace's equivalence key (missing when invalid or
        missing: ``NaN`` in pandas 3, ``None`` in pandas 2)."""
        return self._field(normalize_arrow, registry, strict)

    def nid(self, *, registry: Optional[Registry] = None, strict: bool = False) -> pd.Series:
        """The NID as written (missing when the input has no well-formed ``urn:NID:``)."""
        return self._field(nid_arrow, registry, strict)

    def error(self, *, registry: Optional[Registry] = None, strict: bool = False) -> pd.Series:
        """The first error's kind, e.g. ``nss-check`` (missing when valid:
        ``NaN`` in pandas 3, ``None`` in pandas 2), as ``urn_error`` in
        DuckDB and Spark SQL."""
        return self._field(error_arrow, registry, strict)

    def error_message(self, *, registry: Optional[Registry] = None, strict: bool = False) -> pd.Series:
        """The first error's message (missing when valid)."""
        return self._field(_error_message_arrow, registry, strict)

    def check(self, *, registry: Optional[Registry] = None, strict: bool = False) -> pd.DataFrame:
        """Every field, one column each: ``valid`` (``boolean``), ``nid``,
        ``key``, ``error_kind``, ``error_message`` and ``error_offset``
        (``Int64``)."""
        import pyarrow as pa

        result = self._checked(registry, strict)
        table = pa.Table.from_arrays(result.flatten(), names=[f.name for f in result.type])
        frame = table.to_pandas(types_mapper=_nullable)
        frame.index = self._series.index
        return frame
