"""Resolve notes with Spark: a DataFrame of documents in, one row of chains per document out.

A hospital's notes do not fit one machine's afternoon; Spark spreads them over executors. The rules
are unchanged: every executor runs the same ``Pipeline`` that ``rulecoref resolve`` runs, and a
document's chains are the same ``.txt.chains`` text, byte for byte.

Input rows (``resolve``) are read by rulecoref's own readers, so every row is checked as
``rulecoref resolve`` checks it (no Spark type casts come first). They are either
  * text rows: ``id`` (str), ``text`` (str), ``concepts`` (list of ``{start, end, type}``,
    character offsets, end exclusive) and optional ``tokenized`` (bool, i2b2-shaped text), the
    schema of the JSONL format, checked by the JSONL reader; the text is tokenised as
    ``rulecoref.io.text`` does;
  * JSON lines: ``value``, one line of a JSONL file as text (``read_frame(..., "jsonl")``, any
    file system), parsed by the JSONL reader within its limits; or
  * records: ``id``, ``txt_path``, ``con_path`` and optional ``kind`` (an input format of
    ``io/formats.py``, default ``i2b2``), ``line`` and ``offset``: one ``io.formats.Record`` a row,
    files that every executor can read (a shared file system), read by that format's own reader
    (``records_frame`` lists folders on the driver as ``resolve`` lists them).
The output has one row per input row (``OUTPUT_SCHEMA``): the chains text, the chains as character
spans of the text (text rows), the counts, and for a failed document its numbered problems in
``error`` (the batch goes on). With ``out``, executors also write ``OUT/ID.txt.chains`` atomically.

**One pipeline per executor process.** Spark runs tasks in Python worker processes that it reuses
from task to task (``spark.python.worker.reuse``, on by default). Building the pipeline inside a
task would compile the rules and load WordNet (1-2 s) again for every partition; building it on the
driver and shipping it would pickle WordNet. So a ``Resolver`` broadcasts a ``PipelineHandle``: the
settings only (a few strings), which each worker process unpickles once per broadcast and keeps
for every later task of it, as Spark keeps any broadcast value; the handle builds its pipeline on
first use. Spark, not a holder of ours, keeps it: a worker drops a broadcast when its next task no
longer names it, so memory holds the pipelines of the work at hand only. Every job run with one
``Resolver`` reuses the workers' pipelines; ``resolve()`` is a ``Resolver`` used once.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .batch import Resolved, resolve_one
from .engine import Pipeline
from .errors import Diagnostic, InputError, RulecorefError, diagnostic
from .extras import require
from .finder import MODES
from .io.formats import (
    ReadOptions,
    Record,
    detect_format,
    find_inputs,
    formats,
    get_format,
    input_formats,
    marks,
    output_formats,
    parse_types,
    read_record,
    write_document,
)
from .io.i2b2 import format_chains
from .io.jsonl import parse_jsonl_object
from .io.outdir import write_atomic
from .io.typemap import TypeMap
from .resources import Resources, named_file
from .rules.compiler import RuleSet, compile_rules

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

ABBREVIATIONS = "resources/lexicons/abbreviations.txt"
TEXT_COLUMNS = ("id", "text", "concepts")
LINE_COLUMNS = ("value",)
RECORD_COLUMNS = ("id", "txt_path", "con_path")  # and optional "kind", "line", "offset"
#: The output rows, as a Spark DDL schema (``resolve`` returns a DataFrame of it).
OUTPUT_SCHEMA = (
    "id string, chains string, "
    "clusters array<struct<type: string, mentions: array<struct<start: int, end: int>>>>, "
    "error string, diagnostics string, concepts int, links int, removed int, n_chains int, seconds double"
)
_BAD_ID = re.compile(r"[/\\\x00]")


@dataclass(frozen=True)
class Settings:
    """What builds a pipeline on an executor (all that a ``PipelineHandle`` sends).

    Paths are read where the pipeline is built. ``rules=None`` is the bundled ``rules/i2b2.yaml``
    of each executor's installation, and a bundled name ("odie") works too; ``wordnet=None`` is
    ``$RULECOREF_WORDNET`` or ``/usr/share/wordnet`` on the executor.
    """

    rules: str | None = None
    wordnet: str | None = None
    model: str | None = None
    allow_paths: tuple[str, ...] = ()  # folders the rule file may read outside its tree (docs/security.md)
    allow_network: bool = False  # --allow-network: the rule file may name a database server
    find_mentions: str | None = None  # the mention finder's mode (auto, on, off); None: the rule file's

    def compile(self) -> RuleSet:
        return compile_rules(named_file(self.rules or "i2b2", "rules", ".yaml"),
                             decoder_overrides={"model": self.model} if self.model else None,
                             allow_paths=self.allow_paths)

    def build(self) -> Pipeline:
        return Pipeline(self.compile(), Resources(wordnet_path=self.wordnet,
                                                  network="allow" if self.allow_network else "env"),
                        find_mentions=self.find_mentions)


class PipelineHandle:
    """The settings of a pipeline, and the pipeline once built, where it is first used.

    It pickles as its settings only (a broadcast ships a few strings, never WordNet), and builds
    at most once per unpickled copy: once per worker process and broadcast (the module
    docstring). A pipeline that fails to build is not kept, so every task reports its error.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.builds = 0  # how many pipelines this copy built (tests read it)
        self._pipeline: Pipeline | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"settings": self.settings}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["settings"])

    def get(self) -> Pipeline:
        if self._pipeline is None:
            self._pipeline = self.settings.build()
            self.builds += 1
        return self._pipeline


