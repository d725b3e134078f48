"""this_pronoun: "This is a 67 year old woman" -> the next person, unless staff or too far."""

from __future__ import annotations

import pytest

from tests.passes.people_support import people_pipeline, run, together


@pytest.fixture()
def pipe(tmp_path):
    return people_pipeline(tmp_path, {"kind": "this_pronoun"})


def test_this_pronoun_links_next_person(pipe):
    assert together(run(pipe, "[This|pronoun] is [a 67 year old woman|person] ."), "this", "a 67 year old woman")


def test_this_pronoun_not_to_staff(pipe):
    assert not together(run(pipe, "[This|pronoun] is [Dr Quill|person] ."), "this", "dr quill")


def test_this_pronoun_too_far(pipe):
    res = run(pipe, "[This|pronoun] was discussed at length with [her son|person] .")
    assert not together(res, "this", "her son")


def test_this_pronoun_only_pronoun_type(pipe):
    res = run(pipe, "[this|person] is [a 67 year old woman|person] .")
    assert not together(res, "this", "a 67 year old woman")
