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

import math
from collections.abc import Callable, Iterable, Sequence
from itertools import repeat

from .features import FeatureExtractor, MentionView, PartialEntity, q
from .maxent import MaxEntModel, sigmoid


class LinkScorer:
    """Base scorer: entity bookkeeping for the beam; subclasses give ``link_probs``."""

    def __init__(self, tab: MentionView, max_members: int = 16):
        self.tab = tab
        self.k = max_members
        self._active = -1
        self._cache: dict[PartialEntity, float] = {}
        self._started: PartialEntity | None = None
        self._extending = -1
        self._extended: dict[PartialEntity, PartialEntity] = {}

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
        hit = self._extended.get(e)
        if hit is None:
            hit = self._extended[e] = e.extend(self.tab, m, self.k)
        return hit

    def link_probs(self, m: int, entities: Sequence[PartialEntity], root_of: Callable[[int], int]) -> list[float]:
        """P_link(e, m) for each entity. Hypotheses share unchanged entity objects, so a score is
        computed once per (entity object, m) however many hypotheses hold the entity."""
        if m != self._active:
            self._active, self._cache = m, {}
        cache = self._cache  # keyed by the entity objects themselves (identity), which it keeps alive
        out = list(map(cache.get, entities))
        if None in out:
            for i, e in enumerate(entities):
                if out[i] is None:
                    out[i] = cache[e] = self.entity_prob(e, m, root_of)
        return out

    def entity_prob(self, e: PartialEntity, m: int, root_of: Callable[[int], int]) -> float:
        raise NotImplementedError


class _ByDistance(dict):
    """The summed weights of one group of distance features by the raw distance n, made on first
    use from the group's feature names for the quantised distance, ``names(q(n))``, once per
    bucket (far members give many raw distances in few buckets)."""

    __slots__ = ("weights", "names", "buckets")

    def __init__(self, weights: dict[str, float], names: Callable[[str], Sequence[str]]):
        super().__init__()
        self.weights, self.names = weights, names
        self.buckets: dict[str, float] = {}

    def __missing__(self, n: int) -> float:
        bucket = q(n)
        w = self.buckets.get(bucket)
        if w is None:
            w = self.buckets[bucket] = _weight(self.weights, self.names(bucket))
        if 0 <= n < _RAW_DISTANCES:  # a bound on the table, whatever the document's length
            self[n] = w
        return w


#: raw distances a table keeps (longer ones, rare, are bucketed again on every lookup)
_RAW_DISTANCES = 4096


def _weight(weights: dict[str, float], features: Iterable[str]) -> float:
    return sum(map(weights.get, features, repeat(0.0)))


