"""Pure matching functions shared by passes (the dcoref ``Rules.java`` idea): plain strings and
lexicons in, a bool or a string out. No document mutation, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_ALNUM = re.compile(r"[0-9a-z]")


def normalise(tokens: Sequence[str], ignore: Iterable[str] | frozenset[str] = frozenset()) -> str:
    """Lowercase, drop tokens without letters or digits and ignored words, join with one space.

    "The  Chest-pain ." -> "chest-pain" (with "the" ignored); punctuation tokens never decide a match.
    """
    if not isinstance(ignore, (set, frozenset)):
        ignore = frozenset(ignore)
    search = _ALNUM.search
    return " ".join(
        low for low in map(str.lower, tokens) if low not in ignore and (low.isalnum() or search(low))
    )


def prefix_match(a: str, b: str, ratio: float = 0.8) -> bool:
    """Seed 001's word comparison: the first ``ratio`` of the shorter word's characters equal the
    longer word's same characters ("abscess" / "abscesses": 6 of 7 letters agree -> match).

    The prefix length is ceil(ratio * len(shorter)) so that short words need (nearly) all letters.
    """
    if a == b:
        return True
    if len(a) > len(b):
        a, b = b, a
    if not a:
        return False
    k = -int(-ratio * len(a) // 1)  # ceil without importing math
    return a[:k] == b[:k]


def initials(words: Sequence[str]) -> str:
    """First letters of the words of a multi-word concept, with hyphenated parts counted as words:
    "Methicillin-resistant Staphylococcus aureus" -> "mrsa"."""
    out = []
    for w in words:
        for part in w.split("-"):
            part = part.strip()
            if part and part[0].isalnum():
                out.append(part[0].lower())
    return "".join(out)


def is_subsequence(short: str, long: str) -> bool:
    """True when the letters of ``short`` occur in ``long`` in order ("mrsa" in "mrssa")."""
    it = iter(long)
    return all(ch in it for ch in short)
