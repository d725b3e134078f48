"""Regular expressions of rule files are bounded before they are compiled (issue 31, case 7):
nested quantifiers, deep groups and huge repeat counts are RC104 with the file and line, never a
hang, a RecursionError or an OverflowError."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulecoref.errors import RuleFileError
from rulecoref.rules.compiler import compile_rules
from rulecoref.rules.regex import RegexRefused, check_regex
from tests.helpers import ROOT, write_rules

HOSTILE = {
    "nested quantifier": "(a+)+$",
    "nested groups": "(" * 600 + "a" + ")" * 600,
    "huge repeat": "a{4294967295}",
    "repeated alternatives": "(a|aa)*$",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_regex_hostile_pattern_in_a_rule_file_is_rc104_on_its_line(tmp_path: Path, name: str) -> None:
    rx = json.dumps(HOSTILE[name])
    path = write_rules(tmp_path, f"version: 1\nattributes:\n  clues:\n    dates: [{rx}]\npasses: []\n")
    with pytest.raises(RuleFileError) as err:
        compile_rules(path)
    (d,) = err.value.diagnostics
    assert (d.code, d.file, d.line) == ("RC104", str(path), 4)


def test_regex_hostile_pattern_in_a_pattern_file_names_that_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "dates.txt").write_text("# dates\n\\d+/\\d+\n(\\d+)*x\n")
    path = write_rules(tmp_path, "version: 1\nattributes: {clues: {dates: dates.txt}}\npasses: []\n")
    with pytest.raises(RuleFileError) as err:
        compile_rules(path)
    (d,) = err.value.diagnostics
    assert (d.code, d.file, d.line) == ("RC104", str(tmp_path / "dates.txt"), 3)


def test_regex_bundled_date_patterns_pass() -> None:
    for line in (ROOT / "resources" / "lexicons" / "date_patterns.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            check_regex(line.strip())


@pytest.mark.parametrize("rx", ["a{3}", "(?:ab)+", "x(?:[/-]\\d{2,4})?", "[(]+a", "\\(a+\\)+", "(?#(a+)+)b", "a{}"])
def test_regex_plain_shapes_are_accepted(rx: str) -> None:
    check_regex(rx)


@pytest.mark.parametrize("rx", ["(\\d{1,2}/){2}", "(?:a*b?)*", "((a)+)+", "x{1001}", "(?:a{2,})+"])
def test_regex_repetition_over_variable_repetition_is_refused(rx: str) -> None:
    with pytest.raises(RegexRefused):
        check_regex(rx)
