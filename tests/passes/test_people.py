"""passes/people.py: the people linker's per-document facts and the chain-level keep_apart."""

from __future__ import annotations

import pytest

from rulecoref.errors import RuleFileError
from rulecoref.markup import parse_markup
from rulecoref.passes.people import PeopleFacts, facts, keep_apart, reject_joining_patient, single_pronouns
from rulecoref.predicates import overlaps
from tests.helpers import mention_table, single_pass


def test_people_facts_patient_side():
    f = PeopleFacts(persons=[0, 1, 2], patients={2: "patient"}, subject=0)
    assert f.patient_side() == {0, 2}
    assert PeopleFacts(patients={2: "pt"}).patient_side() == {2}
    assert facts({"people": f}) is f


def test_people_single_pronouns_and_overlaps():
    table = mention_table("[He|pronoun] and [he or she|pronoun] saw [her|pronoun] [mother|person] ; [I|person]",
                          "pronoun", "start", "end")
    assert list(single_pronouns(table)) == [(0, "he"), (2, "her"), (4, "i")]
    assert list(single_pronouns(table, ["her", "she"])) == [(2, "her")]
    assert not overlaps(table, 2, 3) and overlaps(table, 1, 1)


def test_people_keep_apart_whole_chains():
    # 0 = mother (family), 1 = she, 2 = patient: 0~1 first, then 1~2 would close the chain
    cut = list(keep_apart([(0, 1), (1, 2), (2, 3)], side_a={2}, side_b={0}))
    assert cut == [((1, 2), 2, 0)]


def test_people_keep_apart_order_decides():
    cut = list(keep_apart([(1, 2), (0, 1)], side_a={2}, side_b={0}))
    assert [pair for pair, _, _ in cut] == [(0, 1)]


def test_people_keep_apart_unrelated_links_pass():
    assert list(keep_apart([(0, 5), (5, 6), (2, 3)], side_a={2}, side_b={0})) == []
    assert list(keep_apart([(0, 2)], side_a=set(), side_b={0})) == []


def test_people_reject_joining_patient_says_which_mentions():
    doc, _ = parse_markup("[Ms. Alvarez|person] and [the patient|person] and [her mother|person]")
    f = PeopleFacts(persons=[0, 1, 2], patients={1: "patient"}, family={2: "mother"}, subject=0)
    got = list(reject_joining_patient(doc, [(0, 1), (1, 2)], f, f.family, "family"))
    assert got == [((1, 2), "would put family mention 'her mother' (mother) in the chain of patient mention "
                            "'ms. alvarez'")]


def test_people_linking_pass_without_people_roles_is_rc133(tmp_path):
    with pytest.raises(RuleFileError) as err:
        single_pass("patient_mention", tmp_path=tmp_path)
    assert err.value.codes == ["RC133"] and "people_roles" in err.value.diagnostics[0].message


def test_people_fits_one_rule_for_every_pronoun_kind(tmp_path):
    """``people.fits`` (third_person_pronoun and pronoun_salience alike): a person whose own words give
    another gender never fits; the patient is kept from a pronoun of the other gender only in a note
    about a patient, where the subject's gender is the patient's."""
    from rulecoref.passes.people import fits
    from tests.passes.people_support import people_pipeline, roles_of

    pipe = people_pipeline(tmp_path)
    doc, f = roles_of(pipe, "[Ann Lee|person] met [Mrs. Bo|person] .\nhe said he would , he did .")
    t = pipe.table(doc, ["gender"])
    assert f.subject == 0 and f.gender == "masculine" and not f.patients
    assert fits(t, f, 0, "feminine") and fits(t, f, 0, None)  # no patient note: the majority of "he" rules out no one
    assert not fits(t, f, 1, "masculine") and fits(t, f, 1, "feminine")  # "Mrs. Bo" is not "he"
    doc, f = roles_of(pipe, "[The patient|person] came .\nhe said he would , he did .")
    t = pipe.table(doc, ["gender"])
    assert f.subject == 0 and f.patients and f.gender == "masculine"
    assert not fits(t, f, 0, "feminine") and fits(t, f, 0, "masculine")
