"""Grammatical roles and syntactic heads from a dependency parse (rulecoref/attributes/syntax.py), and
the salience attributes that read the parse when a document has one; hand-written parses, no model."""

from __future__ import annotations

import pytest

from tests.helpers import parsed

# "Ann , the chef , told Bo that her son left ."
CHEF = ("[Ann|person] , [the chef|person] , told [Bo|person] that [her|pronoun] son left .",
        "nsubj:5 punct:0 det:3 appos:0 punct:0 ROOT:5 dobj:5 mark:10 poss:9 nsubj:10 ccomp:5 punct:5")


def table(pipeline, doc, *names):
    return pipeline.table(doc, list(names))


def test_attributes_grammatical_role(pipeline):
    t = table(pipeline, parsed(*CHEF), "grammatical_role")
    assert t["grammatical_role"] == ["subject", "subject", "object", "possessor"]  # the apposition shares Ann's


def test_attributes_grammatical_role_of_a_conjunct_and_an_oblique(pipeline):
    doc = parsed("[Ann|person] and [Bo|person] sang with [Cy|person] .",
                 "nsubj:3 cc:0 conj:0 ROOT:3 prep:3 pobj:4 punct:3")
    assert table(pipeline, doc, "grammatical_role")["grammatical_role"] == ["subject", "subject", "oblique"]


def test_attributes_grammatical_role_is_none_without_a_parse(pipeline):
    from rulecoref.markup import parse_markup

    doc, _ = parse_markup(CHEF[0])
    assert table(pipeline, doc, "grammatical_role")["grammatical_role"] == [None] * 4


def test_attributes_syntactic_head(pipeline):
    t = table(pipeline, parsed(*CHEF), "syntactic_head")
    assert t["syntactic_head"] == [(1, 0), (1, 3), (1, 6), (1, 8)]  # "the [chef]"


@pytest.mark.parametrize("markup, arcs, role", [
    # word order says possessive ("her" before a noun); the parse says object: "gave [her] flowers"
    ("Bo gave [her|pronoun] flowers .", "nsubj:1 ROOT:1 dative:1 dobj:1 punct:1", "object"),
    # word order says subject ("he"); the parse: the object of "than"? no, a conjunct of a subject
    ("[he|pronoun] and Bo left .", "nsubj:3 cc:0 conj:0 ROOT:3 punct:3", "subject"),
    ("Bo hurt [himself|pronoun] .", "nsubj:1 ROOT:1 dobj:1 punct:1", "reflexive"),
])
def test_attributes_pronoun_role_by_the_parse(pipeline, markup, arcs, role):
    assert table(pipeline, parsed(markup, arcs), "pronoun_role")["pronoun_role"] == [role]


def test_attributes_subject_position_by_the_parse(pipeline):
    """Word order sees no subject after "After the war" (no comma); the parse does."""
    from rulecoref.markup import parse_markup

    text = "After the war [Smith|person] resigned ."
    plain, _ = parse_markup(text)
    assert table(pipeline, plain, "subject_position")["subject_position"] == [False]
    doc = parsed(text, "prep:4 det:2 pobj:0 nsubj:4 ROOT:4 punct:4")
    assert table(pipeline, doc, "subject_position")["subject_position"] == [True]
    doc = parsed("[Bo|person] met Ann .", "dobj:1 ROOT:1 nsubj:1 punct:1")  # an inverted parse: roles win
    assert table(pipeline, doc, "subject_position")["subject_position"] == [False]


def test_attributes_name_occurrences_by_the_parse(pipeline):
    doc = parsed("[Sandra Collins|person] is a DJ .\nBo met Collins .",
                 "compound:1 nsubj:2 ROOT:2 det:4 attr:2 punct:2|nsubj:1 ROOT:1 dobj:1 punct:1")
    (occ,) = table(pipeline, doc, "name_occurrences")["name_occurrences"]
    assert occ.places() == [(1, 0, 1, True), (2, 2, 2, False)]