class PairScores:
    """The mention-pair model's log-odds of a pair without making its feature strings.

    ``FeatureExtractor.pair`` lists the features; their weights are summed here by what they read:
    the class features (and, hybrid, the rules' decisions on a pair no rule touched, which read
    the types) once per pair of class ids and rule-chain bit; the lexical ones once per pair of
    text ids; the distance ones (``sd=``, ``td=``, ``gd=`` and their conjunctions) from tables
    by distance. A pair a rule decided, or nested or a few tokens apart in one sentence
    (``nested``, ``appos``, ``btw=``), is scored from its strings. The sum is the same as the
    model's over ``pair``, up to the order of the additions.
    """

    def __init__(self, model: MaxEntModel, fx: FeatureExtractor):
        self.model, self.fx, self.tab = model, fx, fx.tab
        self.weights, self.intercept = model.weights, model.intercept
        # memo keys are ints: (class a, class m, same rule chain) and (text a, text m)
        n_classes, n_texts = max(fx.klass, default=0) + 1, max(fx.texts, default=0) + 1
        self._class_key = [2 * n_classes * k for k in fx.klass]
        self._text_key = [n_texts * x for x in fx.texts]
        self._classes: dict[int, tuple[float, _ByDistance, _ByDistance]] = {}
        self._texts: dict[int, tuple[float, _ByDistance | None]] = {}
        self._tables: dict[tuple, _ByDistance] = {}
        self.td = self._table(("td",), lambda d: ("td=" + d,))
        #: the lexical features conjoined with the sentence distance, by (exact, heads match)
        self._by_sd_lexical: dict[tuple[bool, bool], _ByDistance | None] = {
            (False, False): None, (True, False): self._table(("exact",), lambda s: ("exact|sd=" + s,)),
            (False, True): self._table(("hm",), lambda s: ("hm|sd=" + s,)),
            (True, True): self._table(("exact", "hm"), lambda s: ("exact|sd=" + s, "hm|sd=" + s))}

    def _table(self, key: tuple, names: Callable[[str], Sequence[str]]) -> _ByDistance:
        hit = self._tables.get(key)
        if hit is None:
            hit = self._tables[key] = _ByDistance(self.weights, names)
        return hit

    def prob(self, a: int, m: int) -> float:
        """P(link) of the pair: the model's ``prob(fx.pair(a, m))``."""
        out: dict[int, float] = {}
        self.fill(m, (a,), out)
        return out[a]

    def fill(self, m: int, antecedents: Iterable[int], out: dict[int, float]) -> None:
        """``out[a] = P(link | a, m)`` for each antecedent: the decoder's inner loop."""
        t, fx = self.tab, self.fx
        sent, end, pron, cluster = t.sent, t.end, t.pron, fx.rules.cluster
        class_key, text_key, classes, lexical = self._class_key, self._text_key, self._classes, self._texts
        by_td, b, exp = self.td, self.intercept, math.exp
        sm, st, cm, pm = sent[m], t.start[m], cluster[m], t.pron[m]
        km, xm = 2 * fx.klass[m], fx.texts[m]
        touched = set(fx.rules.touched[m])
        for a in antecedents:
            sd, td = sm - sent[a], st - end[a] - 1
            if td < 0 or (td <= 3 and sd == 0) or a in touched:
                out[a] = sigmoid(self.model.score(fx.pair(a, m)))
                continue
            key = class_key[a] + km + (cluster[a] == cm)
            c = classes.get(key) or self._class_weights(a, m, key)
            z = b + c[0] + c[1][sd] + by_td[td] + c[2][m - a - 1]
            if not (pm or pron[a]):
                key = text_key[a] + xm
                x = lexical.get(key) or self._text_weights(a, m, key)
                z += x[0]
                if x[1] is not None:
                    z += x[1][sd]
            if z >= 0:  # sigmoid(z), inline
                out[a] = 1.0 / (1.0 + exp(-z))
            else:
                ez = exp(z)
                out[a] = ez / (1.0 + ez)

    def _class_weights(self, a: int, m: int, key: int) -> tuple[float, _ByDistance, _ByDistance]:
        t, fx = self.tab, self.fx
        lv = t.level[a] + t.level[m]
        head, mid, pron = fx.class_parts(a, m)
        w = _weight(self.weights, (*head, *mid, *pron, *(fx.rule_features(a, m, lv) if fx.hybrid else ())))
        pw = t.head[m] if t.pron[m] else None
        refl, poss = pw is not None and t.refl[m], pw is not None and t.poss[m]
        same = t.pron[a] and pw is not None and t.head[a] == pw

        def by_sd(s: str) -> list[str]:
            out = ["sd=" + s, f"sd={s}|lv={lv}"]
            if pw is not None:
                out.append(f"pw={pw}|sd={s}")
            out += ["refl|sd=" + s] * refl + ["poss|sd=" + s] * poss + ["samepron|sd=" + s] * same
            return out

        sd = self._table(("sd", lv, pw, refl, poss, same), by_sd)
        gd = self._table(("gd", pw), lambda g: ("gd=" + g,) if pw is None else ("gd=" + g, f"pw={pw}|gd={g}"))
        hit = self._classes[key] = (w, sd, gd)
        return hit

    def _text_weights(self, a: int, m: int, key: int) -> tuple[float, _ByDistance | None]:
        first, exact, middle, hm, last = self.fx.lexical(a, m)
        hit = self._texts[key] = (_weight(self.weights, first + middle + last), self._by_sd_lexical[exact, hm])
        return hit


class MentionPairScorer(LinkScorer):
    """Eq. 9: P_link(e, m) is the best P(a, m) over the compared members a of e. A pair's
    probability does not depend on the hypothesis: it is made once while m is active."""

    def __init__(self, model: MaxEntModel, fx: FeatureExtractor, max_members: int = 16):
        super().__init__(fx.tab, max_members)
        self.model = model
        self.fx = fx
        self.scores = PairScores(model, fx)
        self._pairs: dict[int, float] = {}  # antecedent -> P(a, m) while m is active

    def link_probs(self, m: int, entities: Sequence[PartialEntity], root_of: Callable[[int], int]) -> list[float]:
        """As ``LinkScorer.link_probs``; the pairs of all the entities not yet scored are scored in one go."""
        if m != self._active:
            self._active, self._cache, self._pairs = m, {}, {}
        cache = self._cache
        out = list(map(cache.get, entities))
        if None in out:
            pairs, tab = self._pairs, self.tab
            missing = [(i, entities[i].candidates(tab, m)) for i, p in enumerate(out) if p is None]
            new = {a for _, members in missing for a in members if a not in pairs}
            if new:
                self.scores.fill(m, new, pairs)
            for i, members in missing:
                out[i] = cache[entities[i]] = max(map(pairs.__getitem__, members))
        return out


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