@dataclass(frozen=True)
class Job:
    """One ``resolve`` call, as sent to the executors."""

    settings: Settings
    kind: str  # "text", "line" or "record"
    types: tuple[str, ...] | None | str = None  # None: the rule file's types; "auto": any
    strict_text: bool = False
    encoding: str = "utf-8"
    out: str | None = None
    type_map: TypeMap | None = None  # text rows: input types -> rule types (``--type-map``)
    handle: Any = None  # a broadcast PipelineHandle (``Resolver``); None: a handle of ``settings``
    line_format: str = "jsonl"  # line rows: the format of the lines (``Format.lines``)
    format: str = "i2b2"  # what ``out`` receives per document (``resolve --format``)
    provenance: bool = False  # also OUT/NAME.links.json (``resolve --provenance``)


def job_types(types: Sequence[str] | str | None) -> tuple[str, ...] | str | None:
    """``Job.types`` from ``Resolver.resolve(types=...)``, read by the commands' ``--types`` parser
    (``io.formats.parse_types``): None stays None (the rule file's types, known only where the
    pipeline is built), any type is "auto", else the lower-case list."""
    if types is None:
        return None
    accepted = parse_types(types, ())
    return "auto" if accepted is None else accepted


class Resolver:
    """A rule set to run on Spark: every job this object starts uses the pipelines that the
    workers built for its first job (the module docstring), so a session that resolves several
    frames with one rule set builds each worker's pipeline once.

    Paths are read where the pipeline is built. ``rules``: a rule file or a bundled rule set's
    name (None: ``rules/i2b2.yaml``); ``allow_paths``: folders outside the rule file's tree it may
    read (``--allow-path``); ``check``: compile the rules on the driver first, so a rule-file
    error stops here (as ``RuleFileError``) rather than failing every row; ``find_mentions``:
    ``auto``, ``on`` or ``off`` in place of the rule file's ``mentions.find`` (the pronouns NER
    leaves out are found on the executors, as ``rulecoref resolve`` finds them).
    """

    def __init__(self, rules: str | Path | None = None, *, wordnet: str | Path | None = None,
                 model: str | Path | None = None, allow_paths: Sequence[str | Path] = (), check: bool = True,
                 find_mentions: str | None = None):
        require("spark", "rulecoref.spark")
        if find_mentions is not None and find_mentions not in MODES:
            raise InputError(diagnostic("RC564", value=find_mentions, allowed=", ".join(MODES)))
        self.settings = Settings(rules=None if rules is None else str(rules),
                                 wordnet=None if wordnet is None else str(wordnet),
                                 model=None if model is None else str(model),
                                 allow_paths=tuple(str(p) for p in allow_paths), find_mentions=find_mentions)
        if check:
            self.settings.compile()
        self.handle: Any = None  # the broadcast, made with the first job (it needs the session)

    def resolve(self, df: DataFrame, *, types: Sequence[str] | str | None = None,
                type_map: str | Path | TypeMap | None = None, strict_text: bool = False, encoding: str = "utf-8",
                out: str | Path | None = None, format: str = "i2b2", provenance: bool = False) -> DataFrame:
        """Map a DataFrame of documents to a DataFrame of chains (``OUTPUT_SCHEMA``), lazily.

        Args:
            types: the concept types rows may use: None the rule file's, ``"auto"`` any, or a list (or
                a comma-separated string), read as ``--types`` is (``job_types``).
            type_map: text rows: a type map file (``--type-map``, docs/formats.md), read here.
            out: also write ``OUT/NAME.txt.chains`` (atomically) from the executors: a folder every
                executor can write to. NAME is ``io.jsonl.safe_name(id)`` for text rows (as
                ``resolve --input-format jsonl`` names them) and the id for record rows. Spark may
                run a task again (a retry, a second action on the result); the files it writes
                again are the same.
            format: what ``out`` receives per document, an output format of ``resolve --format``
                (its files, written as ``resolve`` writes them); provenance: also ``OUT/NAME.links.json``.
        Returns:
            one row per input row: ``id``, ``chains`` (the ``.txt.chains`` text, None when the
            document failed), ``clusters`` (text rows: each chain's type and character spans),
            ``error`` (the problems, one per line, None on success), ``diagnostics`` (JSON: the
            problems of a failed document or the warnings of a resolved one), and counts.
        """
        kind, picked = _row_kind(df)
        types = job_types(types)
        if type_map is not None and not isinstance(type_map, TypeMap):
            from .io.typemap import read_type_map

            type_map = read_type_map(type_map)
        if self.handle is None:
            self.handle = df.sparkSession.sparkContext.broadcast(PipelineHandle(self.settings))
        if format not in output_formats():
            raise InputError(diagnostic("RC553", option="format", detail=f"one of {', '.join(output_formats())}, "
                                                                         f"not {format!r}"))
        job = Job(self.settings, kind, types, strict_text, encoding, None if out is None else str(out), type_map,
                  self.handle, _lines_format(), format, provenance)
        rows = df.select(*picked).rdd.mapPartitions(lambda part: resolve_partition(part, job))
        return df.sparkSession.createDataFrame(rows, OUTPUT_SCHEMA, verifySchema=False)  # resolve_row builds them


