"""``exact_match``: two concepts with the same normalised text refer to the same thing.

"chest pain" ... "Chest pain" -> linked. The cheapest, most precise rule, and the baseline every
other rule set is measured against. Concepts are grouped by (type, normalised text) in one pass
over the document, so cost is linear in the number of concepts.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .predicates import normalise

_CACHE_LIMIT = 200_000  # token sequences remembered per process; cleared when exceeded


@register("exact_match")
class ExactMatch(Pass):
    params = {
        "ignore_words": Param("wordlist", default=[], help="words dropped before comparing (e.g. determiners)"),
        "min_chars": Param("int", default=1, minimum=0, help="normalised texts shorter than this never match"),
        "antecedents": Param("choice", default="nearest", allowed=("nearest", "all"),
                             help="link each mention to its nearest earlier match, or to every earlier match"),
    }

    def setup(self) -> None:
        self.ignore = self.lexicon("ignore_words").words
        self._keys: dict[tuple[str, ...], str] = {}  # token sequence -> normalised text

    def key(self, tokens: tuple[str, ...]) -> str:
        """The normalised text of a mention's tokens (cached per token sequence)."""
        hit = self._keys.get(tokens)
        if hit is None:
            if len(self._keys) > _CACHE_LIMIT:
                self._keys.clear()
            hit = self._keys[tokens] = normalise(tokens, self.ignore)
        return hit

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        groups: dict[tuple[str, str], list[int]] = {}
        same_type = self.scope.same_type
        tokens = doc.concept_tokens
        min_chars = self.p["min_chars"]
        for c in self.candidates(doc):
            key = self.key(tokens[c.index])
            if len(key) < min_chars:
                continue
            group = groups.setdefault((c.type if same_type else "", key), [])
            if group:
                earlier = group if self.p["antecedents"] == "all" else group[-1:]
                for e in earlier:
                    yield e, c.index, f"same text {key!r}"
            group.append(c.index)
