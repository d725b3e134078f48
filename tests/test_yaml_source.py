"""Safe YAML with line numbers, and its limits: hostile rule files end in a numbered error, fast.

Rule files come from colleagues, so a file may be hostile or just broken. The loader bounds the
number of nodes aliases may expand to (a "billion laughs" file stops at ``MAX_NODES``), the
nesting depth (no RecursionError, however deep the file nests or however aliases nest), and refuses
an alias that contains itself. Memory and time are bounded too; tests/rules/test_compiler_limits.py checks
that in a subprocess under a 500 MB address-space limit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref import yaml_source
from rulecoref.errors import RuleFileError
from rulecoref.rules.compiler import compile_rules
from rulecoref.yaml_source import LDict, LList, load


def alias_bomb(levels: int = 9, width: int = 10) -> str:
    """The "billion laughs": ``levels`` lists of ``width`` aliases to the list before (10**9 strings)."""
    lines = ["version: 1", "a0: &a0 [" + ", ".join(['"lol"'] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    lines.append("passes: []")
    return "\n".join(lines) + "\n"


def codes(path: Path) -> list[tuple[str, int | None]]:
    with pytest.raises(RuleFileError) as err:
        compile_rules(path)
    return [(d.code, d.line) for d in err.value.diagnostics]


def test_yaml_source_keeps_lines_and_expands_small_aliases() -> None:
    data = load("base: &b {x: 1, y: [a, b]}\ncopy: *b\nlist:\n  - one\n  - two\n")
    assert isinstance(data, LDict) and data.line_of("copy") == 2 and data["list"].item_lines == [4, 5]
    assert data["copy"] == {"x": 1, "y": ["a", "b"]}
    assert data["copy"] is not data["base"]  # an alias is an independent copy, as plain YAML reads it
    assert isinstance(data["copy"]["y"], LList)


def test_yaml_source_alias_bomb_stops_at_the_node_limit(tmp_path: Path) -> None:
    """Case 1: nine levels of ten aliases (10**9 nodes) stop after MAX_NODES nodes, with RC116."""
    path = tmp_path / "bomb.yaml"
    path.write_text(alias_bomb())
    assert codes(path) == [("RC116", 6)]  # a4's line: a0-a3 hold about 12,000 nodes, a4 expands to 111,111
    with pytest.raises(yaml_source.TooManyNodes) as err:
        load(alias_bomb())
    assert err.value.limit == yaml_source.MAX_NODES


def test_yaml_source_aliases_within_the_limit_load() -> None:
    data = load(alias_bomb(levels=3))  # 10 + 100 + 1000 strings: far below MAX_NODES
    assert len(data["a2"]) == 10 and data["a2"][9][9] == ["lol"] * 10


def test_yaml_source_recursive_alias_is_refused(tmp_path: Path) -> None:
    """Case 2: ``&a [*a]`` (a list that contains itself) is RC118, not a RecursionError."""
    path = tmp_path / "recursive.yaml"
    path.write_text("version: 1\npasses: &a [*a]\n")
    assert codes(path) == [("RC118", 2)]
    path.write_text("version: 1\nm: &m {k: *m}\npasses: []\n")
    assert codes(path) == [("RC118", 2)]
    with pytest.raises(yaml_source.RecursiveAlias) as err:
        load("version: 1\npasses: &a [*a]\n")
    assert (err.value.name, err.value.line) == ("a", 2)


@pytest.mark.parametrize("style", ["flow", "block"])
def test_yaml_source_deep_nesting_is_refused(tmp_path: Path, style: str) -> None:
    """Case 2: a 20,000-deep nested list is RC117 naming the line, not a RecursionError."""
    depth = 20_000
    if style == "flow":
        text = "version: 1\npasses: " + "[" * depth + "]" * depth + "\n"
    else:
        text = "version: 1\npasses:\n" + "".join("  " * i + "- \n" for i in range(1, 200)) + "\n"
    path = tmp_path / "deep.yaml"
    path.write_text(text)
    ((code, line),) = codes(path)
    assert code == "RC117" and line >= 2


def test_yaml_source_depth_limit_is_exact() -> None:
    ok = "[" * yaml_source.MAX_DEPTH + "]" * yaml_source.MAX_DEPTH
    assert load(ok) is not None
    with pytest.raises(yaml_source.TooDeep):
        load("[" + ok + "]")


def test_yaml_source_nesting_through_aliases_is_bounded() -> None:
    """Aliases can nest deeper than the text does (each anchor wraps the one before): the built
    value's depth is bounded as well."""
    lines = ["a0: &a0 [x]"] + [f"a{i}: &a{i} [*a{i - 1}]" for i in range(1, 3 * yaml_source.MAX_DEPTH)]
    with pytest.raises(yaml_source.TooDeep):
        load("\n".join(lines))


def test_yaml_source_long_number_and_long_key_are_plain_errors(tmp_path: Path) -> None:
    """A 5,000-digit integer overflows Python's int() limit: RC101, not a ValueError traceback;
    a duplicate 10,000-character key is reported without echoing the key whole."""
    path = tmp_path / "num.yaml"
    path.write_text("version: " + "9" * 5000 + "\npasses: []\n")
    assert codes(path) == [("RC101", 1)]
    key = "k" * 10_000
    path.write_text(f"{key}: 1\n{key}: 2\n")
    with pytest.raises(RuleFileError) as err:
        compile_rules(path)
    assert err.value.code == "RC101" and len(str(err.value)) < 500