def resolve(df: DataFrame, rules: str | Path | None = None, *, wordnet: str | Path | None = None,
            model: str | Path | None = None, types: Sequence[str] | str | None = None,
            type_map: str | Path | TypeMap | None = None, strict_text: bool = False, encoding: str = "utf-8",
            out: str | Path | None = None, allow_paths: Sequence[str | Path] = (), check: bool = True,
            format: str = "i2b2", provenance: bool = False, find_mentions: str | None = None) -> DataFrame:
    """``Resolver(rules, ...).resolve(df, ...)``: one job's pipelines (see ``Resolver``)."""
    return Resolver(rules, wordnet=wordnet, model=model, allow_paths=allow_paths, check=check,
                    find_mentions=find_mentions).resolve(
        df, types=types, type_map=type_map, strict_text=strict_text, encoding=encoding, out=out, format=format,
        provenance=provenance)


def _lines_format() -> str:
    """The format whose documents are lines of text (JSONL): what line rows hold."""
    return next(f.name for f in formats() if f.lines)


def _row_kind(df: DataFrame) -> tuple[str, list[Any]]:
    """The kind of rows a DataFrame holds and the columns to send, as they are (the readers check them)."""
    from pyspark.sql import functions as F

    columns = set(df.columns)

    def col(name: str, cast: str = "string") -> Any:
        return (F.col(name) if name in columns else F.lit(None).cast(cast)).alias(name)

    if set(RECORD_COLUMNS) <= columns:
        return "record", [*(F.col(c).cast("string").alias(c) for c in RECORD_COLUMNS), col("kind"),
                          col("line", "long"), col("offset", "long")]
    if set(TEXT_COLUMNS) <= columns:
        return "text", [F.col("id"), F.col("text"), F.col("concepts"), col("tokenized", "boolean"), col("_source"),
                        col("_corrupt_record")]
    if set(LINE_COLUMNS) <= columns:
        return "line", [F.col("value").cast("string").alias("value"), col("_source")]
    raise InputError(diagnostic("RC530", what="the DataFrame", got=", ".join(sorted(columns)) or "(none)"))


