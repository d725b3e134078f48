"""Rule-file validation: every problem reported at once, with file, line, pass name and a hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.errors import RuleFileError
from rulecoref.rules.compiler import compile_rules
from tests.helpers import compile_text, write_rules

GOOD = """
version: 1
types: [person, problem, pronoun]
passes:
  - kind: exact_match
    name: exact
    applies_to: {exclude_types: [pronoun]}
    params: {ignore_words: [the, a], antecedents: all}
"""


def problems(tmp_path: Path, text: str) -> list[tuple[str, int]]:
    with pytest.raises(RuleFileError) as err:
        compile_text(tmp_path, text)
    return [(d.code, d.line) for d in err.value.diagnostics]


def test_compiler_accepts_a_valid_file(tmp_path: Path) -> None:
    rs = compile_text(tmp_path, GOOD)
    assert rs.types == ("person", "problem", "pronoun")
    (cfg,) = rs.passes
    assert (cfg.kind, cfg.name, cfg.line) == ("exact_match", "exact", 4)
    assert cfg.params["antecedents"] == "all" and cfg.params["ignore_words"] == ["the", "a"]
    assert cfg.scope.exclude == {"pronoun"}


def test_compiler_unknown_kind_names_line_and_suggests(tmp_path: Path) -> None:
    with pytest.raises(RuleFileError) as err:
        compile_text(tmp_path, "version: 1\npasses:\n  - kind: exact-match\n")
    d = err.value.diagnostics[0]
    assert (d.code, d.line) == ("RC102", 3)
    assert "exact_match" in d.hint and "rules.yaml:3:" in str(err.value)


def test_compiler_unknown_key_and_param(tmp_path: Path) -> None:
    got = problems(tmp_path, "passes:\n  - kind: exact_match\n    nmae: x\n    params:\n      antecedent: all\n")
    assert got == [("RC103", 3), ("RC103", 5)]


def test_compiler_unknown_param_suggests_the_right_one(tmp_path: Path) -> None:
    with pytest.raises(RuleFileError) as err:
        compile_text(tmp_path, "passes:\n  - kind: exact_match\n    params: {antecedent: all}\n")
    assert "antecedents" in err.value.diagnostics[0].hint


def test_compiler_wrong_types(tmp_path: Path) -> None:
    got = problems(tmp_path, "passes:\n  - kind: exact_match\n    params:\n      min_chars: two\n      antecedents: some\n")
    assert got == [("RC104", 4), ("RC109", 5)]


def test_compiler_missing_word_list(tmp_path: Path) -> None:
    with pytest.raises(RuleFileError) as err:
        compile_text(tmp_path, "passes:\n  - kind: exact_match\n    params: {ignore_words: lists/nope.txt}\n")
    d = err.value.diagnostics[0]
    assert (d.code, d.line) == ("RC105", 3) and "nope.txt" in d.message


def test_compiler_word_list_resolves_beside_rule_file(tmp_path: Path) -> None:
    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "stop.txt").write_text("# comment\nthe\n")
    rs = compile_text(tmp_path, "passes:\n  - kind: exact_match\n    params: {ignore_words: lists/stop.txt}\n")
    assert Path(rs.passes[0].params["ignore_words"]) == tmp_path / "lists" / "stop.txt"


def test_compiler_reports_all_problems_and_pass_names(tmp_path: Path) -> None:
    text = """
    passes:
      - kind: exact_match
        name: one
        params: {min_chars: -3}
      - kind: nope
      - kind: exact_match
        name: one
        applies_to: {types: [persn]}
    """
    with pytest.raises(RuleFileError) as err:
        compile_text(tmp_path, text)
    codes = err.value.codes
    assert codes == ["RC104", "RC102", "RC107", "RC108"]
    assert "pass 'one'" in err.value.diagnostics[0].message


def test_compiler_yaml_syntax_and_duplicate_keys(tmp_path: Path) -> None:
    assert problems(tmp_path, "passes:\n  - kind: exact_match\n   bad: [\n")[0][0] == "RC101"
    assert problems(tmp_path, "passes: []\npasses: []\n") == [("RC101", 2)]


def test_compiler_never_executes_yaml_tags(tmp_path: Path) -> None:
    marker = tmp_path / "hacked"
    text = f"passes:\n  - kind: !!python/object/apply:os.system ['touch {marker}']\n"
    assert problems(tmp_path, text) == [("RC101", 2)]
    assert not marker.exists()


def test_compiler_include_splices_passes_and_detects_cycles(tmp_path: Path) -> None:
    write_rules(tmp_path, "version: 1\npasses:\n  - kind: exact_match\n    name: inner\n", "inner.yaml")
    rs = compile_text(tmp_path, "passes:\n  - kind: exact_match\n    name: outer\n  - include: inner.yaml\n")
    assert [p.name for p in rs.passes] == ["outer", "inner"]
    assert rs.passes[1].rule_file.endswith("inner.yaml")
    write_rules(tmp_path, "passes:\n  - include: rules.yaml\n", "inner.yaml")
    with pytest.raises(RuleFileError) as err:
        compile_text(tmp_path, "passes:\n  - include: inner.yaml\n")
    d = err.value.diagnostics[0]
    assert (d.code, d.line) == ("RC110", 2) and d.file.endswith("inner.yaml")


def test_compiler_bad_example_markup(tmp_path: Path) -> None:
    text = "passes:\n  - kind: exact_match\n    examples:\n      link:\n        - '[only one|problem] here'\n"
    assert problems(tmp_path, text) == [("RC111", 5)]


def test_compiler_missing_rule_file(tmp_path: Path) -> None:
    with pytest.raises(RuleFileError) as err:
        compile_rules(tmp_path / "absent.yaml")
    assert err.value.code == "RC113"


def test_compiler_disabled_pass_is_skipped(tmp_path: Path) -> None:
    rs = compile_text(tmp_path, "passes:\n  - kind: exact_match\n    enabled: false\n")
    assert rs.passes == []
