"""relative_pronoun: 'which'/'that' right after a concept refers to it (seed 001)."""

from __future__ import annotations

import pytest

from tests.passes.main_support import evidence, nested, pipeline, run, together


@pytest.fixture()
def pipe(tmp_path):
    return pipeline(tmp_path, {"kind": "relative_pronoun"})


def test_relative_pronoun_seed_example(pipe):
    res = run(pipe, "deep wound culture showed [MRSA|problem] [which|pronoun] is sensitive to vancomycin .")
    assert together(res, "mrsa", "which")
    assert evidence(res) == ["'which' right after 'mrsa'"]


def test_relative_pronoun_comma_is_not_a_word(pipe):
    res = run(pipe, "started [vancomycin|treatment] , [which|pronoun] was continued .")
    assert together(res, "vancomycin", "which")


def test_relative_pronoun_one_word_between(pipe):
    res = run(pipe, "a [CT scan|test] today [that|pronoun] showed nothing .")
    assert together(res, "ct scan", "that")


def test_relative_pronoun_two_words_between_is_too_far(pipe):
    res = run(pipe, "[MRSA|problem] grew again yesterday [which|pronoun] is bad .")
    assert not together(res, "mrsa", "which")


def test_relative_pronoun_max_words_param(tmp_path):
    pipe = pipeline(tmp_path, {"kind": "relative_pronoun", "params": {"max_words_between": 2}})
    res = run(pipe, "[MRSA|problem] grew again [which|pronoun] is bad .")
    assert together(res, "mrsa", "which")


def test_relative_pronoun_other_pronouns_are_not_linked(pipe):
    res = run(pipe, "[the rash|problem] [it|pronoun] spread .")
    assert not together(res, "the rash", "it")


def test_relative_pronoun_not_across_lines(pipe):
    res = run(pipe, "culture grew [MRSA|problem]\n[That|pronoun] is why we called .")
    assert not together(res, "mrsa", "that")


def test_relative_pronoun_prefers_whole_phrase_and_skips_pronouns(tmp_path):
    pipe = pipeline(tmp_path, {"kind": "relative_pronoun"}, types=["noun_phrase", "pronoun"])
    res = nested(pipe, "we saw the culture of the wound which grew .",
                 [(2, 6, "noun_phrase"), (5, 6, "noun_phrase"), (7, 7, "pronoun")])
    assert together(res, "the culture of the wound", "which")
    assert not together(res, "the wound", "which")
    res = run(pipe, "[the wound|noun_phrase] and [it|pronoun] [which|pronoun] grew .")
    assert not together(res, "it", "which")


def test_relative_pronoun_type_free_schemes(tmp_path):
    # ODIE types pronouns by their referent: "which" is an 'other' concept there.
    types = ["disease_or_syndrome", "other"]
    strict = pipeline(tmp_path, {"kind": "relative_pronoun"}, types=types)
    text = "[pneumonia|disease_or_syndrome] [which|other] resolved ."
    assert not together(run(strict, text), "pneumonia", "which")
    loose = pipeline(tmp_path, {"kind": "relative_pronoun", "applies_to": {"same_type": False},
                                "params": {"require_pronoun_type": False}}, types=types)
    assert together(run(loose, text), "pneumonia", "which")


def test_relative_pronoun_through_a_preposition(tmp_path):
    """With ``through: [for]`` the clause after "[treatment] for [problem] ," tells about the treatment."""
    text = "He is on [steroids|treatment] for [renal transplant|problem] , [which|pronoun] may reduce healing ."
    assert together(run(pipeline(tmp_path, {"kind": "relative_pronoun"}), text), "renal transplant", "which")
    pipe = pipeline(tmp_path, {"kind": "relative_pronoun", "params": {"through": ["for"]}})
    res = run(pipe, text)
    assert together(res, "steroids", "which") and not together(res, "renal transplant", "which")
    res = run(pipe, "He was admitted on 02/04 for [renal insufficiency|problem] , [which|pronoun] resolved .")
    assert together(res, "renal insufficiency", "which")  # no concept before 'for'
