"""The issue-16 mention attributes: pronoun roles and salience, clinical context, drugs, sections."""

from __future__ import annotations

import pytest

from rulecoref.engine import Pipeline
from rulecoref.markup import parse_markup
from tests.helpers import ROOT, shared_resources


@pytest.fixture(scope="module")
def pipeline() -> Pipeline:
    return Pipeline.from_file(ROOT / "rules" / "i2b2.yaml", shared_resources())


def column(pipeline: Pipeline, markup: str, name: str) -> list:
    doc, _ = parse_markup(markup)
    return pipeline.table(doc, [name])[name]


# -- pronouns and salience ---------------------------------------------------------------------
@pytest.mark.parametrize("markup, expected", [
    ("[He|pronoun] left .", "subject"),
    ("We told [him|pronoun] .", "object"),
    ("We told [her|pronoun] that it was late .", "object"),
    ("We saw [her|pronoun] .", "object"),
    ("[Her|pronoun] mother called .", "possessive"),
    ("He hurt [himself|pronoun] .", "reflexive"),
    ("[It|pronoun] hurts .", None),
])
def test_attributes_pronoun_role(pipeline, markup, expected):
    assert column(pipeline, markup, "pronoun_role") == [expected]


@pytest.mark.parametrize("markup, expected", [
    ("[Ann Lee|person] sang .", [True]),
    ("Bo left and [Ann Lee|person] sang .", [True]),
    ("In 1990 , [Ann Lee|person] sang .", [True]),
    ("Bo met [Ann Lee|person] .", [False]),
    ("[Ann Lee|person] 's son sang .", [False]),
])
def test_attributes_subject_position(pipeline, markup, expected):
    assert column(pipeline, markup, "subject_position") == expected


def test_attributes_name_occurrences(pipeline):
    (occ,) = column(pipeline, "[Sandra Collins|person] is a DJ .\nShe met Bo .\nCollins performed .", "name_occurrences")
    assert occ.own == (1, 0, 1, True) and occ.places() == [(1, 0, 1, True), (3, 0, 0, True)]
    (signed,) = column(pipeline, "[Smith , MD|person] wrote .\nSmith called .", "name_occurrences")
    assert signed.places() == [(1, 0, 0, True), (1, 0, 2, True), (2, 0, 0, True)]  # its own place, not a name place


def test_attributes_name_occurrences_only_for_person_mentions(pipeline):
    assert [occ.places() for occ in column(pipeline, "[Collins|problem] and Collins .", "name_occurrences")] == [[]]


def test_attributes_name_occurrences_shared_by_the_mentions_of_one_name(pipeline):
    """Issue 22: a name repeated n times stores its n places once, not n times n (3,000 repeats of
    "Dr. Smith" held 4.5 million places and 800 MB)."""
    occ = column(pipeline, "\n".join(["[Dr. Smith|person] called ."] * 300), "name_occurrences")
    assert len({id(o.named) for o in occ}) == 1 and len(occ[0].named) == 300
    assert occ[5].places() == list(occ[0].named)  # each mention's own place is one of them


# -- sections ---------------------------------------------------------------------------------------
def test_attributes_section(pipeline):
    """Headings on their own line and inline; exam_section and family_section read them."""
    markup = ("[Pain|problem] .\nPAST MEDICAL HISTORY :\n[Gout|problem] .\nNECK : no [masses|problem] .\n"
              "FAMILY HISTORY :\nMother with [cancer|problem] .")
    doc, _ = parse_markup(markup)
    t = pipeline.table(doc, ["section", "exam_section", "family_section"])
    assert t["section"] == [None, "past medical history", "neck", "family history"]
    assert t["exam_section"] == [False, False, True, False]
    assert t["family_section"] == [False, False, False, True]


# -- clinical context -------------------------------------------------------------------------------
@pytest.mark.parametrize("markup, expected", [
    ("He denies [chest pain|problem] .", "denies"),
    ("Negative for [tremors|problem] , [headaches|problem] .", ["negative for", "negative for"]),
    ("No fever but [cough|problem] .", None),
    ("No fever but no [cough|problem] .", "no"),  # a break, then a cue of its own
    ("[Cough|problem] , no [fever|problem] .", [None, "no"]),  # a cue reaches forward only
    ("[Masses|problem] were not appreciated .", "not"),
    ("He was not tolerating [the sedation|treatment] .", None),
    ("Not taking any [antibiotics|treatment] .", "not taking"),
    ("NECK : Without [masses|problem] .", "without"),
    ("[Fever|problem] resolved .", None),
])
def test_attributes_negation(pipeline, markup, expected):
    got = column(pipeline, markup, "negation")
    assert got == (expected if isinstance(expected, list) else [expected])


