"""urnreg from Python: the same verdicts as the Rust library, through the
scalar and the Arrow paths, and the engines (DuckDB, Polars, pandas, Spark).

The vectors are the repository's own (`tests/data/`): RFC 8141 syntax,
equivalence, and every namespace's valid, invalid and real identifiers.
"""

from __future__ import annotations

import pathlib
import sys

import pyarrow as pa
import pytest

import urnreg

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data"


def load(path: pathlib.Path) -> dict:
    with open(path, "rb") as f:
        return tomllib.load(f)


def syntax_vectors():
    return [v for v in load(DATA / "syntax.toml")["vector"] if v.get("syntax", "rfc8141") == "rfc8141"]


def namespace_vectors():
    """(urn, valid, kind) from every tests/data/namespaces/*.toml."""
    out = []
    for path in sorted((DATA / "namespaces").glob("*.toml")):
        doc = load(path)
        for urn in doc.get("valid", []):
            out.append((path.stem, urn, True, None))
        for case in doc.get("invalid", []):
            out.append((path.stem, case["urn"], False, case.get("kind")))
        for case in doc.get("real", []):
            out.append((path.stem, case["urn"], case["verdict"] != "invalid", None))
    return out


def test_syntax_vectors_scalar_and_arrow_agree_with_the_rust_vectors():
    vectors = syntax_vectors()
    assert len(vectors) > 50
    inputs = [v["input"] for v in vectors]
    arrow = urnreg.check_arrow(pa.array(inputs), syntax_only=True).to_pylist()
    for v, row in zip(vectors, arrow):
        report = urnreg.check(v["input"], syntax_only=True)
        if "error" in v:
            assert not report.valid, v["rule"]
            assert report.errors[0]["kind"] == v["error"], v["rule"]
            assert report.errors[0]["offset"] == v["offset"], v["rule"]
            assert (row["valid"], row["error_kind"], row["error_offset"]) == (False, v["error"], v["offset"]), v["rule"]
        else:
            assert report.valid, v["rule"]
            assert report.key == v["key"] and row["key"] == v["key"], v["rule"]
            assert report.nid == v["nid"] == row["nid"], v["rule"]
            assert [w["kind"] for w in report.warnings] == v.get("warnings", []), v["rule"]


def test_every_namespace_vector_has_the_same_verdict_scalar_and_arrow():
    vectors = namespace_vectors()
    assert len(vectors) > 500
    arrow = urnreg.check_arrow(pa.array([v[1] for v in vectors])).to_pylist()
    for (nid, urn, valid, kind), row in zip(vectors, arrow):
        report = urnreg.check(urn)
        assert report.valid == valid == row["valid"], (nid, urn, report.errors)
        if kind:
            assert report.errors[0]["kind"] == kind == row["error_kind"], (nid, urn)
        if valid:
            assert report.key == row["key"], (nid, urn)


def test_equivalence_classes_rfc_8141_section_3():
    classes = load(DATA / "equivalence.toml")["class"]
    assert len(classes) > 5
    keys = []
    for c in classes:
        members = c["members"]
        ks = {urnreg.normalize(m, syntax_only=True) for m in members}
        assert len(ks) == 1, c["rule"]
        arrow = set(urnreg.normalize_arrow(pa.array(members), syntax_only=True).to_pylist())
        assert arrow == ks, c["rule"]
        keys.append(ks.pop())
    assert len(set(keys)) == len(keys), "two classes share a key"


def test_scalar_api():
    r = urnreg.check("URN:ISBN:0-395-36341-1")
    assert (r.valid, r.nid, r.nss, r.key) == (True, "ISBN", "0-395-36341-1", "urn:isbn:9780395363416")
    assert r.namespace["nid"] == "isbn"
    assert r.to_dict()["valid"] is True
    with pytest.raises(urnreg.UrnError) as e:
        urnreg.parse("urn:isbn:0-395-36341-2")
    assert (e.value.kind, e.value.offset) == ("nss-check", 21)
    assert urnreg.normalize("URN:ISBN:0-451-45052-3") == "urn:isbn:9780451450524"
    assert urnreg.eq("urn:isbn:0451450523", "urn:isbn:978-0-451-45052-4")
    assert not urnreg.valid("urn:isnb:0451450523")
    assert urnreg.check("urn:isnb:0451450523").errors[0]["kind"] == "unregistered-nid"
    # The owner's practice: valid with a warning, an error when strict.
    guid = "urn:newsml:iptc.org:20130517:catalog"
    assert urnreg.check(guid).warnings[0]["kind"] == "registration-deviation"
    assert not urnreg.valid(guid, strict=True)
    reg = urnreg.Registry.embedded()
    assert "isbn" in reg.nids() and reg.namespace("nope") is None


