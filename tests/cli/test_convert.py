"""``rulecoref convert``'s missing inputs are command-line errors (RC521, as a missing SRC is), not
the evaluation's RC712: convert reads files, it scores nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulecoref.cli import main
from tests.helpers import FIXTURES

BASE = FIXTURES / "scorer-cases" / "i2b2"


def _i2b2_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "gold"
    shutil.copytree(BASE / "docs", folder / "docs")
    shutil.copytree(BASE / "concepts", folder / "concepts")
    return folder


@pytest.mark.parametrize("missing", ["chains", "reference", "conll"])
def test_convert_names_a_missing_input_with_rc521(tmp_path: Path, capsys, missing: str) -> None:
    gone = tmp_path / "gone"
    if missing == "chains":
        args = [str(_i2b2_folder(tmp_path)), str(tmp_path / "out"), "--chains", str(gone)]
    elif missing == "reference":
        args = [str(BASE / "conll" / "key.conll"), str(tmp_path / "out"), "--reference", str(gone)]
    else:
        args = [str(gone), str(tmp_path / "out"), "--from", "conll"]
    assert main(["convert", *args]) == 2
    err = capsys.readouterr().err
    assert "[RC521]" in err and "RC712" not in err and repr(str(gone)) in err
    assert not (tmp_path / "out").exists()
