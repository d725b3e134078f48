"""Clinical context, sections and drugs (rulecoref/attributes/clinical.py), with the bundled
rules/i2b2.yaml settings."""

from __future__ import annotations

import pytest

from rulecoref.engine import Pipeline
from rulecoref.markup import parse_markup
from tests.attributes.helpers import i2b2_column as column
from tests.helpers import shared_resources


def test_attributes_section(pipeline):
    """Headings on their own line and inline; exam_section and family_section read them."""
    markup = ("[Pain|problem] .\nPAST MEDICAL HISTORY :\n[Gout|problem] .\nNECK : no [masses|problem] .\n"
              "FAMILY HISTORY :\nMother with [cancer|problem] .")
    doc, _ = parse_markup(markup)
    t = pipeline.table(doc, ["section", "exam_section", "family_section"])
    assert t["section"] == [None, "past medical history", "neck", "family history"]
    assert t["exam_section"] == [False, False, True, False]
    assert t["family_section"] == [False, False, False, True]


@pytest.mark.parametrize("markup, expected", [
    ("He denies [chest pain|problem] .", "denies"),
    ("Negative for [tremors|problem] , [headaches|problem] .", ["negative for", "negative for"]),
    ("No fever but [cough|problem] .", None),
    ("No other findings other than her [overactive bladder|problem] .", None),  # issue 35
    ("No fever but no [cough|problem] .", "no"),  # a break, then a cue of its own
    ("[Cough|problem] , no [fever|problem] .", [None, "no"]),  # a cue reaches forward only
    ("[Masses|problem] were not appreciated .", "not"),
    ("He was on [Ditropan|treatment] and did not do well .", None),  # issue 35: post_breaks
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
    # from the generated part of drug_names.txt (scripts/build_drug_names.py)
    ("Sanctura XR", "trospium"), ("Zytiga", "abiraterone"), ("apixabanum", "apixaban"),
    ("Armour", None),  # a brand of thyroid that is an English word: left out
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


# the registry (tests/attributes/test_registry.py) wants a test named after every attribute: these name the
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


# -- issue 35 ------------------------------------------------------------------------------------------
def test_attributes_hypothetical(pipeline):
    markup = "the potential complications of [surgery|treatment] including [bleeding|problem] ; [pain|problem] ."
    assert column(pipeline, markup, "hypothetical") == ["potential complications", "potential complications", None]


def test_attributes_number_singular_nouns_are_not_plurals(pipeline):
    markup = "[diabetes|problem] , [ascites|problem] , [lesions|problem] and [herpes|problem] ."
    assert column(pipeline, markup, "number") == ["singular", "singular", "plural", "singular"]


def test_attributes_number_singular_nouns_is_a_list_a_user_edits(tmp_path):
    (tmp_path / "singular.txt").write_text("lesions\n", encoding="utf-8")
    rules = tmp_path / "r.yaml"
    rules.write_text("version: 1\ntypes: [problem, pronoun]\npronoun_types: [pronoun]\n"
                     "attributes: {singular_nouns: singular.txt}\n"
                     "passes: [{kind: match, name: same, key: text_norm}]\n", encoding="utf-8")
    pipe = Pipeline.from_file(rules, shared_resources())
    assert column(pipe, "[lesions|problem] and [diabetes|problem] .", "number") == ["singular", "plural"]


def test_attributes_pronoun_use(pipeline):
    markup = ("He has [hematuria|problem] [that|pronoun] began today , [which|pronoun] worries him .\n"
              "She understands [this|pronoun] and the patient tells me [this|pronoun] is new ; [it|pronoun] is .")
    assert column(pipeline, markup, "pronoun_use") == [None, "relative", None, "clause", "clause", None]


def test_attributes_complement(pipeline):
    markup = "[treatment|treatment] of an imperforate anus ; [injury|problem] to the esophagus , and [pain|problem] ."
    assert column(pipeline, markup, "complement") == [{"anus"}, {"esophagus"}, set()]  # adjectives are dropped
    inside = column(pipeline, "[inability to swallow|problem] ; [inability|problem] to finish the meal .", "complement")
    assert inside == [{"swallow"}, {"finish", "meal"}]


def test_attributes_clinical_words_leave_out_course_words(pipeline):
    markup = "[worsening hematuria|problem] ; [fairly significant discomfort|problem] ; [gross hematuria|problem] ."
    assert column(pipeline, markup, "clinical_words") == [{"hematuria"}, {"discomfort"}, {"gross", "hematuria"}]


def test_attributes_derived_heads(pipeline):
    heads = column(pipeline, "[catheterizing|treatment] , [his catheter|treatment] and [febrile|problem] .", "derived_heads")
    assert heads[0][0] == "catheterizing" and "catheterization" in heads[0] and "catheter" not in heads[0]
    assert heads[1] == ("catheter",)
    assert heads[2][0] == "febrile" and "fever" in heads[2]


def test_attributes_words_key(pipeline):
    assert column(pipeline, "[the shortness of breath|problem] and [HTN|problem] .", "words_key") == [
        "breath shortness", "htn"]


def test_attributes_abbreviation_keys(pipeline):
    keys = column(pipeline, "[HTN|problem] , [the SOB|problem] , [DM|problem] and [pain|problem] .", "abbreviation_keys")
    assert keys[0] == {"hypertension"} and keys[1] == {"breath shortness"}
    assert "diabetes mellitus" in keys[2] and keys[3] == set()  # several long forms; not an abbreviation


def test_attributes_thing_rank(pipeline):
    """Things are counted per sentence in text order; people and person pronouns are not things."""
    markup = "[He|pronoun] had [HPV|problem] and [warts|problem] .\n[This|pronoun] is viral ."
    assert column(pipeline, markup, "thing_rank") == [None, 0, 1, 0]


def test_attributes_clause_number(pipeline):
    """Clause openers and commas before a mention in its sentence are counted; a new sentence starts at 0."""
    markup = "She has [asthma|problem] but needs [nothing|treatment] for [this|pronoun] , [it|pronoun] is mild .\n[It|pronoun] is ."
    assert column(pipeline, markup, "clause_number") == [0, 1, 1, 2, 0]
