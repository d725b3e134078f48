"""patient_mention: "patient"/"pt" mentions go to the subject, family and staff do not."""

from __future__ import annotations

import pytest

from tests.passes.people_support import people_pipeline, run, together


@pytest.fixture()
def pipe(tmp_path):
    return people_pipeline(tmp_path, {"kind": "patient_mention"})


def test_patient_mention_links_patient_words_to_subject(pipe):
    res = run(pipe, "[Ms. Alvarez|person] was admitted . [The patient|person] improved and [pt|person] went home .")
    assert together(res, "ms. alvarez", "the patient")
    assert together(res, "ms. alvarez", "pt")


def test_patient_mention_family_member_is_not_the_patient(pipe):
    res = run(pipe, "[Ms. Alvarez|person] was admitted . [The patient's husband|person] was told .")
    assert not together(res, "ms. alvarez", "the patient's husband")


def test_patient_mention_doctor_is_not_the_patient(pipe):
    res = run(pipe, "[Ms. Alvarez|person] was admitted . [the patient's cardiologist|person] agreed .")
    assert not together(res, "ms. alvarez", "the patient's cardiologist")


def test_patient_mention_without_a_name_uses_first_patient_mention(pipe):
    res = run(pipe, "[The patient|person] reports pain . [Dr Quill|person] examined [the pt|person] .")
    assert together(res, "the patient", "the pt")
    assert not together(res, "the patient", "dr quill")
