"""A learned file never overwrites a file the base rule set reads (issue 31, case 1): an included
rule file, a word list, the model or the UMLS SQLite file is an input, RC522 before any work."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.cli import main
from rulecoref.rules.compiler import compile_rules
from tests.learn.conftest import head_documents, write_corpus

BASE = """version: 1
attributes: {umls: {db: umls.sqlite}}
passes:
  - kind: be_phrase
    params: {phrases: words/be.txt}
  - include: people.yaml
"""


@pytest.fixture
def base(tmp_path: Path) -> Path:
    folder = tmp_path / "rules"
    (folder / "words").mkdir(parents=True)
    (folder / "words" / "be.txt").write_text("is\nwas\n")
    (folder / "people.yaml").write_text("version: 1\npasses:\n  - kind: match\n    name: same-text\n    key: text_norm\n")
    (folder / "umls.sqlite").write_bytes(b"")
    (folder / "base.yaml").write_text(BASE)
    return folder / "base.yaml"


def test_rule_set_inputs_name_every_file_it_reads(base: Path) -> None:
    folder = base.parent.resolve()
    assert set(compile_rules(base).inputs) >= {folder / "base.yaml", folder / "words" / "be.txt",
                                               folder / "people.yaml", folder / "umls.sqlite"}
    assert any(p.name == "date_patterns.txt" for p in compile_rules(base).inputs)  # bundled defaults too


@pytest.mark.parametrize("target", ["people.yaml", "words/be.txt", "umls.sqlite"])
@pytest.mark.parametrize("command", ["induce", "ablate"])
def test_learned_file_never_overwrites_an_input_of_the_base(tmp_path: Path, base: Path, capsys, target: str,
                                                            command: str) -> None:
    gold = write_corpus(tmp_path / "gold", head_documents(True, n=4))
    out = base.parent / target
    before = out.read_bytes()
    argv = (["induce", str(gold), "--base", str(base)] if command == "induce"
            else ["ablate", str(gold), "--rules", str(base), "--search"])
    code = main([*argv, "--out", str(out), "--overwrite", "--quiet"])
    assert code == 2 and "[RC522]" in capsys.readouterr().err
    assert out.read_bytes() == before
