"""Mention attributes (rulecoref/attributes.py): one test per registered attribute, named
``test_attributes_<name>``, on tiny documents, with the edge cases its help text promises."""

from __future__ import annotations

import importlib
import sys

import pytest

from rulecoref.attributes import ATTRIBUTES, SETTINGS, closure, live, trigger_windows
from rulecoref.document import Concept, Document
from rulecoref.markup import parse_markup
from rulecoref.rules.schema import Param
from tests.helpers import mention_table, settings_pipeline

PEOPLE = ("[Dr. Smith's|person] saw [her mother|person] and [the patient|person] .\n"
          "[He|pronoun] called [someone|person] ; [Edward L, Smith|person] , [John Smith , MD|person] , "
          "[the attending|person] , [an audiologist|person] , [I|person] , [a 67 year old woman|person] , "
          "[Mr. Smith|person] , [fever|problem] .")


def column(markup: str, name: str, **kwargs) -> list:
    return mention_table(markup, name, **kwargs)[name]


# -- the registry ----------------------------------------------------------------------------------
def test_attributes_every_attribute_has_a_test_and_a_help_text():
    modules = (sys.modules[__name__], importlib.import_module("tests.test_clinical_attributes"))  # issue 16's are tested there
    tested = {name[len("test_attributes_"):] for m in modules for name in dir(m) if name.startswith("test_attributes_")}
    assert sorted(a for a in ATTRIBUTES if a not in tested) == []
    assert [a for a, spec in ATTRIBUTES.items() if len(spec.help) < 10] == []


def test_attributes_depend_only_on_registered_attributes_and_known_resources():
    for name, spec in ATTRIBUTES.items():
        assert set(spec.depends) <= set(ATTRIBUTES), name
        assert set(spec.needs) <= {"wordnet", "umls"}, name
        assert closure([name])[-1] == name  # dependencies first
        assert all(closure([name]).index(d) < closure([name]).index(name) for d in spec.depends)


def test_attributes_of_words_depend_only_on_the_words():
    """An ``of_words`` attribute is computed on the document's distinct token sequences: what it
    reads must be a function of the words too (``tokens`` or another ``of_words`` attribute)."""
    words = {name for name, spec in ATTRIBUTES.items() if spec.of_words}
    assert {"lower", "conditioned", "words", "head", "acronym", "initials", "clinical_head"} <= words
    for name in words:
        assert set(ATTRIBUTES[name].depends) <= words | {"tokens"}, name
    assert not {"tokens", "type", "line", "negation", "capitalised", "number"} & words  # positions, types, context


def test_attributes_of_words_equal_their_per_mention_values():
    """Each ``of_words`` column, computed once per distinct sequence, equals what its function gives
    when every mention is computed on its own (an attribute that read the document would fail here)."""
    from rulecoref.mentions import MentionTable

    pipe = settings_pipeline()
    text = ("[The painful Abscess|problem] in [the gluteal region|problem] ; [The painful Abscess|problem] , "
            "[MRSA|problem] and [Methicillin-resistant Staphylococcus aureus|problem] , [another CT|test] ; "
            "[Coumadin therapy|treatment] ; [daily medication|treatment] ; [febrile|problem]")
    doc = parse_markup(text)[0]
    table = pipe.table(doc, [])

    class EveryMention(MentionTable):  # the plain way: each column over all mentions
        def __missing__(self, name):
            column = self[name] = ATTRIBUTES[name].compute(self)
            return column

    plain = EveryMention(doc, pipe.settings)
    for name, spec in ATTRIBUTES.items():
        if spec.of_words:
            assert table[name] == plain[name], name
    assert table.words_table.n == 8 and len(table.words_table.rows) == 9  # one repeat
    assert table["words"][0] is table["words"][2]  # shared by the mentions that write the same words


def test_attributes_settings_schema_and_word_lists_exist():
    from rulecoref.rules.compiler import default_attributes

    values = default_attributes()  # every bundled word list resolves (RC105 otherwise)
    assert set(values) == set(SETTINGS)

    def wordlists(specs: dict[str, Param], got: dict, where: str):
        for key, spec in specs.items():
            assert spec.help, f"{where}{key} has no help"
            if spec.fields is not None:
                yield from wordlists(spec.fields, got[key], f"{where}{key}.")
            elif spec.kind == "wordlist":
                yield f"{where}{key}", got[key]

    lists = dict(wordlists(SETTINGS, values, ""))
    assert {"common_words", "determiners", "head_stops", "people.family", "clues.triggers"} <= set(lists)
    for key, path in lists.items():
        assert path.is_file() and path.read_text(encoding="utf-8").strip(), key
    assert values["clues"]["dates"]  # the date patterns, compiled


