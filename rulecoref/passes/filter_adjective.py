"""``filter_adjective``: a mention that is only an adjective names no thing, so it links to nothing.

Seed 001, "Link filtering": "any mention that is found to be an adjective with no noun included has
any links to it removed" (a concept such as "hypertensive" or "afebrile" describes, it does not
refer). A mention is adjectival when, after its common words and non-words are dropped, every
word is known to WordNet, none has a noun sense, and at least one is an adjective. Words WordNet
does not know ("mrsa", "methicillin-resistant") might be names, so they keep a mention.
The scope (``applies_to``) says which mentions are checked; every link of an adjectival mention
goes, whatever the other end.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .predicates import MAIN_LINKER_KINDS

_CACHE_LIMIT = 200_000  # token sequences remembered per process; cleared when exceeded


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

    def reject(self, doc: Document, ctx: Context) -> Iterator[tuple[tuple[int, int], str]]:
        concepts = doc.concepts
        tokens = doc.concept_tokens
        checked = {t for t in doc.types if self.scope.admits_type(t)}
        verdict: dict[int, bool] = {}
        for a, b in list(ctx.links):
            for i in (a, b):
                if i not in verdict:
                    verdict[i] = concepts[i].type in checked and self.adjectival(tokens[i])
                if verdict[i]:
                    yield (a, b), f"'{concepts[i].text}' is an adjective with no noun (WordNet)"
                    break