def test_registry_from_a_database(tmp_path):
    import shutil
    import subprocess

    exe = shutil.which("urnreg") or str(pathlib.Path(__file__).resolve().parents[2] / "target" / "debug" / "urnreg")
    if not pathlib.Path(exe).exists():
        pytest.skip("no urnreg binary to make a database with")
    db = tmp_path / "r.db"
    subprocess.run([exe, "init", "--db", str(db)], check=True, capture_output=True)
    reg = urnreg.Registry.from_path(str(db))
    assert urnreg.check("urn:isbn:0451450523", registry=reg).valid
    with pytest.raises(OSError):
        urnreg.Registry.from_path(str(tmp_path / "missing" / "x.db"))
    # A snapshot (a directory, or its registry.json) is a registry too.
    for fmt in ("toml", "json"):
        out = tmp_path / fmt
        subprocess.run([exe, "export", "--db", str(db), "--format", fmt, "--out", str(out)], check=True, capture_output=True)
        snap = urnreg.Registry.from_path(str(out))
        assert urnreg.check("urn:isbn:0451450524", registry=snap).errors[0]["kind"] == "nss-check"
    assert "isbn" in urnreg.Registry.from_path(str(tmp_path / "json" / "registry.json")).nids()
    (tmp_path / "json" / "registry.json").write_text("{}")
    with pytest.raises(OSError):
        urnreg.Registry.from_path(str(tmp_path / "json"))


def test_arrow_inputs_slices_nulls_chunks_and_bad_types():
    values = pa.array(["x", "urn:isbn:0451450523", None, "urn:isbn:0451450524"], type=pa.string())
    sliced = values.slice(1)
    assert urnreg.valid_arrow(sliced).to_pylist() == [True, None, False]
    large = values.cast(pa.large_string())
    assert urnreg.normalize_arrow(large).to_pylist() == [None, "urn:isbn:9780451450524", None, None]
    chunked = pa.chunked_array([values, values.slice(3)])
    assert len(urnreg.check_arrow(chunked)) == 5
    assert urnreg.valid_arrow(pa.array(["urn:ietf:rfc:8141"], type=pa.string_view())).to_pylist() == [True]
    with pytest.raises(TypeError):
        urnreg.check_arrow(pa.array([1, 2]))
    # Any object speaking the Arrow PyCapsule interface.
    class Capsule:
        def __arrow_c_array__(self, requested_schema=None):
            return pa.array(["urn:ietf:rfc:8141"]).__arrow_c_array__(requested_schema)

    assert urnreg.valid_arrow(Capsule()).to_pylist() == [True]
    assert urnreg.check_arrow(pa.array([], type=pa.string())).to_pylist() == []


def test_strings_past_max_line_get_one_verdict_on_every_path():
    # The batch engine's limit holds for the scalar path too.
    huge = "urn:example:" + "a" * urnreg.MAX_LINE
    assert urnreg.check(huge).errors[0]["kind"] == "line-too-long"
    assert urnreg.check_arrow(pa.array([huge])).to_pylist()[0]["error_kind"] == "line-too-long"
    at_limit = "urn:example:" + "a" * (urnreg.MAX_LINE - len("urn:example:"))
    assert urnreg.check(at_limit).valid
    assert urnreg.valid_arrow(pa.array([at_limit])).to_pylist() == [True]


