"""Pure matching helpers shared by the passes (rulecoref/passes/predicates.py)."""

from __future__ import annotations

import pytest

from rulecoref.passes.predicates import (
    acronym_letters,
    acronym_matches,
    clues_conflict,
    date_parts,
    dates_compatible,
    find_phrases,
    initials,
    is_subsequence,
    normalise,
    prefix_match,
    trigger_windows,
)
from tests.helpers import random_spans


@pytest.mark.parametrize("a,b,expected", [
    ("abscess", "abscesses", True),
    ("abscesses", "abscess", True),
    ("pain", "pain", True),
    ("actin", "activation", True),
    ("chest", "back", False),
    ("", "x", False),
])
def test_predicates_prefix_match_seed(a, b, expected):
    assert prefix_match(a, b) is expected


def test_predicates_prefix_match_guards():
    assert not prefix_match("actin", "activation", max_ending=3)
    assert prefix_match("abscess", "abscesses", max_ending=3)
    assert not prefix_match("abcg5", "abcg8", max_ending=3)  # digits in the endings
    assert prefix_match("b", "bacteria")
    assert not prefix_match("b", "bacteria", min_prefix=3)


def test_predicates_initials_and_subsequence():
    assert initials(["Methicillin-resistant", "Staphylococcus", "aureus"]) == "mrsa"
    assert is_subsequence("msa", "mrsa") and not is_subsequence("sam", "mrsa")


def test_predicates_acronyms():
    assert acronym_letters("MRSA") == "mrsa"
    assert acronym_letters("FGFs") == "fgf"
    assert acronym_letters("Shh") is None and acronym_letters("CP49") is None
    assert acronym_letters("mri") is None and acronym_letters("mri", min_upper=0) == "mri"
    assert acronym_matches("mrsa", "mrsa")
    assert acronym_matches("copd", "copd")
    assert acronym_matches("lh", "lvh")
    assert not acronym_matches("ms", "mrsa")  # covers half the initials
    assert not acronym_matches("rsa", "mrsa")  # must start with the first initial
    assert not acronym_matches("lh", "lvh", subsequence=False)


def test_predicates_find_phrases_longest_first():
    hits = find_phrases("was thought to be most likely".split(), {("was",), ("thought", "to", "be"), ("likely",),
                                                                  ("most", "likely")})
    assert [h[2] for h in hits] == ["was", "thought to be", "most likely"]


def test_predicates_trigger_windows():
    assert trigger_windows(["the"], ["in", "the", "left", "leg", ".", "x"], {"in"}, 4) == [["the", "left", "leg"]]
    assert trigger_windows(["the", "left", "leg", "is"], ["."], {"is"}, 4) == [["the", "left", "leg"]]
    assert trigger_windows(["left"], ["leg"], {"in"}, 4) == []


def test_predicates_clues_and_dates():
    assert clues_conflict({"left", "leg"}, {"right", "leg"})
    assert not clues_conflict({"left", "leg"}, {"leg"})
    assert not clues_conflict(set(), {"leg"})
    assert date_parts("March 12 , 2010") == date_parts("03/12/2010") == {"3", "12", "2010"}
    assert dates_compatible("3/12", "03/12/2010")
    assert not dates_compatible("3/12", "3/19")
    assert not dates_compatible("2009", "3/12/2010")


def test_predicates_normalise():
    assert normalise(["The", "Chest-pain", "."], {"the"}) == "chest-pain"


def test_predicates_case_variants():
    from rulecoref.passes.predicates import case_variants

    assert case_variants(["is"]) == {"is", "Is", "iS", "IS"}
    assert case_variants(["'s", "c/w"]) == {"'s", "'S", "c/w", "C/w", "c/W", "C/W"}
    assert "\u212anoWN" in case_variants(["known"])  # the Kelvin sign lowercases to "k"
    assert case_variants(["\u00e9t\u00e9"]) is None
    assert case_variants(["consistent"], limit=100) is None
    assert case_variants([]) == frozenset()
    for words in (["is", "was", "known"], ["a.k.a.", "c/w"]):
        for v in case_variants(words):
            assert v.lower() in words


def test_predicates_case_variants_complete_over_every_code_point():
    # case_variants relies on these two facts about str.lower; they hold for the running Python's
    # Unicode tables or the test fails
    import sys

    lower_is_ascii = {cp for cp in range(sys.maxunicode + 1) if chr(cp).lower().isascii()}
    assert lower_is_ascii == set(range(128)) | {0x212A}
    assert all(len(chr(cp).lower()) == 1 for cp in lower_is_ascii)


