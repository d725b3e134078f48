"""The Python API (rulecoref/api.py): docs/api.md's examples run as written, and the API gives the
chains ``rulecoref resolve`` gives for the same JSONL."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rulecoref
from rulecoref.cli import main
from rulecoref.errors import InputError
from tests.helpers import ROOT

_PYTHON = re.compile(r"```python\n(.*?)```", re.S)


def test_api_docs_examples_run_as_written(capsys) -> None:
    blocks = _PYTHON.findall((ROOT / "docs" / "api.md").read_text(encoding="utf-8"))
    assert len(blocks) >= 4
    scope: dict = {}
    for block in blocks:
        exec(compile(block, "docs/api.md", "exec"), scope)  # noqa: S102 - the documentation's own examples
        printed = [line for line in block.splitlines() if line.startswith("# ") and not line.startswith("# ->")]
        out = capsys.readouterr().out.splitlines()
        assert [p[2:] for p in printed] == out[:len(printed)]  # the output the page shows is the output


def test_api_readme_example_runs_as_written() -> None:
    blocks = [b for b in _PYTHON.findall((ROOT / "README.md").read_text(encoding="utf-8")) if "rulecoref.load" in b]
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102 - the README's own example


def test_api_gives_the_chains_resolve_gives(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    assert main(["convert", str(ROOT / "resources" / "examples"), str(gold), "--to", "jsonl"]) == 0
    assert main(["resolve", str(gold), "--out", str(tmp_path / "out"), "--format", "jsonl", "--no-progress",
                 "-q"]) == 0
    records = [json.loads(line) for line in gold.read_text().splitlines()]
    nlp = rulecoref.load("i2b2")
    for record, res in zip(records, nlp.pipe(records)):
        written = json.loads((tmp_path / "out" / f"{record['id']}.jsonl").read_text())
        assert [c.to_dict()["mentions"] for c in res.chains] == [c["mentions"] for c in written["chains"]]
        assert [c.type for c in res.chains] == [c["type"] for c in written["chains"]]


def test_api_reports_bad_concepts_and_keeps_ids() -> None:
    nlp = rulecoref.load(ROOT / "rules" / "exact.yaml", types="auto")
    with pytest.raises(InputError) as err:
        nlp("short", [{"start": 0, "end": 50, "type": "problem"}])
    assert err.value.codes == ["RC202"]
    res = nlp("Pain today. Pain again.", [{"id": "b", "start": 12, "end": 16, "type": "symptom"},
                                          {"id": "a", "start": 0, "end": 4, "type": "symptom"}])
    assert [[m.id for m in c] for c in res.chains] == [["a", "b"]]
    assert [m.id for m in res.mentions] == ["b", "a"]  # the input's order


def test_api_load_is_lazy() -> None:
    code = "import sys, rulecoref\nassert 'rulecoref.api' not in sys.modules\nrulecoref.load\nassert 'rulecoref.api' in sys.modules\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-1000:]


def test_api_types_read_as_the_commands_read_them() -> None:
    """``types=`` goes through the commands' --types parser: a list in capitals is the same list."""
    nlp = rulecoref.load(ROOT / "rules" / "exact.yaml", types=["SYMPTOM", "Problem"])
    res = nlp("Pain today. Pain again.", [{"start": 0, "end": 4, "type": "symptom"},
                                          {"start": 12, "end": 16, "type": "Symptom"}])
    assert [[m.start for m in c] for c in res.chains] == [[0, 12]]
    assert rulecoref.load(ROOT / "rules" / "exact.yaml", types="symptom, PROBLEM").types == ("symptom", "problem")