def test_chunked_arrays_are_one_batch_with_the_rows_of_each_chunk():
    # The chunks of a Parquet file's row groups: sliced, empty, with nulls,
    # numbered as one array and checked into one set of columns.
    rows = ["urn:isbn:0451450523", None, "urn:isnb:1", "x y", "URN:ISBN:0-451-45052-3", "urn:uuid:%zz"] * 5000
    whole = pa.array(rows, type=pa.large_string())
    parts = [whole.slice(0, 7), whole.slice(7, 0), whole.slice(7, 20_000), whole.slice(20_007, 9_993)]
    chunked = pa.chunked_array(parts)
    expected = [urnreg.check(r).to_dict() if r is not None else None for r in rows]
    for jobs in (1, 2):
        out = urnreg.check_arrow(chunked, jobs=jobs)
        assert isinstance(out, pa.StructArray) and len(out) == len(rows)
        assert out.type.field("key").type == pa.string(), "int32 offsets while the text fits"
        got = out.to_pylist()
        # Every row: the bitmaps are packed eight rows at a time.
        for i in range(len(rows)):
            want = expected[i]
            if want is None:
                assert got[i]["valid"] is None and got[i]["key"] is None, i
            else:
                assert got[i]["valid"] == want["valid"], i
                assert got[i]["key"] == want["key"], i
                first = want["errors"][0] if want["errors"] else None
                assert got[i]["error_kind"] == (first and first["kind"]), i
                assert got[i]["error_message"] == (first and first["message"]), i
                assert got[i]["error_offset"] == (first and first["offset"]), i
        assert urnreg.valid_arrow(chunked, jobs=jobs).to_pylist() == [g["valid"] for g in got]
    assert urnreg.check_arrow(pa.chunked_array([], type=pa.string())).to_pylist() == []


def test_duckdb():
    duckdb = pytest.importorskip("duckdb")
    import urnreg.duckdb

    con = duckdb.connect()
    urnreg.duckdb.register(con)
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES ('urn:isbn:0451450523'), ('urn:isnb:0451450523'), ('urn:isbn:0451450524'), (NULL)) v(id)")
    rows = con.execute(
        "SELECT urn_nid(id) AS nid, count(*) FROM t WHERE NOT urn_valid(id) GROUP BY 1 ORDER BY 1"
    ).fetchall()
    assert rows == [("isbn", 1), ("isnb", 1)]
    assert con.execute("SELECT urn_key('URN:ISBN:0-451-45052-3')").fetchone() == ("urn:isbn:9780451450524",)
    # urn_error is the first error's kind in every engine (it was "kind:
    # message" in DuckDB alone); the message is urn_error_message.
    bad = "urn:isbn:0451450524"
    first = urnreg.check(bad).errors[0]
    assert con.execute(f"SELECT urn_error('{bad}'), urn_error_message('{bad}')").fetchone() == (
        first["kind"],
        first["message"],
    )
    assert con.execute("SELECT urn_error('urn:isbn:0451450523'), urn_error_message(NULL)").fetchone() == (None, None)
    assert con.execute("SELECT urn_valid(NULL::VARCHAR)").fetchone() == (None,)


def test_polars():
    pl = pytest.importorskip("polars")
    import urnreg.polars  # noqa: F401

    df = pl.DataFrame({"id": ["urn:isbn:0451450523", "urn:isnb:1", None]})
    out = df.lazy().select(
        pl.col("id").urn.valid().alias("valid"),
        pl.col("id").urn.key().alias("key"),
        pl.col("id").urn.nid().alias("nid"),
        pl.col("id").urn.error().alias("error"),
        pl.col("id").urn.error_message().alias("message"),
    ).collect()
    assert out["valid"].to_list() == [True, False, None]
    assert out["key"].to_list() == ["urn:isbn:9780451450524", None, None]
    assert out["error"].to_list() == [None, "unregistered-nid", None]
    assert out["message"].to_list() == [None, urnreg.check("urn:isnb:1").errors[0]["message"], None]
    struct = df.select(pl.col("id").urn.check()).unnest("id")
    assert struct["error_kind"].to_list() == [None, "unregistered-nid", None]


