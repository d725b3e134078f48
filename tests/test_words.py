"""Pure word functions shared by mention attributes and pair predicates (rulecoref/words.py)."""

from __future__ import annotations

import pytest

from rulecoref.words import (
    acronym_forms,
    acronym_letters,
    clues_conflict,
    date_parts,
    dates_compatible,
    find_phrases,
    has_alnum,
    initials,
    is_possessive,
    norm_word,
    norm_words,
    normalise,
    prefix_len,
    prefix_match,
)


@pytest.mark.parametrize("a,b,expected", [
    ("abscess", "abscesses", True),
    ("abscesses", "abscess", True),
    ("pain", "pain", True),
    ("actin", "activation", True),  # 4 of 5 letters: the seed's 80%
    ("chest", "back", False),
    ("", "x", False),
    ("", "", True),
])
def test_words_prefix_match_seed(a, b, expected):
    assert prefix_match(a, b) is expected


def test_words_prefix_match_guards():
    assert not prefix_match("actin", "activation", max_ending=3)  # "vation" is no ending
    assert prefix_match("abscess", "abscesses", max_ending=3)
    assert not prefix_match("abcg5", "abcg8", max_ending=3)  # digits in the endings
    assert prefix_match("b", "bacteria")  # "b" is 80% of "b"
    assert not prefix_match("b", "bacteria", min_prefix=3)
    assert prefix_match("quillo", "quilla", 0.8) and not prefix_match("quillo", "quilla", 1.0)


@pytest.mark.parametrize("n,ratio,expected", [(5, 0.8, 4), (7, 0.8, 6), (3, 0.8, 3), (1, 0.8, 1), (4, 0.5, 2), (6, 1.0, 6)])
def test_words_prefix_len_is_the_ceiling(n, ratio, expected):
    assert prefix_len(n, ratio) == expected


def test_words_initials():
    assert initials(["Methicillin-resistant", "Staphylococcus", "aureus"]) == "mrsa"  # hyphen parts count
    assert initials(["chronic", "obstructive", "pulmonary", "disease"]) == "copd"
    assert initials(["(", "x-ray"]) == "xr"  # parts without a letter give none


@pytest.mark.parametrize("token,min_upper,expected", [
    ("MRSA", 2, "mrsa"), ("FGFs", 2, "fgf"), ("CTs", 2, "ct"), ("Shh", 2, None), ("Mr", 2, None), ("CP49", 2, None),
    ("mri", 2, None), ("mri", 0, "mri"), ("C-P", 2, "cp"), ("(", 2, None), ("MrSa", 2, None), ("CoPD", 2, "copd"),
])
def test_words_acronym_letters(token, min_upper, expected):
    assert acronym_letters(token, min_upper) == expected


def test_words_find_phrases_longest_first():
    phrases = frozenset({("was",), ("thought", "to", "be"), ("likely",), ("most", "likely")})
    hits = find_phrases("was thought to be most likely".split(), phrases, 3)
    assert hits == [(0, 1, "was"), (1, 4, "thought to be"), (4, 6, "most likely")]
    assert find_phrases(["Was", "THOUGHT", "to", "be"], phrases, 3)[1][2] == "thought to be"  # compared lowercased
    assert find_phrases(["thought", "to", "be"], phrases, 2) == []  # max_len bounds the phrases tried


def test_words_dates():
    assert date_parts("March 12 , 2010") == date_parts("03/12/2010") == {"3", "12", "2010"}
    assert dates_compatible("3/12", "03/12/2010") and dates_compatible("03/12/2010", "3/12")
    assert not dates_compatible("3/12", "3/19")
    assert not dates_compatible("2009", "3/12/2010")


def test_words_clues_conflict():
    assert clues_conflict({"left", "leg"}, {"right", "leg"})
    assert not clues_conflict({"left", "leg"}, {"leg"})
    assert not clues_conflict({"leg"}, {"left", "leg"})
    assert not clues_conflict(set(), {"leg"})


def test_words_normalise():
    assert normalise(["The", "Chest-pain", "."], frozenset({"the"})) == "chest-pain"
    assert normalise(["Chest", "pain"]) == normalise(["chest", "PAIN", ","]) == "chest pain"
    assert normalise([".", "--"]) == ""


@pytest.mark.parametrize("token,expected", [
    ("Dr.", "dr"), ("M.D.", "md"), ("Smith's", "smith"), ("nurses'", "nurses"), (",", ""), ("PA-C", "pa-c"),
    ("Smith\u2019s", "smith"), ("-x-", "x"),
])
def test_words_norm_word(token, expected):
    assert norm_word(token) == expected


def test_words_norm_words_drop_punctuation():
    assert norm_words(["Dr.", "Smith's", ","]) == ("dr", "smith")


def test_words_is_possessive_and_has_alnum():
    assert is_possessive("Smith's") and is_possessive("nurses'") and is_possessive("Smith\u2019s")
    assert not is_possessive("'s") and not is_possessive("Smith")
    assert has_alnum("--a") and has_alnum("\u00bd") and has_alnum("5")
    assert not has_alnum("_-") and not has_alnum("") and not has_alnum(",")


def _in_order(short: str, long: str) -> bool:
    """The letters of ``short`` occur in ``long`` in order ("msa" in "mrsa")."""
    it = iter(long)
    return all(ch in it for ch in short)


def test_words_acronym_forms():
    assert acronym_forms("mrsa") == {"mrsa", "mrs", "mra", "msa"}  # 3 of 4 initials cover 0.6, starting with m
    assert acronym_forms("mrsa", subsequence=False) == {"mrsa"}
    assert acronym_forms("mrsa", min_coverage=1.0) == {"mrsa"} and acronym_forms("") == frozenset()
    assert acronym_forms("copd", min_letters=2, min_coverage=0.5) == {"copd", "co", "cp", "cd", "cop", "cod", "cpd"}
    # every form starts with the first initial and keeps the order: each word of a 8-word long form is a subsequence
    forms = acronym_forms("abcdefgh")
    assert all(f[0] == "a" and _in_order(f, "abcdefgh") and len(f) >= 5 for f in forms) and len(forms) == 64