def test_attributes_live_indices():
    assert live([None, "x", (), frozenset({"a"}), False, 0, True]) == [1, 3, 6]


# -- where the mention is ----------------------------------------------------------------------------
def test_attributes_type():
    assert column("[fever|problem] and [aspirin|treatment]", "type") == ["problem", "treatment"]


def test_attributes_line():
    # a concept that crosses a line end belongs to the line it starts on
    doc = Document(name="d", lines=[["a", "chest"], ["pain", "."]], concepts=[
        Concept(0, "chest pain", "problem", (1, 1), (2, 0)), Concept(1, ".", "problem", (2, 1), (2, 1))])
    assert settings_pipeline().table(doc, ["line"])["line"] == [1, 2]


def test_attributes_start():
    assert column("a [b|problem] .\n[c d|problem] e", "start") == [1, 3]  # tokens counted over the document


def test_attributes_end():
    assert column("a [b|problem] .\n[c d|problem] e", "end") == [1, 4]


# -- words ----------------------------------------------------------------------------------------------
def test_attributes_tokens():
    assert column("[Chest pain|problem] .", "tokens") == [("Chest", "pain")]


def test_attributes_lower():
    assert column("[Chest PAIN|problem] .", "lower") == [("chest", "pain")]


def test_attributes_text_norm():
    got = column("[The Chest-pain .|problem] ; [chest-pain|problem] ; [a|problem]", "text_norm")
    assert got == ["chest-pain", "chest-pain", ""]  # determiners and punctuation dropped


def test_attributes_conditioned(tmp_path):
    text = "[the large Abscess-like painful Pax6 mass|problem] [type 1 diabetes|problem]"
    got = column(text, "conditioned")
    assert got == [("", "large", "abscesslike", "", "pax6", "mass"), ("type", "1", "diabetes")]  # "large" is a noun too
    seed = settings_pipeline(tmp_path, {"keep_digits": False, "drop_adjectives": False})
    assert column(text, "conditioned", pipeline=seed) == [("", "large", "abscesslike", "painful", "pax", "mass"),
                                                          ("type", "", "diabetes")]


def test_attributes_words():
    got = column("[Recurrent soft tissue abscess in the gluteal region|problem] ; [the painful Abscess-like area|problem]"
                 " ; [his|problem]", "words")
    assert got == [{"tissue", "abscess", "region"}, {"abscesslike", "area"}, set()]


def test_attributes_head():
    got = column("[recurrent abscess in the gluteal region|problem] ; [the volume of the neurons|problem] ; "
                 "[painful|problem] ; [Abscess-like swelling|problem]", "head")
    assert got == ["abscess", "volume", None, "swelling"]


def test_attributes_head_family(tmp_path):
    text = "[a tumor|problem] ; [tumors|problem] ; the [neoplasm|problem] ; [abscesses|problem] ; [his|problem]"
    got = column(text, "head_family")
    # the heads of this document that match by words_match (prefix or WordNet synonym), itself included
    assert got == [{"tumor", "tumors", "neoplasm"}] * 3 + [{"abscesses"}, set()]
    no_synonyms = settings_pipeline(tmp_path, {"word_match": {"synonyms": False}})
    assert column(text, "head_family", pipeline=no_synonyms)[2] == {"neoplasm"}


def test_attributes_head_index():
    got = column("[the size of the striatum|problem] ; [a tumor|problem] ; [this|pronoun] ; [Chest pain|problem]",
                 "head_index")
    assert got == [1, 1, 0, 1]  # the last word before a post-modifier; a dropped word's own position


def test_attributes_head_word():
    got = column("[the size of the striatum|problem] ; [this|pronoun] ; [painful|problem] ; [type 2|problem]", "head_word")
    assert got == ["size", "this", "painful", "2"]  # also for mentions conditioning drops