def check_cue(pipeline, name, markup, expected):
    assert column(pipeline, markup, name) == [expected]


@pytest.mark.parametrize("name, markup, expected", [
    ("hedge", "possible [urosepsis|problem] .", "possible"),
    ("hedge", "He has [urosepsis|problem] .", None),
    ("history", "He has had [prior operations|treatment] .", "prior"),
    ("history", "status post [kidney transplant|treatment] .", "status post"),
    ("new_event", "[another tube|treatment] was placed .", "another"),
    ("new_event", "[the tube|treatment] fell out .", None),
    ("generic", "He needs [daily medication|treatment] .", "daily"),
    ("generic", "He needs [the medication|treatment] .", None),
    ("degree", "[minimal discomfort|problem] .", "low"),
    ("degree", "[increased blood flow|problem] .", "high"),
    ("degree", "[discomfort|problem] .", None),
])
def test_context_cues(pipeline, name, markup, expected):
    check_cue(pipeline, name, markup, expected)


def test_attributes_sites(pipeline):
    markup = "[left testicular pain|problem] .\nNECK :\nNo [masses|problem] .\nPLAN :\n[pain|problem] ."
    assert column(pipeline, markup, "sites") == [frozenset({"left"}), frozenset({"neck"}), frozenset()]


@pytest.mark.parametrize("text, expected", [
    ("Zyrtec", "cetirizine"), ("cetirizine", "cetirizine"), ("Coumadin therapy", "warfarin"),
    ("Ortho Tri-Cyclen", "norgestimate-ethinyl estradiol"), ("a Foley", None),
])
def test_attributes_drug(pipeline, text, expected):
    assert column(pipeline, f"She takes [{text}|treatment] .", "drug") == [expected]


def test_attributes_clinical_head(pipeline):
    """clinical_head skips light nouns; clinical_words drop them and the cue words."""
    doc, _ = parse_markup("[ongoing sleep apnea symptoms|problem] and [daily medication|treatment] .")
    t = pipeline.table(doc, ["clinical_head", "clinical_words"])
    assert t["clinical_head"] == ["apnea", "medication"]
    assert t["clinical_words"][0] == frozenset({"sleep", "apnea"})  # "ongoing": an adjective, conditioned away
    assert t["clinical_words"][1] == frozenset({"daily", "medication"})  # nothing but cues and light nouns: all stay


def test_attributes_thing_pronoun(pipeline):
    """thing_pronoun and its blocking key thing_key."""
    doc, _ = parse_markup("[Allegra|treatment] helps [her|pronoun] ; [it|pronoun] works , says [Ann|person] .")
    t = pipeline.table(doc, ["thing_pronoun", "thing_key"])
    assert t["thing_pronoun"] == [None, None, "it", None]
    assert t["thing_key"] == ["thing", None, "thing", None]


# the registry (tests/test_attributes.py) wants a test named after every attribute: these name the
# attributes that the tests above check together with another
def test_attributes_exam_section(pipeline):
    test_attributes_section(pipeline)


def test_attributes_family_section(pipeline):
    test_attributes_section(pipeline)


def test_attributes_clinical_words(pipeline):
    test_attributes_clinical_head(pipeline)


def test_attributes_clinical_head_keys(pipeline):
    doc, _ = parse_markup("[sleep apnea symptoms|problem] and [a tumor|problem] .")
    keys = pipeline.table(doc, ["clinical_head_keys"])["clinical_head_keys"]
    assert "apn" in keys[0] and "sym" not in keys[0]
    assert {"tum", "neo"} <= keys[1]  # WordNet synonyms block too ("tumor" / "neoplasm")


def test_attributes_thing_key(pipeline):
    test_attributes_thing_pronoun(pipeline)


def test_attributes_hedge(pipeline):
    check_cue(pipeline, "hedge", "possible [urosepsis|problem] .", "possible")


def test_attributes_history(pipeline):
    check_cue(pipeline, "history", "status post [kidney transplant|treatment] .", "status post")


def test_attributes_new_event(pipeline):
    check_cue(pipeline, "new_event", "[another tube|treatment] was placed .", "another")


def test_attributes_generic(pipeline):
    check_cue(pipeline, "generic", "He needs [daily medication|treatment] .", "daily")


def test_attributes_degree(pipeline):
    check_cue(pipeline, "degree", "[minimal discomfort|problem] .", "low")
