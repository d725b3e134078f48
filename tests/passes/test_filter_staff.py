"""filter_staff: no chain joins a doctor and the patient."""

from __future__ import annotations

from tests.passes.people_support import people_pipeline, run, together

TEXT = "[Mrs. Alvarez|person] is 71 .\n[Dr Quill|person] examined [her|pronoun] ."


def _pipe(tmp_path, with_filter: bool):
    passes = [{"kind": "third_person_pronoun"}, {"kind": "patient_mention"}]
    if with_filter:
        passes.append({"kind": "filter_staff"})
    return people_pipeline(tmp_path, *passes)


def test_filter_staff_doctor_vs_patient(tmp_path):
    text = TEXT + "\n[She|pronoun] asked for [the patient|person] ."
    without = run(_pipe(tmp_path, False), text)
    assert together(without, "dr quill", "her")  # seed rule: the one name before the pronoun
    res = run(_pipe(tmp_path, True), text)
    assert together(res, "mrs. alvarez", "the patient")
    assert not together(res, "dr quill", "mrs. alvarez")


def test_filter_staff_keeps_earlier_link(tmp_path):
    # "She" goes to the subject first (third person pass); the later partial-name link of the subject
    # to the doctor of the same name is the one removed.
    partial = {"kind": "match", "key": "name_keys", "require": ["names_match"], "veto": ["gender_clash"]}
    text = "[Ms. Alvarez|person] is 71 .\n[She|pronoun] came .\n[Dr Alvarez|person] , a relative , came ."
    pipe = people_pipeline(tmp_path, {"kind": "third_person_pronoun"}, partial, {"kind": "filter_staff"})
    res = run(pipe, text)
    assert together(res, "ms. alvarez", "she") and not together(res, "ms. alvarez", "dr alvarez")
    assert [r.by.pass_name for r in res.removed.values()] == ["p2-filter-staff"]
    assert list(res.removed) == [(0, 2)]
