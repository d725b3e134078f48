"""Person and pronoun mentions, their roles, gender and name words (rulecoref/attributes/people.py)."""

from __future__ import annotations

from tests.attributes.helpers import column
from tests.helpers import settings_pipeline

PEOPLE = ("[Dr. Smith's|person] saw [her mother|person] and [the patient|person] .\n"
          "[He|pronoun] called [someone|person] ; [Edward L, Smith|person] , [John Smith , MD|person] , "
          "[the attending|person] , [an audiologist|person] , [I|person] , [a 67 year old woman|person] , "
          "[Mr. Smith|person] , [fever|problem] .")


def test_attributes_person_words():
    got = column("[Dr. Smith's|person] and [He|pronoun] had [fever|problem]", "person_words")
    assert got == [("dr", "smith"), ("he",), ()]


def test_attributes_is_pronoun():
    got = column(PEOPLE, "is_pronoun")
    assert [i for i, p in enumerate(got) if p] == [3, 9]  # "He" (a pronoun type) and "I" (a person made of pronouns)
    # a one-word mention of any type that is a pronoun ("it" typed problem), not a longer one
    assert column("[it|problem] and [it spread|problem]", "is_pronoun") == [True, False]


def test_attributes_pronoun():
    got = column("[He|pronoun] and [he or she|pronoun] and [Ms. Alvarez|person] and [I|person]", "pronoun")
    assert got == ["he", None, None, "i"]


def test_attributes_person():
    got = column(PEOPLE, "person")
    assert [i for i, p in enumerate(got) if not p] == [3, 9, 12]  # pronouns and the problem are no persons


def test_attributes_gender():
    got = column(PEOPLE, "gender")
    assert [(i, g) for i, g in enumerate(got) if g] == [(1, "feminine"), (3, "masculine"), (10, "feminine"),
                                                        (11, "masculine")]
    both = column("[the man and his wife|person] and [he or she|pronoun] and [his|pronoun] and [it|pronoun]", "gender")
    assert both == [None, None, "masculine", "neuter"]


def test_attributes_family_word():
    assert [(i, w) for i, w in enumerate(column(PEOPLE, "family_word")) if w] == [(1, "mother")]


def test_attributes_named():
    assert [(i, w) for i, w in enumerate(column(PEOPLE, "named")) if w] == [(0, "salutation 'dr'"), (6, "title 'md'")]
    # "the doctor" names no doctor; "Pa" (father) is no title without two capitals or a dot
    assert column("[the doctor|person] and [Pa|person] and [Rosa Finch RN|person]", "named") == [
        None, None, "title 'rn'"]


def test_attributes_role_word():
    got = [(i, w) for i, w in enumerate(column(PEOPLE, "role_word")) if w]
    assert got == [(7, "lexicon 'attending'"), (8, "suffix 'ologist' in 'audiologist'")]
    assert column("[the social worker|person]", "role_word") == ["lexicon 'social worker'"]


def test_attributes_patient_word():
    assert [(i, w) for i, w in enumerate(column(PEOPLE, "patient_word")) if w] == [(2, "patient")]


def test_attributes_generic_person():
    got = column(PEOPLE, "generic_person")
    assert [i for i, g in enumerate(got) if g] == [4]
    assert got[3] is None and got[12] is None  # no person: no answer


def test_attributes_surname():
    got = [(i, w) for i, w in enumerate(column(PEOPLE, "surname")) if w]
    assert got == [(0, "smith"), (5, "smith"), (6, "smith"), (11, "smith")]  # not "the patient", "her mother"


def test_attributes_name_words(tmp_path):
    text = ("[Dr. Edward L, Smith|person] [Dr Smith's nurse|person] [the nurse|person] [Li|person] .\n"
            "[Students|person] came and students stayed .\n"
            "[Finch|person] came . [He|pronoun] met [Mr. Finch|person] .")
    got = column(text, "name_words")
    # "Dr" and "L" (shorter than names.min_word_length) are no name words; the possessor is dropped;
    # a capital at the start of a line makes no name when the note writes the word in lowercase too
    assert got == [("edward", "smith"), None, None, ("li",), None, ("finch",), None, ("finch",)]
    keep_possessor = settings_pipeline(tmp_path, {"names": {"drop_possessor": False}})
    assert column("[Dr Smith's nurse|person]", "name_words", pipeline=keep_possessor) == [("smiths", "nurse")]


def test_attributes_name_keys():
    got = column("[Edward Smith|person] [Li|person] [the nurse|person] [Smith Smithson|person]", "name_keys")
    assert got == [("edw", "smi"), ("li",), (), ("smi",)]
