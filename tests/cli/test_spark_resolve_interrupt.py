"""``spark-resolve`` stopped by Ctrl-C or SIGTERM writes the report ``resolve`` writes after an
interrupt: the documents whose chains the executors wrote are done, the others are RC559 (issue 22).

Spark itself is replaced here (the job is the part that is interrupted); the slow tests in
tests/test_spark.py run the real one."""

from __future__ import annotations

import json
import os
import shutil
import signal
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from rulecoref.cli import main, spark_resolve
from tests.helpers import ROOT


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_spark_job_writes_what_it_did_and_exits_128_plus_n(tmp_path: Path, monkeypatch, capsys,
                                                                          sig: signal.Signals) -> None:
    data = tmp_path / "data"
    shutil.copytree(ROOT / "resources" / "examples", data)
    out = tmp_path / "out"
    cancelled = []
    context = SimpleNamespace(master="local[1]", cancelAllJobs=lambda: cancelled.append(True))
    monkeypatch.setattr(spark_resolve, "start_spark", lambda *a, **k: SimpleNamespace(sparkContext=context,
                                                                                       stop=lambda: None))
    monkeypatch.setattr(spark_resolve, "_frame", lambda *a, **k: None)

    def resolve(*args, out: str, **kwargs):  # one executor wrote one document, then the signal came
        (Path(out) / "clinical-ex1.txt.chains").write_text("", encoding="utf-8")
        os.kill(os.getpid(), sig)
        raise RuntimeError("Job 0 cancelled")  # what py4j raises for a cancelled job

    monkeypatch.setattr("rulecoref.spark.resolve", resolve)
    assert main(["spark-resolve", str(data), "--out", str(out), "--no-progress"]) == 128 + sig
    for t in threading.enumerate():  # the signal cancels the job from a thread, as pyspark's own Ctrl-C does
        if t.name == "rulecoref-cancel":
            t.join(5)
    assert cancelled == [True]
    report = json.loads((out / "rulecoref-report.json").read_text(encoding="utf-8"))
    assert report["interrupted"] == sig.name and report["documents"] == 4 and report["resolved"] == 1
    assert sorted(f["document"] for f in report["failed"]) == ["clinical-ex2", "clinical-ex3", "clinical-ex4"]
    assert {f["problems"][0]["code"] for f in report["failed"]} == {"RC559"}
    err = capsys.readouterr().err
    assert "1/4 documents done" in err and "Traceback" not in err and "RC538" not in err
    assert not (out / ".rulecoref.lock").exists()
