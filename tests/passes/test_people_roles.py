"""people_roles: staff, subject and gender detection (seed 001, "Identifying people mentions")."""

from __future__ import annotations

import pytest

from rulecoref.errors import RuleFileError
from rulecoref.roles import FEMININE, MASCULINE
from tests.passes.people_support import people_pipeline, roles_of


@pytest.fixture()
def pipe(tmp_path):
    return people_pipeline(tmp_path)


def _text(doc, i):
    return None if i is None else doc.concepts[i].text


@pytest.mark.parametrize("mention,why", [
    ("[Dr Quill|person]", "salutation"),
    ("[Dr. Quill|person]", "salutation"),
    ("[Edward Quill , MD|person]", "title"),
    ("[Rosa Finch RN|person]", "title"),
    ("[the attending|person]", "lexicon"),
    ("[your Optometrist|person]", "lexicon"),
    ("[the social worker|person]", "lexicon"),
    ("[the doctor|person]", "lexicon"),
    ("[an audiologist|person]", "suffix"),
])
def test_people_roles_staff(pipe, mention, why):
    doc, f = roles_of(pipe, f"{mention} saw [the patient|person] .")
    assert f.staff[0].startswith(why)
    assert 1 not in f.staff


@pytest.mark.parametrize("mention", ["[Pa|person]", "[her husband|person]", "[Mr. Do|person]", "[the patient|person]"])
def test_people_roles_not_staff(pipe, mention):
    _, f = roles_of(pipe, f"{mention} came in .")
    assert 0 not in f.staff


def test_people_roles_subject_is_first_plain_person(pipe):
    doc, f = roles_of(pipe, "[Dr Quill|person] saw [the patient|person] , [her husband|person] and [Ms. Alvarez|person] .")
    assert _text(doc, f.subject) == "ms. alvarez"


def test_people_roles_subject_falls_back_to_patient(pipe):
    doc, f = roles_of(pipe, "[Dr Quill|person] saw [her husband|person] and [the patient|person] .")
    assert _text(doc, f.subject) == "the patient"


def test_people_roles_no_subject_without_candidates(pipe):
    doc, f = roles_of(pipe, "[Dr Quill|person] saw [her husband|person] .")
    assert f.subject is None


def test_people_roles_pronoun_is_never_subject(pipe):
    doc, f = roles_of(pipe, "[She|pronoun] told [Ms. Alvarez|person] .")
    assert _text(doc, f.subject) == "ms. alvarez"


def test_people_roles_family_and_patient_mentions(pipe):
    doc, f = roles_of(pipe, "[The patient's mother|person] and [the patient|person] and [the patient's cardiologist|person] .")
    assert set(f.family) == {0}
    assert set(f.patients) == {1}
    assert 2 in f.staff


def test_people_roles_gender_majority(pipe):
    _, f = roles_of(pipe, "[Ms. Alvarez|person] said he and she and she left .")
    assert f.gender == FEMININE


def test_people_roles_gender_tie_uses_subject_words(pipe):
    _, f = roles_of(pipe, "[a 60 year old man|person] came in .")
    assert f.gender == MASCULINE


def test_people_roles_surname_of_a_doctor_is_staff(pipe):
    doc, f = roles_of(pipe, "You will see [Edward L, Quill|person] at [Dr Quill's|person] clinic with [Ms. Alvarez|person] .")
    assert 0 in f.staff and f.staff[0].startswith("surname")
    assert _text(doc, f.subject) == "ms. alvarez"


def test_people_roles_lay_title_is_not_the_doctor(pipe):
    doc, f = roles_of(pipe, "[Mr. Quill|person] saw [Dr Quill|person] .")
    assert 0 not in f.staff
    assert f.subject == 0


def test_people_roles_proposes_no_links(pipe):
    from tests.passes.people_support import run

    res = run(pipe, "[Ms. Alvarez|person] and [the patient|person] ; [she|pronoun] .")
    assert res.proposed == []


def test_people_roles_bad_web_settings_fail_at_start(tmp_path):
    with pytest.raises(RuleFileError) as err:
        people_pipeline(tmp_path, roles={"web": {"enabled": True, "url": "ftp://x/{query}", "timeot": 3}})
    assert set(err.value.codes) == {"RC135"}
    assert len(err.value.diagnostics) == 2  # the typo and the bad url, reported together


def test_people_roles_staff_by_surname_setting(tmp_path):
    text = "You will see [Edward L, Quill|person] at [Dr Quill's|person] clinic ."
    _, f = roles_of(people_pipeline(tmp_path, roles={"staff_by_surname": False}), text)
    assert 0 not in f.staff and f.subject == 0


def test_people_roles_gender_count_setting(tmp_path):
    text = "[Mr. Finch|person] said she and she left ."
    _, f = roles_of(people_pipeline(tmp_path), text)
    assert f.gender == FEMININE  # every token counts (seed)
    _, f = roles_of(people_pipeline(tmp_path, roles={"gender_count": "concepts"}), text)
    assert f.gender == MASCULINE and "subject's own words" in f.gender_why  # no pronoun mentions: a tie
