"""brat output of a type with a space is read back (issue 31, case 14): the label was written as it
was, and rulecoref's own reader refused the line (RC236)."""

from __future__ import annotations

import json
from pathlib import Path

from rulecoref.cli import main


def test_brat_labels_type_with_a_space_round_trips(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in.jsonl"
    doc = {"id": "d1", "text": "the pain and the pain .",
           "concepts": [{"start": 4, "end": 8, "type": "chest finding"}, {"start": 17, "end": 21, "type": "chest finding"}]}
    src.write_text(json.dumps(doc) + "\n")
    out = tmp_path / "brat"
    assert main(["resolve", str(src), "--input-format", "jsonl", "--types", "auto", "--format", "brat",
                 "--out", str(out), "-q"]) == 0
    assert "chest_finding" in (out / "d1.ann").read_text()
    back = tmp_path / "back"
    assert main(["resolve", str(out / "d1.ann"), "--input-format", "brat", "--types", "auto", "--out", str(back), "-q"]) == 0
    assert "RC236" not in capsys.readouterr().err and (back / "d1.txt.chains").exists()
