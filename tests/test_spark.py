"""The Spark runner: rows in, the chains `rulecoref resolve` writes out, one pipeline per executor.

The row logic (``resolve_row``) and the per-process holder run without Spark in the default run;
the tests that start Spark (local mode, a JVM) are slow and skip without Java or pyspark.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from rulecoref.engine import Pipeline
from rulecoref.errors import InputError
from rulecoref.io.i2b2 import read_document
from rulecoref.io.layout import find_records
from rulecoref.io.text import document_text
from rulecoref.spark import Job, PipelineHandle, Settings, guess_format, job_types, resolve_row
from tests.helpers import ROOT, shared_resources

EXAMPLES = ROOT / "resources" / "examples"
TEXT = "The patient was admitted with chest pain. He reports chest pain at rest."
CONCEPTS = [{"start": 0, "end": 11, "type": "person"}, {"start": 30, "end": 40, "type": "problem"},
            {"start": 42, "end": 44, "type": "pronoun"}, {"start": 53, "end": 63, "type": "Problem"}]


@pytest.fixture(scope="module")
def pipeline() -> Pipeline:
    return Pipeline.from_file(ROOT / "rules" / "i2b2.yaml", shared_resources())


def _row(pipeline: Pipeline, row: dict[str, Any], kind: str = "text", *, types: Any = "rules",
         out: Path | None = None) -> dict[str, Any]:
    job = Job(Settings(), kind, out=None if out is None else str(out))
    values = resolve_row(pipeline, row, job, pipeline.ruleset.types if types == "rules" else types,
                         frozenset({"dr", "mr"}))
    names = ["id", "chains", "clusters", "error", "diagnostics", "concepts", "links", "removed", "n_chains", "seconds"]
    return dict(zip(names, values))


def _text_rows_of(records) -> list[dict[str, Any]]:
    """i2b2 records as JSONL-schema rows of tokenised text (what issue 17's converter writes)."""
    rows = []
    for r in records:
        td = document_text(read_document(r.txt, r.con).document)
        rows.append({"id": r.name, "text": td.text, "tokenized": True,
                     "concepts": [{"start": a, "end": b, "type": c.type}
                                  for c in td.document.concepts for a, b in [td.char_span(c)]]})
    return rows


def test_spark_resolve_row_text_gives_chains_text_and_character_spans(pipeline: Pipeline) -> None:
    out = _row(pipeline, {"id": "n1", "text": TEXT, "concepts": CONCEPTS})
    assert out["error"] is None and json.loads(out["diagnostics"]) == []
    assert out["chains"] == ('c="the patient" 1:0 1:1||c="he" 2:0 2:0||t="coref person"\n'
                             'c="chest pain" 1:5 1:6||c="chest pain" 2:2 2:3||t="coref problem"\n')
    assert out["clusters"] == [("person", [(0, 11), (42, 44)]), ("problem", [(30, 40), (53, 63)])]
    assert (out["concepts"], out["n_chains"]) == (4, 2)


def test_spark_resolve_row_i2b2_and_tokenised_text_rows_match_resolve(pipeline: Pipeline, tmp_path: Path) -> None:
    from rulecoref.batch import BatchOptions, resolve_record

    records, _ = find_records([EXAMPLES])
    opts = BatchOptions(out_dir=tmp_path / "resolve")
    for record, text_row in zip(records, _text_rows_of(records)):
        assert resolve_record(pipeline, record, opts).ok
        expected = (opts.out_dir / f"{record.name}.txt.chains").read_text(encoding="utf-8")
        i2b2 = _row(pipeline, {"id": record.name, "txt_path": str(record.txt), "con_path": str(record.con)}, "record",
                    out=tmp_path / "spark")
        assert i2b2["chains"] == expected and i2b2["clusters"] is None
        assert (tmp_path / "spark" / f"{record.name}.txt.chains").read_text(encoding="utf-8") == expected
        assert _row(pipeline, text_row)["chains"] == expected


def test_spark_resolve_row_reports_bad_rows_and_never_raises(pipeline: Pipeline, tmp_path: Path) -> None:
    cases = {
        "RC231": [{"id": None, "text": TEXT}, {"id": "x", "text": None},
                  {"id": "x", "text": TEXT, "concepts": [{"start": None, "end": 3, "type": "problem"}]}],
        "RC230": [{"id": None, "text": None, "_corrupt_record": "{not json", "_source": "file:/data/a.jsonl"}],
        "RC202": [{"id": "x", "text": "short", "concepts": [{"start": 2, "end": 99, "type": "problem"}]}],
        "RC244": [{"id": "x", "text": TEXT, "concepts": [{"start": 0, "end": 3, "type": "organism"}]}],
        "RC215": [{"id": "x", "text": "chest pain", "tokenized": True, "concepts": [{"start": 2, "end": 10, "type": "problem"}]}],
        "RC204": [{"id": "x", "txt_path": None, "con_path": str(tmp_path / "x.txt.con")}],
        "RC213": [{"id": "x", "txt_path": str(tmp_path / "x.txt"), "con_path": str(tmp_path / "x.txt.con")}],
        "RC531": [{"id": None, "txt_path": str(tmp_path / "x.txt"), "con_path": str(tmp_path / "x.txt.con")}],
        "RC532": [{"id": "../x", "txt_path": str(tmp_path / "x.txt"), "con_path": str(tmp_path / "x.txt.con")}],
    }
    cases["RC531"].append({"id": "x", "kind": "pdf", "txt_path": str(tmp_path / "x.txt"), "con_path": str(tmp_path / "x")})
    for code, rows in cases.items():
        for row in rows:
            out = _row(pipeline, row, "record" if "con_path" in row else "text", out=tmp_path / "out")
            assert out["chains"] is None and f"[{code}]" in out["error"], (code, row, out["error"])
            assert json.loads(out["diagnostics"])[0]["code"] == code
    corrupt = _row(pipeline, cases["RC230"][0])
    assert corrupt["error"].startswith("file:/data/a.jsonl: [RC230]") and corrupt["id"] is None
    assert not (tmp_path / "out").exists()


def test_spark_resolve_row_checks_rows_as_resolve_checks_jsonl(pipeline: Pipeline, tmp_path: Path) -> None:
    """Issue 22: Spark cast an id of true to "true", a text of 12345 to "12345", a list of types to a
    string, and took a row without concepts; the JSONL reader refuses each, so the executors do too."""
    for row, where in (({"id": True, "text": TEXT, "concepts": CONCEPTS}, "id"),
                       ({"id": "x", "text": 12345, "concepts": []}, "text"),
                       ({"id": "x", "text": TEXT}, "concepts"),
                       ({"id": "x", "text": TEXT, "tokenized": "yes", "concepts": []}, "tokenized"),
                       ({"id": "x", "text": TEXT, "concepts": [{"start": 0, "end": 3, "type": ["person"]}]},
                        "concepts[0].type")):
        out = _row(pipeline, row)
        assert out["chains"] is None and f"[RC231] {where}: expected" in out["error"], (row, out["error"])
    line = json.dumps({"id": "n1", "text": TEXT, "concepts": CONCEPTS})
    job = Job(Settings(), "line")
    good = resolve_row(pipeline, {"value": line, "_source": "file:/a.jsonl"}, job, None, frozenset())
    assert good[0] == "n1" and good[3] is None and good[1] == _row(pipeline, json.loads(line))["chains"]
    deep = resolve_row(pipeline, {"value": '{"id": "d", "text": ' + "[" * 5000 + "]" * 5000 + "}"}, job, None,
                       frozenset())
    assert deep[0] is None and "[RC247]" in deep[3]  # a line over the limits gives no id either
    surrogate = resolve_row(pipeline, {"value": json.dumps({"id": "s", "text": "He \ud800", "concepts": []})}, job,
                            None, frozenset())
    assert "[RC245]" in surrogate[3]
    entries = tmp_path / "in.jsonl"
    entries.write_text(line + "\n")
    record = resolve_row(pipeline, {"id": "n1", "txt_path": str(entries), "con_path": str(entries), "kind": "jsonl",
                                    "line": 1, "offset": 0}, Job(Settings(), "record"), None, frozenset())
    assert record[1] == good[1]


def test_spark_resolve_row_reads_a_record_of_any_format_with_records(pipeline: Pipeline, tmp_path: Path) -> None:
    """A record row is read by its format's own reader (io/formats.py), brat too: the chains are
    those of ``rulecoref resolve --input-format brat``."""
    from rulecoref.cli import main
    from rulecoref.io.formats import default_abbreviations

    brat = tmp_path / "brat"
    assert main(["convert", str(EXAMPLES), str(brat), "--to", "brat"]) == 0
    out = tmp_path / "resolved"
    assert main(["resolve", str(brat), "--input-format", "brat", "--out", str(out), "--no-progress", "--quiet"]) == 0
    for ann in sorted(brat.glob("*.ann")):
        row = {"id": ann.stem, "txt_path": str(ann.with_suffix(".txt")), "con_path": str(ann), "kind": "brat"}
        got = resolve_row(pipeline, row, Job(Settings(), "record"), pipeline.ruleset.types, default_abbreviations())
        assert got[3] is None and got[1] == (out / f"{ann.stem}.txt.chains").read_text(encoding="utf-8")


def test_spark_resolve_row_names_text_rows_as_resolve_names_jsonl_documents(pipeline: Pipeline, tmp_path: Path) -> None:
    row = {"id": "note 7.a", "text": "Grew organism . The organism was sensitive .",
           "concepts": [{"start": 5, "end": 13, "type": "Organism", "text": "organism"},
                        {"start": 16, "end": 28, "type": "organism", "text": "the organizm"}]}
    out = _row(pipeline, row, types=None, out=tmp_path)
    assert out["error"] is None and out["id"] == "note 7.a"
    assert [p.name for p in tmp_path.iterdir()] == ["note_7_a.txt.chains"]
    assert [d["code"] for d in json.loads(out["diagnostics"])] == ["RC235"]  # the concept text differs
    strict = resolve_row(pipeline, row, Job(Settings(), "text", strict_text=True), None, frozenset())
    assert "[RC235]" in strict[3]
    from rulecoref.io.typemap import TypeMap

    dropped = resolve_row(pipeline, row, Job(Settings(), "text", type_map=TypeMap(types={"organism": None})),
                          None, frozenset())
    assert (dropped[3], dropped[5]) == (None, 0)  # no concepts left


def test_spark_resolve_partition_fails_every_row_when_the_executor_cannot_build(tmp_path: Path) -> None:
    from rulecoref.spark import resolve_partition

    job = Job(Settings(wordnet=str(tmp_path / "no-wordnet")), "text")
    rows = list(resolve_partition(iter([{"id": "a", "text": TEXT}, {"id": "b", "text": TEXT}]), job))
    assert [(r[0], r[1]) for r in rows] == [("a", None), ("b", None)]
    assert all("[RC301]" in r[3] for r in rows)


class _CountingSettings(Settings):
    def build(self) -> Any:
        if self.rules == "broken":
            raise InputError([])
        return object()


def test_spark_pipeline_handle_builds_once_and_travels_as_its_settings() -> None:
    import pickle

    handle = PipelineHandle(_CountingSettings(rules="a"))
    first = handle.get()
    assert handle.get() is first and handle.builds == 1
    copy = pickle.loads(pickle.dumps(handle))  # what a broadcast sends: the settings, never the pipeline
    assert copy.settings == handle.settings and copy._pipeline is None and copy.builds == 0
    assert copy.get() is not first and copy.builds == 1
    broken = PipelineHandle(_CountingSettings(rules="broken"))
    for _ in range(2):  # a pipeline that fails to build is not kept: every task reports it again
        with pytest.raises(InputError):
            broken.get()
    assert broken.builds == 0


def test_spark_guess_format_from_names_and_contents(tmp_path: Path) -> None:
    (tmp_path / "j").mkdir()
    (tmp_path / "j" / "part-0.jsonl").write_text("{}\n", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "x.ann").write_text("", encoding="utf-8")
    assert [guess_format(str(p)) for p in (EXAMPLES, tmp_path / "j", tmp_path / "a.parquet", tmp_path / "n.jsonl",
                                           tmp_path / "n.json.gz", tmp_path / "b", tmp_path / "x.txt.con")] == [
        "i2b2", "jsonl", "parquet", "jsonl", "jsonl", "brat", "i2b2"]
    for path, code in ((tmp_path / "empty", "RC536"), (tmp_path / "missing", "RC213")):
        with pytest.raises(InputError) as err:
            guess_format(str(path))
        assert err.value.code == code


# -- with Spark (local mode) ------------------------------------------------------------------------

def _java() -> bool:
    return bool(os.environ.get("JAVA_HOME")) or shutil.which("java") is not None


needs_java = pytest.mark.skipif(not _java(), reason="Spark needs Java (apt-get install default-jre-headless)")


@pytest.fixture(scope="module")
def spark():
    pytest.importorskip("pyspark", reason="needs pyspark (pip install 'rulecoref[spark]')")
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("rulecoref tests")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "4").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.mark.slow
@needs_java
def test_spark_resolve_dataframe_of_text_rows_with_a_bad_row(spark, tmp_path: Path) -> None:
    from rulecoref import spark as rs

    rows = [{"id": "n1", "text": TEXT, "tokenized": False, "concepts": CONCEPTS},
            {"id": "n2", "text": "short", "tokenized": False, "concepts": [{"start": 0, "end": 99, "type": "problem"}]},
            {"id": "n3", "text": "Pain . Pain again .", "tokenized": False, "concepts": []}]
    df = spark.createDataFrame(rows, "id string, text string, tokenized boolean, "
                                     "concepts array<struct<start: long, end: long, type: string>>")
    out = {r["id"]: r for r in rs.resolve(df, out=tmp_path).collect()}
    assert out["n1"]["chains"].count("\n") == 2 and out["n1"]["error"] is None
    assert [(c["type"], [(m["start"], m["end"]) for m in c["mentions"]]) for c in out["n1"]["clusters"]] == [
        ("person", [(0, 11), (42, 44)]), ("problem", [(30, 40), (53, 63)])]
    assert "[RC202]" in out["n2"]["error"] and out["n2"]["chains"] is None
    assert out["n3"]["chains"] == "" and out["n3"]["error"] is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["n1.txt.chains", "n3.txt.chains"]
    with pytest.raises(InputError) as err:
        rs.resolve(spark.createDataFrame([("a", "b")], "name string, body string"))
    assert err.value.code == "RC530"


