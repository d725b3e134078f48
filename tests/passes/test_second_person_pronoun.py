"""second_person_pronoun: "you" in discharge instructions is the patient (the subject)."""

from __future__ import annotations

from tests.passes.people_support import people_pipeline, run, together


def test_second_person_pronoun_to_subject(tmp_path):
    res = run(people_pipeline(tmp_path, {"kind": "second_person_pronoun"}),
              "[Ms. Alvarez|person] was discharged .\n[You|pronoun] should take [your|pronoun] medicine .")
    assert together(res, "ms. alvarez", "you") and together(res, "ms. alvarez", "your")


def test_second_person_pronoun_not_to_the_doctor(tmp_path):
    res = run(people_pipeline(tmp_path, {"kind": "second_person_pronoun"}),
              "[Dr Quill|person] will call [you|pronoun] .")
    assert not together(res, "dr quill", "you")  # no subject: nothing to link to


def test_second_person_pronoun_not_after_thank(tmp_path):
    cfg = {"kind": "second_person_pronoun", "params": {"not_after": ["thank"]}}
    res = run(people_pipeline(tmp_path, cfg),
              "[A 2-week-old|person] was seen .\nThank [you|pronoun] for the referral ; [you|pronoun] may call .")
    assert not together(res, "a 2-week-old", "you") and together(res, "a 2-week-old", "you", nth_b=1)
