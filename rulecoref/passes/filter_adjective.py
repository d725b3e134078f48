"""``filter_adjective``: a mention that is only an adjective names no thing, so it links to nothing.

Seed 001, "Link filtering": "any mention that is found to be an adjective with no noun included has
any links to it removed" (a concept such as "hypertensive" or "afebrile" describes, it does not
refer). A mention is adjectival when, after its common words and non-words are dropped, every
word is known to WordNet, none has a noun sense, and at least one is an adjective. Words WordNet
does not know ("mrsa", "methicillin-resistant") might be names, so they keep a mention.
The scope (``applies_to``) says which mentions are checked; every link of an adjectival mention
goes, whatever the other end.

The mentions a link touches are judged at once, not link by link: a mention whose last token is a
word WordNet does not know, or knows as a noun, is settled by that token alone (one cached lookup;
most noun phrases end so), the few others by their whole text; then only the links touching an
adjectival mention are visited, in the order the links were made.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import compress, repeat
from operator import is_, itemgetter, not_, or_

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .predicates import MAIN_LINKER_KINDS, scope_mask

_CACHE_LIMIT = 200_000  # token sequences (tokens) remembered per process; cleared when exceeded
_first, _second = itemgetter(0), itemgetter(1)


@register("filter_adjective")
class FilterAdjective(Pass):
    role = "filter"
    # A filter reads the links the main linker made: its examples run after those passes.
    requires = MAIN_LINKER_KINDS
    params = {
        "common_words": Param("wordlist", default="resources/lexicons/common_words.txt",
                              help="words ignored when deciding (determiners, conjunctions, ...)"),
    }
    needs = ("wordnet",)

    def setup(self) -> None:
        self.common = self.lexicon("common_words").words
        self.wordnet = self.resources.wordnet
        self._cache: dict[tuple[str, ...], bool] = {}
        self._blocks: dict[str, bool] = {}  # token -> it keeps any mention holding it from being adjectival

    def adjectival(self, tokens: Sequence[str]) -> bool:
        """True for "hypertensive", "very painful"; False for "cold", "pain", "mrsa", "the"."""
        key = tuple(tokens)  # cached as written: lowercasing every key would cost more than it saves
        hit = self._cache.get(key)
        if hit is None:
            if len(self._cache) > _CACHE_LIMIT:
                self._cache.clear()
            low = [t.lower() for t in key]
            words = [t for t in low if t not in self.common and t.replace("-", "").isalpha()]
            wn = self.wordnet
            hit = bool(words) and all(wn.knows(w) and not wn.has_noun(w) for w in words) and any(
                wn.is_adjective(w) for w in words)
            self._cache[key] = hit
        return hit

    def blocks(self, token: str) -> bool:
        """True when ``token`` alone keeps a mention from being adjectival: a word that counts (not a
        common word, letters and hyphens) and that WordNet does not know or knows as a noun
        ("pain", "mrsa"); cached per token as written."""
        hit = self._blocks.get(token)
        if hit is None:
            if len(self._blocks) > _CACHE_LIMIT:
                self._blocks.clear()
            low = token.lower()
            wn = self.wordnet
            hit = (low not in self.common and low.replace("-", "").isalpha()
                   and not (wn.knows(low) and not wn.has_noun(low)))
            self._blocks[token] = hit
        return hit

    def reject(self, doc: Document, ctx: Context) -> Iterator[tuple[tuple[int, int], str]]:
        links = ctx.links
        if not links:
            return
        concepts = doc.concepts
        pairs = list(links)
        touched = set(map(_first, pairs))
        touched.update(map(_second, pairs))
        ids = list(touched)
        mask = scope_mask(doc, self.scope.admits_type, ctx.state)
        if mask is not None:
            ids = list(compress(ids, map(mask.__getitem__, ids)))
        # most mentions end with a noun, which settles them: judge only the others in full
        flat = doc.flat_tokens
        lasts = list(map(flat.__getitem__, map(doc.concept_ends.__getitem__, ids)))
        blocked = list(map(self._blocks.get, lasts))
        for k in compress(range(len(ids)), map(is_, blocked, repeat(None))):  # tokens not seen before
            blocked[k] = self.blocks(lasts[k])
        tokens = doc.concept_tokens
        adjectival = {i for i in compress(ids, map(not_, blocked)) if self.adjectival(tokens[i])}
        if not adjectival:
            return
        is_adj = adjectival.__contains__
        for a, b in compress(pairs, map(or_, map(is_adj, map(_first, pairs)), map(is_adj, map(_second, pairs)))):
            i = a if a in adjectival else b
            yield (a, b), f"'{concepts[i].text}' is an adjective with no noun (WordNet)"
