"""urnreg from Python against the Python peers, side by side in one run.

    python bench/python.py [N]        (default 1,000,000; the issue's goal is measured at 10,000,000)

Needs: the urnreg package (pip install ./python), pyarrow, duckdb, polars,
pyspark (with Java), urnparse (the peer: a pure-Python RFC 8141 parser),
and target/release-lto/urnreg (cargo build --profile release-lto).

Writes N URNs of the deterministic corpus (examples/gen_corpus.rs, as
bench/batch.sh) to a Parquet file, then times, best of 3:
  valid_arrow vs the CLI's check -q on the same URNs (goal >= 0.8x),
  and check_arrow with every field;
  DuckDB: urn_valid vs a Python UDF calling urnparse (goal >= 50x);
  Polars: the .urn expression vs map_elements with urnparse;
  Spark local[2]: urnreg.spark.check (mapInArrow) with urn_valid, the
  peer's question, vs a row-at-a-time Python UDF with urnparse (goal >=
  20x), on the whole file split over the cores; with every column; and
  Spark's own floor, a mapInArrow that passes the rows through;
and the peak memory of check_arrow as a multiple of the Arrow input's size.
"""

import os
import subprocess
import sys
import tempfile
import time

import pyarrow as pa
import pyarrow.parquet as pq

import urnreg

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000


# The peak RSS growth of one check_arrow over a Parquet file's column, in
# bytes (run in a fresh process; Linux: /proc/self/status and clear_refs).
MEMORY = """
import sys
import pyarrow.parquet as pq
import urnreg
def status(field):
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) * 1024 for l in f if l.startswith(field + ":"))
ids = pq.read_table(sys.argv[1]).column("id")
# Reading the file peaks higher than the table it leaves: start the peak
# (VmHWM) again from what is resident now (Linux: clear_refs 5).
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")
before = status("VmRSS")
out = urnreg.check_arrow(ids)
print(status("VmHWM") - before)
"""


def best(fn, runs=3):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def row(name, seconds, peer=None):
    ratio = f"{peer / seconds:8.2f}x" if peer else "        "
    print(f"\n{name:58s} {seconds:9.3f} s {ratio}", flush=True)


