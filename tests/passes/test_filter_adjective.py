"""filter_adjective: a mention that is only an adjective links to nothing (seed 001)."""

from __future__ import annotations

import pytest

from tests.passes.main_support import MAIN, pipeline, removals, run, together


@pytest.fixture()
def pipe(tmp_path):
    return pipeline(tmp_path, {"kind": "exact_match", "applies_to": MAIN, "params": {"ignore_words": ["a", "the"]}},
                    {"kind": "filter_adjective", "applies_to": MAIN})


def test_filter_adjective_removes_adjective_mentions(pipe):
    res = run(pipe, "she was [febrile|problem] on admission and remained [febrile|problem] .")
    assert not together(res, "febrile", "febrile")
    assert removals(res) == ["'febrile' is an adjective with no noun (WordNet)"]


def test_filter_adjective_keeps_nouns(pipe):
    res = run(pipe, "she has [a cold|problem] ; the [cold|problem] resolved .")
    assert together(res, "a cold", "cold")
    res = run(pipe, "[painful swelling|problem] ; [painful swelling|problem] .")
    assert together(res, "painful swelling", "painful swelling")


def test_filter_adjective_unknown_words_are_kept(pipe):
    res = run(pipe, "[MRSA|problem] ; [MRSA|problem] .")
    assert together(res, "mrsa", "mrsa")


def test_filter_adjective_removes_every_link_of_the_mention(tmp_path):
    pipe = pipeline(tmp_path, {"kind": "exact_match", "applies_to": MAIN},
                    {"kind": "be_phrase", "applies_to": MAIN},
                    {"kind": "filter_adjective", "applies_to": MAIN})
    res = run(pipe, "[the patient 's state|problem] is [febrile|problem] ; [febrile|problem] again .")
    assert not together(res, "the patient 's state", "febrile")
    assert len(res.removed) == 2
