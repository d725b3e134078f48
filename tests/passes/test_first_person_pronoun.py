"""first_person_pronoun: "I"/"me"/"my" are one person; "we" is another."""

from __future__ import annotations

from tests.passes.people_support import people_pipeline, run, together

TEXT = "[I|pronoun] examined the patient . [My|pronoun] plan : [we|pronoun] will call [me|pronoun] and [us|pronoun] ."


def test_first_person_pronoun_singular_together(tmp_path):
    res = run(people_pipeline(tmp_path, {"kind": "first_person_pronoun"}), TEXT)
    assert together(res, "i", "my") and together(res, "i", "me")
    assert together(res, "we", "us")
    assert not together(res, "i", "we")


def test_first_person_pronoun_join_plural_as_the_seed(tmp_path):
    res = run(people_pipeline(tmp_path, {"kind": "first_person_pronoun", "params": {"join_plural": True}}), TEXT)
    assert together(res, "i", "we")


def test_first_person_pronoun_never_links_a_name(tmp_path):
    res = run(people_pipeline(tmp_path, {"kind": "first_person_pronoun"}), "[Dr Quill|person] : [I|pronoun] agree .")
    assert not together(res, "dr quill", "i")


def test_first_person_pronoun_join_plural_in_notes_about_a_patient(tmp_path):
    cfg = {"kind": "first_person_pronoun", "params": {"join_plural_in_notes": True}}
    note = "[I|pronoun] examined [the patient|person] . [We|pronoun] will call [our|pronoun] nurse ."
    res = run(people_pipeline(tmp_path, cfg), note)
    assert together(res, "i", "we") and together(res, "we", "our")


def test_first_person_pronoun_join_plural_in_notes_not_in_a_story(tmp_path):
    cfg = {"kind": "first_person_pronoun", "params": {"join_plural_in_notes": True}}
    res = run(people_pipeline(tmp_path, cfg), "[I|pronoun] met [Ada|person] and [we|pronoun] went home .")
    assert not together(res, "i", "we")
