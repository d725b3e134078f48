"""The engine's plan (rulecoref/plan.py) links what the rules' plain tests link: the same links, in
the same order, with the same evidence, and the same removals, on hand-written documents and on
random ones, for the bundled rule files and for rules written to sit at the edge of each shortcut.
``Pipeline(..., shortcuts=False)`` runs every ``match`` and ``filter`` rule's plain test."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rulecoref.engine import Pipeline, Resolution
from rulecoref.markup import parse_markup
from rulecoref.rules.compiler import compile_rules
from tests.helpers import ROOT, shared_resources

HAND_WRITTEN = [
    # head-and-synonym: a head the blocking implies, words covered or not, a synonym
    "an [abscess|problem] was drained ; a [tumor|problem] ; [abscesses|problem] recurred ; the [neoplasm|problem] .",
    "[chest pain|problem] and [back pain|problem] .\n[the chest pain|problem] resolved ; [pain|problem] .",
    # acronyms written after and before their expansion
    "[Methicillin-resistant Staphylococcus aureus|problem] grew ; [MRSA|problem] was treated .",
    "[CHF|problem] worsened .\n[congestive heart failure|problem] was treated with [furosemide|treatment] .",
    # the clinical vetoes: family history, degree, side, negation, dates, hypothetical
    "FAMILY HISTORY :\n[minimal tumor|problem] ; [significant tumor|problem] .\nHPI :\n[tumor|problem] .",
    "[left knee pain|problem] ; [right knee pain|problem] ; [knee pain|problem] in the left leg .",
    "He denies [chest pain|problem] .\n[chest pain|problem] on 3/12 ; [chest pain|problem] on 3/19 .",
    "the risks including [bleeding|problem] were discussed .\n[bleeding|problem] after surgery .",
    "[febrile|problem] ; [fever|problem] ; [a fever|problem] .",
    "[x-ray|test] on 3/12 showed [effusion|problem] ; [x-ray|test] on 03/12/2010 ; [x-ray|test] on 4/1 .",
    # people and pronouns
    "[Mr. Smith|person] was seen by [Dr. Jones|person] .\n[He|pronoun] said [Smith|person] left ; [she|pronoun] .",
    "[the patient|person] and [his wife|person] ; [she|pronoun] called [the patient|person] .",
    # types the clinical vetoes are not limited to, words repeated at different distances
    "[the cells|entity] grew ; [cells|entity] died .\nx .\nx .\nx .\nx .\n[the cells|entity] ; [cells|entity] .",
    "[membrane|entity] ; [the plasma membrane|entity] ; [membrane|entity] ; [a membrane|entity] .",
]

PHRASES = ["abscess", "abscesses", "tumor", "the tumor", "neoplasm", "chest pain", "pain", "back pain",
           "left knee pain", "knee pain", "MRSA", "Methicillin-resistant Staphylococcus aureus", "CHF",
           "congestive heart failure", "fever", "febrile", "x-ray", "cells", "the cells", "membrane",
           "the plasma membrane", "Mr. Smith", "Smith", "Dr. Jones", "he", "she", "it", "the patient", "his wife"]
TYPES = ["problem", "problem", "test", "treatment", "person", "pronoun", "entity"]
FILLERS = ["no", "denies", "on 3/12", "on 3/19", "in the left leg", "minimal", "significant", "was seen", ";", "and"]
HEADERS = ["FAMILY HISTORY :", "PHYSICAL EXAM :", "HPI :"]


def random_document(rng: random.Random) -> str:
    """A few sentences of concepts from a small vocabulary (so words and heads repeat), with the
    cues the vetoes and filters look at (negation, dates, sides, degrees, sections) between them."""
    lines = []
    for _ in range(rng.randint(2, 7)):
        words = [rng.choice(HEADERS)] if rng.random() < 0.2 else []
        for _ in range(rng.randint(1, 4)):
            if rng.random() < 0.5:
                words.append(rng.choice(FILLERS))
            words.append(f"[{rng.choice(PHRASES)}|{rng.choice(TYPES)}]")
        lines.append(" ".join(words) + " .")
    return "\n".join(lines)


def outcome(res: Resolution) -> dict[str, Any]:
    """What a run made: its links in order with their evidence, its removals, its chains."""
    return {
        "links": [(l.a, l.b, l.provenance.pass_name, l.provenance.evidence) for l in res.proposed],
        "removed": {pair: (r.by.pass_name, r.by.evidence) for pair, r in res.removed.items()},
        "chains": res.chains(),
    }


def both_ways(path: Path) -> tuple[Pipeline, Pipeline]:
    ruleset = compile_rules(path)
    return (Pipeline(ruleset, shared_resources()), Pipeline(ruleset, shared_resources(), shortcuts=False))


def assert_same(planned: Pipeline, plain: Pipeline, markups: list[str]) -> None:
    for markup in markups:
        got, want = (outcome(p.resolve(parse_markup(markup)[0])) for p in (planned, plain))
        assert got == want, markup


@pytest.mark.parametrize("name", ["i2b2", "general", "odie"])
def test_plan_links_what_the_plain_tests_link_with_the_bundled_rules(name: str):
    planned, plain = both_ways(ROOT / "rules" / f"{name}.yaml")
    rng = random.Random(34)
    assert_same(planned, plain, HAND_WRITTEN + [random_document(rng) for _ in range(60)])


#: rules at the edge of each shortcut (plan.py's docstring): an implied requirement with a types
#: limit or with several keys, positional requirements whose answer the words do not decide, typed
#: vetoes and vetoes that need a value, a filter of tests that need a value
EDGES = """
version: 1
types: [person, problem, treatment, test, pronoun, entity]
passes:
  - kind: match
    name: heads-typed
    key: head_family
    antecedent_key: head
    require: [{head_matches: {types: [problem, test]}}]
    veto: [{negation_differs: {types: [problem]}}, dates_conflict]
  - kind: match
    name: heads-or-text
    key: [head_family, text_norm]
    antecedent_key: [head, text_norm]
    require: [head_matches]
    antecedent: all
  - kind: match
    name: near-and-words
    applies_to: {same_type: false}
    key: head
    require: [words_covered, {sentences_apart: {more_than: 1}}]
    antecedent: all
  - kind: match
    name: positional
    key: text_norm
    require: [begins_with, later_adds_modifier]
    veto: [repeats_another, {mentions_apart: {more_than: 3}}]
    direction: backward_then_forward
  - kind: match
    name: levels
    key: head_word
    require: [{mention_levels: {later: [NOM]}}, {frequent_head: {at_least: 2}}]
  - kind: match
    name: vetoed
    key: head
    veto: [degree_clash, site_clash, family_differs, {generic_mention: {types: [test]}}, adjective_only]
    antecedent: all
  - kind: filter
    name: clues
    remove_if: [dates_conflict, clues_conflict, {hypothetical_mention: {types: [problem]}}]
"""


def test_plan_links_what_the_plain_tests_link_at_the_edge_of_each_shortcut(tmp_path: Path):
    path = tmp_path / "edges.yaml"
    path.write_text(EDGES.lstrip("\n"), encoding="utf-8")
    planned, plain = both_ways(path)
    rng = random.Random(2026)
    assert_same(planned, plain, HAND_WRITTEN + [random_document(rng) for _ in range(80)])
