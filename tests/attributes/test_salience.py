"""Pronoun roles, subject positions and name occurrences (rulecoref/attributes/salience.py), with the
bundled rules/i2b2.yaml settings."""

from __future__ import annotations

import pytest

from tests.attributes.helpers import i2b2_column as column


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
