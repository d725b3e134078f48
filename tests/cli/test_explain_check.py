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


def _explain(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["explain", EXAMPLES, *argv, "--rules", EXACT])
    out, err = capsys.readouterr()
    return code, out, err


def test_explain_occurrence_numbers_are_whole_numbers_from_one(capsys) -> None:
    """Regression: 'text#²' gave a ValueError traceback and 'text#-1' silently meant the first."""
    for spec in ("hypertension#²", "hypertension#-1", "hypertension#0", "hypertension#", "hypertension#two"):
        code, _, err = _explain(capsys, "--doc", "clinical-ex1", spec)
        assert code == 2 and "[RC540]" in err and "Traceback" not in err, spec
    code, _, err = _explain(capsys, "--doc", "clinical-ex1", "hypertension#3")
    assert code == 2 and "[RC543]" in err and "'clinical-ex1' has 2" in err
    assert _explain(capsys, "--doc", "clinical-ex1", "hypertension#2", "hypertension")[0] == 0


def test_explain_rejects_a_third_mention(capsys) -> None:
    """Regression: a third mention was silently ignored."""
    code, out, err = _explain(capsys, "--doc", "clinical-ex1", "hypertension", "hypertension#2", "aspirin")
    assert code == 2 and "[RC541]" in err and "got 3" in err and not out


def test_explain_unknown_doc_names_what_it_looked_for(capsys) -> None:
    """Regression: --doc zz-nope said "found: none"."""
    code, _, err = _explain(capsys, "--doc", "zz-nope", "mrsa")
    assert code == 2 and "[RC542]" in err and "'zz-nope'" in err and "clinical-ex1" in err and "none" not in err
    code, _, err = _explain(capsys, "mrsa")
    assert code == 2 and "[RC555]" in err and "clinical-ex1" in err