def test_pandas():
    pd = pytest.importorskip("pandas")
    import urnreg.pandas  # noqa: F401

    s = pd.Series(["urn:isbn:0451450523", "urn:isnb:1", None], index=[10, 11, 12])
    valid = s.urn.valid()
    # Nullable dtypes: a missing value is <NA>, and the Series stays one of
    # booleans a frame can be filtered with.
    assert str(valid.dtype) == "boolean"
    assert valid.tolist() == [True, False, pd.NA]
    assert list(valid.index) == [10, 11, 12]
    assert s[~valid.fillna(True)].tolist() == ["urn:isnb:1"]
    with pytest.raises(TypeError):
        pd.Series([1, "urn:isbn:0451450523"]).urn.valid()
    key = s.urn.key()
    assert key.tolist()[0] == "urn:isbn:9780451450524"
    # A missing key is whatever pandas makes of a null string (NaN in
    # pandas 3, None in pandas 2): isna() holds for it either way.
    assert key.isna().tolist() == [False, True, True]
    assert s.urn.error().tolist()[1] == "unregistered-nid"
    assert s.urn.error_message().tolist()[1] == urnreg.check("urn:isnb:1").errors[0]["message"]
    assert s.urn.error().isna().tolist() == [True, False, True]
    frame = s.urn.check()
    assert list(frame.columns) == ["valid", "nid", "key", "error_kind", "error_message", "error_offset"]
    assert (str(frame["valid"].dtype), str(frame["error_offset"].dtype)) == ("boolean", "Int64")
    assert frame["error_offset"].tolist() == [pd.NA, 4, pd.NA]


@pytest.fixture(scope="module")
def spark():
    pytest.importorskip("pyspark")
    import shutil

    if not shutil.which("java"):
        pytest.skip("Spark needs Java")
    import os

    from pyspark.sql import SparkSession

    # The workers run this interpreter (the one with urnreg and pyarrow).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("urnreg-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    yield session
    session.stop()


def test_spark_map_in_arrow_and_sql(spark, monkeypatch):
    import urnreg.spark

    df = spark.createDataFrame([("a", "urn:isbn:0451450523"), ("b", "urn:isnb:1"), ("c", None)], ["k", "id"])
    rows = {r["k"]: r for r in urnreg.spark.check(df, "id").collect()}
    assert rows["a"]["urn_valid"] is True and rows["a"]["urn_key"] == "urn:isbn:9780451450524"
    assert rows["b"]["urn_valid"] is False and rows["b"]["urn_error"] == "unregistered-nid"
    assert rows["c"]["urn_valid"] is None
    # Only the columns asked for are made.
    some = urnreg.spark.check(df, "id", columns=["urn_error", "urn_valid"])
    assert some.columns == ["k", "id", "urn_valid", "urn_error"]
    assert {r["k"]: r["urn_error"] for r in some.collect()} == {"a": None, "b": "unregistered-nid", "c": None}
    assert urnreg.spark.check(df, "id", columns="urn_valid").columns == ["k", "id", "urn_valid"]
    # urn_error is the kind, as in DuckDB, Polars and pandas; the message
    # only when asked for.
    message = urnreg.check("urn:isnb:1").errors[0]["message"]
    both = urnreg.spark.check(df, "id", columns=["urn_error_message", "urn_error"])
    assert both.columns == ["k", "id", "urn_error", "urn_error_message"]
    assert {r["k"]: (r["urn_error"], r["urn_error_message"]) for r in both.collect()} == {
        "a": (None, None),
        "b": ("unregistered-nid", message),
        "c": (None, None),
    }
    with pytest.raises(ValueError):
        urnreg.spark.check(df, "id", columns=["urn_nss"])
    # A column that is not there, or not of strings: said on the driver,
    # not as an executor's traceback when the rows are read.
    with pytest.raises(ValueError, match="no column 'ids'"):
        urnreg.spark.check(df, "ids")
    with pytest.raises(TypeError, match="column of strings"):
        urnreg.spark.check(spark.createDataFrame([(1,)], ["n"]), "n")
    urnreg.spark.register(spark)
    df.createOrReplaceTempView("ids")
    got = spark.sql("SELECT k, urn_valid(id) AS v, urn_nid(id) AS n, urn_error(id) AS e, urn_error_message(id) AS m FROM ids ORDER BY k").collect()
    assert [(r["k"], r["v"], r["n"], r["e"], r["m"]) for r in got] == [
        ("a", True, "isbn", None, None),
        ("b", False, "isnb", "unregistered-nid", message),
        ("c", None, None, None, None),
    ]
    # Before PySpark 4.1 (no Arrow UDFs) the same functions are pandas UDFs.
    import pyspark.sql.functions as F

    monkeypatch.delattr(F, "arrow_udf", raising=False)
    urnreg.spark.register(spark, prefix="p_")
    got = spark.sql("SELECT k, p_valid(id) AS v, p_key(id) AS key, p_error(id) AS e, p_error_message(id) AS m FROM ids ORDER BY k").collect()
    assert [(r["k"], r["v"], r["key"], r["e"], r["m"]) for r in got] == [
        ("a", True, "urn:isbn:9780451450524", None, None),
        ("b", False, None, "unregistered-nid", message),
        ("c", None, None, None, None),
    ]


