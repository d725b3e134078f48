"""Gold chains problems are named where they are (issue 31, case 14): an error in a chains file
(RC575) names the chains file and its line, not the ``.con``; a named pipe or a device where the
chains file should be is not a regular file (RC220), not "no gold chains file" (RC570)."""

from __future__ import annotations

import os
from pathlib import Path

from rulecoref.learn.corpus import load_gold
from tests.learn.conftest import head_documents, write_corpus


def test_gold_messages_rc575_names_the_chains_file_and_line(tmp_path: Path) -> None:
    gold = write_corpus(tmp_path / "gold", head_documents(True, n=3))
    chains = sorted((gold / "chains").glob("*.chains"))[0]
    chains.write_text(chains.read_text() + "this is no chain line\n")
    bad_line = len(chains.read_text().splitlines())
    _, warnings = load_gold([gold])
    (w,) = [w for w in warnings if w.code == "RC575"]
    assert (w.file, w.line) == (str(chains), bad_line)


def test_gold_messages_a_fifo_chains_file_is_not_a_regular_file(tmp_path: Path) -> None:
    gold = write_corpus(tmp_path / "gold", head_documents(True, n=3))
    chains = sorted((gold / "chains").glob("*.chains"))[0]
    chains.unlink()
    os.mkfifo(chains)
    _, warnings = load_gold([gold])
    assert not [w for w in warnings if w.code == "RC570"]
    (w,) = [w for w in warnings if w.code == "RC575"]
    assert "RC220" in w.message or "not a regular file" in w.message
