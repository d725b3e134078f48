"""Document names the file system can hardly hold (issue 31, case 6): a 247-character name (its
``.con`` is a legal 255 bytes) crashed input scanning with an OSError traceback; a 230-character one
failed because the temporary file's name was too long. Now the first is that document's RC510 and
the second is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulecoref.cli import main

TEXT = "the patient has pain .\n"
CON = 'c="pain" 1:3 1:3||t="problem"\n'


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("a" * 247, "b" * 230, "ok"):
        (folder / f"{name}.txt").write_text(TEXT)
        (folder / f"{name}.txt.con").write_text(CON)
    return folder


def test_long_names_resolve_writes_what_fits_and_fails_one_document(data: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["resolve", str(data), "--out", str(out), "-q"]) == 1
    assert sorted(p.name for p in out.glob("*.txt.chains")) == sorted(["b" * 230 + ".txt.chains", "ok.txt.chains"])
    report = json.loads((out / "rulecoref-report.json").read_text())
    assert len(report["failed"]) == 1 and "RC510" in json.dumps(report["failed"])
    assert "Traceback" not in capsys.readouterr().err and not list(out.glob(".*.tmp"))


def test_long_names_evaluate_scans_without_a_traceback(data: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    main(["resolve", str(data), "--out", str(out), "-q"])
    assert main(["evaluate", str(data), str(out)]) in (0, 1)
    assert "Traceback" not in capsys.readouterr().err
