"""``rulecoref explain`` and ``rulecoref check``."""

from __future__ import annotations

import json
from pathlib import Path

from rulecoref.cli import main
from tests.helpers import ROOT

EXAMPLES = str(ROOT / "resources" / "examples")
EXACT = str(ROOT / "rules" / "exact.yaml")


def test_explain_names_the_pass_that_linked(capsys) -> None:
    code = main(["explain", EXAMPLES, "--doc", "clinical-ex1", "hypertension", "hypertension#2", "--rules", EXACT, "--json"])
    assert code == 0
    why = json.loads(capsys.readouterr().out)
    assert why["same_chain"] and why["proposed_by"][0]["pass"] == "exact-string"


def test_explain_unlinked_pair_and_unknown_mention(capsys) -> None:
    assert main(["explain", EXAMPLES, "--doc", "clinical-ex1", "3:0", "aspirin", "--rules", EXACT]) == 0
    out = capsys.readouterr().out
    assert "same chain: no" in out and "not in scope: types 'person' and 'treatment' differ" in out
    assert "separate chains" in out
    assert main(["explain", EXAMPLES, "--doc", "clinical-ex1", "nothing-like-this", "aspirin", "--rules", EXACT]) == 2
    assert "[RC554]" in capsys.readouterr().err


def test_check_runs_examples_and_fails_on_a_broken_one(tmp_path: Path, capsys) -> None:
    assert main(["check", EXACT]) == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("passes:\n  - kind: match\n    key: text_norm\n    examples:\n      no_link: ['[fever|problem] then [fever|problem]']\n")
    assert main(["check", str(bad)]) == 1
    assert "FAILED" in capsys.readouterr().out
