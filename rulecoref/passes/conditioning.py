"""Common-word conditioning shared by the meaning matchers (seed 001, "Match by meaning").

Before two concepts are compared, words that do not carry their meaning are dropped: words in a
common-word list (conjunctions, pronouns, determiners, ...), adjectives found by WordNet
("large", "painful") and then every non-letter character. "the large Abscess-like ..." ->
["abscesslike"]. Not a pass of its own: head_synonym, acronym, umls and the people linker call it.

``keep_digits=True`` keeps digits as part of a word (a departure from the seed, opt-in per pass):
stripping them makes "type 1 diabetes" and "type 2 diabetes", or "Pax6" and "Pax7", the same words.

Each token is conditioned on its own (``word``), so results are cached per token as well as per
token sequence: a mention never seen before is usually made of tokens seen before, and then costs
no regular expression and no WordNet lookup.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..resources.lexicon import Lexicon

_NON_LETTERS = re.compile(r"[^a-z]+")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_CACHE_LIMIT = 200_000  # token sequences (and tokens) remembered; a cache is cleared when it grows past this


class Conditioner:
    """Turns concept tokens into meaning-bearing words; results are cached per token tuple."""

    def __init__(self, common: Lexicon, wordnet: Any | None = None, *, drop_adjectives: bool = True,
                 keep_digits: bool = False):
        self.common = common
        self.wordnet = wordnet if drop_adjectives else None
        self._strip = _NON_ALNUM if keep_digits else _NON_LETTERS
        self._cache: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._words: dict[str, str] = {}  # token -> its conditioned word, "" when dropped

    def word(self, token: str) -> str:
        """The conditioned word of one token, or "" when conditioning drops it."""
        hit = self._words.get(token)
        if hit is None:
            if len(self._words) > _CACHE_LIMIT:
                self._words.clear()
            hit = self._words[token] = self._condition(token)
        return hit

    def _condition(self, token: str) -> str:
        common = self.common.words
        low = token.lower()
        if low in common:
            return ""
        letters = self._strip.sub("", low)
        if not letters or letters in common:
            return ""
        wn = self.wordnet
        if wn is not None and wn.is_adjective(low if low.isalpha() else letters):
            return ""
        return letters

    def __call__(self, tokens: Sequence[str]) -> tuple[str, ...]:
        key = tuple(tokens)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        if len(self._cache) > _CACHE_LIMIT:
            self._cache.clear()
        word = self.word
        result = tuple(w for w in map(word, key) if w)
        self._cache[key] = result
        return result
