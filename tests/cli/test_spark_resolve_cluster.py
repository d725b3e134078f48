"""``spark-resolve`` on a Spark standalone cluster (issue 33): a master and a worker started by
``scripts/start-spark.sh`` (or the one CI started, ``RULECOREF_TEST_SPARK_MASTER``), the files
``resolve`` writes, ``--provenance`` and ``--format`` as ``resolve`` has them, ``--quiet`` silent,
and ``--resume``. Slow (JVMs start); skipped without Java or pyspark."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulecoref.cli import main
from tests.helpers import ROOT, SHARED, needs_shared

EXAMPLES = ROOT / "resources" / "examples"
START = ROOT / "scripts" / "start-spark.sh"
CORPORA = ("craft", "gap", "gum", "litbank", "mtsamples")

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (os.environ.get("JAVA_HOME") or shutil.which("java")),
                                 reason="Spark needs Java (apt-get install default-jre-headless)")]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The master URL of a standalone cluster: CI's, or one this module starts and stops."""
    pytest.importorskip("pyspark", reason="needs pyspark (pip install 'rulecoref[spark]')")
    given = os.environ.get("RULECOREF_TEST_SPARK_MASTER")
    if given:
        yield given
        return
    env = {**os.environ, "RULECOREF_SPARK_DIR": str(tmp_path_factory.mktemp("spark-cluster")),
           "PYTHON": sys.executable}
    started = subprocess.run(["bash", str(START), "--cores", "2", "--memory", "2g"], env=env, capture_output=True,
                             text=True, timeout=300)
    assert started.returncode == 0, started.stderr[-3000:]
    url = started.stdout.strip().splitlines()[-1]
    try:
        yield url
    finally:
        stopped = subprocess.run(["bash", str(START), "--stop"], env=env, capture_output=True, text=True, timeout=60)
        assert stopped.returncode == 0, stopped.stderr
        for name in ("master", "worker"):
            assert not (Path(env["RULECOREF_SPARK_DIR"]) / f"{name}.pid").exists()


def _spark_resolve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulecoref", "spark-resolve", *args, "--no-progress"], cwd=ROOT,
                          capture_output=True, text=True, timeout=1800)


def _outputs(folder: Path) -> dict[str, bytes]:
    """Every output file but the report and the manifest (their times differ)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())
            if p.name not in ("rulecoref-report.json", ".rulecoref-outputs")}


def test_start_spark_prints_the_url_last_and_again_while_it_runs(cluster: str) -> None:
    assert cluster.startswith("spark://127.0.0.1:") and cluster.rsplit(":", 1)[1].isdigit()
    if not (os.environ.get("RULECOREF_TEST_SPARK_MASTER") and os.environ.get("RULECOREF_SPARK_DIR")):
        return  # the fixture's own cluster (its start was checked there), or one whose folder is not known
    again = subprocess.run(["bash", str(START)], capture_output=True, text=True, timeout=120)  # the same folder
    assert again.returncode == 0 and again.stdout.strip().splitlines()[-1] == cluster


@needs_shared("corpora", "mtsamples")
@pytest.mark.shared
def test_cluster_writes_what_resolve_writes_with_provenance_over_the_shared_corpora(cluster: str,
                                                                                      tmp_path: Path) -> None:
    """Four documents of each development corpus, chains and links files byte for byte; --quiet
    leaves standard error empty (no log4j line, no JVM note)."""
    cons = [str(p) for corpus in CORPORA for p in sorted((SHARED / "corpora" / corpus / "concepts").glob("*.con"))[:4]]
    assert main(["resolve", *cons, "--types", "auto", "--provenance", "--out", str(tmp_path / "resolve"),
                 "--no-progress", "--quiet"]) == 0
    done = _spark_resolve(*cons, "--types", "auto", "--provenance", "--out", str(tmp_path / "spark"), "--master",
                          cluster, "--quiet")
    assert done.returncode == 0 and done.stderr == "", done.stderr[-3000:]
    assert "20/20 docs" in done.stdout and cluster in done.stdout
    expected = _outputs(tmp_path / "resolve")
    assert len(expected) == 40 and _outputs(tmp_path / "spark") == expected
    report = json.loads((tmp_path / "spark" / "rulecoref-report.json").read_text(encoding="utf-8"))
    resolved = json.loads((tmp_path / "resolve" / "rulecoref-report.json").read_text(encoding="utf-8"))
    for key in ("documents", "resolved", "failed", "warnings", "concepts", "links", "removed", "chains"):
        assert report[key] == resolved[key], key
    assert report["master"] == cluster


def test_cluster_format_and_resume_as_resolve_has_them(cluster: str, tmp_path: Path) -> None:
    """--format conll writes resolve's CoNLL files; deleting two documents' files, --resume redoes
    those two only; over the finished folder it starts no Spark and changes nothing."""
    assert main(["resolve", str(EXAMPLES), "--format", "conll", "--out", str(tmp_path / "resolve"), "--no-progress",
                 "--quiet"]) == 0
    out = tmp_path / "spark"
    done = _spark_resolve(str(EXAMPLES), "--format", "conll", "--out", str(out), "--master", cluster)
    assert done.returncode == 0, done.stderr[-3000:]
    assert _outputs(out) == _outputs(tmp_path / "resolve") and len(_outputs(out)) == 4
    kept = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    for p in sorted(out.glob("*.conll"))[:2]:
        p.unlink()
    done = _spark_resolve(str(EXAMPLES), "--format", "conll", "--out", str(out), "--master", cluster, "--resume")
    assert done.returncode == 0 and "2 skipped" in done.stdout, done.stderr[-3000:]
    assert _outputs(out) == _outputs(tmp_path / "resolve")
    report = json.loads((out / "rulecoref-report.json").read_text(encoding="utf-8"))
    assert (report["documents"], report["resolved"], report["skipped"]) == (4, 4, 2)
    stamps = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    assert sorted(n for n in stamps if n.endswith(".conll") and stamps[n] == kept.get(n)) == sorted(
        n for n in kept if n.endswith(".conll"))[2:]  # the two kept files were not rewritten
    time.sleep(0.01)
    started = time.perf_counter()
    done = _spark_resolve(str(EXAMPLES), "--format", "conll", "--out", str(out), "--master", cluster, "--resume")
    assert done.returncode == 0 and "nothing to resume" in done.stdout, done.stderr
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir()} == stamps and time.perf_counter() - started < 60