def resolve_partition(rows: Iterable[Any], job: Job) -> Iterator[tuple[Any, ...]]:
    """Resolve one partition's rows on an executor, with this process's pipeline for the job."""
    handle = job.handle.value if job.handle is not None else PipelineHandle(job.settings)
    try:
        pipeline = handle.get()
    except RulecorefError as exc:  # e.g. no WordNet on this executor: every row says so
        for row in rows:
            values = row.asDict() if hasattr(row, "asDict") else dict(row)
            yield _failed(values.get("id") if job.kind != "line" else _line_id(values.get("value")),
                          exc.diagnostics, 0.0)
        return
    types = job.types
    if types is None:
        types = pipeline.ruleset.types
    elif types == "auto":
        types = None
    abbreviations = pipeline.resources.lexicon(named_file(ABBREVIATIONS)).words
    for row in rows:
        yield resolve_row(pipeline, row.asDict() if hasattr(row, "asDict") else dict(row), job, types, abbreviations)


def resolve_row(pipeline: Pipeline, row: dict[str, Any], job: Job, types: Sequence[str] | None,
                abbreviations: frozenset[str]) -> tuple[Any, ...]:
    """One document's output row; never raises for a bad document (its problems go to ``error``).

    A text row is read by the JSONL reader (``io.jsonl.parse_jsonl_object``), so it is checked,
    mapped and named exactly as ``rulecoref resolve --input-format jsonl`` does: the document (and
    its file) is named ``safe_name(id)``. A record row is read by its format's reader, named by its id.
    """
    t0 = time.perf_counter()
    doc_id = row.get("id")
    if job.kind == "line":
        doc_id = _line_id(row.get("value"))

    def read() -> Any:
        problem = _check_record_row(row) if job.kind == "record" else None
        if problem is not None:
            raise InputError(problem)
        return _read_row(row, job, types, abbreviations)

    def emit(done: Resolved) -> tuple[str, list[tuple[list[int], str]], Any]:
        doc = done.doc
        chains = sorted((sorted(members), ctype) for members, ctype in done.chains)
        text = format_chains(doc, [m for m, _ in chains], [t for _, t in chains])
        clusters = None
        if job.kind == "text":
            offsets = _token_offsets(doc, row["text"])
            clusters = [(ctype, [(offsets[c.start[0] - 1][c.start[1]][0], offsets[c.end[0] - 1][c.end[1]][1])
                                 for c in (doc.concepts[m] for m in members)]) for members, ctype in chains]
        if job.out is not None:
            done.warnings += _write_outputs(job, doc, done.res)
        return text, chains, clusters

    done, found = resolve_one(pipeline, read, str(doc_id), emit)
    if done is None:
        return _failed(doc_id, found, time.perf_counter() - t0)
    text, chains, clusters = done.emitted
    return (str(doc_id), text, clusters, None, json.dumps([d.to_dict() for d in found]), len(done.doc.concepts),
            len(done.res.kept), len(done.res.removed), len(chains), time.perf_counter() - t0)


def _write_outputs(job: Job, doc: Any, res: Any) -> list[Diagnostic]:
    """Write a document's files into ``job.out`` as ``resolve`` writes them (``batch.resolve_record``:
    the format's files, all or none, then the links); returns the format's warnings."""
    chains = res.chains()
    warnings = write_document(job.format, Path(job.out), doc, [c for c, _ in chains], [t for _, t in chains])
    if job.provenance:
        write_atomic(Path(job.out) / f"{doc.name}.links.json", json.dumps(res.to_dict(), indent=1) + "\n")
    return warnings


