"""Warnings counted by code (issue 33): a report keeps counts and a few examples, the same however
the batch was split."""

from __future__ import annotations

import random

from rulecoref.errors import Diagnostic
from rulecoref.tally import WarningTally


def _warnings(n: int) -> list[Diagnostic]:
    return [Diagnostic(code=f"RC2{12 + i % 3}", message=f"m{i}", file=f"doc{i % 7}.txt.con", line=i,
                       severity="warning") for i in range(n)]


def test_tally_counts_by_code_and_keeps_the_first_examples_in_file_order() -> None:
    report = WarningTally().add(_warnings(100)).to_dict()
    assert report["count"] == 100 and set(report["by_code"]) == {"RC212", "RC213", "RC214"}
    assert [c["count"] for c in report["by_code"].values()] == [34, 33, 33]
    first = report["by_code"]["RC212"]["examples"]
    assert len(first) == 3 and [(e["file"], e["line"]) for e in first] == [("doc0.txt.con", 0), ("doc0.txt.con", 21),
                                                                           ("doc0.txt.con", 42)]


def test_tally_of_parts_merged_in_any_order_is_the_tally_of_the_whole() -> None:
    warnings = _warnings(200)
    whole = WarningTally().add(warnings).to_dict()
    rng = random.Random(7)
    for _ in range(5):
        rng.shuffle(warnings)
        parts = [WarningTally().add(warnings[i:i + 30]) for i in range(0, len(warnings), 30)]
        rng.shuffle(parts)
        merged = parts[0]
        for part in parts[1:]:
            merged = merged.merge(part)
        assert merged.to_dict() == whole


def test_tally_prints_examples_and_how_many_more(tmp_path, capsys) -> None:
    WarningTally().add(_warnings(10)).print(tmp_path / "report.json", quiet=False)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 * 3 + 1 and err[3].startswith("warning: ... and 1 more [RC212] warning(s), 4 in all")
    WarningTally().add(_warnings(10)).print(tmp_path / "report.json", quiet=True)
    assert capsys.readouterr().err == ""
