"""acronym: a word made of a multi-word concept's initials (seed 001)."""

from __future__ import annotations

import pytest

from tests.passes.main_support import MAIN, evidence, pipeline, run, together


@pytest.fixture()
def pipe(tmp_path):
    return pipeline(tmp_path, {"kind": "acronym", "applies_to": MAIN})


def test_acronym_seed_example(pipe):
    res = run(pipe, "[Methicillin-resistant Staphylococcus aureus|problem] was cultured ; [MRSA|problem] persists .")
    assert together(res, "methicillin-resistant staphylococcus aureus", "mrsa")
    assert evidence(res) == ["'MRSA' = initials 'mrsa' of 'methicillin-resistant staphylococcus aureus'"]


def test_acronym_some_initials_in_order(pipe):
    res = run(pipe, "[chronic obstructive pulmonary disease|problem] ; [COPD|problem] .")
    assert together(res, "chronic obstructive pulmonary disease", "copd")
    res = run(pipe, "[left ventricular hypertrophy|problem] ; [LVH|problem] ; [LH|problem] .")
    assert together(res, "left ventricular hypertrophy", "lh")  # 2 of 3 initials, in order
    assert "some initials in order" in evidence(res)[-1]


def test_acronym_too_few_initials_or_wrong_order(pipe):
    res = run(pipe, "[Methicillin-resistant Staphylococcus aureus|problem] ; [MS|problem] was ruled out .")
    assert not together(res, "methicillin-resistant staphylococcus aureus", "ms")
    res = run(pipe, "[congestive heart failure|problem] and [CAD|problem] .")
    assert not together(res, "congestive heart failure", "cad")
    res = run(pipe, "[congestive heart failure|problem] and [HCF|problem] .")
    assert not together(res, "congestive heart failure", "hcf")


def test_acronym_common_words_and_brackets(pipe):
    res = run(pipe, "[the Department of Health|problem] ; [DH|problem] .")
    assert together(res, "the department of health", "dh")
    res = run(pipe, "[otitis media ( OM )|problem] ; [OM|problem] .")
    assert together(res, "otitis media ( om )", "om")


def test_acronym_must_look_like_one(pipe):
    res = run(pipe, "[magnetic resonance imaging|test] ; [mri|test] .")
    assert not together(res, "magnetic resonance imaging", "mri")  # written in lowercase
    res = run(pipe, "[crystallin proteins|problem] ; [CP49|problem] .")
    assert not together(res, "crystallin proteins", "cp49")  # a name with a number


def test_acronym_lowercase_text(tmp_path):
    pipe = pipeline(tmp_path, {"kind": "acronym", "applies_to": MAIN, "params": {"min_upper": 0}})
    res = run(pipe, "[magnetic resonance imaging|test] ; [mri|test] .")
    assert together(res, "magnetic resonance imaging", "mri")


def test_acronym_plural(pipe):
    res = run(pipe, "[fibroblast growth factors|problem] ; [FGFs|problem] .")
    assert together(res, "fibroblast growth factors", "fgfs")


def test_acronym_word_or_concept(tmp_path):
    text = "[Methicillin-resistant Staphylococcus aureus|problem] ; [MRSA bacteremia|problem] ."
    word = pipeline(tmp_path, {"kind": "acronym", "applies_to": MAIN})
    assert together(run(word, text), "methicillin-resistant staphylococcus aureus", "mrsa bacteremia")
    concept = pipeline(tmp_path, {"kind": "acronym", "applies_to": MAIN, "params": {"match": "concept"}})
    assert not together(run(concept, text), "methicillin-resistant staphylococcus aureus", "mrsa bacteremia")


def test_acronym_same_type_and_not_inside_itself(pipe):
    res = run(pipe, "[coronary artery disease|problem] ; [CAD|test] .")
    assert not together(res, "coronary artery disease", "cad")


def test_acronym_nearest_long_form(pipe):
    res = run(pipe, "[chronic kidney disease|problem] , [chronic kidney disease|problem] ; [CKD|problem] .")
    assert [l.pair for l in res.proposed] == [(1, 2)]
