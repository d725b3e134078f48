"""``patient_description``: descriptions of the patient in a note about a patient."""

from __future__ import annotations

import pytest

from tests.helpers import linked, pipeline_from_entries, resolve

NOTE = "[Mr. Finch|person] was admitted .\n[The patient|person] agreed .\n"


@pytest.fixture
def pipeline(tmp_path):
    return pipeline_from_entries(tmp_path, [{"kind": "people_roles", "name": "roles"},
                                            {"kind": "patient_description", "name": "descriptions"}])


@pytest.mark.parametrize("line, description", [
    ("This is [a 66-year-old gentleman|person] .", "a 66-year-old gentleman"),
    ("[The patient|person] is [a smoker|person] .", "a smoker"),
    ("[He|pronoun] is [a smoker|person] .", "a smoker"),
    ("GU :\n[Uncircumcised male|person] .", "uncircumcised male"),
    ("He was born as [a 34-week preemie twin|person] .", "a 34-week preemie twin"),
])
def test_descriptions_join_the_patient(pipeline, line, description):
    res = resolve(pipeline, NOTE + line)
    assert linked(res, "mr. finch", description)


@pytest.mark.parametrize("line, other", [
    ("He lives with [his boy|person] .", "his boy"),
    ("He saw [Dr. Hale|person] .", "dr. hale"),
    ("He lives with [a woman|person] .", "a woman"),  # the other gender
    ("This is [the nurse|person] .", "the nurse"),  # staff
])
def test_others_stay_apart(pipeline, line, other):
    res = resolve(pipeline, NOTE + "He was well .\n" + line)
    assert not linked(res, "mr. finch", other)


def test_titled_name_joins_an_unnamed_patient(pipeline):
    res = resolve(pipeline, "This is [a 70-year-old man|person] .\n[The patient|person] agreed .\n"
                            "He was seen .\nWe spoke with [Mr. Quill|person] .")
    assert linked(res, "a 70-year-old man", "mr. quill")


def test_nothing_outside_a_note_about_a_patient(pipeline):
    res = resolve(pipeline, "[Ms. Quill|person] was sad .\n[She|pronoun] was [a young woman|person] then .")
    assert not linked(res, "ms. quill", "a young woman")


def _note_types_pipeline(tmp_path, note_types):
    return pipeline_from_entries(tmp_path, [{"kind": "people_roles", "name": "roles",
                                             "params": {"note_types": note_types}},
                                            {"kind": "patient_description", "name": "descriptions"}])


CLINICAL_NOTE = "I have seen [ABC|person] today .\n[He|pronoun] is [a pleasant gentleman|person] with [gout|problem] .\n"


def test_a_note_with_clinical_concepts_is_a_note_about_a_patient(tmp_path):
    res = resolve(_note_types_pipeline(tmp_path, ["problem", "treatment", "test"]), CLINICAL_NOTE)
    assert linked(res, "abc", "a pleasant gentleman")


def test_without_note_types_a_note_needs_a_patient_mention(tmp_path):
    res = resolve(_note_types_pipeline(tmp_path, []), CLINICAL_NOTE)
    assert not linked(res, "abc", "a pleasant gentleman")
