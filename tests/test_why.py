"""``why.explain_pair``: every pass's verdict for a pair, each on a small hand-written document."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulecoref.cli import main
from rulecoref.markup import parse_markup
from rulecoref.why import explain_pair
from tests.helpers import find, pipeline_from_entries

SAME_TEXT = {"kind": "match", "name": "same-text", "key": "text_norm"}
HEADS = {"kind": "match", "name": "heads", "applies_to": {"exclude_types": ["pronoun"]}, "key": "head_family",
         "antecedent_key": "head", "require": ["head_matches", "words_covered"]}


def verdicts(tmp_path: Path, entries: list[dict], markup: str, a: str, b: str, nth_b: int = 0) -> dict[str, dict]:
    pipe = pipeline_from_entries(tmp_path, entries)
    doc, _ = parse_markup(markup)
    res = pipe.resolve(doc)
    i = find(res, a)
    j = [c.index for c in doc.concepts if c.text == b and c.index != i][nth_b]
    why = explain_pair(pipe, res, i, j)
    return {row["pass"]: row for row in why["passes"]}


def test_why_linked_gives_the_evidence(tmp_path: Path) -> None:
    rows = verdicts(tmp_path, [SAME_TEXT], "[fever|problem] ; then [fever|problem] .", "fever", "fever")
    assert rows["same-text"]["verdict"] == "linked" and "fever" in rows["same-text"]["reason"]
    assert rows["decoder union_find"]["verdict"] == "linked"


def test_why_not_in_scope_names_the_type_and_applies_to(tmp_path: Path) -> None:
    rows = verdicts(tmp_path, [HEADS], "[pain|problem] ; [pain|pronoun] .", "pain", "pain")
    row = rows["heads"]
    assert row["verdict"] == "not_in_scope" and "'pronoun'" in row["reason"] and "exclude_types" in row["reason"]


def test_why_not_a_candidate_gives_both_key_values(tmp_path: Path) -> None:
    rows = verdicts(tmp_path, [SAME_TEXT], "[chest pain|problem] and [back pain|problem] .", "chest pain", "back pain")
    row = rows["same-text"]
    assert row["verdict"] == "not_a_candidate"
    assert "'back pain'" in row["reason"] and "'chest pain'" in row["reason"] and "text_norm" in row["reason"]
    assert rows["decoder union_find"]["verdict"] == "separate_chains"


def test_why_outside_the_window(tmp_path: Path) -> None:
    entry = {**SAME_TEXT, "window": {"sentences": 1}}
    rows = verdicts(tmp_path, [entry], "[fever|problem] .\nnothing .\nstill nothing .\n[fever|problem] .", "fever", "fever")
    assert rows["same-text"]["verdict"] == "outside_window" and "3 sentences apart" in rows["same-text"]["reason"]


def test_why_a_requirement_false_names_it_with_its_values(tmp_path: Path) -> None:
    rows = verdicts(tmp_path, [HEADS], "[chest pain|problem] and [back pain|problem] .", "chest pain", "back pain")
    row = rows["heads"]
    assert row["verdict"] == "requirement_false"
    assert "words_covered" in row["reason"] and "{back, pain}" in row["reason"] and "{chest, pain}" in row["reason"]


def test_why_a_veto_names_it_with_its_evidence(tmp_path: Path) -> None:
    entry = {**SAME_TEXT, "veto": ["number_clash", "overlaps"]}
    rows = verdicts(tmp_path, [entry], "[the lesion|problem] ; [lesions|problem] .", "the lesion", "lesions")
    assert rows["same-text"]["verdict"] == "not_a_candidate"  # text differs: ask a key they share
    entry = {"kind": "match", "name": "same-head", "key": "head_base", "veto": ["number_clash", "overlaps"]}
    rows = verdicts(tmp_path, [entry], "[the lesion|problem] ; [lesions|problem] .", "the lesion", "lesions")
    row = rows["same-head"]
    assert row["verdict"] == "vetoed" and "number_clash" in row["reason"] and "plural" in row["reason"]
    assert [v["veto"] for v in row["vetoes"]] == ["number_clash"]


def test_why_nearer_candidate_taken(tmp_path: Path) -> None:
    rows = verdicts(tmp_path, [SAME_TEXT], "[fever|problem] ; [fever|problem] ; [fever|problem] .", "fever", "fever", 1)
    # the first and the third: the third took the second, the nearer one
    assert rows["same-text"]["verdict"] == "nearer_linked" and "nearer candidate" in rows["same-text"]["reason"]
    decoder = rows["decoder union_find"]
    assert decoder["verdict"] == "joined_through_others" and decoder["reason"].count("->") == 2


def test_why_a_pass_switched_off_is_listed_in_its_place(tmp_path: Path) -> None:
    entries = [{**SAME_TEXT, "enabled": False}, {**HEADS, "enabled": True}]
    pipe = pipeline_from_entries(tmp_path, entries)
    assert [p.name for p in pipe.passes] == ["heads"]
    doc, _ = parse_markup("[fever|problem] ; then [fever|problem] .")
    why = explain_pair(pipe, pipe.resolve(doc), 0, 1)
    assert [(r["pass"], r["verdict"]) for r in why["passes"]] == [
        ("same-text", "disabled"), ("heads", "linked"), ("decoder union_find", "linked")]
    assert "enabled: false" in why["passes"][0]["reason"]


def test_why_positional_pass_not_proposed(tmp_path: Path) -> None:
    entry = {"kind": "relative_pronoun", "name": "which", "params": {"pronouns": ["which"]}}
    rows = verdicts(tmp_path, [entry], "[MRSA|problem] grew in the deep wound [which|pronoun] healed .", "mrsa", "which")
    assert rows["which"]["verdict"] == "not_proposed" and "relative_pronoun" in rows["which"]["reason"]


@pytest.mark.parametrize(("line", "verdict"), [
    ("[x-ray|test] on 3/12 ; [x-ray|test] on 3/19 .", "removed"),
    ("[x-ray|test] on 3/12 ; [x-ray|test] again .", "kept"),
    ("[x-ray|test] on 3/12 ; [MRI|test] on 3/19 .", "nothing_to_filter"),
])
def test_why_filter_verdicts(tmp_path: Path, line: str, verdict: str) -> None:
    entries = [SAME_TEXT, {"kind": "filter", "name": "dates", "remove_if": ["dates_conflict"]}]
    doc, _ = parse_markup(line)
    a, b = doc.concepts[0].text, doc.concepts[1].text
    rows = verdicts(tmp_path, entries, line, a, b)
    assert rows["dates"]["verdict"] == verdict
    if verdict == "removed":
        assert "dates_conflict" in rows["dates"]["reason"] and rows["decoder union_find"]["verdict"] == "separate_chains"


def test_explain_json_lists_every_pass_and_what_failed(tmp_path: Path, capsys) -> None:
    """The bundled rules: every pass has a verdict and a reason; head-and-synonym says which
    requirement failed."""
    (tmp_path / "d.txt").write_text("He has chest pain .\nHe denies back pain .\n", encoding="utf-8")
    (tmp_path / "d.txt.con").write_text('c="chest pain" 1:2 1:3||t="problem"\nc="back pain" 2:2 2:3||t="problem"\n',
                                        encoding="utf-8")
    assert main(["explain", str(tmp_path), "--doc", "d", "chest pain", "back pain", "--json"]) == 0
    why = json.loads(capsys.readouterr().out)
    from rulecoref.rules.compiler import compile_rules
    from rulecoref.rules.files import bundled_rules

    names = [p.name for p in compile_rules(bundled_rules("i2b2")).every_pass]
    assert [row["pass"] for row in why["passes"]][:-1] == names
    assert next(row for row in why["passes"] if row["pass"] == "umls-cui")["verdict"] == "disabled"
    assert all(row["verdict"] and row["reason"] for row in why["passes"])
    head = next(row for row in why["passes"] if row["pass"] == "head-and-synonym")
    assert head["verdict"] == "requirement_false" and "words_covered" in head["reason"]
    assert main(["explain", str(tmp_path), "--doc", "d", "chest pain", "back pain"]) == 0
    out = capsys.readouterr().out
    assert "head-and-synonym" in out and "requirement false: require words_covered" in out
