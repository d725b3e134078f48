"""``filter_adjective``: a mention that is only an adjective names no thing, so it links to nothing.

Seed 001, "Link filtering": "any mention that is found to be an adjective with no noun included has
any links to it removed" (a concept such as "hypertensive" or "afebrile" describes, it does not
refer). A mention is adjectival when, after its common words and non-words are dropped, every
word is known to WordNet, none has a noun sense, and at least one is an adjective. Words WordNet
does not know ("mrsa", "methicillin-resistant") might be names, so they keep a mention.
The scope (``applies_to``) says which mentions are checked; every link of an adjectival mention
goes, whatever the other end.

The mentions (those the links touch, when links are few) are judged at once, not link by link: a
mention whose last token is a word WordNet does not know, or knows as a noun, is settled by that
token alone (one cached lookup; most noun phrases end so), as is a one-token mention, and many
others by their first token; the few left by their whole text. Then only the links touching an
adjectival mention are visited, in the order the links were made.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import compress, repeat
from operator import and_, eq, is_, not_

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .predicates import MAIN_LINKER_KINDS, judged_concepts, scope_mask

_CACHE_LIMIT = 200_000  # token sequences (tokens) remembered per process; cleared when exceeded
BLOCKS, NOT_A_WORD, OTHER_WORD, ADJECTIVE = 0, 1, 2, 3  # FilterAdjective.word_class


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
        self._classes: dict[str, int] = {}  # token -> word_class

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

    def word_class(self, token: str) -> int:
        """What ``token`` says about a mention holding it: BLOCKS (a word, as adjectival counts words:
        not a common word, letters and hyphens; that WordNet does not know or knows as a noun:
        "pain", "mrsa"), ADJECTIVE (a known word, no noun, an adjective: "febrile"), OTHER_WORD (a
        known word, no noun, not an adjective) or NOT_A_WORD ("the", "3", ","); cached per token."""
        hit = self._classes.get(token)
        if hit is None:
            if len(self._classes) > _CACHE_LIMIT:
                self._classes.clear()
            low = token.lower()
            wn = self.wordnet
            if low in self.common or not low.replace("-", "").isalpha():
                hit = NOT_A_WORD
            elif not wn.knows(low) or wn.has_noun(low):
                hit = BLOCKS
            else:
                hit = ADJECTIVE if wn.is_adjective(low) else OTHER_WORD
            self._classes[token] = hit
        return hit

    def reject(self, doc: Document, ctx: Context) -> Iterator[tuple[tuple[int, int], str]]:
        links = ctx.links
        if not links:
            return
        concepts = doc.concepts
        pairs = list(links)
        ids = judged_concepts(len(concepts), pairs, scope_mask(doc, self.scope.admits_type, ctx.state))
        # Most mentions end with a noun, which settles them, and a one-token mention is settled by
        # its token; only the other mentions are judged on their whole text.
        flat, starts, ends = doc.flat_tokens, doc.concept_starts, doc.concept_ends
        lasts = list(map(flat.__getitem__, map(ends.__getitem__, ids)))
        classes = list(map(self._classes.get, lasts))
        for k in compress(range(len(lasts)), map(is_, classes, repeat(None))):  # tokens not seen before
            classes[k] = self.word_class(lasts[k])
        keep = list(compress(range(len(classes)), classes))
        candidates = list(map(ids.__getitem__, keep))
        one_token = list(map(eq, map(starts.__getitem__, candidates), map(ends.__getitem__, candidates)))
        adjectival = set(compress(candidates, map(and_, one_token,
                                                  map(eq, map(classes.__getitem__, keep), repeat(ADJECTIVE)))))
        # the others: their first token settles many ("protein 1", "BMP4 -"), the rest are judged whole
        longer = list(compress(candidates, map(not_, one_token)))
        firsts = list(map(flat.__getitem__, map(starts.__getitem__, longer)))
        classes = list(map(self._classes.get, firsts))
        for k in compress(range(len(firsts)), map(is_, classes, repeat(None))):
            classes[k] = self.word_class(firsts[k])
        tokens = doc.concept_tokens
        adjectival.update(i for i in compress(longer, classes) if self.adjectival(tokens[i]))
        if not adjectival:
            return
        for a, b in compress(pairs, map(not_, map(adjectival.isdisjoint, pairs))):
            i = a if a in adjectival else b
            yield (a, b), f"'{concepts[i].text}' is an adjective with no noun (WordNet)"
