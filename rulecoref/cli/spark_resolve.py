"""``rulecoref spark-resolve``: ``rulecoref resolve`` on Spark, for batches one machine cannot finish.

It writes the same ``OUT/NAME.txt.chains`` files and ``OUT/rulecoref-report.json`` as ``resolve``
(``rulecoref.spark`` does the work). Executors read i2b2 inputs and write the chains files
themselves, so on a cluster DATA and OUT must be on a file system every executor sees; JSONL and
Parquet inputs may also live on HDFS or an object store (docs/scale.md).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..errors import CliError, Diagnostic, InputError, RulecorefError, diagnostic
from ..extras import require
from ..io.formats import choices_help, find_inputs, formats, get_format, input_formats, output_formats, output_paths
from ..io.outdir import OutputFolder
from ..io.typemap import read_type_map
from ..resume import add_resume_option, check_resume, note, nothing_left, plan, say_nothing_left
from ..tally import WarningTally
from .common import (
    Interrupted,
    add_find_mentions_option,
    add_input_options,
    add_quiet_options,
    add_rules_option,
    gather_inputs,
    inputs_of,
    parse_types,
    print_diagnostics,
    show_progress,
    whole,
)
from .report import REPORT, batch_folder, finish, interrupted_report
from .resolve import finish_files, output_names, planned_files

#: Spark's own row source besides the formats with records (``rulecoref.spark.read_frame``)
SPARK_SOURCES = ("parquet",)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "spark-resolve",
        help="resolve a batch on Spark and write .txt.chains files",
        description=(
            "Resolve coreference for every document of DATA on Spark (local mode or a cluster) and write "
            "OUT/NAME.txt.chains (or another --format), the same files `rulecoref resolve` writes. DATA is an i2b2 folder or files "
            "(as for resolve), or JSON Lines / Parquet rows {id, text, tokenized, concepts: [{start, end, type}]}. "
            f"Failed documents are listed in OUT/{REPORT} and make the exit code 1. Needs Java and "
            "pyspark (pip install 'rulecoref[spark]')."
        ),
    )
    add_input_options(p)
    p.add_argument("--out", "-o", type=Path, required=True, metavar="OUT_DIR",
                   help="where .txt.chains files go (every executor writes there)")
    add_rules_option(p)
    add_find_mentions_option(p)
    p.add_argument("--model", default=None, metavar="JSON", help="override the decoder's model path in the rule file")
    p.add_argument("--input-format", choices=("auto", *input_formats(), *SPARK_SOURCES), default="auto",
                   help="what DATA holds (default: auto, from the names and what folders hold, as convert "
                        "--from tells: " + ", ".join(f"{' or '.join(f.marks)} -> {f.name}" for f in formats() if f.marks)
                        + "; .parquet -> parquet)")
    p.add_argument("--type-map", type=Path, default=None, metavar="YAML",
                   help="map the input's entity types to rule types (jsonl, parquet; docs/formats.md)")
    p.add_argument("--master", default=None, metavar="URL",
                   help="Spark master, e.g. local[2] or yarn (default: spark-submit's, else local[*])")
    p.add_argument("--partitions", type=whole(1, 1_000_000), default=None, metavar="N",
                   help="partitions of records listed on the driver (default: 4 per core, at most one per document)")
    p.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                   help="a Spark setting, e.g. spark.executor.memory=4g (repeatable)")
    p.add_argument("--overwrite", action="store_true",
                   help="delete the .txt.chains files that earlier rulecoref runs wrote in OUT_DIR first (files "
                        "rulecoref did not write are never replaced or deleted)")
    add_resume_option(p)
    p.add_argument("--strict", action="store_true", help="a concept whose text does not match its tokens is an error")
    p.add_argument("--provenance", action="store_true",
                   help="also write OUT/NAME.links.json: every link and who made or removed it")
    p.add_argument("--format", choices=output_formats(), default="i2b2",
                   help=f"what to write per document: {choices_help(output_formats())} (docs/formats.md)")
    add_quiet_options(p)
    p.set_defaults(run=run)


def _confs(items: list[str]) -> list[tuple[str, str]]:
    out = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise CliError(diagnostic("RC553", option="--conf", detail=f"takes KEY=VALUE, got {item!r}"))
        out.append((key.strip(), value))
    return out


#: ``local``, ``local[N]`` (N >= 1), ``local[*]``, ``local[N,F]``, ``local[*,F]``, ``local-cluster[...]``
_LOCAL_MASTER = re.compile(r"local(\[(\*|[1-9]\d*)(,\s*[1-9]\d*)?\]|-cluster\[[^\]]*\])?")
#: RC534's hint when Java is there but Spark refused the settings (the default hint is about Java)
MASTER_HINT = ("check --master (local[N] with N >= 1, local[*], spark://HOST:PORT, yarn) and the --conf "
               "settings (docs/scale.md).")


def start_spark(master: str | None, confs: list[tuple[str, str]], *, progress: bool, quiet: bool = False) -> Any:
    """A SparkSession, or RC534 (exit 2) when Spark cannot start (no Java, a bad master URL).

    Executors start this very interpreter (``sys.executable``: the virtual environment rulecoref
    runs from, activated or not) unless ``PYSPARK_PYTHON`` or ``--conf spark.pyspark.python``
    names another; Spark's own default, ``python3`` on the PATH, may have no rulecoref at all.
    With ``quiet`` the JVM's standard error (log4j's console, the JVM's own notes, executors in
    local mode) goes nowhere: it inherits the descriptor it is started with (``_jvm_stderr``)."""
    require("spark", "rulecoref spark-resolve")
    if not os.environ.get("JAVA_HOME") and shutil.which("java") is None:
        raise CliError(diagnostic("RC534", detail="no 'java' on PATH and JAVA_HOME is not set"))
    if master and master.startswith("local") and not _LOCAL_MASTER.fullmatch(master):
        raise CliError(diagnostic("RC534", detail=f"--master {master[:60]!r}: local[N] needs N of at least 1 (or *)",
                                  hint=MASTER_HINT))
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("rulecoref spark-resolve")
    if master:
        builder = builder.master(master)
    builder = builder.config("spark.ui.showConsoleProgress", "true" if progress else "false")
    for key, value in [*_loopback(master, confs), *confs]:
        builder = builder.config(key, value)
    python = dict(confs).get("spark.pyspark.python") or os.environ.get("PYSPARK_PYTHON") or sys.executable
    before = os.environ.get("PYSPARK_PYTHON")
    os.environ["PYSPARK_PYTHON"] = python  # pyspark reads it when the context starts, for every executor
    try:
        with _jvm_stderr(quiet):
            spark = builder.getOrCreate()
    except Exception as exc:  # the JVM did not start, or rejected the master URL
        detail = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
        java = "java" in detail.lower() and "gateway" in detail.lower()  # the JVM itself did not start
        raise CliError(diagnostic("RC534", detail=detail, hint=None if java else MASTER_HINT)) from exc
    finally:
        if before is None:
            os.environ.pop("PYSPARK_PYTHON", None)
        else:
            os.environ["PYSPARK_PYTHON"] = before
    spark.sparkContext.setLogLevel("FATAL")  # a failed job is RC538, not pages of executor log
    return spark


@contextlib.contextmanager
def _jvm_stderr(quiet: bool) -> Iterator[None]:
    """While pyspark starts the JVM (which inherits this process's descriptor 2 for good), point
    descriptor 2 at /dev/null if ``quiet``; this process's own standard error is back afterwards."""
    if not quiet:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def _loopback(master: str | None, confs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A master on this machine (``local[N]``, ``spark://127.0.0.1:P``, localhost) talks to the
    driver on the loopback address, not on the address the host name resolves to (Spark's default,
    which may be an outside interface); a cluster elsewhere needs the driver's reachable address,
    Spark's own choice. ``--conf`` settings win."""
    if master is None:  # spark-submit's master, or local[*]: Spark's own choice
        return []
    host = master.split("://", 1)[-1].rsplit(":", 1)[0].strip("[]")
    local = master.startswith("local") or host in ("127.0.0.1", "localhost", "::1")
    given = {k for k, _ in confs}
    return [(k, "127.0.0.1") for k in ("spark.driver.host", "spark.driver.bindAddress") if local and k not in given]


def run(args: argparse.Namespace) -> int:
    """``resolve``'s order: inputs, the output folder and the rules are checked before Spark starts
    (exit 2, nothing written); the folder is locked for the run, as ``resolve`` locks it."""
    from .. import spark as rs

    check_resume(args)
    inputs = [str(i) for i in gather_inputs(args)]
    found = {rs.guess_format(i) if args.input_format == "auto" else args.input_format for i in inputs}
    if len(found) > 1:
        raise CliError(diagnostic("RC553", option="DATA", detail=f"mixes formats ({', '.join(sorted(found))}); "
                                                               "give one kind of input per run"))
    fmt = found.pop()
    local = all("://" not in i for i in inputs)
    # records are listed on the driver, as resolve lists them, unless Spark reads the rows itself
    # (Parquet, or the lines of remote files of a ``lines`` format: JSONL on HDFS)
    listed = fmt in input_formats() and (local or not get_format(fmt).lines)
    if args.resume and not listed:
        raise CliError(diagnostic("RC527", format=fmt))
    records, strays = find_inputs(inputs, fmt, args.encoding) if listed else ([], [])
    given = [Path(i) for i in inputs if local and Path(i).is_file()]
    out = batch_folder(args, args.format, inputs_of(records, inputs, fmt if listed else None, extra=given)).check()
    out.resume = args.resume
    confs = _confs(args.conf)
    t0 = time.perf_counter()
    settings = rs.Settings(rules=None if args.rules is None else str(args.rules), wordnet=args.wordnet,
                           model=args.model, allow_paths=tuple(str(p) for p in args.allow_path),
                           allow_network=args.allow_network, find_mentions=args.find_mentions)
    ruleset = settings.compile()  # rule-file errors stop here, before Spark starts (exit 2)
    types = parse_types(args.types, ruleset.types)
    job = {"types": "auto" if types is None else types, "type_map": read_type_map(args.type_map) if args.type_map
           else None, "strict_text": args.strict, "encoding": args.encoding, "out": str(args.out.resolve()),
           "format": args.format, "provenance": args.provenance}
    with out.open(planned_files(records, args.format, args.provenance)):
        done = plan(out, records, output_names(args.format, args.provenance))
        if nothing_left(out, done, REPORT) and not strays:  # a finished folder: Spark never starts
            return say_nothing_left(done, out, REPORT)
        spark = start_spark(args.master, confs, progress=show_progress(args), quiet=args.quiet)
        startup = time.perf_counter() - t0
        report, signals = _job(spark, rs, settings, job, out, args, ruleset.path, fmt, done.todo if listed else None,
                               inputs)
        stopped = Interrupted(signals[0]) if signals else None
        if stopped is None:
            strays += finish_files(out, get_format(args.format), types or ruleset.types)
        print_diagnostics(strays, prefix="error: ")
        report["failed"] += [{"document": None, "problems": [d.to_dict()]} for d in strays]
        note(report, done)
        if stopped is not None:
            interrupted_report(report, stopped, report.pop("unfinished"))
        return finish(out, report, seconds=time.perf_counter() - t0, startup=startup, startup_label="Spark start-up",
                      where=f" on {report['master']}", interrupted=stopped)


def _job(spark: Any, rs: Any, settings: Any, job: dict[str, Any], out: OutputFolder, args: argparse.Namespace,
         rules_file: str, fmt: str, records: list[Any] | None, inputs: list[str]) -> tuple[dict[str, Any], list[int]]:
    """Run the Spark job and stop Spark: the report, and the signals that cancelled it (the report
    of an interrupted run then). ``records``: those listed on the driver and left to do (None: rows
    Spark reads itself)."""
    listed = records is not None
    report: dict[str, Any] = {}
    with _signals_cancel(spark) as signals:
        try:
            df = _frame(spark, rs, fmt, inputs, records, args)
            result = rs.resolve(df, settings.rules, wordnet=settings.wordnet, model=settings.model,
                                allow_paths=settings.allow_paths, check=False, find_mentions=settings.find_mentions,
                                **job)
            report = _report(result, args, rules_file, fmt, listed, spark.sparkContext.master)
        except RulecorefError:
            raise
        except Exception as exc:  # a job that failed on the executors (a worker that cannot start, ...)
            if not signals:  # (a job a signal cancelled fails too: the report below says so)
                raise CliError(diagnostic("RC538", detail=_first_line(exc))) from exc
        finally:
            _stop(spark, interrupted=bool(signals))
            if not listed:  # names known only to the executors: every output file there is this run's
                _claim_written(out, args.format, args.provenance)
    if signals:
        report = _interrupted(args, rules_file, fmt, records, spark.sparkContext.master)
    return report, signals


@contextlib.contextmanager
def _signals_cancel(spark: Any) -> Iterator[list[int]]:
    """While the job runs, SIGINT, SIGTERM and SIGHUP cancel it and are remembered (the list it
    yields). Raising in the handler, as elsewhere, would land inside a py4j call, which logs a
    traceback, breaks its connection and turns the signal into a network error; cancelling is what
    pyspark's own Ctrl-C handler does. The JVM ignores Ctrl-C (pyspark starts it so)."""
    got: list[int] = []
    if threading.current_thread() is not threading.main_thread():  # only the main thread has handlers
        yield got
        return

    def handler(signum: int, frame: Any) -> None:
        if not got:  # from a thread of its own: py4j gives each thread its own connection, and the main
            got.append(signum)  # thread's is inside the job's call
            threading.Thread(target=spark.sparkContext.cancelAllJobs, name="rulecoref-cancel", daemon=True).start()

    names = [n for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)]
    before = {n: signal.signal(getattr(signal, n), handler) for n in names}
    try:
        yield got
    finally:
        for n, old in before.items():
            signal.signal(getattr(signal, n), old)


def _stop(spark: Any, *, interrupted: bool) -> None:
    """Stop Spark; after a signal the JVM may be gone already (a ``kill`` of the process group)."""
    try:
        spark.stop()
    except Exception:
        if not interrupted:
            raise


def _interrupted(args: argparse.Namespace, rules_file: str, fmt: str, records: list[Any] | None,
                 master: str) -> dict[str, Any]:
    """The report of a job stopped part way: the executors wrote each document's chains atomically,
    so a listed document is done when its file is there; the rest are RC559. Rows that Spark read
    itself (Parquet) have no names on the driver: the report counts the files written."""
    written = sorted(args.out.glob("*" + get_format(args.format).suffixes[0]))
    if records is None:
        done, unfinished = len(written), []
    else:
        unfinished = [r.name for r in records if not all(p.exists() for p in output_paths(args.format, args.out, r.name))]
        done = len(records) - len(unfinished)
    return {"rules": str(rules_file), "format": fmt, "master": master,
            "documents": None if records is None else len(records), "resolved": done, "failed": [],
            "warnings": WarningTally().to_dict(), "concepts": None, "links": None, "removed": None, "chains": None,
            "unfinished": unfinished}


def _frame(spark: Any, rs: Any, fmt: str, inputs: list[str], records: list[Any] | None,
           args: argparse.Namespace) -> Any:
    """The DataFrame of the inputs: the records listed on the driver (those left to do), or rows
    Spark reads itself (Parquet, JSONL on HDFS), their ids checked unique."""
    if records is not None:
        return rs.frame_of_records(spark, records, args.partitions)
    frames = [rs.read_frame(spark, i, fmt) for i in inputs]
    df = frames[0]
    for more in frames[1:]:
        df = df.unionByName(more, allowMissingColumns=True)
    _check_unique_ids(df)
    return df


def _claim_written(out: OutputFolder, fmt: str, provenance: bool) -> None:
    suffixes = [*get_format(fmt).suffixes, *([".links.json"] if provenance else [])]
    out.adopt_written(p.name for suffix in suffixes for p in sorted(out.path.glob("*" + suffix)))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    useful = [line for line in lines if "Error" in line and "Traceback" not in line]
    return (useful[-1] if useful else lines[0] if lines else type(exc).__name__)[:300]


def _check_unique_ids(df: Any) -> None:
    """Ids name the output files (``safe_name(id)``, as ``resolve`` names JSONL documents): two rows
    with one name would overwrite each other's chains, so they stop the run before it starts."""
    from operator import add

    from ..io.jsonl import line_id, safe_name

    if "id" in df.columns:
        ids = df.select("id").where("id is not null").rdd.map(lambda r: r[0])
    else:  # JSON lines: the id each line gives, as the JSONL reader reads it
        ids = df.select("value").rdd.map(lambda r: line_id(r[0])).filter(lambda i: i is not None)
    dupes = ids.map(lambda i: (safe_name(i), 1)).reduceByKey(add).filter(lambda kv: kv[1] > 1).takeOrdered(20)
    if dupes:
        raise InputError([diagnostic("RC533", id=name, count=count) for name, count in dupes])


def _report(result: Any, args: argparse.Namespace, rules_file: str, fmt: str, listed: bool,
            master: str) -> dict[str, Any]:
    """The report ``resolve`` writes. One Spark job resolves every partition in parallel (and the
    executors write the output files) and sums the counts; from its cached result only the failed
    rows travel to the driver, and the warnings as one tally per partition (``tally_rows``)."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    from ..io.jsonl import safe_name

    small = result.drop("chains", "clusters").persist(StorageLevel.MEMORY_AND_DISK)
    try:
        sums = small.agg(F.count(F.lit(1)).alias("documents"), F.count("error").alias("failed"),
                         *[F.sum(F.when(F.col("error").isNull(), F.col(c)).otherwise(0)).alias(c)
                           for c in ("concepts", "links", "removed", "n_chains")]).first()
        failed = []
        for row in sorted(small.where("error is not null").select("id", "diagnostics").collect(),
                          key=lambda r: (r["id"] is None, r["id"] or "")):
            problems = [_diag(d) for d in json.loads(row["diagnostics"] or "[]")]
            name = "(no id)" if row["id"] is None else row["id"] if listed else safe_name(row["id"])
            failed.append({"document": name, "problems": [d.to_dict() for d in problems]})
            print_diagnostics(problems, prefix=f"error: {name}: ")
        noted = small.where("error is null and diagnostics != '[]'").select("diagnostics").rdd
        warnings = noted.mapPartitions(tally_rows).fold(WarningTally(), lambda a, b: a.merge(b))
    finally:
        small.unpersist()
    warnings.print(args.out / REPORT, quiet=args.quiet)
    return {
        "rules": str(rules_file),
        "format": fmt,
        "master": master,
        "documents": sums["documents"],
        "resolved": sums["documents"] - sums["failed"],
        "failed": failed,
        "warnings": warnings.to_dict(),
        "concepts": sums["concepts"] or 0,
        "links": sums["links"] or 0,
        "removed": sums["removed"] or 0,
        "chains": sums["n_chains"] or 0,
    }


def tally_rows(rows: Iterable[Any]) -> Iterator[WarningTally]:
    """On an executor: one partition's warnings (the ``diagnostics`` JSON of resolved rows) as one tally."""
    tally = WarningTally()
    for row in rows:
        tally.add(json.loads(row["diagnostics"]))
    yield tally


def _diag(d: dict[str, Any]) -> Diagnostic:
    return Diagnostic(code=d["code"], message=d["message"], file=d.get("file"), line=d.get("line"),
                      hint=d.get("hint"), severity=d.get("severity", "error"))
