"""``ablate`` settings checked before any work (issue 31, case 12): nan/inf/negative/too large
values were tracebacks or accepted (``--min-gain -5`` kept a change that lowers F1), ``--out``
without ``--search`` was ignored, and ``--search --rules R --out X`` wrote X, then failed RC120."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.cli import main
from tests.learn.conftest import head_documents, write_corpus

TWO = ("version: 1\npasses:\n  - kind: match\n    name: exact-string\n    key: text_norm\n"
       "  - include: more.yaml\n")


@pytest.fixture
def gold(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "gold", head_documents(True, n=4))


@pytest.mark.parametrize("option", [["--holdout", "nan"], ["--holdout", "inf"], ["--holdout", "-1"], ["--holdout", "1"],
                                    ["--holdout", "5"], ["--max-changes", "-1"], ["--min-gain", "nan"],
                                    ["--min-gain", "inf"], ["--min-gain", "-5"]])
def test_ablate_options_out_of_range_are_rc577(gold: Path, tmp_path: Path, capsys, option: list[str]) -> None:
    out = tmp_path / "x.yaml"
    assert main(["ablate", str(gold), "--search", "--out", str(out), "--quiet", *option]) == 2
    assert "[RC577]" in capsys.readouterr().err and not out.exists()


def test_ablate_out_without_search_is_rc577(gold: Path, tmp_path: Path, capsys) -> None:
    assert main(["ablate", str(gold), "--out", str(tmp_path / "x.yaml"), "--quiet"]) == 2
    assert "[RC577]" in capsys.readouterr().err


def test_ablate_search_out_in_another_folder_compiles_and_says_so(gold: Path, tmp_path: Path, capsys) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "r.yaml").write_text(TWO)
    (rules / "more.yaml").write_text("version: 1\npasses:\n  - kind: match\n    name: same-head\n    key: head\n")
    out = tmp_path / "elsewhere" / "x.yaml"
    out.parent.mkdir()
    assert main(["ablate", str(gold), "--rules", str(rules / "r.yaml"), "--search", "--out", str(out),
                 "--quiet", "--max-changes", "1"]) == 0
    err = capsys.readouterr().err
    assert out.exists() and "--allow-path" in err and "RC120" not in err
    assert main(["check", str(out), "--allow-path", str(rules)]) in (0, 1)