def test_attributes_capitalised():
    got = column("seen by [Dr. Smith|person] and [the Ebola virus|problem] ; [the|problem] .\n[Chest pain|problem]",
                 "capitalised")
    assert got == [{"Dr.", "Smith"}, {"Ebola"}, set(), set()]  # a line's first word does not count


def test_attributes_head_class():
    got = column("[this|pronoun] ; [type 2|problem] ; seen by [Dr. Smith|person] ; [a tumor|problem] ; "
                 "[painful|problem] ; [zzyx|problem] .\n[Smith|person] came", "head_class")
    # a line's first word is not taken for a name: "Smith" there is the noun "smith"
    assert got == ["PRP", "CD", "NNP", "NN", "JJ", "X", "NN"]


def test_attributes_mention_level():
    got = column("[his|pronoun] ; seen by [Dr. Smith|person] ; [MRSA|problem] ; [a tumor|problem]", "mention_level")
    assert got == ["PRO", "NAM", "NAM", "NOM"]


def test_attributes_possessive():
    assert column("[his|pronoun] [its|pronoun] [he|pronoun] [his wife|person]", "possessive") == [True, True, False, False]


def test_attributes_reflexive():
    assert column("[himself|pronoun] [him|pronoun] [itself|pronoun]", "reflexive") == [True, False, True]


def test_attributes_head_base():
    got = column("[abscesses|problem] ; [MRSA|problem] ; [mice|problem] ; [painful|problem]", "head_base")
    assert got == ["abscess", "mrsa", "mouse", None]  # the head itself when WordNet has no noun


def test_attributes_number():
    got = column("[they|pronoun] [he|pronoun] [it|pronoun] [you|pronoun] [lesions|problem] [the abscess|problem] "
                 "[the virus|problem] [an analysis|problem] [gas|problem] [painful|problem] [type 2|problem]", "number")
    assert got == ["plural", "singular", "singular", None, "plural", "singular", "singular", "singular", "singular",
                   None, None]  # "you": unknown; no head, or a number as head: unknown


# -- acronyms -----------------------------------------------------------------------------------------------
def test_attributes_acronym(tmp_path):
    got = column("[MRSA|problem] [the CTs|test] [Shh|problem] [CP49|problem] [mri|test] [MRSA bacteremia|problem] "
                 "[Methicillin-resistant Staphylococcus aureus|problem]", "acronym")
    assert got == ["mrsa", "ct", None, None, None, None, None]
    lowercase = settings_pipeline(tmp_path, {"acronym": {"min_upper": 0, "min_letters": 4}})
    assert column("[mri|test] [copd|problem]", "acronym", pipeline=lowercase) == [None, "copd"]


def test_attributes_initials(tmp_path):
    got = column("[Methicillin-resistant Staphylococcus aureus|problem] [otitis media ( OM )|problem] "
                 "[the Department of Health|problem] [MRSA|problem] [alpha beta gamma delta epsilon zeta eta theta|problem] "
                 "[alpha beta gamma delta epsilon zeta eta theta iota|problem]", "initials")
    # brackets end the long form; common words are no initials; 2-8 content words
    assert got == ["mrsa", "om", "dh", None, "abgdezet", None]
    three = settings_pipeline(tmp_path, {"acronym": {"min_words": 3, "max_words": 3}})
    assert column("[otitis media|problem] [congestive heart failure|problem]", "initials", pipeline=three) == [None, "chf"]


def test_attributes_acronym_forms(tmp_path):
    got = column("[MRSA|problem] [Methicillin-resistant Staphylococcus aureus|problem] [coronary artery disease|problem]",
                 "acronym_forms")
    # the initials and each run of them that keeps the first and covers 60%: 3 of 4, 2 of 3
    assert got == [frozenset(), frozenset({"mrsa", "mrs", "mra", "msa"}), frozenset({"cad", "ca", "cd"})]
    exact = settings_pipeline(tmp_path, {"acronym": {"subsequence": False}})
    assert column("[coronary artery disease|problem]", "acronym_forms", pipeline=exact) == [frozenset({"cad"})]


# -- people ----------------------------------------------------------------------------------------------
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


# -- names (partial names) -----------------------------------------------------------------------------------
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


