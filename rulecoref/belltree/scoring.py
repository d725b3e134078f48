"""Link scorers: P_link(entity, m) for the beam search, from a maxent model and the features.

Mention-pair (seed eq. 9): P_link(e, m) = max over the entity's mentions a of P(a, m). A pair's
probability does not depend on the hypothesis, so it is cached while m is active and shared by
every hypothesis of the beam. The max looks at the compared members ``PartialEntity.candidates`` picks
(the last ``max_members`` members, the canonical one, the latest with m's string or head).

Entity-mention (seed eq. 8): features between m and the whole partial entity.
Entities are immutable and shared between hypotheses, so for both models an entity's score is
cached per entity object while m is active.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .features import FeatureExtractor, MentionView, PartialEntity
from .maxent import MaxEntModel


class LinkScorer:
    """Base scorer: entity bookkeeping for the beam; subclasses give ``link_probs``."""

    def __init__(self, tab: MentionView, max_members: int = 16):
        self.tab = tab
        self.k = max_members
        self._active = -1
        self._cache: dict[int, tuple[PartialEntity, float]] = {}
        self._started: PartialEntity | None = None
        self._extending = -1
        self._extended: dict[int, tuple[PartialEntity, PartialEntity]] = {}

    def new_entity(self, m: int) -> PartialEntity:
        """The entity {m}; every hypothesis that starts it at this step shares the one object."""
        e = self._started
        if e is None or e.root != m:
            e = self._started = PartialEntity.start(self.tab, m, self.k)
        return e

    def extend(self, e: PartialEntity, m: int) -> PartialEntity:
        """``e`` with ``m`` added. Hypotheses that add m to the same entity object share the result,
        so the next steps score it once for all of them (the members, hence the score, are the same)."""
        if m != self._extending:
            self._extending, self._extended = m, {}
        hit = self._extended.get(id(e))
        if hit is None:  # the memo holds e, so its id is not reused during the step
            hit = self._extended[id(e)] = (e, e.extend(self.tab, m, self.k))
        return hit[1]

    def link_probs(self, m: int, entities: Sequence[PartialEntity], root_of: Callable[[int], int]) -> list[float]:
        """P_link(e, m) for each entity. Hypotheses share unchanged entity objects, so a score is
        computed once per (entity object, m) however many hypotheses hold the entity."""
        if m != self._active:
            self._active, self._cache = m, {}
        cache = self._cache
        out = []
        for e in entities:
            hit = cache.get(id(e))
            if hit is None or hit[0] is not e:
                hit = cache[id(e)] = (e, self.entity_prob(e, m, root_of))
            out.append(hit[1])
        return out

    def entity_prob(self, e: PartialEntity, m: int, root_of: Callable[[int], int]) -> float:
        raise NotImplementedError


class MentionPairScorer(LinkScorer):
    def __init__(self, model: MaxEntModel, fx: FeatureExtractor, max_members: int = 16):
        super().__init__(fx.tab, max_members)
        self.model = model
        self.fx = fx
        self._pairs: dict[tuple[int, int], float] = {}
        self._pairs_for = -1

    def pair_prob(self, a: int, m: int) -> float:
        key = (a, m)
        p = self._pairs.get(key)
        if p is None:
            p = self._pairs[key] = self.model.prob(self.fx.pair(a, m))
        return p

    def entity_prob(self, e: PartialEntity, m: int, root_of: Callable[[int], int]) -> float:
        if m != self._pairs_for:
            # A pair's active mention is m, so pairs of earlier steps are never asked again.
            self._pairs_for, self._pairs = m, {}
        pairs = self._pairs
        best = 0.0
        for a in e.candidates(self.tab, m):
            p = pairs.get((a, m))
            if p is None:
                p = pairs[(a, m)] = self.model.prob(self.fx.pair(a, m))
            if p > best:
                best = p
        return best


class EntityMentionScorer(LinkScorer):
    def __init__(self, model: MaxEntModel, fx: FeatureExtractor, max_members: int = 16):
        super().__init__(fx.tab, max_members)
        self.model = model
        self.fx = fx

    def entity_prob(self, e: PartialEntity, m: int, root_of: Callable[[int], int]) -> float:
        return self.model.prob(self.fx.entity(e, m, root_of))


def make_scorer(model: MaxEntModel, fx: FeatureExtractor, max_members: int = 16) -> LinkScorer:
    if model.kind == "mention-pair":
        return MentionPairScorer(model, fx, max_members)
    return EntityMentionScorer(model, fx, max_members)
