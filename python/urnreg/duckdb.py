"""urnreg in DuckDB: vectorized (Arrow) SQL functions.

    >>> import duckdb, urnreg.duckdb
    >>> con = duckdb.connect()
    >>> urnreg.duckdb.register(con)
    >>> con.sql("SELECT urn_valid('urn:isbn:0451450523'), urn_key('URN:ISBN:0-451-45052-3')").fetchall()
    [(True, 'urn:isbn:9780451450524')]

``urn_valid(s)``, ``urn_key(s)`` (the equivalence key, NULL when
invalid), ``urn_nid(s)`` and ``urn_error(s)`` (``kind: message`` of the
first error, NULL when valid) each take a whole vector at a time as an Arrow
array and check it on every core.
"""

from __future__ import annotations

from typing import Any, Optional

from . import Registry, _checked, nid_arrow, normalize_arrow, valid_arrow

__all__ = ["register"]


def register(con: Any, *, registry: Optional[Registry] = None, strict: bool = False, prefix: str = "urn_") -> None:
    """Adds ``urn_valid``, ``urn_key``, ``urn_nid`` and ``urn_error`` to the
    DuckDB connection ``con`` (``prefix`` renames them)."""
    import duckdb
    import pyarrow as pa
    import pyarrow.compute as pc
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
        cols = _checked(values, registry, strict, False, False, 0, ("kind", "message"))
        kind = cols["error_kind"].cast(pa.string())
        return pc.binary_join_element_wise(kind, cols["error_message"].cast(pa.string()), ": ")

    for name, fn, returns in (
        ("valid", urn_valid, BOOLEAN),
        ("key", urn_key, VARCHAR),
        ("nid", urn_nid, VARCHAR),
        ("error", urn_error, VARCHAR),
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
