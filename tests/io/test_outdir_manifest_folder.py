"""A manifest entry naming a folder is damage, checked before ``--overwrite`` deletes anything
(issue 31, case 5): it once deleted the earlier chains, then stopped with IsADirectoryError."""

from __future__ import annotations

import json
from pathlib import Path

from rulecoref.cli import main
from tests.helpers import ROOT

EXAMPLES = ROOT / "resources" / "examples"


def test_manifest_entry_naming_a_folder_is_never_deleted(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["resolve", str(EXAMPLES), "--out", str(out), "-q"]) == 0
    (out / "keep").mkdir()
    (out / "keep" / "mine.txt").write_text("x")
    with open(out / ".rulecoref-outputs", "a") as fh:
        fh.write(json.dumps(["resolve:i2b2", "keep"]) + "\n")
    assert main(["resolve", str(EXAMPLES), "--out", str(out), "-q", "--overwrite"]) == 0
    capsys.readouterr()
    assert len(list(out.glob("*.txt.chains"))) == 4
    assert (out / "keep" / "mine.txt").read_text() == "x"
