"""Include chains are bounded (issue 31, case 10): 500 files deep is RC124, not a RecursionError;
a file included 1,000 times is one RC107 naming the including file, not 999 identical lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.errors import RuleFileError
from rulecoref.rules.compiler import MAX_INCLUDE_DEPTH, compile_rules


def test_include_chain_500_deep_is_rc124(tmp_path: Path) -> None:
    for i in range(500):
        (tmp_path / f"f{i}.yaml").write_text(f"version: 1\npasses:\n  - include: f{i + 1}.yaml\n")
    (tmp_path / "f500.yaml").write_text("version: 1\npasses: []\n")
    with pytest.raises(RuleFileError) as err:
        compile_rules(tmp_path / "f0.yaml")
    (d,) = err.value.diagnostics
    assert (d.code, d.line, d.file) == ("RC124", 3, str((tmp_path / f"f{MAX_INCLUDE_DEPTH}.yaml").resolve()))


def test_include_chain_within_the_limit_compiles(tmp_path: Path) -> None:
    for i in range(MAX_INCLUDE_DEPTH):
        (tmp_path / f"f{i}.yaml").write_text(f"version: 1\npasses:\n  - include: f{i + 1}.yaml\n")
    (tmp_path / f"f{MAX_INCLUDE_DEPTH}.yaml").write_text("version: 1\npasses:\n  - kind: relative_pronoun\n")
    assert [p.kind for p in compile_rules(tmp_path / "f0.yaml").passes] == ["relative_pronoun"]


def test_include_of_one_file_1000_times_is_one_rc107_on_the_including_file(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text("version: 1\npasses:\n  - kind: relative_pronoun\n  - kind: be_phrase\n")
    top = tmp_path / "top.yaml"
    top.write_text("version: 1\npasses:\n" + "  - include: p.yaml\n" * 1000)
    with pytest.raises(RuleFileError) as err:
        compile_rules(top)
    (d,) = err.value.diagnostics
    assert (d.code, d.line) == ("RC107", 4) and d.file == str(top.resolve()) and "p.yaml" in d.hint


def test_include_duplicate_name_inside_one_included_file_still_names_that_file(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text("version: 1\npasses:\n  - kind: relative_pronoun\n  - kind: relative_pronoun\n")
    top = tmp_path / "top.yaml"
    top.write_text("version: 1\npasses:\n  - include: p.yaml\n")
    with pytest.raises(RuleFileError) as err:
        compile_rules(top)
    (d,) = err.value.diagnostics
    assert d.code == "RC107" and d.file.endswith("p.yaml")


def test_include_problems_of_a_file_reached_twice_are_reported_once(tmp_path: Path) -> None:
    """Issue 31, case 14: RC104 printed twice for a file that two includes reach."""
    (tmp_path / "top.yaml").write_text("version: 1\npasses:\n  - include: a.yaml\n  - include: b.yaml\n")
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text("version: 1\npasses:\n  - include: common.yaml\n")
    (tmp_path / "common.yaml").write_text("version: 1\nattributes: {clinical: {post_window: x}}\npasses: []\n")
    with pytest.raises(RuleFileError) as err:
        compile_rules(tmp_path / "top.yaml")
    assert [(d.code, d.line) for d in err.value.diagnostics] == [("RC104", 2)]
