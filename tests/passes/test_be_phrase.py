"""be_phrase: neighbouring same-type concepts joined by 'is', 'consistent with', ... (seed 001)."""

from __future__ import annotations

import pytest

from tests.passes.main_support import MAIN, evidence, nested, pipeline, run, together

FILLERS = "resources/lexicons/be_fillers.txt"


@pytest.fixture()
def pipe(tmp_path):
    return pipeline(tmp_path, {"kind": "be_phrase", "applies_to": MAIN, "params": {"fillers": FILLERS}})


def test_be_phrase_seed_example(pipe):
    res = run(pipe, "Resolution of [organism|problem] is [methicillin-resistant Staphylococcus aureus|problem] .")
    assert together(res, "organism", "methicillin-resistant staphylococcus aureus")
    assert evidence(res) == ["be-phrase 'is' in 'is'"]


@pytest.mark.parametrize("between", ["was", "is most likely", ", consistent with", "c/w", "was thought to be",
                                     ", which is also"])
def test_be_phrase_equatives(pipe, between):
    res = run(pipe, f"[the opacity|problem] {between} [a pneumonia|problem] .")
    assert together(res, "the opacity", "a pneumonia")


@pytest.mark.parametrize("between", ["is not", "was followed by", "is due to", "was observed in", "and", "; later"])
def test_be_phrase_not_an_equation(pipe, between):
    res = run(pipe, f"[the rash|problem] {between} [a drug reaction|problem] .")
    assert not together(res, "the rash", "a drug reaction")


def test_be_phrase_needs_same_type(pipe):
    res = run(pipe, "[a CT|test] is [an MRI|treatment] .")
    assert not together(res, "a ct", "an mri")


def test_be_phrase_only_neighbours(pipe):
    res = run(pipe, "[the mass|problem] is [a cyst|problem] near [an abscess|problem] .")
    assert together(res, "the mass", "a cyst")
    assert not together(res, "the mass", "an abscess")


def test_be_phrase_not_across_lines_and_not_too_far(pipe):
    assert not together(run(pipe, "[fever|problem] was\n[pneumonia|problem] ."), "fever", "pneumonia")
    res = run(pipe, "[fever|problem] was , in the end , most likely [pneumonia|problem] .")
    assert not together(res, "fever", "pneumonia")  # 7 tokens between, the default allows 4


def test_be_phrase_outer_phrase_is_the_subject(tmp_path):
    pipe = pipeline(tmp_path, {"kind": "be_phrase"}, types=["noun_phrase"])
    res = nested(pipe, "the culture of the wound is MRSA .",
                 [(0, 4, "noun_phrase"), (3, 4, "noun_phrase"), (6, 6, "noun_phrase")])
    assert together(res, "the culture of the wound", "mrsa")
    assert not together(res, "the wound", "mrsa")


def test_be_phrase_without_fillers_is_the_seed_reading(tmp_path):
    seed = pipeline(tmp_path, {"kind": "be_phrase", "applies_to": MAIN, "params": {"blockers": []}})
    res = run(seed, "[E2F3|problem] was seen in [the retina|problem] .")
    assert together(res, "e2f3", "the retina")  # "contains a be-phrase" is enough for the seed


def test_be_phrase_coordinated_predicate(tmp_path):
    """With ``coordinators``, "X is [Y] and [Z]" names two things: X is neither of them alone."""
    text = "Her [only medication|treatment] is [Ortho Tri-Cyclen|treatment] and [Allegra|treatment] ."
    plain = pipeline(tmp_path, {"kind": "be_phrase", "applies_to": MAIN})
    assert together(run(plain, text), "only medication", "ortho tri-cyclen")
    pipe = pipeline(tmp_path, {"kind": "be_phrase", "applies_to": MAIN, "params": {"coordinators": ["and", "or"]}})
    assert not together(run(pipe, text), "only medication", "ortho tri-cyclen")
    # a clause after 'and' is no second predicate
    res = run(pipe, "[the opacity|problem] is [a pneumonia|problem] and it is getting better .")
    assert together(res, "the opacity", "a pneumonia")
