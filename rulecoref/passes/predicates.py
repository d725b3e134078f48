"""Pure matching functions shared by passes (the dcoref ``Rules.java`` idea): plain strings and
lexicons in, a bool or a string out. No document mutation, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_NON_ALNUM = re.compile(r"[^0-9a-z]+")


def normalise(tokens: Sequence[str], ignore: Iterable[str] | frozenset[str] = frozenset()) -> str:
    """Lowercase, drop tokens without letters or digits and ignored words, join with one space.

    "The  Chest-pain ." -> "chest-pain" (with "the" ignored); punctuation tokens never decide a match.
    """
    ignore = ignore if isinstance(ignore, (set, frozenset)) else frozenset(ignore)
    out = []
    for tok in tokens:
        low = tok.lower()
        if low in ignore or not _NON_ALNUM.sub("", low):
            continue
        out.append(low)
    return " ".join(out)
