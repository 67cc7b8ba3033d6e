"""urnreg in Spark: checks that run on the executors, over Arrow.

    >>> import urnreg.spark
    >>> checked = urnreg.spark.check(df, "id")   # adds urn_valid, urn_nid, urn_key, urn_error (the kind)
    >>> urnreg.spark.register(spark)              # SQL: SELECT urn_valid(id) FROM ...

:func:`check` goes through ``DataFrame.mapInArrow``: each executor's Python
worker hands its Arrow record batches to urnreg's Rust engine, so it works
the same on a cluster as in ``local[*]`` (the executors need the urnreg
wheel: ``--py-files`` or the cluster's package mechanism).
"""

from __future__ import annotations

from typing import Any, Iterator

import pandas as pd  # the pandas UDFs' hints, which Spark reads
import pyarrow as pa  # the Arrow UDFs' hints, which Spark reads

from . import _NAMES, _checked, _error_message_arrow, _from_series, error_arrow, nid_arrow, normalize_arrow, valid_arrow

__all__ = ["check", "register"]

COLUMNS = ("urn_valid", "urn_nid", "urn_key", "urn_error")
# Made only when asked for (``columns=``), after those of COLUMNS.
MORE_COLUMNS = ("urn_error_message",)


def check(df: Any, column: str, *, strict: bool = False, columns: Any = COLUMNS) -> Any:
    """``df`` with the columns ``urn_valid`` (boolean), ``urn_nid``,
    ``urn_key`` (the equivalence key, null when invalid) and ``urn_error``
    (the first error's kind, e.g. ``nss-check``, null when valid, as
    ``urn_error`` in SQL, DuckDB, Polars and pandas), for the URNs in
    ``column``; ``columns`` chooses some of them, or adds
    ``urn_error_message`` (the first error's message), added in that fixed
    order (only what is asked for is made and sent back to the JVM:
    ``columns="urn_valid"`` is the cheapest)."""
    import pyspark.sql.types as T
    from pyspark.sql.types import BooleanType, StringType, StructField, StructType

    # Said here, on the driver, not as a worker's traceback.
    fields = {f.name: f for f in df.schema.fields}
    if column not in fields:
        raise ValueError(f"the DataFrame has no column {column!r} (its columns: {', '.join(df.columns)})")
    texts = tuple(getattr(T, t) for t in ("StringType", "CharType", "VarcharType", "BinaryType", "NullType") if hasattr(T, t))
    if not isinstance(fields[column].dataType, texts):
        raise TypeError(f"urnreg checks a column of strings; {column!r} is {fields[column].dataType.simpleString()}")
    columns = (columns,) if isinstance(columns, str) else tuple(columns)
    unknown = [c for c in columns if c not in COLUMNS + MORE_COLUMNS]
    if unknown or not columns:
        raise ValueError(f"columns are some of {', '.join(COLUMNS + MORE_COLUMNS)}, not {unknown or 'none'}")
    for name in columns:
        if name in df.columns:
            raise ValueError(f"the DataFrame already has a column {name}")
    # Output columns in the order of COLUMNS and MORE_COLUMNS, and the
    # engine's name of each.
    engine = ("valid", "nid", "key", "kind", "message")
    made = [(name, field) for name, field in zip(COLUMNS + MORE_COLUMNS, engine) if name in columns]
    schema = StructType(
        list(df.schema.fields)
        + [StructField(name, BooleanType() if field == "valid" else StringType(), True) for name, field in made]
    )
    want = tuple(field for _, field in made if field != "valid")

    def batches(iterator: Iterator[Any]) -> Iterator[Any]:
        for batch in iterator:
            cols = _checked(batch.column(column), None, strict, False, False, 0, want)
            arrays = list(batch.columns)
            for _, field in made:
                arrays.append(cols["valid"] if field == "valid" else cols[_NAMES[field]].cast(pa.string()))
            yield pa.RecordBatch.from_arrays(arrays, names=list(batch.schema.names) + [name for name, _ in made])

    return df.mapInArrow(batches, schema)


_FIELDS = {
    "valid": valid_arrow,
    "key": normalize_arrow,
    "nid": nid_arrow,
    "error_kind": error_arrow,
    "error_message": _error_message_arrow,
}


def _field(s: pd.Series, name: str, strict: bool) -> pd.Series:
    """One field of the checks of a pandas batch (on an executor)."""
    values = _from_series(s)
    out = _FIELDS[name](values, strict=strict).to_pandas()
    out.index = s.index
    return out


def register(spark: Any, *, strict: bool = False, prefix: str = "urn_") -> None:
    """Registers the SQL functions ``urn_valid``, ``urn_key``, ``urn_nid``,
    ``urn_error`` (the first error's kind, as DuckDB's) and
    ``urn_error_message`` with the session: Arrow UDFs where PySpark has them
    (4.1 and later: each batch reaches the engine as the Arrow array Spark
    sends, with no pandas in between), else pandas UDFs."""
    try:
        from pyspark.sql.functions import arrow_udf
    except ImportError:
        arrow_udf = None
    types = {"valid": "boolean", "key": "string", "nid": "string", "error_kind": "string", "error_message": "string"}
    sqls = (("valid", "valid"), ("key", "key"), ("nid", "nid"), ("error", "error_kind"), ("error_message", "error_message"))
    for sql, name in sqls:
        spark.udf.register(prefix + sql, _udf(arrow_udf, name, types[name], strict))


def _udf(arrow_udf: Any, name: str, kind: str, strict: bool) -> Any:
    """The SQL function of one field: an Arrow UDF, or a pandas UDF."""
    fn = _FIELDS[name]
    if arrow_udf is not None:

        def over_arrow(s: pa.Array) -> pa.Array:
            out = fn(s, strict=strict)
            # Spark wants the type it was told: plain strings, not large.
            return out if kind == "boolean" else out.cast(pa.string())

        return arrow_udf(over_arrow, kind)
    from pyspark.sql.functions import pandas_udf

    def over_pandas(s: pd.Series) -> pd.Series:
        out = _field(s, name, strict)
        return out.astype("boolean") if kind == "boolean" else out

    return pandas_udf(over_pandas, kind)