def _read_row(row: dict[str, Any], job: Job, types: Sequence[str] | None, abbreviations: frozenset[str]) -> Any:
    """The document of a row, read as ``resolve`` reads it: a record by its format's reader, a
    line by the lines format's, a text row (the JSONL schema as columns) by the JSONL reader."""
    opts = ReadOptions(types=None if types is None else tuple(types), strict_text=job.strict_text,
                       encoding=job.encoding, type_map=job.type_map, abbreviations=abbreviations)
    source = row.get("_source") or "the DataFrame"
    if job.kind == "record":
        record = Record(row["id"], Path(row["txt_path"]), Path(row["con_path"]), kind=row.get("kind") or "i2b2",
                        line=int(row.get("line") or 0), offset=int(row.get("offset") or 0))
        return read_record(record, opts)
    if job.kind == "line":
        return get_format(job.line_format).parse_line(row.get("value") or "", file=source, opts=opts)
    if row.get("_corrupt_record") is not None:  # a frame of Spark's own JSON reader
        raise InputError(diagnostic("RC230", file=source, detail=repr(row["_corrupt_record"][:80])))
    return parse_jsonl_object(_jsonl_object(row), file=source, line=None, types=opts.types, type_map=opts.type_map,
                              abbreviations=abbreviations, strict_text=opts.strict_text, with_chains=False)


def _line_id(value: Any) -> Any:
    """The id a JSON line gives (None when it gives none): a failed line is reported under it."""
    from .io.jsonl import line_id

    return line_id(value) if isinstance(value, str) else None


def _failed(doc_id: Any, problems: list[Diagnostic], seconds: float) -> tuple[Any, ...]:
    """The output row of a document that failed: its problems in ``error`` and ``diagnostics``."""
    return (None if doc_id is None else str(doc_id), None, None, "\n".join(str(d) for d in problems),
            json.dumps([d.to_dict() for d in problems]), 0, 0, 0, 0, seconds)


def _check_record_row(row: dict[str, Any]) -> Diagnostic | None:
    """A record row's id names its output file as it is (as ``resolve`` names it by the file
    name), and its ``kind`` is a format with records."""
    doc_id, con, kind = row.get("id"), row.get("con_path"), row.get("kind") or "i2b2"
    if doc_id is None or not doc_id.strip() or con is None:
        return diagnostic("RC531", where=f"a row for {con or 'no concept file'}", detail="the row needs an id and a con_path")
    if not _reads_records(kind):
        return diagnostic("RC531", where=f"the row {doc_id!r}",
                          detail=f"its kind {kind!r} is none of {', '.join(input_formats())}")
    if _BAD_ID.search(doc_id) or doc_id in (".", "..") or doc_id != doc_id.strip():
        return diagnostic("RC532", id=doc_id, detail="it holds '/', a backslash, or spaces at its ends")
    if row.get("txt_path") is None:
        return diagnostic("RC204", file=con, path=con, expected=Path(con).name[:-4])
    return None


def _reads_records(kind: Any) -> bool:
    """Whether ``kind`` names a format with records: a look-up in the registry, which lists the
    format modules only for a name it has not seen (``input_formats`` lists them on every call)."""
    try:
        return get_format(kind).reads
    except (KeyError, TypeError):  # no such format, or no name at all (a column of lists)
        return False


def _jsonl_object(row: dict[str, Any]) -> dict[str, Any]:
    """A row as the JSON object the JSONL reader checks, its values as they are (a missing
    ``concepts`` stays missing: RC231, as in a JSONL file; Spark gives absent fields as None)."""
    concepts = row.get("concepts")
    if isinstance(concepts, (list, tuple)):
        concepts = [c.asDict() if hasattr(c, "asDict") else c for c in concepts]
    obj = {"id": row.get("id"), "text": row.get("text"), "concepts": concepts}
    if row.get("tokenized") is not None:
        obj["tokenized"] = row["tokenized"]
    return obj


