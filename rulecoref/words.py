"""Pure functions on words and token sequences, shared by mention attributes and pair predicates.

Plain strings in, a bool, a string or a small value out: no document, no resources, no I/O (the
dcoref ``Rules.java`` idea). Each says its linguistic reason with an example.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import combinations

_ALNUM = re.compile(r"[0-9a-z]")
_POSSESSIVE = re.compile(r"(?:['\u2019]s|s['\u2019]|['\u2019])$")
_DROP = re.compile(r"[^0-9a-z-]+")
_DATE_PART = re.compile(r"[a-z]+|\d+")
_MONTHS = {m: str(i) for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}
CLAUSE_END = frozenset({".", ";", ":", "?", "!"})
BRACKETS = frozenset("([{")


def has_alnum(token: str) -> bool:
    """A token with a letter or digit is a word; "," and "(" are not."""
    return token.isalnum() or any(ch.isalnum() for ch in token)  # most tokens are all letters


def normalise(tokens: Sequence[str], ignore: frozenset[str] = frozenset()) -> str:
    """Lowercase, drop tokens without letters or digits and ignored words, join with one space.

    "The  Chest-pain ." -> "chest-pain" (with "the" ignored); punctuation tokens never decide a match.
    """
    return " ".join(low for low in map(str.lower, tokens) if low not in ignore and (low.isalnum() or _ALNUM.search(low)))


def prefix_len(n: int, ratio: float = 0.8) -> int:
    """Characters two words must share when the shorter has ``n``: ceil(ratio * n)."""
    return -int(-ratio * n // 1)


def prefix_match(a: str, b: str, ratio: float = 0.8, *, min_prefix: int = 1, max_ending: int = 0) -> bool:
    """Seed 001's word comparison: the first ``ratio`` of the shorter word's characters equal the
    longer word's ("abscess" / "abscesses": 6 of 7 letters agree -> match).

    A prefix shorter than ``min_prefix`` means the words must be equal (a one-letter word would
    match every word with its letter); ``max_ending`` > 0 lets the words differ only by endings of
    at most that many letters and no digits ("actin" / "activation" and "abcg5" / "abcg8" differ).
    """
    if a == b:
        return True
    if len(a) > len(b):
        a, b = b, a
    if not a:
        return False
    k = prefix_len(len(a), ratio)
    if k < min_prefix or a[:k] != b[:k]:
        return False
    if max_ending <= 0:
        return True
    rest = a[k:] + b[k:]
    return len(a) - k <= max_ending and len(b) - k <= max_ending and not any(ch.isdigit() for ch in rest)


def initials(words: Sequence[str]) -> str:
    """First letters of the words of a multi-word concept, hyphenated parts counted as words:
    "Methicillin-resistant Staphylococcus aureus" -> "mrsa"."""
    return "".join(part[0].lower() for w in words for part in w.split("-") if part.strip()[:1].isalnum())


def acronym_letters(token: str, min_upper: int = 2) -> str | None:
    """The lowercased letters of a token written like an acronym, else None.

    An acronym has at least ``min_upper`` capitals and more capitals than lowercase letters, a
    plural "s" allowed: "MRSA", "COPD", "CTs" -> "ct"; "Shh", "Mr", "CP49" (a name with a number)
    -> None. ``min_upper=0`` accepts any alphabetic token (text written all in lowercase).
    """
    word = token[:-1] if len(token) > 2 and token.endswith("s") and token[-2].isupper() else token
    if any(ch.isdigit() for ch in word):
        return None
    letters = "".join(ch for ch in word if ch.isalpha())
    if not letters:
        return None
    if min_upper > 0:
        upper = sum(ch.isupper() for ch in letters)
        if upper < min_upper or upper <= len(letters) - upper:
            return None
    return letters.lower()


def acronym_forms(initials: str, *, subsequence: bool = True, min_letters: int = 2, min_coverage: float = 0.6
                  ) -> frozenset[str]:
    """The acronyms a long form with these initials admits: the initials and, with
    ``subsequence``, every run of them in order that starts with the first and covers
    ``min_coverage`` of them: "mrsa" -> {mrsa, mrs, mra, msa}."""
    forms = {initials} if initials else set()
    if initials and subsequence:
        shortest = max(min_letters, prefix_len(len(initials), min_coverage))
        for n in range(shortest, len(initials)):
            forms.update(initials[0] + "".join(rest) for rest in combinations(initials[1:], n - 1))
    return frozenset(forms)


def find_phrases(tokens: Sequence[str], phrases: frozenset[tuple[str, ...]], max_len: int) -> list[tuple[int, int, str]]:
    """Non-overlapping occurrences of phrases (token tuples) in ``tokens``, longest first at each
    position, left to right, as (start, end_exclusive, phrase); tokens compare lowercased:
    "was thought to be" with {("was",), ("thought", "to", "be")} -> two hits."""
    low = [t.lower() for t in tokens]
    out: list[tuple[int, int, str]] = []
    i = 0
    while i < len(low):
        for k in range(min(max_len, len(low) - i), 0, -1):
            cand = tuple(low[i: i + k])
            if cand in phrases:
                out.append((i, i + k, " ".join(cand)))
                i += k
                break
        else:
            i += 1
    return out


def date_parts(text: str) -> frozenset[str]:
    """The components of a date however it is written: numbers without leading zeros, month
    names as numbers. "03/12/2010" and "March 12 , 2010" -> {"3", "12", "2010"}."""
    out = set()
    for part in _DATE_PART.findall(text.lower()):
        if part.isdigit():
            out.add(str(int(part)))
        elif part[:3] in _MONTHS:
            out.add(_MONTHS[part[:3]])
    return frozenset(out)


def dates_compatible(a: str, b: str) -> bool:
    """Two dates may be the same day when the parts of one are all parts of the other: "3/12" and
    "03/12/2010" may; "3/12" and "3/19", or "2009" and "3/12/2010", may not."""
    pa, pb = date_parts(a), date_parts(b)
    return pa <= pb or pb <= pa


def clues_conflict(a: Iterable[str], b: Iterable[str]) -> bool:
    """Clue sets of two mentions contradict when both have clues and neither contains the other:
    {"left", "leg"} vs {"right", "leg"} conflict; {"left", "leg"} vs {"leg"} do not."""
    if not a or not b:  # most mentions have no clues: nothing to compare, nothing to build
        return False
    a, b = frozenset(a), frozenset(b)
    return bool(a) and bool(b) and not (a <= b or b <= a)


def norm_word(token: str) -> str:
    """The people linker's comparison form of a token: "Dr." -> "dr", "Smith's" -> "smith",
    "nurses'" -> "nurses", "," -> ""."""
    low = token.lower()
    if low.endswith(("s'", "s\u2019")) and len(low) > 2:
        low = low[:-1]
    else:
        low = _POSSESSIVE.sub("", low)
    return _DROP.sub("", low).strip("-")


def norm_words(tokens: Iterable[str]) -> tuple[str, ...]:
    """Comparison forms of tokens, punctuation dropped."""
    return tuple(w for w in map(norm_word, tokens) if w)


def is_possessive(token: str) -> bool:
    """ "Smith's", "nurses'": the token owns what follows it."""
    low = token.lower()
    return low.endswith(("'s", "\u2019s", "s'", "s\u2019")) and len(low) > 2
