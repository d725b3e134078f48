"""Where a mention is, its words and its head (rulecoref/attributes/heads.py): one test per attribute,
named ``test_attributes_<name>``, on tiny documents, with the edge cases its help text promises."""

from __future__ import annotations

from rulecoref.document import Concept, Document
from tests.attributes.helpers import column
from tests.helpers import settings_pipeline


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