@pytest.mark.slow
@needs_java
def test_spark_resolve_records_frame_writes_what_resolve_writes_and_builds_once_per_worker(spark, tmp_path: Path) -> None:
    from rulecoref import spark as rs
    from rulecoref.cli import main

    assert main(["resolve", str(EXAMPLES), "--out", str(tmp_path / "resolve"), "--no-progress", "--quiet"]) == 0
    df = rs.records_frame(spark, [EXAMPLES])
    resolver = rs.Resolver()
    for _ in range(2):  # the second job reuses the workers' pipelines
        rows = resolver.resolve(df, out=tmp_path / "spark").collect()
        assert len(rows) == 4 and all(r["error"] is None for r in rows)
    for path in sorted((tmp_path / "resolve").glob("*.txt.chains")):
        assert (tmp_path / "spark" / path.name).read_bytes() == path.read_bytes()
    handle = resolver.handle  # the broadcast: each worker's copy, as its tasks see it
    builds = spark.sparkContext.parallelize(range(8), 8).map(lambda _: (os.getpid(), handle.value.builds)).collect()
    assert builds and all(n <= 1 for _, n in builds)
    assert any(n == 1 for _, n in builds)


@pytest.mark.slow
@needs_java
def test_spark_read_frame_reads_jsonl_with_a_corrupt_line_and_parquet(spark, tmp_path: Path) -> None:
    from rulecoref import spark as rs

    records, _ = find_records([EXAMPLES])
    rows = _text_rows_of(records)
    jsonl = tmp_path / "notes.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in rows) + "{this is not json\n", encoding="utf-8")
    out = rs.resolve(rs.read_frame(spark, str(jsonl), "jsonl")).collect()
    good = {r["id"]: r["chains"] for r in out if r["error"] is None}
    bad = [r for r in out if r["error"] is not None]
    assert good == {r["id"]: r["chains"] for r in rs.resolve(rs.records_frame(spark, [EXAMPLES])).collect()}
    assert len(bad) == 1 and "[RC230]" in bad[0]["error"] and "notes.jsonl" in bad[0]["error"]
    rs.read_frame(spark, str(jsonl), "jsonl").write.parquet(str(tmp_path / "lines.parquet"))  # JSON lines, as text
    again = rs.resolve(rs.read_frame(spark, str(tmp_path / "lines.parquet"), "parquet")).collect()
    assert {r["id"]: r["chains"] for r in again if r["error"] is None} == good
    spark.createDataFrame(rows, "id string, text string, tokenized boolean, "  # typed rows
                                "concepts array<struct<start: long, end: long, type: string>>").write.parquet(
        str(tmp_path / "rows.parquet"))
    typed = {r["id"]: r["chains"] for r in rs.resolve(rs.read_frame(spark, str(tmp_path / "rows.parquet"), "parquet")).collect()}
    assert typed == good
    with pytest.raises(InputError) as err:
        rs.read_frame(spark, str(tmp_path / "nothing-here"), "parquet")
    assert err.value.code == "RC535"


def test_spark_resolve_row_finds_the_pronouns_a_text_row_lacks(pipeline: Pipeline) -> None:
    """Spark resolves through the same finder as ``rulecoref resolve`` (issue 30): "He" is found."""
    ner = [c for c in CONCEPTS if c["type"] != "pronoun"]
    out = _row(pipeline, {"id": "n1", "text": TEXT, "concepts": ner})
    assert out["clusters"] == [("person", [(0, 11), (42, 44)]), ("problem", [(30, 40), (53, 63)])]
    off = resolve_row(Pipeline(pipeline.ruleset, shared_resources(), find_mentions="off"),
                      {"id": "n1", "text": TEXT, "concepts": ner}, Job(Settings(find_mentions="off"), "text"),
                      pipeline.ruleset.types, frozenset({"dr", "mr"}))
    assert off[2] == [("problem", [(30, 40), (53, 63)])]


@pytest.mark.slow
@needs_java
def test_spark_resolve_rows_whose_ids_name_one_file_stop_the_run_rc533(spark) -> None:
    """Two rows whose ids give one output name would overwrite each other's chains: every such
    name is reported (RC533) before any row is resolved; distinct ids pass."""
    from rulecoref.cli.spark_resolve import _check_unique_ids

    rows = [("n1", "a"), ("n1", "b"), (" n2", "c"), ("n2", "d"), ("n3", "e")]
    with pytest.raises(InputError) as err:
        _check_unique_ids(spark.createDataFrame(rows, "id string, text string"))
    assert err.value.codes == ["RC533", "RC533"] and "2 rows have the document name 'n1'" in str(err.value)
    _check_unique_ids(spark.createDataFrame(rows[:1] + rows[4:], "id string, text string"))


def test_spark_types_read_as_the_commands_read_them() -> None:
    """``Resolver.resolve(types=...)`` reads a string as ``--types`` does (it used to refuse
    "problem,test"); None stays the rule file's types, decided where the pipeline is built."""
    assert job_types(None) is None
    assert job_types(" Auto ") == "auto"
    assert job_types("Problem, TEST") == ("problem", "test") == job_types(["problem", " Test", ""])
