"""``rulecoref spark-resolve``: the files `rulecoref resolve` writes, from Spark; usage errors before Spark starts."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulecoref.cli import main
from tests.helpers import ROOT, SHARED, needs_shared

EXAMPLES = ROOT / "resources" / "examples"


def _java() -> bool:
    return bool(os.environ.get("JAVA_HOME")) or shutil.which("java") is not None


needs_spark = pytest.mark.skipif(not _java(), reason="Spark needs Java (apt-get install default-jre-headless)")


def _spark_resolve(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in its own process: its own JVM, stopped when it ends."""
    pytest.importorskip("pyspark", reason="needs pyspark (pip install 'rulecoref[spark]')")
    return subprocess.run([sys.executable, "-m", "rulecoref", "spark-resolve", *args, "--no-progress"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def _chain_files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.txt.chains"))}


def test_spark_resolve_usage_errors_stop_before_spark_starts(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["spark-resolve", "--out", str(out)]) == 2
    assert "[RC552]" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["spark-resolve", str(tmp_path / "empty"), "--out", str(out)]) == 2
    assert "[RC536]" in capsys.readouterr().err
    (tmp_path / "n.jsonl").write_text("{}\n", encoding="utf-8")
    assert main(["spark-resolve", str(EXAMPLES), str(tmp_path / "n.jsonl"), "--out", str(out)]) == 2
    assert "mixes formats" in capsys.readouterr().err
    assert main(["spark-resolve", str(EXAMPLES), "--out", str(out), "--rules", str(tmp_path / "none.yaml")]) == 2
    assert "[RC113]" in capsys.readouterr().err
    assert main(["spark-resolve", str(EXAMPLES), "--out", str(out), "--conf", "novalue"]) == 2
    assert "[RC553]" in capsys.readouterr().err
    assert not out.exists()
    assert main(["spark-resolve", str(EXAMPLES), "--out", str(EXAMPLES / "concepts")]) == 2  # never into the inputs
    assert "[RC505]" in capsys.readouterr().err
    (tmp_path / "rows.parquet").write_bytes(b"PAR1")  # rows Spark reads itself: no names to resume by
    assert main(["spark-resolve", str(tmp_path / "rows.parquet"), "--out", str(out), "--resume"]) == 2
    assert "[RC527] --resume needs the documents listed before the job: parquet rows" in capsys.readouterr().err


def test_spark_resolve_without_java_says_how_to_get_it(tmp_path: Path, monkeypatch, capsys) -> None:
    pytest.importorskip("pyspark", reason="needs pyspark (pip install 'rulecoref[spark]')")
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no java on it
    assert main(["spark-resolve", str(EXAMPLES), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "[RC534]" in err and "default-jre-headless" in err


def test_spark_resolve_refuses_stale_chains_like_resolve(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.txt.chains").write_text("", encoding="utf-8")
    assert main(["spark-resolve", str(EXAMPLES), "--out", str(out)]) == 2
    assert "[RC512]" in capsys.readouterr().err and (out / "old.txt.chains").exists()  # not rulecoref's: kept


@pytest.mark.slow
@needs_spark
def test_spark_resolve_examples_local2_is_byte_identical_to_resolve(tmp_path: Path) -> None:
    assert main(["resolve", str(EXAMPLES), "--out", str(tmp_path / "resolve"), "--no-progress", "--quiet"]) == 0
    done = _spark_resolve(str(EXAMPLES), "--out", str(tmp_path / "spark"), "--master", "local[2]")
    assert done.returncode == 0, done.stderr
    assert "4/4 docs" in done.stdout and "local[2]" in done.stdout
    expected = _chain_files(tmp_path / "resolve")
    assert len(expected) == 4 and _chain_files(tmp_path / "spark") == expected
    report = json.loads((tmp_path / "spark" / "rulecoref-report.json").read_text(encoding="utf-8"))
    resolve_report = json.loads((tmp_path / "resolve" / "rulecoref-report.json").read_text(encoding="utf-8"))
    for key in ("documents", "resolved", "failed", "warnings", "concepts", "links", "removed", "chains"):
        assert report[key] == resolve_report[key], key


@pytest.mark.slow
@needs_spark
def test_spark_resolve_takes_every_input_format_of_resolve(tmp_path: Path) -> None:
    """Issue 23: spark-resolve's formats are the registry's (io/formats.py): a brat folder, never
    listed in spark-resolve, is told by what it holds and its records read by the executors."""
    brat = tmp_path / "brat"
    assert main(["convert", str(EXAMPLES), str(brat), "--to", "brat"]) == 0
    assert main(["resolve", str(brat), "--input-format", "brat", "--out", str(tmp_path / "resolve"),
                 "--no-progress", "--quiet"]) == 0
    done = _spark_resolve(str(brat), "--out", str(tmp_path / "spark"), "--master", "local[2]")
    assert done.returncode == 0, done.stderr
    expected = _chain_files(tmp_path / "resolve")
    assert len(expected) == 4 and _chain_files(tmp_path / "spark") == expected
    assert json.loads((tmp_path / "spark" / "rulecoref-report.json").read_text(encoding="utf-8"))["format"] == "brat"


@pytest.mark.slow
@pytest.mark.shared
@needs_spark
@needs_shared("corpora", "gum")
def test_spark_resolve_corpus_slice_is_byte_identical_to_resolve(tmp_path: Path) -> None:
    cons = [str(p) for corpus in ("gum", "litbank")
            for p in sorted((SHARED / "corpora" / corpus / "concepts").glob("*.con"))[:4]]
    assert main(["resolve", *cons, "--types", "auto", "--out", str(tmp_path / "resolve"), "--no-progress", "--quiet"]) == 0
    done = _spark_resolve(*cons, "--types", "auto", "--out", str(tmp_path / "spark"), "--master", "local[2]")
    assert done.returncode == 0, done.stderr
    expected = _chain_files(tmp_path / "resolve")
    assert len(expected) == 8 and _chain_files(tmp_path / "spark") == expected


@pytest.mark.slow
@needs_spark
def test_spark_resolve_jsonl_bad_rows_fail_alone_and_duplicate_ids_stop_first(tmp_path: Path) -> None:
    text = "The patient was admitted with chest pain. He reports chest pain at rest."
    good = {"id": "n1", "text": text, "concepts": [{"start": 0, "end": 11, "type": "person"},
                                                    {"start": 42, "end": 44, "type": "pronoun"}]}
    bad = {"id": "n2", "text": text, "concepts": [{"start": 0, "end": 11, "type": "organism"}]}
    data = tmp_path / "notes.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in (good, bad)) + "\n{broken\n", encoding="utf-8")
    done = _spark_resolve(str(data), "--out", str(tmp_path / "out"), "--master", "local[1]")
    assert done.returncode == 1, done.stderr
    assert "[RC244]" in done.stderr and "[RC230]" in done.stderr
    assert (tmp_path / "out" / "n1.txt.chains").read_text(encoding="utf-8") == (
        'c="the patient" 1:0 1:1||c="he" 2:0 2:0||t="coref person"\n')
    report = json.loads((tmp_path / "out" / "rulecoref-report.json").read_text(encoding="utf-8"))
    assert (report["documents"], report["resolved"]) == (3, 1)
    assert [f["document"] for f in report["failed"]] == ["n2", "notes-line3"]  # named as resolve names it
    # the same file through resolve's own JSONL reader: the same chains, the same failures
    assert main(["resolve", str(data), "--input-format", "jsonl", "--out", str(tmp_path / "resolve"),
                 "--no-progress", "--quiet"]) == 1
    assert _chain_files(tmp_path / "out") == _chain_files(tmp_path / "resolve")
    data.write_text("\n".join(json.dumps(r) for r in (good, good)) + "\n", encoding="utf-8")
    done = _spark_resolve(str(data), "--out", str(tmp_path / "again"), "--master", "local[1]")
    # a local JSONL file is scanned as resolve scans it: the repeated id is RC233 and its line skipped
    assert done.returncode == 1 and "notes.jsonl:2: [RC233]" in done.stderr, done.stderr
    assert _chain_files(tmp_path / "again") == {"n1.txt.chains": (tmp_path / "out" / "n1.txt.chains").read_bytes()}


@pytest.mark.slow
@needs_spark
def test_spark_resolve_from_a_virtual_environment_that_is_not_activated(tmp_path: Path) -> None:
    """Issue 22: the executors started the system python3 (no rulecoref) and every task failed with
    a traceback; now they run the interpreter spark-resolve runs in."""
    pytest.importorskip("pyspark", reason="needs pyspark (pip install 'rulecoref[spark]')")
    command = Path(sys.executable).parent / "rulecoref"
    if not command.exists():
        pytest.skip("rulecoref is not installed as a command beside this interpreter")
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", str(tmp_path))}
    if os.environ.get("JAVA_HOME"):
        env["JAVA_HOME"] = os.environ["JAVA_HOME"]
    done = subprocess.run([str(command), "spark-resolve", str(EXAMPLES), "--out", str(tmp_path / "out"), "--master",
                           "local[1]", "--no-progress"], env=env, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "4/4 docs" in done.stdout
    assert main(["resolve", str(EXAMPLES), "--out", str(tmp_path / "resolve"), "--no-progress", "--quiet"]) == 0
    assert _chain_files(tmp_path / "out") == _chain_files(tmp_path / "resolve")