def test_the_package_is_typed():
    # PEP 561: the marker and the stubs of the compiled half ship with it.
    here = pathlib.Path(urnreg.__file__).parent
    assert (here / "py.typed").exists()
    stub = (here / "_urnreg.pyi").read_text()
    for name in ("class Registry", "def from_path", "def check_json", "MAX_LINE"):
        assert name in stub, name


def test_the_engine_reads_only_pyarrow_buffers_large_enough():
    # Black-box finding of 2026-11-28: the engine's entry point took
    # addresses as integers, so plain Python could make it read any
    # memory. It takes pyarrow buffers, and checks their sizes first.
    pa = pytest.importorskip("pyarrow")
    reg = urnreg.Registry.embedded()
    with pytest.raises(TypeError):
        reg._check_columns([(1, 16, 10, 8, None)], 4)
    small = pa.py_buffer(b"\0" * 4)
    with pytest.raises(ValueError, match="offsets buffer is too small"):
        reg._check_columns([(10, small, small, 0, None)], 4)
    offsets = pa.py_buffer(b"\0" * 8)
    with pytest.raises(ValueError, match="validity bitmap is too small"):
        reg._check_columns([(1, small, offsets, 0, pa.py_buffer(b""))], 4)
    with pytest.raises(ValueError):
        reg._check_columns([(1, small, pa.py_buffer(b"\0\0\0\0\xff\0\0\0"), 0, None)], 4)


def test_api_misuse_is_a_clear_error():
    # Black-box findings of 2026-11-28.
    import pickle

    pa = pytest.importorskip("pyarrow")
    for values in ("urn:example:a", b"urn:x:y", {"urn:example:a": 1}):
        with pytest.raises(TypeError, match="array of strings"):
            urnreg.check_arrow(values)
    with pytest.raises(TypeError):
        urnreg.nid_arrow(pa.array(["urn:ab:c"]), stict=True)
    with pytest.raises(TypeError, match="urnreg.Registry"):
        urnreg.check("urn:example:a", registry="x")
    try:
        urnreg.parse("urn:isnb:1")
    except urnreg.UrnError as e:
        again = pickle.loads(pickle.dumps(e))
        assert (again.urn, again.kind, again.offset, str(again)) == (e.urn, e.kind, e.offset, str(e))
    with pytest.raises(FileNotFoundError) as missing:
        urnreg.Registry.from_path("/nonexistent/registry.db")
    assert missing.value.filename == "/nonexistent/registry.db"


def test_from_path_says_why(tmp_path):
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    with pytest.raises(OSError, match="an empty file"):
        urnreg.Registry.from_path(str(empty))
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"x" * 8192)
    with pytest.raises(OSError) as e:
        urnreg.Registry.from_path(str(garbage))
    # The cause, not only "database error".
    assert "garbage.db: " in str(e.value) and len(str(e.value)) > len(str(garbage)) + len(": database error")


# --- Hostile and edge inputs (black-box sweep of 2026-11-29) ---------------

EDGE = [
    "urn:isbn:0451450523",
    None,
    "URN:ISBN:0-451-45052-3",
    "urn:isbn:0451450524",
    "",
    "urn:isnb:1",
    "x y",
    None,
    "urn:uuid:%zz",
    "urn:example:a\x00b",
    "urn:example:\u00e9",
    "urn:example:a#b#c",
    "urn:ietf:rfc:8141",
]


def _rows(struct):
    return [
        None if r["valid"] is None else (r["valid"], r["nid"], r["key"], r["error_kind"], r["error_message"], r["error_offset"])
        for r in struct.to_pylist()
    ]


