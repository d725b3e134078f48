"""Induction on the development corpora (``../shared``): the learned file is an ordinary rule file that
passes check, has at most 12 learned passes, and does not lower the documents held back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from rulecoref.cli import main
from tests.helpers import SHARED, needs_shared


def _induce(corpus: str, out: Path, capsys) -> dict:
    assert main(["induce", str(SHARED / "corpora" / corpus), "--types", "auto", "--out", str(out), "--json", "-q"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
@pytest.mark.shared
@needs_shared("corpora", "mtsamples")
def test_induce_on_clinical_notes_does_not_lower_the_held_back_notes(tmp_path: Path, capsys):
    out = tmp_path / "mtsamples.yaml"
    summary = _induce("mtsamples", out, capsys)
    assert summary["held_f1"] >= summary["held_base_f1"]
    assert main(["check", str(out)]) == 0


@pytest.mark.slow
@pytest.mark.shared
@needs_shared("corpora", "gum")
def test_induce_on_gum_writes_an_editable_file_that_helps_held_back_documents(tmp_path: Path, capsys):
    out = tmp_path / "gum.yaml"
    summary = _induce("gum", out, capsys)
    passes = yaml.safe_load(out.read_text())["passes"]
    assert 1 <= len(passes) - 1 <= 12 and passes[0] == {"include": "rules/i2b2.yaml"}
    assert summary["held_f1"] > summary["held_base_f1"] and summary["f1"] > summary["base_f1"]
    assert main(["check", str(out)]) == 0
