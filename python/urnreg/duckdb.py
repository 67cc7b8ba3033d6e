"""urnreg in DuckDB: vectorized (Arrow) SQL functions.

    >>> import duckdb, urnreg.duckdb
    >>> con = duckdb.connect()
    >>> urnreg.duckdb.register(con)
    >>> con.sql("SELECT urn_valid('urn:isbn:0451450523'), urn_key('URN:ISBN:0-451-45052-3')").fetchall()
    [(True, 'urn:isbn:9780451450524')]

``urn_valid(s)``, ``urn_key(s)`` (the equivalence key, NULL when
invalid), ``urn_nid(s)``, ``urn_error(s)`` (the first error's kind, e.g.
``nss-check``, NULL when valid: as in Spark SQL, Polars and pandas) and
``urn_error_message(s)`` (its message) each take a whole vector at a time
as an Arrow array and check it on every core.
"""

from __future__ import annotations

from typing import Any, Optional

from . import Registry, _error_message_arrow, error_arrow, nid_arrow, normalize_arrow, valid_arrow

__all__ = ["register"]


def register(con: Any, *, registry: Optional[Registry] = None, strict: bool = False, prefix: str = "urn_") -> None:
    """Adds ``urn_valid``, ``urn_key``, ``urn_nid``, ``urn_error`` and
    ``urn_error_message`` to the DuckDB connection ``con`` (``prefix``
    renames them)."""
    import duckdb
    import pyarrow as pa
    # Type objects moved from duckdb.typing (before 1.4) to duckdb.sqltypes.
    try:
        from duckdb.sqltypes import BOOLEAN, VARCHAR
    except ImportError:  # pragma: no cover - older DuckDB
        from duckdb.typing import BOOLEAN, VARCHAR

    opts = {"registry": registry, "strict": strict}

    def urn_valid(values):
        return valid_arrow(values, **opts)

    def urn_key(values):
        return normalize_arrow(values, **opts).cast(pa.string())

    def urn_nid(values):
        return nid_arrow(values, **opts).cast(pa.string())

    def urn_error(values):
        return error_arrow(values, **opts).cast(pa.string())

    def urn_error_message(values):
        return _error_message_arrow(values, **opts).cast(pa.string())

    for name, fn, returns in (
        ("valid", urn_valid, BOOLEAN),
        ("key", urn_key, VARCHAR),
        ("nid", urn_nid, VARCHAR),
        ("error", urn_error, VARCHAR),
        ("error_message", urn_error_message, VARCHAR),
    ):
        con.create_function(
            prefix + name,
            fn,
            [VARCHAR],
            returns,
            type="arrow",
            null_handling="special",
            side_effects=False,
        )
    del duckdb