def _scalar(v):
    if v is None:
        return None
    r = urnreg.check(v)
    e = r.errors[0] if r.errors else None
    return (r.valid, r.nid, r.key, e and e["kind"], e and e["message"], e and e["offset"])


@pytest.mark.parametrize(
    "arrow_type",
    ["string", "large_string", "string_view", "binary", "large_binary", "binary_view", "dictionary", "dictionary_binary"],
)
def test_every_string_layout_and_slice_reads_its_own_rows(arrow_type):
    # A slice's rows start at its offset into the offsets and the validity
    # bitmap (a classic bug reads from row 0): every layout, every slice,
    # row for row the scalar verdict.
    vals = EDGE * 3
    if arrow_type.startswith("dictionary"):
        base = pa.array(vals, type=pa.binary() if arrow_type.endswith("binary") else pa.string())
        array = base.dictionary_encode()
    else:
        factory = getattr(pa, arrow_type, None)
        if factory is None:
            pytest.skip(f"pyarrow {pa.__version__} has no {arrow_type}")
        array = pa.array(vals, type=factory())
    expected = [_scalar(v) for v in vals]
    for start, length in ((0, len(vals)), (3, 5), (1, 30), (7, 1), (9, 0), (13, 20)):
        part = array.slice(start, length)
        assert _rows(urnreg.check_arrow(part)) == expected[start : start + length], (start, length)
        assert urnreg.valid_arrow(part).to_pylist() == [e and e[0] for e in expected[start : start + length]]
    chunked = pa.chunked_array([array.slice(0, 4), array.slice(4, 0), array.slice(4, 11), array.slice(15)])
    assert _rows(urnreg.check_arrow(chunked)) == expected
    assert _rows(urnreg.check_arrow(chunked.slice(2, 20))) == expected[2:22]


def test_strings_utf8_cannot_encode_get_a_verdict_not_an_exception():
    # A lone surrogate: what decoding with errors="surrogateescape" leaves
    # for a byte that is not UTF-8 (file names, sys.argv, text read so).
    # It was a UnicodeEncodeError from every path; it is the verdict on the
    # bytes it stands for, as a binary array's row and the command line get.
    escaped = b"urn:example:a\xffb".decode("utf-8", "surrogateescape")
    report = urnreg.check(escaped)
    binary = urnreg.check_arrow(pa.array([b"urn:example:a\xffb"], type=pa.binary())).to_pylist()[0]
    assert not report.valid
    first = report.errors[0]
    assert (first["kind"], first["offset"], first["message"]) == (
        binary["error_kind"],
        binary["error_offset"],
        binary["error_message"],
    )
    assert first["kind"] == "non-ascii" and first["offset"] == 13
    assert urnreg.valid("urn:example:\ud800") is False
    with pytest.raises(urnreg.UrnError) as e:
        urnreg.parse("urn:example:\ud800x")
    assert (e.value.kind, e.value.offset) == ("non-ascii", 12)
    # The same verdicts from a list and from pandas.
    got = urnreg.check_arrow([escaped, "urn:isbn:0451450523", None]).to_pylist()
    assert [g["valid"] for g in got] == [False, True, None]
    assert got[0]["error_message"] == first["message"]
    pd = pytest.importorskip("pandas")
    pytest.importorskip("urnreg.pandas")  # registers the accessor

    # (object dtype: pandas 3 infers its Arrow-backed str, which refuses them)
    assert pd.Series([escaped, "urn:isbn:0451450523", None], dtype=object).urn.valid().tolist() == [False, True, pd.NA]
    # bytes are checked as they are, as a binary array's rows are.
    assert urnreg.check(b"urn:isbn:0451450523").key == "urn:isbn:9780451450524"
    assert urnreg.check(b"urn:example:a\xffb").errors[0] == first
    for bad in (None, 42, ["urn:isbn:0451450523"]):
        with pytest.raises(TypeError, match="str"):
            urnreg.check(bad)


def test_a_string_past_max_line_is_shown_cut_where_the_command_line_cuts_it():
    # The report's input is the first MAX_LINE bytes, as `urnreg check`'s
    # (it was one byte more).
    report = urnreg.check("urn:example:" + "a" * urnreg.MAX_LINE)
    assert len(report.input) == urnreg.MAX_LINE
    assert report.errors[0]["offset"] == urnreg.MAX_LINE