# -- clues beside a mention -----------------------------------------------------------------------------------
def test_attributes_clue_windows(tmp_path):
    text = ("[pain|problem] in the left leg . the left leg is [the site|problem] . [CT|test] on ; 3/12 . "
            "left leg [pain|problem] .")
    got = column(text, "clue_windows")
    # after a following trigger, before a preceding one; a clause end stops a window; no trigger, no window
    assert got == [(("the", "left", "leg"),), (("the", "left", "leg"),), (), ()]
    after = settings_pipeline(tmp_path, {"clues": {"sides": "after", "window": 2}})
    assert column(text, "clue_windows", pipeline=after) == [(("the", "left"),), (), (), ()]


def test_attributes_trigger_windows_function():
    triggers = frozenset({"in", "is"})
    assert trigger_windows(["the"], ["in", "the", "left", "leg", ".", "x"], triggers, 4, True) == [["the", "left", "leg"]]
    assert trigger_windows(["the", "left", "leg", "is"], ["."], triggers, 4, True) == [["the", "left", "leg"]]
    assert trigger_windows(["the", "left", "leg", "is"], ["."], triggers, 4, False) == []
    assert trigger_windows(["left"], ["leg"], triggers, 4, True) == []


def test_attributes_dates():
    got = column("[x-ray|test] on 3/12 . [CT|test] on March 12 , 2010 . [MRI|test] was clear .", "dates")
    assert got[0] == ("3/12",) and got[2] == ()
    assert got[1] and all("12" in d for d in got[1])


def test_attributes_locations():
    got = column("[pain|problem] in the left leg . [nodules|problem] in the lungs . [fever|problem] is new .", "locations")
    assert got == [{"left", "leg"}, {"lung"}, set()]  # a listed plural counts as its listed singular


def test_attributes_modifiers():
    got = column("[the infarct|problem] is new . [pain|problem] in the left leg .", "modifiers")
    assert got == [{"new"}, set()]


def test_attributes_adjective_only():
    got = column("[febrile|problem] [very painful|problem] [mrsa|problem] [a cold|problem] [painful swelling|problem] "
                 "[the|problem]", "adjective_only")
    # unknown words ("mrsa") might be names; a noun ("cold", "swelling") keeps a mention; no word, no adjective
    assert got == [True, True, False, False, False, False]


# -- UMLS (the session's fixture database, tests/conftest.py) -------------------------------------------------
@pytest.fixture()
def umls_pipeline(tmp_path, umls_fixture_database):
    entries = [{"kind": "match", "name": "umls", "key": "cuis"}]
    return lambda **umls: settings_pipeline(tmp_path, {"umls": umls}, entries)


def test_attributes_umls_hit(umls_pipeline):
    got = column("[the loss of consciousness|problem] ; [his high blood pressure|problem] ; [zzz|problem]", "umls_hit",
                 pipeline=umls_pipeline())
    # the literal form first ("the loss ..." has no CUI), then without determiners, then conditioned
    assert got == [("loss of consciousness", {"C0041657"}), ("high blood pressure", {"C0020538"}), (None, frozenset())]


def test_attributes_cuis(umls_pipeline):
    text = "[renal|problem] ; [a cold|problem] ; [chest pain|problem]"
    got = column(text, "cuis", pipeline=umls_pipeline())
    assert got == [{"C0022646"}, {"C0009443", "C0009264", "C0234192"}, {"C0008031"}]
    assert column(text, "cuis", pipeline=umls_pipeline(max_cuis=2))[1] == frozenset()  # ambiguous: none


def test_attributes_cuis_need_the_umls_lookup():
    with pytest.raises(RuntimeError, match="UMLS"):
        column("[renal|problem]", "cuis")  # a pipeline whose rules name no cuis opens no database


def test_attributes_settings_word_lists_inline(tmp_path):
    # regression: an inline list where a word-list path may stand (the compiler accepts both) made the
    # pipeline fail with a TypeError at start-up, and an unhashable memo key for common_words
    inline = settings_pipeline(tmp_path, {"common_words": ["the", "large"], "head_stops": ["in"],
                                          "clues": {"triggers": ["on"], "locations": ["ward a"]}})
    table = mention_table("[the large mass|problem] on ward a", "conditioned", "locations", pipeline=inline)
    assert table["conditioned"] == [("", "", "mass")] and table["locations"] == [{"ward a"}]
