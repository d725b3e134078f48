"""introduction_match: "your Optometrist, Dr Smith" introduces one person."""

from __future__ import annotations

import pytest

from tests.passes.people_support import people_pipeline, run, together


@pytest.fixture()
def pipe(tmp_path):
    return people_pipeline(tmp_path, {"kind": "introduction_match"})


def test_introduction_match_role_then_salutation(pipe):
    res = run(pipe, "Please follow-up with [your Optometrist|person] , [Dr Quill|person] 2019-01-16 at 8:30 .")
    assert together(res, "your optometrist", "dr quill")


def test_introduction_match_title_then_role(pipe):
    res = run(pipe, "[Rosa Finch , RN|person] ( [the charge nurse|person] ) called .")
    assert together(res, "rosa finch , rn", "the charge nurse")


def test_introduction_match_too_far_apart(pipe):
    res = run(pipe, "[your Optometrist|person] will see you and later [Dr Quill|person] .")
    assert not together(res, "your optometrist", "dr quill")


def test_introduction_match_conjunction_means_two_people(pipe):
    res = run(pipe, "[Dr Quill|person] and [the nurse|person] saw her .")
    assert not together(res, "dr quill", "the nurse")


def test_introduction_match_two_doctors_are_not_an_introduction(pipe):
    res = run(pipe, "[Dr Quill|person] , [Dr Hale|person] .")
    assert not together(res, "dr quill", "dr hale")


def test_introduction_match_doctor_next_to_patient(pipe):
    res = run(pipe, "[Dr Quill|person] , [the patient|person] .")
    assert not together(res, "dr quill", "the patient")


def test_introduction_match_nested_mentions_are_skipped(pipe):
    res = run(pipe, "[Dr Quill's nurse|person] and the [Dr Quill|person] .")
    assert not together(res, "dr quill's nurse", "dr quill")
