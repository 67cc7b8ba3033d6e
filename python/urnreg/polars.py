"""urnreg in Polars: the ``urn`` expression namespace.

    >>> import polars as pl, urnreg.polars  # registers the namespace
    >>> df = pl.DataFrame({"id": ["urn:isbn:0451450523", "urn:isnb:1", None]})
    >>> df.select(pl.col("id").urn.valid()).to_series().to_list()
    [True, False, None]

``.urn.valid()``, ``.urn.key()``, ``.urn.nid()``, ``.urn.error()`` (the
first error's kind), ``.urn.error_message()`` and ``.urn.check()`` (a
struct of all the fields of
:func:`urnreg.check_arrow`). Batches go to the Rust engine as Arrow arrays,
so they work in lazy queries and stream.
"""

from __future__ import annotations

from typing import Optional

import polars as pl

from . import Registry, _error_message_arrow, check_arrow, error_arrow, nid_arrow, normalize_arrow, valid_arrow

__all__ = ["UrnNamespace"]




@pl.api.register_expr_namespace("urn")
class UrnNamespace:
    """``pl.col(...).urn``: URN checks on a string column."""

    def __init__(self, expr: pl.Expr):
        self._expr = expr

    def _map(self, pick, dtype, registry: Optional[Registry], strict: bool) -> pl.Expr:
        def batch(series: pl.Series) -> pl.Series:
            values = series.to_arrow()
            return pl.Series(series.name, pick(values, registry=registry, strict=strict), dtype=dtype)

        return self._expr.map_batches(batch, return_dtype=dtype, is_elementwise=True)

    def valid(self, *, registry: Optional[Registry] = None, strict: bool = False) -> pl.Expr:
        """True if valid (null for null)."""
        return self._map(valid_arrow, pl.Boolean, registry, strict)

    def key(self, *, registry: Optional[Registry] = None, strict: bool = False) -> pl.Expr:
        """The namespace's equivalence key (null when invalid)."""
        return self._map(normalize_arrow, pl.String, registry, strict)

    def nid(self, *, registry: Optional[Registry] = None, strict: bool = False) -> pl.Expr:
        """The NID as written."""
        return self._map(nid_arrow, pl.String, registry, strict)

    def error(self, *, registry: Optional[Registry] = None, strict: bool = False) -> pl.Expr:
        """The first error's kind, e.g. ``nss-check`` (null when valid), as
        ``urn_error`` in DuckDB and Spark SQL."""
        return self._map(error_arrow, pl.String, registry, strict)

    def error_message(self, *, registry: Optional[Registry] = None, strict: bool = False) -> pl.Expr:
        """The first error's message (null when valid)."""
        return self._map(_error_message_arrow, pl.String, registry, strict)

    def check(self, *, registry: Optional[Registry] = None, strict: bool = False) -> pl.Expr:
        """Every field: valid, nid, key, error_kind, error_message, error_offset."""
        dtype = pl.Struct(
            {
                "valid": pl.Boolean,
                "nid": pl.String,
                "key": pl.String,
                "error_kind": pl.String,
                "error_message": pl.String,
                "error_offset": pl.Int64,
            }
        )
        return self._map(check_arrow, dtype, registry, strict)