def _token_offsets(doc: Any, text: str) -> list[list[tuple[int, int]]]:
    """Each token's character span in the row's text: tokens are slices of it in order, with only
    whitespace between them (``io/text.py``), so each is found after the one before."""
    out: list[list[tuple[int, int]]] = []
    pos = 0
    for tokens in doc.lines:
        spans = []
        for tok in tokens:
            start = text.index(tok, pos)
            pos = start + len(tok)
            spans.append((start, pos))
        out.append(spans)
    return out


# -- reading inputs (driver side) -----------------------------------------------------------------

def records_frame(spark: SparkSession, inputs: Iterable[str | Path], fmt: str = "i2b2",
                  partitions: int | None = None, *, encoding: str = "utf-8") -> DataFrame:
    """The records of local folders and files in a format (as ``rulecoref resolve --input-format
    FMT`` finds them: named so, repeated names reported) as a DataFrame of record rows
    (``id, txt_path, con_path, kind, line, offset``); the files must be readable by every executor.

    ``partitions`` defaults to four per core of the session (``defaultParallelism``), at most one
    per record, so a long note does not keep one core busy while the others wait.
    """
    require("spark", "rulecoref.spark")
    records, _ = find_inputs(inputs, fmt, encoding)  # a concept file without text: txt None, RC204 per row
    return frame_of_records(spark, records, partitions)


def frame_of_records(spark: SparkSession, records: Sequence[Record], partitions: int | None = None) -> DataFrame:
    """Records listed on the driver (``find_inputs``) as a DataFrame of record rows (``records_frame``)."""
    rows = [(r.name, None if r.txt is None else str(r.txt.resolve()), str(r.con.resolve()), r.kind, r.line, r.offset)
            for r in records]
    n = partitions or max(1, min(len(rows), spark.sparkContext.defaultParallelism * 4))
    # from a local list (not an RDD of Python rows), so no Python worker starts just to convert them
    return spark.createDataFrame(
        rows, "id string, txt_path string, con_path string, kind string, line long, offset long").repartition(n)


def read_frame(spark: SparkSession, path: str, fmt: str) -> DataFrame:
    """Rows with Spark's own readers (so HDFS and object-store paths work): the lines of files of
    a ``lines`` format (``fmt="jsonl"``: one row per non-blank line, ``value`` and ``_source``,
    parsed later by that format's reader on the executors), or ``parquet`` files."""
    require("spark", "rulecoref.spark")
    from pyspark.sql import functions as F

    try:
        if fmt == "parquet":
            df = spark.read.parquet(path)
        elif any(f.lines and f.name == fmt for f in formats()):
            df = spark.read.text(path)
            df = df.where(F.trim(F.col("value")) != "")
        else:
            raise InputError(diagnostic("RC536", path=path, detail=f"unknown format {fmt!r}"))
        return df.withColumn("_source", F.input_file_name())
    except RulecorefError:
        raise
    except Exception as exc:  # Spark's AnalysisException: no such path, not Parquet, ...
        detail = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
        raise InputError(diagnostic("RC535", path=path, format=fmt, detail=detail)) from exc


def guess_format(path: str) -> str:
    """The input format of a path: a format with records (``io/formats.py``, asked in rank order:
    a file by its name, a local folder by what it holds), or Spark's own ``parquet``; ``.json``
    (and gzipped) files are read as lines (JSONL), as Spark's text reader reads them."""
    p = Path(path)
    name = p.name.lower().removesuffix(".gz")
    if name.endswith(".parquet"):
        return "parquet"
    if name.endswith(".json"):
        return _lines_format()
    listed = [f for f in formats() if f.reads]
    found = detect_format(p if p.is_dir() else p.with_name(name), listed)
    if found is not None:
        return found
    if p.is_dir():
        if any(p.glob("*.parquet")):
            return "parquet"
        if any(p.glob("*.json")):
            return _lines_format()
        raise InputError(diagnostic("RC536", path=path, detail=f"no {', '.join(marks(listed))}, *.parquet or *.json in it"))
    if not p.exists():
        raise InputError(diagnostic("RC213", file=path, detail="no such file or directory"))
    raise InputError(diagnostic("RC536", path=path, detail=(
        f"not a folder, a Parquet file or a file of {', '.join(f.name for f in listed)}")))
