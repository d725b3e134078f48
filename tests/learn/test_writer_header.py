"""Text from the command line stays inside the learned file's header comment (issue 31, case 3): a
newline in a GOLD folder's name once landed as a live YAML line that ``check`` accepted."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from rulecoref.cli import main
from rulecoref.learn.writer import comment_text
from tests.learn.conftest import head_documents, write_corpus


def test_learned_header_newline_in_gold_folder_stays_in_the_comment(tmp_path: Path, monkeypatch, capsys) -> None:
    gold = write_corpus(tmp_path / "gold\ndescription: injected #", head_documents(True, n=4))
    out = tmp_path / "learned.yaml"
    argv = ["induce", str(gold), "--out", str(out), "--quiet", "--max-rules", "1"]
    monkeypatch.setattr(sys, "argv", ["rulecoref", *argv])
    assert main(argv) == 0
    text = out.read_text()
    assert yaml.safe_load(text).get("description") != "injected"
    assert "gold\\ndescription: injected" in text  # shown, escaped, in the header
    assert all(line.startswith("#") for line in text.split("passes:")[0].splitlines()
               if line and not line.startswith(("version:", "name:", "description:", "types:", "pronoun_types:")))
    capsys.readouterr()


def test_learned_header_escapes_every_yaml_line_break() -> None:
    for brk in ("\n", "\r", "\x85", "\u2028", "\u2029"):
        assert len(f"# {comment_text('a' + brk + 'b')}".splitlines()) == 1
