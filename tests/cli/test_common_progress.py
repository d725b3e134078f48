"""Progress bars: drawn on a terminal by every command that works through documents, never with
``--no-progress`` or ``--quiet``, never when stderr is not a terminal."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from rulecoref.cli import main
from tests.helpers import ROOT

EXAMPLES = ROOT / "resources" / "examples"


def _commands(tmp: Path) -> dict[str, list[str]]:
    return {
        "evaluate": ["evaluate", str(EXAMPLES), str(EXAMPLES / "chains")],
        "view": ["view", str(EXAMPLES), "--out", str(tmp / "html")],
        "convert": ["convert", str(EXAMPLES), str(tmp / "c.jsonl"), "--to", "jsonl"],
        "train": ["train", str(EXAMPLES), "--model", str(tmp / "m.json"), "--min-count", "1"],
        "resolve": ["resolve", str(EXAMPLES), "--out", str(tmp / "out")],
    }


@pytest.mark.parametrize("name", ["evaluate", "view", "convert", "train", "resolve"])
def test_progress_bar_on_a_terminal_and_off_with_the_flags(name: str, tmp_path: Path, capsys, monkeypatch) -> None:
    pytest.importorskip("numpy") if name in ("evaluate", "train") else None
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    argv = _commands(tmp_path / "a")[name]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "%|" in err or "it/s" in err or "doc/s" in err or "doc]" in err, err  # a tqdm bar was drawn
    assert out.strip()  # the summary (or the table) is printed
    for flag in ("--no-progress", "--quiet"):
        shutil.rmtree(tmp_path / flag, ignore_errors=True)
        assert main([*_commands(tmp_path / flag)[name], flag]) == 0
        out, err = capsys.readouterr()
        assert "%|" not in err and "doc/s" not in err and "doc]" not in err, (flag, err)
        assert out.strip()
