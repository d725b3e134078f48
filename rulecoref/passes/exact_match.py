"""``exact_match``: two concepts with the same normalised text refer to the same thing.

"chest pain" ... "Chest pain" -> linked. The cheapest, most precise rule, and the baseline every
other rule set is measured against. Concepts are grouped by (type, normalised text) in one pass
over the document, so cost is linear in the number of concepts.

It runs on every concept of every document, so the per-mention work is kept to dictionary
lookups done in C (``map``/``compress`` over the document's concept lists): the evidence string
of a mention ("same text 'chest pain'", or "" when its text is too short to match) is cached by
mention id across documents (``mentions.MentionCache``) and doubles as its grouping key (it is a
one-to-one function of the normalised text), so the Python loop left does one lookup per mention
in scope.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import compress
from operator import and_, attrgetter

from ..document import Document
from ..mentions import MentionCache
from ..rules.schema import Param
from . import Context, Pass, register
from .predicates import normalise, scope_mask

_type = attrgetter("type")


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
        self.min_chars = int(self.p["min_chars"])
        self._evidence: MentionCache[str] = MentionCache()  # mention id -> evidence, "" if too short

    def evidence(self, tokens: tuple[str, ...]) -> str:
        """The evidence a link of this mention carries, "" when its text is too short to match."""
        key = normalise(tokens, self.ignore)
        return f"same text {key!r}" if len(key) >= self.min_chars else ""

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        concepts = doc.concepts
        n = len(concepts)
        mask = scope_mask(doc, self.scope.admits_type, ctx.state)
        evs = self._evidence.lookup(doc.concept_ids, doc.concept_tokens.__getitem__, self.evidence)
        # mentions in scope whose text is long enough ("" and None are false), in text order
        idx = compress(range(n), evs if mask is None else map(and_, map(bool, evs), mask))
        # the group key: the evidence, with the type when the scope keeps types apart and admits more than one
        by_type = self.scope.same_type and sum(map(self.scope.admits_type, doc.types)) > 1
        keys = list(zip(map(_type, concepts), evs)) if by_type else evs
        if self.p["antecedents"] == "all":
            groups: dict[object, list[int]] = {}
            for i in idx:
                group = groups.setdefault(keys[i], [])
                for e in group:
                    yield e, i, evs[i]
                group.append(i)
            return
        last: dict[object, int] = {}
        get = last.get
        for i in idx:
            k = keys[i]
            e = get(k)
            last[k] = i
            if e is not None:
                yield e, i, evs[i]