def test_jobs_is_a_number_of_threads():
    values = pa.array(["urn:isbn:0451450523", None] * 20_000)
    for jobs in (0, 1, 2, 300, 2**70):
        assert urnreg.valid_arrow(values, jobs=jobs).null_count == 20_000
    with pytest.raises(ValueError, match="jobs"):
        urnreg.valid_arrow(values, jobs=-1)
    for jobs in (None, 1.5, "2"):
        with pytest.raises(TypeError, match="jobs"):
            urnreg.valid_arrow(values, jobs=jobs)


def test_unaligned_offsets_from_another_producer_are_read():
    # The C data interface does not promise aligned buffers: such an array
    # was refused as "offsets buffer is too small".
    import struct

    data = pa.py_buffer(b"urn:isbn:0451450523urn:isnb:1")
    offsets = pa.py_buffer(b"\0" + struct.pack("<iii", 0, 19, 29)).slice(1)
    assert offsets.address % 4 != 0
    array = pa.Array.from_buffers(pa.string(), 2, [None, offsets, data])
    assert urnreg.valid_arrow(array).to_pylist() == [True, False]
    assert urnreg.nid_arrow(array.slice(1)).to_pylist() == ["isnb"]
    with pytest.raises(ValueError, match="not aligned"):
        urnreg.Registry.embedded()._check_columns([(2, data, offsets, 0, None)], 4)


def test_what_is_not_a_column_of_strings_says_so():
    for values in (None, 42, 4.5):
        with pytest.raises(TypeError, match="array of strings"):
            urnreg.valid_arrow(values)
    for values in (pa.array([1, 2]), pa.array([{"a": "x"}]), pa.table({"a": ["x"]}), pa.array([b"x"], pa.binary(1))):
        with pytest.raises(TypeError, match="arrays of strings"):
            urnreg.check_arrow(values)
    # The array's own type, whatever its number of chunks (an empty
    # Parquet file, a stream with no batch: black-box finding of
    # 2026-11-29, zero chunks of int64 were accepted).

    class Stream:
        def __init__(self, chunked):
            self.chunked = chunked

        def __arrow_c_stream__(self, requested_schema=None):
            return self.chunked.__arrow_c_stream__(requested_schema)

    for t in (pa.int64(), pa.list_(pa.string()), pa.binary(1)):
        for chunks in ([], [pa.array([], type=t)]):
            with pytest.raises(TypeError, match="arrays of strings"):
                urnreg.valid_arrow(pa.chunked_array(chunks, type=t))
            with pytest.raises(TypeError, match="arrays of strings"):
                urnreg.valid_arrow(Stream(pa.chunked_array(chunks, type=t)))
    for t in (pa.string(), pa.large_binary(), pa.string_view(), pa.dictionary(pa.int8(), pa.string()), pa.null()):
        assert urnreg.check_arrow(pa.chunked_array([], type=t)).to_pylist() == []
        assert urnreg.valid_arrow(Stream(pa.chunked_array([], type=t))).to_pylist() == []


def test_from_path_on_what_is_no_file(tmp_path):
    import os

    fifo = tmp_path / "fifo.db"
    os.mkfifo(fifo)
    # Not opened (that would wait for a writer), nor called empty.
    with pytest.raises(OSError, match="not a regular file"):
        urnreg.Registry.from_path(str(fifo))
    # A NUL byte: no file has such a name; said as Python's open() says
    # it (a ValueError), naming the byte, not as a database error.
    for path in (str(tmp_path / "a\0b.db"), b"/tmp/a\0b.db"):
        with pytest.raises(ValueError, match="NUL byte") as e:
            urnreg.Registry.from_path(path)
        assert "database" not in str(e.value), e.value


def test_from_path_takes_what_open_takes(tmp_path):
    # Black-box finding of 2026-11-29: the TypeError for an int said bytes
    # would do, and bytes were then refused.
    import os

    missing = tmp_path / "missing.db"
    for path in (str(missing), os.fsencode(str(missing)), missing):
        with pytest.raises(FileNotFoundError):
            urnreg.Registry.from_path(path)
    (tmp_path / "empty.db").write_bytes(b"")
    with pytest.raises(OSError, match="an empty file"):
        urnreg.Registry.from_path(os.fsencode(str(tmp_path / "empty.db")))
    for bad in (5, None, 1.5):
        with pytest.raises(TypeError, match="str, bytes or os.PathLike"):
            urnreg.Registry.from_path(bad)


