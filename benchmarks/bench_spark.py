"""Documents per second of `rulecoref resolve --jobs N` and of Spark local mode (issue 18).

For each corpus (default: gum and litbank under ../shared/corpora) and each configuration it runs
the command as a user would, in its own process, into a fresh output folder, and reads the report
it writes (``rulecoref-report.json``):

  resolve-jN      ``rulecoref resolve DATA --types auto --jobs N``
  spark-local[N]  ``rulecoref spark-resolve DATA --types auto --master local[N]``

and, for Spark, the same resolution run twice in one session through the Python API (one
``rulecoref.spark.Resolver`` over ``records_frame``, chains written), to separate what a long batch
pays once (the JVM, each Python worker compiling the rules and loading WordNet) from its steady
rate: ``cold`` is the first run, ``warm`` the second, with the workers' pipelines built. With
``--replicate R`` the API runs once more over the corpus R times under new ids (the same files), a
batch long enough that Spark's per-job and per-task costs fade (the documents repeat, so the
passes' per-mention analyses are warm after the first copy, as in a second ``resolve`` of them).

``rows`` is the per-document work of a Spark task without Spark: ``resolve_row`` over the corpus
in one plain Python process, twice (new documents, then the same again), in wall and CPU seconds,
with the process's peak memory once the pipeline is built and after both runs.

Each line printed is one JSON object: corpus, configuration, documents, wall seconds of the
command, its start-up (resolve: rules and WordNet; spark-resolve: rules and the JVM), docs/s after
start-up, and for the API runs the cold and warm seconds and docs/s. Run it on a quiet machine: the
configurations run one after the other, never in parallel.

    python benchmarks/bench_spark.py [--corpus gum --corpus litbank] [--config resolve-j1 --config spark-local[2]]
    python benchmarks/bench_spark.py --corpus gum --config 'spark-local[1]' --replicate 20
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ("resolve-j1", "resolve-j2", "spark-local[1]", "spark-local[2]", "rows")


def rows_child(data: str, out: str) -> None:
    """The per-document work of a Spark task without Spark: ``resolve_row`` over the corpus in a
    loop, in this process (the pipeline built first, not timed), twice, wall and CPU seconds."""
    sys.path.insert(0, str(ROOT))
    from rulecoref.io.layout import find_records
    from rulecoref.spark import Job, PipelineHandle, Settings, resolve_row

    records, _ = find_records([data])
    job = Job(Settings(), "record", "auto", out=out)
    pipeline = PipelineHandle(job.settings).get()
    result: dict[str, object] = {"documents": len(records), "rss_mb_built": _rss_mb()}
    for run in ("cold", "warm"):
        wall, cpu = time.perf_counter(), time.process_time()
        for r in records:
            row = resolve_row(pipeline, {"id": r.name, "txt_path": str(r.txt), "con_path": str(r.con)}, job, None,
                              frozenset())
            assert row[3] is None, row[3]
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        result.update({f"{run}_s": round(wall, 2), f"{run}_cpu_s": round(cpu, 2),
                       f"{run}_docs_per_cpu_s": round(len(records) / cpu, 1)})
    result["rss_mb_after"] = _rss_mb()
    print(json.dumps(result))


def _rss_mb() -> int:
    """Peak resident memory of this process so far (what one Spark Python worker needs)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def run_command(config: str, data: Path, out: Path) -> dict[str, object]:
    """One CLI run: wall seconds, and what its report says."""
    if config.startswith("resolve-j"):
        args = ["resolve", str(data), "--jobs", config[len("resolve-j"):]]
    else:
        args = ["spark-resolve", str(data), "--master", config[len("spark-"):]]
    cmd = [sys.executable, "-m", "rulecoref", *args, "--types", "auto", "--out", str(out), "--no-progress", "--quiet"]
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    report = json.loads((out / "rulecoref-report.json").read_text(encoding="utf-8"))
    work = report["seconds"] - report["startup_seconds"]
    return {"command": "rulecoref " + " ".join(args) + " --types auto", "documents": report["documents"],
            "concepts": report["concepts"], "wall_s": round(wall, 2), "startup_s": report["startup_seconds"],
            "work_s": round(work, 2), "docs_per_s": round(report["documents"] / work, 2)}


