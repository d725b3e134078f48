"""Acronyms and the initials of long forms (rulecoref/attributes/acronyms.py)."""

from __future__ import annotations

from tests.attributes.helpers import column
from tests.helpers import settings_pipeline


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