def _random_window_doc(rng):
    from rulecoref.document import Concept, Document

    words = ["in", "In", "IN", "iN", "on", "of", "the", "left", "leg", ".", ";", "?", "3/12", "x", "is", "..", "a.b"]
    lines = [[rng.choice(words) for _ in range(rng.randint(0, 9))] for _ in range(rng.randint(1, 5))]
    if not any(lines):
        lines[0] = ["x"]
    spans = random_spans(rng, lines, rng.randint(1, 15), [0, 0, 1, 2, 5])
    concepts = [Concept(index=k, text="x", type="problem", start=s, end=e) for k, (s, e) in enumerate(spans)]
    return Document(name="random", lines=lines, concepts=concepts)


@pytest.mark.parametrize("window,look_before", [(4, True), (4, False), (1, True), (9, True)])
def test_predicates_clue_window_texts_match_windows(window, look_before):
    # ClueWindows.texts (many concepts at once) gives exactly the windows of ClueWindows.__call__
    import random

    from rulecoref.passes.predicates import ClueWindows

    rng = random.Random(window * 2 + look_before)
    triggers = frozenset({"in", "on", "of", "is"})
    seen = 0
    for _ in range(400):
        doc = _random_window_doc(rng)
        bulk = ClueWindows(doc, triggers, window, look_before)
        one = ClueWindows(doc, triggers, window, look_before)
        everyone = list(range(len(doc.concepts)))
        for ask in (everyone, everyone[::2], everyone):  # partly cached on the second and third ask
            found, after, before = bulk.texts(ask)
            got = {i: [w.split(" ") for w in (a, b) if w] for i, a, b in zip(found, after, before)}
            assert found == [i for i in ask if i in got]
            assert {i: one(i) for i in ask if one(i) or i in got} == got
            seen += len(found)
    assert seen


def test_predicates_scope_mask_and_judged_concepts():
    from rulecoref.document import Concept, Document
    from rulecoref.passes.predicates import judged_concepts, scope_mask

    kinds = ["problem", "person", "problem", "pronoun", "test", "problem"]
    doc = Document(name="d", lines=[["w"] * len(kinds)],
                   concepts=[Concept(index=k, text="w", type=t, start=(1, k), end=(1, k)) for k, t in enumerate(kinds)])
    assert scope_mask(doc, lambda t: True) is None
    for admitted in ({"problem"}, {"problem", "test", "person"}, {"pronoun"}, set()):
        state: dict = {}
        mask = scope_mask(doc, admitted.__contains__, state)
        assert mask == [t in admitted for t in kinds]
        assert scope_mask(doc, admitted.__contains__, state) is mask  # shared through the state
    mask = scope_mask(doc, {"problem", "test"}.__contains__)
    assert list(judged_concepts(6, [(0, 2)], mask)) == [0, 2]  # few links: the concepts they touch
    assert list(judged_concepts(6, [(0, 1), (2, 3), (4, 5)], mask)) == [0, 2, 4, 5]  # many: all in scope
    assert list(judged_concepts(6, [(0, 1), (2, 3), (4, 5)], None)) == list(range(6))
    assert list(judged_concepts(6, [(3, 1)], None)) == [1, 3]
    assert list(judged_concepts(6, [(0, 1), (2, 5)], mask)) == [0, 2, 5]


def test_predicates_judged_pairs():
    from rulecoref.passes.predicates import judged_pairs

    asked = []

    def judge(ids):  # the even concepts have a finding
        asked.append(ids)
        return {i: f"f{i}" for i in ids if i % 2 == 0}

    pairs = [(4, 6), (0, 1), (2, 8), (6, 7), (0, 2), (3, 4)]
    got, found = judged_pairs(pairs, None, judge)
    assert got == [(4, 6), (2, 8), (0, 2)]  # both ends with a finding, in the links' order
    assert asked == [[0, 2, 3, 4, 6], [1, 7, 8]]  # first ends, then the second ends of those links not known yet
    assert found == {0: "f0", 2: "f2", 4: "f4", 6: "f6", 8: "f8"}
    mask = [True] * 9
    mask[8] = False
    assert judged_pairs(pairs, mask, judge)[0] == [(4, 6), (0, 2)]  # a link with an end out of scope is not judged
    assert judged_pairs([(1, 2), (3, 4)], None, judge) == ([], {})


def test_has_alnum_is_any_isalnum_for_every_code_point():
    from rulecoref.passes.predicates import has_alnum

    chars = [chr(c) for c in range(0x110000)]
    assert [c for c in chars if bool(has_alnum(c)) != c.isalnum()] == []
    assert has_alnum("--a") and has_alnum("½") and not has_alnum("_-") and not has_alnum("")