def test_bytes_that_are_not_utf8_get_a_verdict_in_every_python_container():
    # Black-box finding of 2026-11-29: a list, numpy array or pandas Series
    # holding one such bytes raised for the whole call; its row gets the
    # verdict check() and a binary array's row give it (non-ascii at 12).
    np = pytest.importorskip("numpy")
    pd = pytest.importorskip("pandas")
    pytest.importorskip("urnreg.pandas")  # registers the accessor

    bad = b"urn:example:\xff"
    first = urnreg.check(bad).errors[0]
    assert (first["kind"], first["offset"]) == ("non-ascii", 12)
    rows = [b"urn:isbn:0451450523", bad, None, "urn:isnb:1"]
    want = [(True, None, None), (False, "non-ascii", 12), None, (False, "unregistered-nid", 4)]

    def got(struct):
        return [None if r["valid"] is None else (r["valid"], r["error_kind"], r["error_offset"]) for r in struct.to_pylist()]

    for values in (rows, tuple(rows), (r for r in rows), np.array(rows, dtype=object)):
        assert got(urnreg.check_arrow(values)) == want, type(values)
    assert urnreg.check_arrow([bad]).to_pylist()[0]["error_message"] == first["message"]
    series = pd.Series(rows, dtype=object, index=[5, 6, 7, 8])
    assert series.urn.valid().tolist() == [True, False, pd.NA, False]
    assert series.urn.check()["error_offset"].tolist() == [pd.NA, 12, pd.NA, 4]
    binary = pd.Series([b"urn:isbn:0451450523", bad, None], dtype=pd.ArrowDtype(pa.binary()))
    assert binary.urn.valid().tolist() == [True, False, pd.NA]
    assert binary.urn.error().tolist()[1] == "non-ascii"
    # What is neither str nor bytes is still a TypeError.
    for values in ([bad, 5], ["urn:isbn:0451450523", 1.5]):
        with pytest.raises(TypeError, match="str or bytes"):
            urnreg.check_arrow(values)


def test_pandas_series_kept_in_arrow_are_read_in_place(monkeypatch):
    # Black-box finding of 2026-11-29: the accessor made a Python object of
    # every row (about 70x the memory of the Arrow path on 2M rows) even
    # where pandas keeps the Series in Arrow. Such a Series never reaches
    # the conversion from Python objects.
    pd = pytest.importorskip("pandas")
    pytest.importorskip("urnreg.pandas")  # registers the accessor

    rows = ["urn:isbn:0451450523", None, "urn:isnb:1", "URN:ISBN:0-451-45052-3"]
    expected = pd.Series(rows, dtype=object).urn.check()

    def refused(*args, **kwargs):
        raise AssertionError("a Series kept in Arrow went through Python objects")

    monkeypatch.setattr(urnreg, "_from_python", refused)
    dtypes = ["string[pyarrow]", pd.ArrowDtype(pa.string()), pd.ArrowDtype(pa.large_string())]
    if int(pd.__version__.split(".")[0]) >= 3:
        dtypes.append("str")  # pandas 3's default, Arrow-backed
    for dtype in dtypes:
        # Two chunks, and an index of its own.
        s = pd.concat([pd.Series(rows[:1], dtype=dtype), pd.Series(rows[1:], dtype=dtype)])
        s.index = [9, 8, 7, 6]
        frame = s.urn.check()
        assert list(frame.index) == [9, 8, 7, 6], dtype
        assert frame["valid"].tolist() == expected["valid"].tolist(), dtype
        assert frame["key"].isna().tolist() == expected["key"].isna().tolist(), dtype
        assert frame["key"].dropna().tolist() == expected["key"].dropna().tolist(), dtype
        assert s.urn.error().dropna().tolist() == ["unregistered-nid"], dtype
    with pytest.raises(TypeError, match="arrays of strings, not int64"):
        pd.Series([1, 2], dtype=pd.ArrowDtype(pa.int64())).urn.valid()
