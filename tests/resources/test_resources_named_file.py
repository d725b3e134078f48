"""Bundled rule sets by name (``--rules i2b2-umls``, ``rulecoref check odie``) from any folder, in
every command: the lookup of the spaCy component and Spark (``resources.named_file``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture()
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with no rules/ in it."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_check_and_resolve_find_bundled_rule_sets_by_name(elsewhere: Path, capsys) -> None:
    assert main(["check", "odie"]) == 0
    assert capsys.readouterr().out.startswith("odie: ")
    assert main(["resolve", str(EXAMPLES), "--rules", "exact", "--out", "out", "--no-progress", "-q"]) == 0
    report = (elsewhere / "out" / "rulecoref-report.json").read_text()
    assert "rules/exact.yaml" in report  # the report names the file the name found
    assert main(["explain", str(EXAMPLES), "--doc", "clinical-ex3", "--rules", "odie", "--types", "auto", "mrsa", "--json"]) == 0
    assert main(["check", "no-such-rules"]) == 2
    assert "[RC113]" in capsys.readouterr().err


def test_a_file_of_that_name_wins(elsewhere: Path, capsys) -> None:
    (elsewhere / "odie").write_text("version: 1\ntypes: [problem]\npasses: []\n")
    assert main(["check", "odie"]) == 0
    assert "odie: 0 passes" in capsys.readouterr().out


def test_check_i2b2_umls_by_name(elsewhere: Path, umls_fixture_database: Path, capsys) -> None:
    assert main(["check", "i2b2-umls"]) == 0
    assert "i2b2-umls: " in capsys.readouterr().out
