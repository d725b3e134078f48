"""GAP-style scoring (``rulecoref evaluate --gap``): GAP's scorer over pronoun-name pairs of chains."""

from __future__ import annotations

import json

import pytest

from rulecoref.cli import main
from rulecoref.evaluate.gap import GapScores, score_gap

CON = 'c="ann lee" 1:0 1:1||t="person"\nc="bo ek" 1:3 1:4||t="person"\nc="{p}" 2:0 2:0||t="pronoun"\n'
TEXT = "Ann Lee met Bo Ek .\n{P} left .\n"


def chain(name_at: str, p: str) -> str:
    spans = {"a": 'c="ann lee" 1:0 1:1', "b": 'c="bo ek" 1:3 1:4'}
    return f'{spans[name_at]}||c="{p}" 2:0 2:0||t="coref person"\n'


@pytest.fixture
def folders(tmp_path):
    """Three GAP-like documents: gold says A, B, neither; the system says A, A, and (for d3) no file."""
    gold, system = tmp_path / "gold", tmp_path / "system"
    for sub in ("docs", "concepts", "chains"):
        (gold / sub).mkdir(parents=True)
    system.mkdir()
    for name, p, gold_chain, sys_chain in (("d1", "he", "a", "a"), ("d2", "she", "b", "a"), ("d3", "her", None, None)):
        (gold / "docs" / f"{name}.txt").write_text(TEXT.format(P=p.capitalize()))
        (gold / "concepts" / f"{name}.txt.con").write_text(CON.format(p=p))
        (gold / "chains" / f"{name}.txt.chains").write_text(chain(gold_chain, p) if gold_chain else "")
        if name != "d3":
            (system / f"{name}.txt.chains").write_text(chain(sys_chain, p))
    return gold, system


def test_gap_counts_pairs_the_way_gaps_scorer_does(folders):
    report = score_gap(*folders)
    o = report.overall
    assert (report.documents, report.pairs) == (3, 6)
    # d1: A tp, B tn; d2: A fp, B fn; d3 (no system file): A and B fn although gold says neither
    assert (o.tp, o.fp, o.fn, o.tn) == (1, 1, 3, 1)
    assert o.precision == pytest.approx(50.0) and o.recall == pytest.approx(25.0)
    assert o.f1 == pytest.approx(2 * 50 * 25 / 75)
    assert (report.masculine.tp, report.masculine.tn) == (1, 1)
    assert (report.feminine.fp, report.feminine.fn) == (1, 3)
    assert report.bias is None  # feminine F1 is 0: GAP prints '-'
    assert [w.code for w in report.warnings] == ["RC703"]


def test_gap_scores_f1_zero_without_answers():
    s = GapScores()
    s.add(True, False)
    assert (s.precision, s.recall, s.f1) == (0.0, 0.0, 0.0)


def test_cli_evaluate_gap_scorecard_and_json(folders, capsys):
    gold, system = folders
    assert main(["evaluate", str(gold), str(system), "--gap", "-q"]) == 0
    out = capsys.readouterr().out
    assert "Overall recall: 25.0 precision: 50.0 f1: 33.3" in out and "Bias (F/M): -" in out
    assert main(["evaluate", str(gold), str(system), "--gap", "--json", "-q"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["overall"]["tp"] == 1 and data["pairs"] == 6


def test_cli_evaluate_gap_missing_folder_is_rc712(tmp_path, capsys):
    assert main(["evaluate", str(tmp_path / "nope"), str(tmp_path), "--gap"]) == 2  # nothing to score: as every command
    assert "RC712" in capsys.readouterr().err
