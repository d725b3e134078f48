"""``spark-resolve`` stopped by Ctrl-C or SIGTERM writes the report ``resolve`` writes after an
interrupt: the documents whose chains the executors wrote are done, the others are RC559 (issue 22).

Spark itself is replaced here (the job is the part that is interrupted); the slow tests in
tests/test_spark.py run the real one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

from rulecoref.cli import main, spark_resolve
from tests.helpers import ROOT


def test_an_interrupted_spark_job_writes_what_it_did_and_exits_130(tmp_path: Path, monkeypatch, capsys) -> None:
    data = tmp_path / "data"
    shutil.copytree(ROOT / "resources" / "examples", data)
    out = tmp_path / "out"
    stopped = SimpleNamespace(calls=0)
    fake = SimpleNamespace(sparkContext=SimpleNamespace(master="local[1]"), stop=lambda: None)
    monkeypatch.setattr(spark_resolve, "start_spark", lambda *a, **k: fake)
    monkeypatch.setattr(spark_resolve, "_frame", lambda *a, **k: None)

    def resolve(*args, out: str, **kwargs):  # one executor wrote one document, then Ctrl-C
        (Path(out) / "clinical-ex1.txt.chains").write_text("", encoding="utf-8")
        stopped.calls += 1
        raise KeyboardInterrupt

    monkeypatch.setattr("rulecoref.spark.resolve", resolve)
    assert main(["spark-resolve", str(data), "--out", str(out), "--no-progress"]) == 130
    assert stopped.calls == 1
    report = json.loads((out / "rulecoref-report.json").read_text(encoding="utf-8"))
    assert report["interrupted"] == "SIGINT" and report["documents"] == 4 and report["resolved"] == 1
    assert sorted(f["document"] for f in report["failed"]) == ["clinical-ex2", "clinical-ex3", "clinical-ex4"]
    assert {f["problems"][0]["code"] for f in report["failed"]} == {"RC559"}
    err = capsys.readouterr().err
    assert "1/4 documents done" in err and "Traceback" not in err
    assert not (out / ".rulecoref.lock").exists()

