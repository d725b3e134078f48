"""What a page shows: the antecedent-link diff and the provenance file, by concept index."""

from __future__ import annotations

import json
from pathlib import Path

from rulecoref.io.formats import ReadOptions, find_inputs
from rulecoref.view.build import load_view
from rulecoref.view.model import DocView, antecedent_links, read_provenance
from tests.view.cases import CHAINS, CORRECT, MISSING, WRONG, write_case


def test_model_antecedent_links_join_each_mention_to_the_one_before() -> None:
    assert antecedent_links([[5, 1, 3], [2, 4]]) == [(1, 3), (2, 4), (3, 5)]


def test_model_diff_of_the_hand_made_case(tmp_path: Path) -> None:
    data, system = write_case(tmp_path)
    view = load_view(find_inputs([data])[0][0], ReadOptions(), system)
    assert view.system == CHAINS and view.gold == [[0, 2, 4], [1, 3]]
    assert view.diff() == {"correct": CORRECT, "wrong": WRONG, "missing": MISSING}
    assert view.gold_types == ["person", "problem"]
    assert [(l["a"], l["b"], l["kept"]) for l in view.provenance.links] == [(0, 4, True), (2, 3, True), (1, 3, False)]
    assert [(r["a"], r["b"], r["pass"]) for r in view.provenance.removed] == [(1, 3, "different-dates")]


def test_model_no_diff_without_both_sides(tmp_path: Path) -> None:
    data, _ = write_case(tmp_path)
    view = load_view(find_inputs([data])[0][0], ReadOptions())
    assert view.diff() is None and view.shown == ([[0, 2, 4], [1, 3]], ["person", "problem"])
    assert DocView(view.doc).shown == ([], [])


def test_model_missing_system_file_and_foreign_provenance_are_warnings(tmp_path: Path) -> None:
    data, system = write_case(tmp_path)
    (system / "case.txt.chains").unlink()
    prov = json.loads((system / "case.links.json").read_text())
    prov["links"][0]["a"] = 'c="ghost" 9:0 9:0'
    (system / "case.links.json").write_text(json.dumps(prov))
    view = load_view(find_inputs([data])[0][0], ReadOptions(), system)
    assert view.system is None and [w.code for w in view.warnings] == ["RC523", "RC525"]
    assert len(view.provenance.links) == 2
    (system / "case.links.json").write_text("{")
    log, warnings = read_provenance(system / "case.links.json", view.doc)
    assert log is None and [w.code for w in warnings] == ["RC524"]
