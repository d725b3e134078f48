"""``spark-resolve --master local[0]`` (issue 31, case 14) gave RC534 with a hint to install Java
(Java was there) and left OUT holding a manifest of a run that wrote nothing."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from rulecoref.cli import main
from rulecoref.io.outdir import MANIFEST, OutputFolder
from tests.helpers import ROOT


@pytest.mark.skipif(importlib.util.find_spec("pyspark") is None, reason="needs pyspark")
def test_spark_master_local_zero_is_named_and_leaves_no_manifest(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["spark-resolve", str(ROOT / "resources" / "examples"), "--out", str(out), "--master", "local[0]"]) == 2
    err = capsys.readouterr().err
    assert "[RC534]" in err and "local[0]" in err and "Java" not in err
    assert not (out / MANIFEST).exists()


def test_spark_master_a_run_that_wrote_nothing_leaves_no_manifest(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with OutputFolder(out, "resolve:i2b2", exclusive=(".txt.chains",)).check().open(["a.txt.chains"]):
        assert (out / MANIFEST).exists()  # the claim, before any file is written
    assert not (out / MANIFEST).exists()
