"""``check`` on a folder or a device says what it is (issue 31, case 14): it said "not found"."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.cli import main


@pytest.mark.parametrize("target", ["folder", "/dev/null"])
def test_check_paths_folder_or_device_is_rc127(tmp_path: Path, capsys, target: str) -> None:
    path = tmp_path if target == "folder" else Path(target)
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "[RC127]" in err and ("a folder" if target == "folder" else "a device") in err


def test_check_paths_missing_file_is_still_rc113(tmp_path: Path, capsys) -> None:
    assert main(["check", str(tmp_path / "nope.yaml")]) == 2
    assert "[RC113]" in capsys.readouterr().err
