"""third_person_pronoun: seed 001's sentence rules for "he"/"she" (a line is a sentence)."""

from __future__ import annotations

import pytest

from tests.passes.people_support import people_pipeline, run, together


@pytest.fixture()
def pipe(tmp_path):
    return people_pipeline(tmp_path, {"kind": "third_person_pronoun"})


def test_third_person_pronoun_no_name_same_gender_goes_to_subject(pipe):
    res = run(pipe, "[Mr. Finch|person] is a 60 year old man .\nOn arrival [he|pronoun] was short of breath .")
    assert together(res, "mr. finch", "he")


def test_third_person_pronoun_she_after_male_subject(pipe):
    res = run(pipe, "[Mr. Finch|person] is a 60 year old man .\n[He|pronoun] lives alone .\n"
                    "[His daughter|person] visits .\n[She|pronoun] brings food .")
    assert not together(res, "mr. finch", "she")
    assert together(res, "his daughter", "she")  # the closest preceding mention of no other gender


def test_third_person_pronoun_one_name_before(pipe):
    res = run(pipe, "[Mrs. Alvarez|person] is 71 .\n[Her husband|person] said [he|pronoun] would call .")
    assert together(res, "her husband", "he")
    assert not together(res, "mrs. alvarez", "he")


def test_third_person_pronoun_one_name_after_uses_no_name_rule(pipe):
    res = run(pipe, "[Mrs. Alvarez|person] is 71 .\n[She|pronoun] was seen by [Dr Quill|person] .")
    assert together(res, "mrs. alvarez", "she")
    assert not together(res, "dr quill", "she")


def test_third_person_pronoun_several_names_subject_gender(pipe):
    res = run(pipe, "[Mrs. Alvarez|person] is 71 .\n[Dr Quill|person] and [her son|person] said [she|pronoun] is better .")
    assert together(res, "mrs. alvarez", "she")


def test_third_person_pronoun_several_names_other_gender_goes_to_first_doctor(pipe):
    res = run(pipe, "[Mrs. Alvarez|person] is 71 . she and she .\n"
                    "[her son|person] and [Dr Quill|person] said [he|pronoun] will call .")
    assert together(res, "dr quill", "he")
    assert not together(res, "her son", "he")


def test_third_person_pronoun_not_inside_its_own_mention(pipe):
    # "[his wife]" holds "[his]" (nested mentions cannot be written in markup, so build it by hand)
    from rulecoref.document import Concept, Document

    lines = [["Mr.", "Finch", "came", "."], ["his", "wife", "called", "."]]
    concepts = [
        Concept(0, "mr. finch", "person", (1, 0), (1, 1)),
        Concept(1, "his wife", "person", (2, 0), (2, 1)),
        Concept(2, "his", "pronoun", (2, 0), (2, 0)),
    ]
    res = pipe.resolve(Document("nested", lines, concepts))
    assert not together(res, "his wife", "his")
    assert together(res, "mr. finch", "his")


def test_third_person_pronoun_gender_agreement_can_be_turned_off(tmp_path):
    pipe = people_pipeline(tmp_path, {"kind": "third_person_pronoun", "params": {"gender_agreement": False}})
    res = run(pipe, "[Mr. Finch|person] is a 60 year old man .\n[He|pronoun] lives alone .\n[She|pronoun] called .")
    assert together(res, "mr. finch", "she")  # the seed's closest preceding mention


def test_third_person_pronoun_neutral_pronouns_are_opt_in(tmp_path):
    text = "[Mr. Finch|person] is a 60 year old man .\n[They|pronoun] left ."
    assert not together(run(people_pipeline(tmp_path, {"kind": "third_person_pronoun"}), text), "mr. finch", "they")
    pipe = people_pipeline(tmp_path, {"kind": "third_person_pronoun", "params": {"neutral_pronouns": ["they"]}})
    assert together(run(pipe, text), "mr. finch", "they")
