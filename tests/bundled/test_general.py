"""rules/general.yaml, the bundled rule set for general English: it loads by name, as a spaCy config or
a Spark job names it, and resolves a small invented news story the way a reader would."""

from __future__ import annotations

import pytest

from rulecoref.engine import Pipeline
from rulecoref.resources import named_file
from tests.helpers import ROOT, resolve, shared_resources

STORY = (
    "[The city council|organization] approved [a new budget for the harbour|abstract] on Monday .\n"
    "[Mrs. Anna Berg|person] said [the budget|abstract] would pay for [two ferries|object] .\n"
    "[She|pronoun] thanked [the council|organization] .\n"
    "[Tom Hale|person] runs [the ferry company|organization] .\n"
    "[He|pronoun] said [the company|organization] would buy [a ferry|object] this year .\n"
    "[Berg|person] agreed ."
)


@pytest.fixture(scope="module")
def general() -> Pipeline:
    return Pipeline.from_file(named_file("general", "rules", ".yaml"), shared_resources())


def _chains(pipe: Pipeline, markup: str) -> list[list[str]]:
    res = resolve(pipe, markup)
    return [[res.doc.concepts[m].text for m in members] for members, _ in res.chains()]


def test_general_rules_load_by_name() -> None:
    assert named_file("general", "rules", ".yaml") == ROOT / "rules" / "general.yaml"


def test_general_rules_link_what_a_reader_links(general: Pipeline) -> None:
    chains = _chains(general, STORY)
    assert ["the city council", "the council"] in chains
    assert ["a new budget for the harbour", "the budget"] in chains
    assert ["the ferry company", "the company"] in chains
    assert ["mrs. anna berg", "she", "berg"] in chains
    assert ["tom hale", "he"] in chains


def test_general_rules_keep_one_ferry_apart_from_two(general: Pipeline) -> None:
    # head-and-synonym links "two ferries" and "a ferry" (rules/i2b2.yaml keeps that link); the
    # learned number-clash filter removes it
    chains = _chains(general, STORY)
    assert not any("two ferries" in c and "a ferry" in c for c in chains)
    i2b2 = Pipeline.from_file(named_file("i2b2", "rules", ".yaml"), shared_resources())
    assert ["two ferries", "a ferry"] in _chains(i2b2, STORY)


def test_general_rules_never_join_the_two_people(general: Pipeline) -> None:
    chains = _chains(general, STORY)
    assert not any("berg" in c and "tom hale" in c for c in chains)
    assert not any("she" in c and "he" in c for c in chains)


def test_general_rules_keep_a_new_thing_apart_in_fiction(general: Pipeline) -> None:
    # LitBank's ACE types: "a bridge" after "the bridge" is another bridge
    story = "They crossed [the old bridge|fac] at dawn .\nBeyond the hill stood [a bridge|fac] ."
    assert _chains(general, story) == []
