"""Link scorers: P_link(entity, m) for the beam search, from a maxent model and the features.

Mention-pair (seed eq. 9): P_link(e, m) = max over the entity's mentions a of P(a, m). A pair's
probability does not depend on the hypothesis, so it is cached per document and shared by every
hypothesis of the beam. The max looks at the compared members ``PartialEntity.candidates`` picks
(the last ``max_members`` members, the canonical one, the latest with m's string or head).

Entity-mention (seed eq. 8): features between m and the whole partial entity. Entities are
immutable and shared between hypotheses, so the score is cached per entity object while m is active.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .features import FeatureExtractor, MentionTable, PartialEntity
from .maxent import MaxEntModel


class LinkScorer:
    """Base scorer: entity bookkeeping for the beam; subclasses give ``link_probs``."""

    def __init__(self, tab: MentionTable, max_members: int = 16):
        self.tab = tab
        self.k = max_members

    def new_entity(self, m: int) -> PartialEntity:
        return PartialEntity.start(self.tab, m, self.k)

    def extend(self, e: PartialEntity, m: int) -> PartialEntity:
        return e.extend(self.tab, m, self.k)

    def link_probs(self, m: int, entities: Sequence[PartialEntity], root_of: Callable[[int], int]) -> list[float]:
        raise NotImplementedError


class MentionPairScorer(LinkScorer):
    def __init__(self, model: MaxEntModel, fx: FeatureExtractor, max_members: int = 16):
        super().__init__(fx.tab, max_members)
        self.model = model
        self.fx = fx
        self._pairs: dict[tuple[int, int], float] = {}

    def pair_prob(self, a: int, m: int) -> float:
        key = (a, m)
        p = self._pairs.get(key)
        if p is None:
            p = self._pairs[key] = self.model.prob(self.fx.pair(a, m))
        return p

    def link_probs(self, m: int, entities: Sequence[PartialEntity], root_of: Callable[[int], int]) -> list[float]:
        tab = self.tab
        out = []
        for e in entities:
            out.append(max(self.pair_prob(a, m) for a in e.candidates(tab, m)))
        return out

    def forget_before(self, m: int) -> None:
        """Drop cached pairs whose active mention precedes m (keeps memory flat on long documents)."""
        self._pairs = {k: v for k, v in self._pairs.items() if k[1] >= m}


class EntityMentionScorer(LinkScorer):
    def __init__(self, model: MaxEntModel, fx: FeatureExtractor, max_members: int = 16):
        super().__init__(fx.tab, max_members)
        self.model = model
        self.fx = fx
        self._active = -1
        self._cache: dict[int, tuple[PartialEntity, float]] = {}

    def link_probs(self, m: int, entities: Sequence[PartialEntity], root_of: Callable[[int], int]) -> list[float]:
        if m != self._active:
            self._active, self._cache = m, {}
        out = []
        for e in entities:
            hit = self._cache.get(id(e))
            if hit is None or hit[0] is not e:
                hit = self._cache[id(e)] = (e, self.model.prob(self.fx.entity(e, m, root_of)))
            out.append(hit[1])
        return out


def make_scorer(model: MaxEntModel, fx: FeatureExtractor, max_members: int = 16) -> LinkScorer:
    if model.kind == "mention-pair":
        return MentionPairScorer(model, fx, max_members)
    return EntityMentionScorer(model, fx, max_members)