def main():
    subprocess.run(
        ["cargo", "build", "--profile", "release-lto", "--quiet", "--bin", "urnreg", "--example", "gen_corpus"],
        cwd=ROOT,
        check=True,
    )
    work = tempfile.mkdtemp()
    corpus = os.path.join(work, "corpus.txt")
    with open(corpus, "wb") as f:
        subprocess.run([os.path.join(ROOT, "target/release-lto/examples/gen_corpus"), str(N)], stdout=f, check=True)
    with open(corpus, "rb") as f:
        lines = f.read().decode("utf-8", "replace").split("\n")[:N]
    table = pa.table({"id": pa.array(lines, type=pa.large_string())})
    parquet = os.path.join(work, "events.parquet")
    pq.write_table(table, parquet)
    del lines, table
    # As a user has it: the Parquet file's row groups, one chunk each.
    ids = pq.read_table(parquet).column("id")
    size = ids.nbytes
    print(f"{N} URNs, Arrow input {size / 1e6:.1f} MB, {os.cpu_count()} cores")
    print(f"{'run':58s} {'time':>11s} {'vs peer':>9s}")

    cli = [os.path.join(ROOT, "target/release-lto/urnreg"), "check", "-q", "-"]
    env = dict(os.environ, URNREG_DB=os.path.join(work, "none.db"))

    def run_cli():
        with open(corpus, "rb") as f:
            subprocess.run(cli, stdin=f, env=env)

    t_cli = best(run_cli)
    row("urnreg check -q - (the CLI, every core)", t_cli)
    t_arrow = best(lambda: urnreg.check_arrow(ids))
    row("check_arrow, every field (every core)", t_arrow, t_cli)
    t_valid = best(lambda: urnreg.valid_arrow(ids))
    row("valid_arrow, verdicts only, as check -q (every core)", t_valid, t_cli)
    # Peak memory in a fresh process (this one's peak is the corpus's).
    grew = int(subprocess.run([sys.executable, "-c", MEMORY, parquet], capture_output=True, check=True, text=True).stdout)
    print(f"  check_arrow: peak RSS grew {grew / 1e6:.0f} MB for an input of {size / 1e6:.0f} MB: {grew / size:.2f}x (goal <= 2x)")

    try:
        import urnparse
    except ImportError:
        urnparse = None
        print("urnparse is not installed (pip install urnparse): the peer rows are skipped")

    def urnparse_valid(s):
        if s is None:
            return None
        try:
            urnparse.URN8141.from_string(s)
            return True
        except Exception:
            return False

    import duckdb

    from urnreg import duckdb as urn_duckdb

    con = duckdb.connect()
    urn_duckdb.register(con)
    query = f"SELECT count(*) FROM '{parquet}' WHERE NOT {{}}(id)"
    t_duck = best(lambda: con.execute(query.format("urn_valid")).fetchall())
    if urnparse:
        from duckdb.sqltypes import BOOLEAN, VARCHAR

        con.create_function("py_valid", urnparse_valid, [VARCHAR], BOOLEAN)
        t_duck_peer = best(lambda: con.execute(query.format("py_valid")).fetchall(), runs=1)
        row("DuckDB: Python UDF with urnparse", t_duck_peer)
        row("DuckDB: urn_valid", t_duck, t_duck_peer)
    else:
        row("DuckDB: urn_valid", t_duck)

    import polars as pl

    from urnreg import polars as _urn_polars  # noqa: F401  (.urn)

    df = pl.read_parquet(parquet)
    t_pl = best(lambda: df.select(pl.col("id").urn.valid()))
    if urnparse:
        t_pl_peer = best(lambda: df.select(pl.col("id").map_elements(urnparse_valid, return_dtype=pl.Boolean)), runs=1)
        row("Polars: map_elements with urnparse", t_pl_peer)
        row("Polars: .urn.valid()", t_pl, t_pl_peer)
    else:
        row("Polars: .urn.valid()", t_pl)

    try:
        from pyspark.sql import SparkSession
        from pyspark.sql.functions import udf

        from urnreg import spark as urn_spark

        os.environ["PYSPARK_PYTHON"] = sys.executable
        spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
        # The whole file, read as a job reads it: split by row group over
        # the cores (a limit() would put every row in one partition, on
        # one core, for urnreg and the peer alike).
        events = spark.read.parquet(parquet).cache()
        events.count()
        parts = events.rdd.getNumPartitions()
        # The same question as the peer's: which rows are invalid.
        t_spark = best(lambda: urn_spark.check(events, "id", columns=["urn_valid"]).filter("NOT urn_valid").count())
        # Every column: the key, NID and error of each row sent back too.
        t_spark_all = best(lambda: urn_spark.check(events, "id").filter("NOT urn_valid").count())
        # The SQL function (an Arrow UDF from PySpark 4.1): only the column
        # goes to Python, and only the verdicts come back.
        urn_spark.register(spark)
        events.createOrReplaceTempView("events")
        t_spark_sql = best(lambda: spark.sql("SELECT count(*) FROM events WHERE NOT urn_valid(id)").collect())
        # Spark's own cost: the rows to the Python worker and back, unchecked.
        t_spark_floor = best(lambda: events.mapInArrow(lambda batches: batches, events.schema).count())
        label = f"Spark local[2], {N} rows, {parts} partitions:"
        row(f"{label} mapInArrow passing the rows through (floor)", t_spark_floor)
        if urnparse:
            peer_udf = udf(urnparse_valid, "boolean")
            t_spark_peer = best(lambda: events.filter(~peer_udf("id")).count(), runs=1)
            row(f"{label} Python UDF with urnparse", t_spark_peer)
            row(f"{label} urnreg.spark.check, urn_valid", t_spark, t_spark_peer)
            row(f"{label} urnreg.spark.check, every column", t_spark_all, t_spark_peer)
            row(f"{label} SQL urn_valid(id) (urnreg.spark.register)", t_spark_sql, t_spark_peer)
        else:
            row(f"{label} urnreg.spark.check, urn_valid", t_spark)
            row(f"{label} urnreg.spark.check, every column", t_spark_all)
            row(f"{label} SQL urn_valid(id) (urnreg.spark.register)", t_spark_sql)
        spark.stop()
    except Exception as e:  # pragma: no cover - Spark needs Java
        print(f"Spark skipped: {e}")


if __name__ == "__main__":
    main()
