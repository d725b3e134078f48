"""partial_name: name words matched by the 80% prefix rule after removing titles and pronouns."""

from __future__ import annotations

import pytest

from tests.passes.people_support import people_pipeline, run, together


@pytest.fixture()
def pipe(tmp_path):
    return people_pipeline(tmp_path, {"kind": "partial_name"})


def test_partial_name_initial_and_possessive(pipe):
    res = run(pipe, "You will see [Edward L, Smith|person] on your visit to [Dr Smith's|person] clinic .")
    assert together(res, "edward l, smith", "dr smith's")


def test_partial_name_full_and_short(pipe):
    res = run(pipe, "[Mr. Bartholomew Finch|person] was admitted ; [Finch|person] is stable .")
    assert together(res, "mr. bartholomew finch", "finch")


def test_partial_name_different_first_names(pipe):
    res = run(pipe, "[John Finch|person] and [Jane Finch|person] came .")
    assert not together(res, "john finch", "jane finch")


def test_partial_name_gender_conflict(pipe):
    res = run(pipe, "[Mr. Finch|person] came with [Mrs. Finch|person] .")
    assert not together(res, "mr. finch", "mrs. finch")


def test_partial_name_possessor_is_not_the_mention(pipe):
    res = run(pipe, "[Dr Smith|person] asked [Dr Smith's nurse|person] .")
    assert not together(res, "dr smith", "dr smith's nurse")


def test_partial_name_needs_names(pipe):
    res = run(pipe, "[a man|person] met [another man|person] .")
    assert not together(res, "a man", "another man")


def test_partial_name_without_names_only(tmp_path):
    pipe = people_pipeline(tmp_path, {"kind": "partial_name", "params": {"names_only": False}})
    res = run(pipe, "[the nurse|person] said [nurse|person] .")
    assert together(res, "the nurse", "nurse")


def test_partial_name_prefix_ratio_param(tmp_path):
    text = "[Edward Quillo|person] at [Dr Quilla|person] ."
    loose = people_pipeline(tmp_path, {"kind": "partial_name"})
    assert together(run(loose, text), "edward quillo", "dr quilla")  # 5 of 6 letters agree
    strict = people_pipeline(tmp_path, {"kind": "partial_name", "params": {"prefix_ratio": 1.0}})
    assert not together(run(strict, text), "edward quillo", "dr quilla")


def test_partial_name_short_word_is_no_prefix(pipe):
    res = run(pipe, "( [Li|person] , 2010 ) and ( [Lindqvist|person] , 2009 ) .")
    assert not together(res, "li", "lindqvist")


def test_partial_name_sentence_initial_common_word_is_no_name(pipe):
    res = run(pipe, "[Students|person] came .\nThe [students of the school|person] left and students stayed .")
    assert not together(res, "students", "students of the school")


def test_partial_name_sentence_initial_name_is_a_name(pipe):
    res = run(pipe, "[Finch|person] came .\nThe nurse saw [Mr. Finch|person] .")
    assert together(res, "finch", "mr. finch")
