"""Pair predicates (rulecoref/predicates/): each holds, with its evidence, and does not hold, on
tiny documents. ``i`` is the mention being resolved (the later one), ``j`` the candidate."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from rulecoref.attributes import ATTRIBUTES
from rulecoref.document import Concept, Document, Evidence
from rulecoref.params import KINDS
from rulecoref.predicates import PREDICATES
from tests.helpers import mention_table, settings_pipeline


def ask(markup: str | Document, name: str, i: int = 1, j: int = 0, pipeline=None, **params) -> str | None:
    """What predicate ``name`` (with ``params``) says about concepts i and j of a markup document."""
    spec = PREDICATES[name]
    if isinstance(markup, Document):
        table = (pipeline or settings_pipeline()).table(markup, list(spec.attributes))
    else:
        table = mention_table(markup, *spec.attributes, pipeline=pipeline)
    evidence = spec.bind(params)(table, i, j)
    return evidence if evidence is None else str(evidence)


def nested(text: str, spans: list[tuple[int, int, str]]) -> Document:
    """A one-line document whose concepts may nest (markup cannot say so)."""
    tokens = text.split()
    return Document(name="nested", lines=[tokens], concepts=[
        Concept(k, " ".join(tokens[a: b + 1]).lower(), t, (1, a), (1, b)) for k, (a, b, t) in enumerate(sorted(spans))])


# -- the registry -----------------------------------------------------------------------------------------
def test_predicates_every_predicate_has_a_test_a_help_and_registered_attributes():
    # this file and tests/test_predicates_<concern>.py (clinical, distance)
    modules = [importlib.import_module(f"tests.{p.stem}") for p in sorted(Path(__file__).parent.glob("test_predicates*.py"))]
    tested = {name[len("test_predicates_"):] for m in modules for name in dir(m) if name.startswith("test_predicates_")}
    assert sorted(p for p in PREDICATES if p not in tested) == []
    for name, spec in PREDICATES.items():
        assert len(spec.help) >= 10, name
        assert spec.attributes and set(spec.attributes) <= set(ATTRIBUTES), name
        for pname, param in spec.params.items():
            assert param.kind in KINDS and param.help, (name, pname)


# -- position ------------------------------------------------------------------------------------------------
def test_predicates_overlaps():
    doc = nested("[ MRSA bacteremia ] and MRSA", [(1, 2, "problem"), (1, 1, "problem"), (5, 5, "problem")])
    assert ask(doc, "overlaps", 1, 0) == "'mrsa bacteremia' and 'mrsa' overlap"
    assert ask(doc, "overlaps", 2, 0) is None and ask(doc, "overlaps", 2, 1) is None


def test_predicates_same_type():
    text = "[cold|problem] [cold|treatment] [Cold|problem]"
    assert ask(text, "same_type", 2, 0) == "both problem"
    assert ask(text, "same_type", 1, 0) is None


# -- words ---------------------------------------------------------------------------------------------------
def test_predicates_head_matches():
    text = "an [abscess|problem] ; [abscesses|problem] ; a [tumor|problem] ; the [neoplasm|problem] ; [chest pain|problem]"
    assert ask(text, "head_matches", 1, 0) == "heads abscesses~abscess (prefix 'absces')"
    assert ask(text, "head_matches", 3, 2) == "heads neoplasm~tumor (wordnet synonyms)"
    assert ask(text, "head_matches", 4, 0) is None
    assert ask("[his|problem] [his|problem]", "head_matches") is None  # no head, no match


def test_predicates_head_matches_settings(tmp_path):
    text = "[actin|problem] and [activation|problem] ; [blood cultures|test] and [line cultures|test]"
    assert ask(text, "head_matches") is None  # "vation" is no ending (max_ending 3)
    seed = settings_pipeline(tmp_path, {"word_match": {"min_prefix": 1, "max_ending": 0, "synonym_senses": 0}})
    assert ask(text, "head_matches", pipeline=seed) == "heads activation~actin (prefix 'acti')"


def test_predicates_words_covered():
    text = "[Recurrent soft tissue abscess in the gluteal region|problem] ; [tissue abscesses|problem] ; [mutant tissue|problem]"
    assert ask(text, "words_covered", 1, 0) == ("all words of 'tissue abscesses' match 'recurrent soft tissue abscess in "
                                               "the gluteal region': abscesses~abscess (prefix 'absces'), tissue")
    assert ask(text, "words_covered", 2, 0) is None  # "mutant" is new: a later mention rarely adds modifiers
    assert ask(text, "words_covered", 0, 1) is None  # the longer one is not covered by the shorter
    assert ask("[his|problem] and [his|problem]", "words_covered") is None  # no words, nothing covered


def test_predicates_words_covered_digits(tmp_path):
    text = "[type 1 diabetes|problem] and [type 2 diabetes|problem]"
    assert ask(text, "words_covered") is None  # "type 1 diabetes" is not "type 2 diabetes"
    seed = settings_pipeline(tmp_path, {"keep_digits": False})
    assert ask(text, "words_covered", pipeline=seed) is not None  # the seed stripped digits


def test_predicates_acronym_of(tmp_path):
    text = ("[Methicillin-resistant Staphylococcus aureus|problem] ; [MRSA|problem] ; [MS|problem] ; "
            "[left ventricular hypertrophy|problem] ; [LH|problem]")
    assert ask(text, "acronym_of", 1, 0) == "'mrsa' = initials 'mrsa' of 'methicillin-resistant staphylococcus aureus'"
    assert ask(text, "acronym_of", 0, 1) is not None  # either side may be the acronym by default
    assert ask(text, "acronym_of", 0, 1, acronym="mention") is None  # only the mention being resolved
    assert ask(text, "acronym_of", 2, 0) is None  # half the initials
    assert ask(text, "acronym_of", 4, 3) == "'lh' = some initials in order 'lvh' of 'left ventricular hypertrophy'"
    exact = settings_pipeline(tmp_path, {"acronym": {"subsequence": False}})
    assert ask(text, "acronym_of", 4, 3, pipeline=exact) is None
    half = settings_pipeline(tmp_path, {"acronym": {"min_coverage": 0.5}})
    assert ask(text, "acronym_of", 2, 0, pipeline=half) is not None


def test_predicates_names_match():
    text = ("You will see [Edward L, Smith|person] at [Dr Smith's|person] clinic ; [John Finch|person] and "
            "[Jane Finch|person] ; [Li|person] and [Lindqvist|person] ; [the nurse|person]")
    assert ask(text, "names_match", 1, 0) == "name words 'smiths' in 'edward smith'"
    assert ask(text, "names_match", 3, 2) is None  # different first names
    assert ask(text, "names_match", 5, 4) is None  # a word shorter than min_prefix must be equal
    assert ask(text, "names_match", 6, 1) is None  # no name


def test_predicates_gender_clash():
    text = "[Mr. Bennet|person] and [Mrs. Bennet|person] and [Bennet|person] ; [he|pronoun] and [her mother|person]"
    assert ask(text, "gender_clash", 1, 0) == "masculine 'mr. bennet' vs feminine 'mrs. bennet'"
    assert ask(text, "gender_clash", 4, 3) == "masculine 'he' vs feminine 'her mother'"
    assert ask(text, "gender_clash", 2, 0) is None  # no gender is no clash


def test_predicates_number_clash():
    text = "[the lesion|problem] and [lesions|problem] and [a lesion|problem] and [they|pronoun]"
    assert ask(text, "number_clash", 1, 0) == "singular 'the lesion' vs plural 'lesions'"
    assert ask(text, "number_clash", 2, 0) is None
    assert ask(text, "number_clash", 3, 1) is None


# -- clues beside the mentions ----------------------------------------------------------------------------------
def test_predicates_dates_conflict():
    text = ("[chest x-ray|test] on 3/12 was clear . [chest x-ray|test] on 3/19 . [chest x-ray|test] on 03/12/2010 . "
            "the [chest x-ray|test] showed nothing .")
    assert ask(text, "dates_conflict", 1, 0) == "dates differ: '3/12' near 'chest x-ray', '3/19' near 'chest x-ray'"
    assert ask(text, "dates_conflict", 2, 0) is None  # the same day, written differently
    assert ask(text, "dates_conflict", 3, 0) is None  # one side undated


def test_predicates_clues_conflict():
    text = ("[pain|problem] in the left leg . [pain|problem] in the right arm . the [pain|problem] in the leg . "
            "[pain|problem] is new . [pain|problem] is old .")
    assert ask(text, "clues_conflict", 1, 0) == "locations differ: left, leg near 'pain' vs arm, right near 'pain'"
    assert ask(text, "clues_conflict", 2, 0) is None  # "in the left leg" and "in the leg" agree
    assert ask(text, "clues_conflict", 3, 0) is None  # a location and a modifier do not contradict
    assert ask(text, "clues_conflict", 4, 3) == "modifiers differ: new near 'pain' vs old near 'pain'"
    assert ask(text, "clues_conflict", 4, 3, categories=["locations"]) is None


def test_predicates_adjective_only():
    text = "she was [febrile|problem] and [febrile|problem] ; [a cold|problem] and [the cold|problem]"
    assert ask(text, "adjective_only", 1, 0) == "'febrile' is an adjective with no noun (WordNet)"
    assert ask(text, "adjective_only", 2, 1) == "'febrile' is an adjective with no noun (WordNet)"  # either end
    assert ask(text, "adjective_only", 3, 2) is None


@pytest.mark.parametrize("name", sorted(PREDICATES))
def test_predicates_answer_with_evidence_or_none_for_every_pair(name):
    """Evidence is a non-empty string, or an ``Evidence`` whose ``str()`` gives one when provenance is read."""
    text = ("[Mr. Finch|person] in the left leg on 3/12 ; [MRSA|problem] [Methicillin-resistant Staphylococcus aureus|problem]"
            " ; [febrile|problem] ; [he|pronoun]")
    table = mention_table(text, *PREDICATES[name].attributes)
    test = PREDICATES[name].bind()
    for i in range(table.n):
        for j in range(table.n):
            got = test(table, i, j)
            assert got is None or isinstance(got, (str, Evidence)), (name, i, j, got)
            assert got is None or (isinstance(str(got), str) and str(got)), (name, i, j)


# -- syntax (issue 35) --------------------------------------------------------------------------------------
def test_predicates_same_role():
    from tests.helpers import parsed

    doc = parsed("[Ann|person] hired [Bo|person] , and [she|pronoun] left .",
                 "nsubj:1 ROOT:1 dobj:1 punct:1 cc:1 nsubj:6 conj:1 punct:1")
    assert ask(doc, "same_role", 2, 0) == "both subjects"
    assert ask(doc, "same_role", 2, 1) is None
    assert ask(doc, "same_role", 1, 0, roles=["object"]) is None
    plain = Document(name="plain", lines=doc.lines, concepts=doc.concepts)  # no parse: never holds
    assert ask(plain, "same_role", 2, 0) is None