def run_api(master: str, data: Path, out: Path, replicate: int = 1) -> dict[str, object]:
    """Two runs of the same resolution in one Spark session (in a child process, see ``--api``)."""
    done = subprocess.run([sys.executable, __file__, "--api", master, str(data), str(out), "--replicate", str(replicate)],
                          cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"API run on {master} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def api_child(master: str, data: str, out: str, replicate: int) -> None:
    sys.path.insert(0, str(ROOT))
    from pyspark.sql import SparkSession

    from rulecoref import spark as rs

    t0 = time.perf_counter()
    spark = (SparkSession.builder.master(master).appName("bench_spark").config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    session = time.perf_counter() - t0
    df = rs.records_frame(spark, [data])
    if replicate > 1:  # the same files under new ids: a batch long enough that per-job costs fade
        from pyspark.sql import functions as F

        copies = spark.range(replicate).withColumnRenamed("id", "copy")
        df = (df.crossJoin(copies).withColumn("id", F.concat_ws("-", "id", F.col("copy").cast("string")))
              .drop("copy").repartition(spark.sparkContext.defaultParallelism * 4))
    df = df.cache()
    n = df.count()
    runs = []
    resolver = rs.Resolver()  # one rule set for both jobs: the second finds the workers' pipelines built
    for k in range(2):
        t = time.perf_counter()
        rows = resolver.resolve(df, types="auto", out=os.path.join(out, f"run{k}")).select("error").collect()
        runs.append(time.perf_counter() - t)
        assert len(rows) == n and not any(r["error"] for r in rows)
    partitions = df.rdd.getNumPartitions()
    spark.stop()
    print(json.dumps({"session_s": round(session, 2), "partitions": partitions, "documents": n,
                      "cold_s": round(runs[0], 2), "cold_docs_per_s": round(n / runs[0], 2),
                      "warm_s": round(runs[1], 2), "warm_docs_per_s": round(n / runs[1], 2)}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    ap.add_argument("--corpus", action="append", default=None, help="gum, litbank (repeatable)")
    ap.add_argument("--config", action="append", default=None, choices=CONFIGS, help="(repeatable; default all)")
    ap.add_argument("--replicate", type=int, default=1, metavar="R",
                    help="also run the Spark API over the corpus R times under new ids (R > 1), Spark only")
    ap.add_argument("--api", nargs=3, metavar=("MASTER", "DATA", "OUT"), help=argparse.SUPPRESS)
    ap.add_argument("--rows", nargs=2, metavar=("DATA", "OUT"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.api:
        api_child(*args.api, args.replicate)
        return
    if args.rows:
        rows_child(*args.rows)
        return
    load = os.getloadavg()
    for corpus in args.corpus or ["gum", "litbank"]:
        data = args.corpora / corpus
        for config in args.config or CONFIGS:
            with tempfile.TemporaryDirectory(prefix="bench-spark-") as tmp:
                before = os.getloadavg()[0]
                if config == "rows":
                    done = subprocess.run([sys.executable, __file__, "--rows", str(data), str(Path(tmp) / "rows")],
                                          cwd=ROOT, capture_output=True, text=True, check=True)
                    row: dict[str, object] = {"corpus": corpus, "config": config,
                                              **json.loads(done.stdout.strip().splitlines()[-1])}
                else:
                    row = {"corpus": corpus, "config": config, **run_command(config, data, Path(tmp) / "cli")}
                if config.startswith("spark-"):
                    row["api"] = run_api(config[len("spark-"):], data, Path(tmp) / "api")
                    if args.replicate > 1:
                        row[f"api_x{args.replicate}"] = run_api(config[len("spark-"):], data, Path(tmp) / "apix",
                                                                args.replicate)
                row["load_1min_before_after"] = [round(before, 2), round(os.getloadavg()[0], 2)]
                print(json.dumps(row), flush=True)
    print(json.dumps({"cpus": os.cpu_count(), "load_at_start": [round(x, 2) for x in load]}))


if __name__ == "__main__":
    main()
