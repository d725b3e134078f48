"""Sieve induction: learn ``match`` and ``filter`` rules on top of a base rule file from gold chains.

In the manner of Ng and Cardie (2002), who learned rule sets from gold chains and pruned them
against the MUC score, and of Stanford's sieves (Lee et al. 2013), ordered most precise first:

1. The base rules run once per document; their links are the starting state (``state.py``).
2. For every blocking key, the candidates of every mention are listed once and every predicate is
   asked about every candidate pair once (``pairs.py``).
3. For every blocking key, window and scope family, a beam search adds required predicates and
   vetoes one at a time (FOIL-like), keeping refinements that add more correct than wrong chain
   merges on the documents rules are chosen on. A predicate is offered as a requirement when the
   pairs it holds for corefer more often than the key's pairs do, as a veto when less often.
4. Greedy selection: the candidate (a match rule, or a filter over the current links) with the
   largest exact gain in CoNLL F1 on the chosen-on documents is tried on the held-back documents;
   it is kept only if it raises their F1 too, and the search stops when ``patience`` candidates in
   a row do not, or at ``max_rules``. Each kept rule changes the state the next is measured on.

Nothing here runs the engine per candidate; the learned file is measured with the engine before
it is written (``writer.write_learned``).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..engine import Pipeline
from ..errors import Diagnostic, diagnostic
from .corpus import GoldDoc, split_by_name
from .pairs import BlockPairs, PairStore, Training, enumerate_pairs, first_passing
from .space import (
    MAX_REQUIRE,
    MAX_VETO,
    FilterRule,
    MatchRule,
    Pred,
    Scope,
    blockings,
    may_require,
    may_veto,
    predicates,
    scopes,
)
from .state import ChosenFilter, LinkState

Progress = Callable[[int], None]


@dataclass(frozen=True)
class Settings:
    min_precision: float = 0.5  # of the links that join chains the state keeps apart
    max_rules: int = 12
    holdout: float = 0.33  # share of GOLD's documents held back to decide whether a rule is kept
    patience: int = 8  # candidates in a row that may fail on the held-back part before the search stops
    min_gain: float = 0.0002  # CoNLL F1 (0-1) a rule must add on the chosen-on documents
    min_links: int = 5  # correct new links on the chosen-on documents
    min_docs: int = 3  # ... in at least this many documents (fewer when there are fewer)
    cap: int = 60  # candidates listed per mention and blocking key
    beam: int = 4
    exact: int = 400  # candidates whose exact gain is computed (the best by net correct merges)
    exact_filters: int = 150  # filter candidates per state whose exact gain is computed (the best by net removals)
    lift: float = 1.25  # a predicate requires when its pairs corefer this much more often, vetoes below 1/lift
    leave_out: frozenset[str] = frozenset()  # predicates kept out of the search (--leave-out)


@dataclass
class Stats:
    """A candidate's links on the chosen-on documents: all of them, and those that join two chains."""

    links: int = 0
    correct: int = 0
    new: int = 0
    new_correct: int = 0
    docs: int = 0  # documents with a correct new link

    @property
    def net(self) -> int:
        return self.new_correct - (self.new - self.new_correct)

    @property
    def precision(self) -> float:
        return self.correct / self.links if self.links else 0.0

    @property
    def new_precision(self) -> float:
        return self.new_correct / self.new if self.new else 0.0


@dataclass
class Candidate:
    rule: MatchRule | FilterRule
    stats: Stats
    ana: np.ndarray  # a match rule's links (gids), or a filter's removals
    cand: np.ndarray
    gain: float = 0.0  # CoNLL F1 on the chosen-on documents, against the state it was last measured on
    held_gain: float = 0.0
    version: int = -1  # the state version ``gain`` was measured on

    def pairs(self) -> set[tuple[int, int]]:
        return set(zip(np.minimum(self.ana, self.cand).tolist(), np.maximum(self.ana, self.cand).tolist()))

    def like(self, other: set[tuple[int, int]], share: float = 0.7) -> bool:
        """Whether most links of the smaller of the two link sets are in the other (a near duplicate)."""
        mine = self.pairs()
        small = min(len(mine), len(other))
        return bool(small) and len(mine & other) >= share * small


@dataclass
class Chosen:
    """A kept rule with what it measured when it was chosen."""

    rule: MatchRule | FilterRule
    stats: Stats
    gain: float
    held_gain: float
    f1_after: float
    held_f1_after: float


@dataclass
class Induction:
    """The result: the kept rules in the order chosen, the split and the F1 along the way."""

    chosen: list[Chosen]
    train_names: list[str]
    held_names: list[str]
    base_f1: float
    held_base_f1: float
    holdout: float = 0.0
    tried: int = 0
    rejected: list[tuple[MatchRule | FilterRule, float, float]] = field(default_factory=list)
    truncated: dict[str, int] = field(default_factory=dict)
    broken: dict[Pred, str] = field(default_factory=dict)
    warnings: list[Diagnostic] = field(default_factory=list)  # documents left out, predicates that failed


class BlockSearch:
    """Evaluates match rules of one blocking key as masks over its candidate rows."""

    def __init__(self, t: Training, store: PairStore, state: LinkState, bp: BlockPairs, preds: Sequence[Pred]):
        self.t, self.state, self.bp = t, state, bp
        self.masks = {p: store.column(p)[bp.row] for p in preds}
        self.gold = store.gold(bp.row)
        self.train = ~t.held_back_doc[t.doc_of[bp.ana]]
        tc = t.type_code
        self._ct, self._at = tc[bp.cand], tc[bp.ana]
        self._scope: dict[Scope, np.ndarray] = {}
        self._window: dict[int, np.ndarray] = {}

    def scope_mask(self, scope: Scope) -> np.ndarray:
        m = self._scope.get(scope)
        if m is None:
            m = self._scope[scope] = self.t.allow_matrix(scope)[self._ct, self._at]
        return m

    def window_mask(self, w: int) -> np.ndarray | None:
        if not w:
            return None
        m = self._window.get(w)
        if m is None:
            m = self._window[w] = self.bp.dist <= w
        return m

    def links(self, rule: MatchRule) -> np.ndarray:
        """Indices (into the blocking's rows) of the rule's links: each mention's first passing row."""
        m = self.scope_mask(rule.scope).copy()
        w = self.window_mask(rule.window)
        if w is not None:
            m &= w
        for p in rule.require:
            m &= self.masks[p]
        for p in rule.veto:
            m &= ~self.masks[p]
        return first_passing(self.bp.ana, m)

    def stats(self, idx: np.ndarray) -> Stats:
        idx = idx[self.train[idx]]
        ana, cand = self.bp.ana[idx], self.bp.cand[idx]
        gold = self.gold[idx]
        new = self.state.new_links(ana, cand)
        good = gold & new
        return Stats(len(idx), int(gold.sum()), int(new.sum()), int(good.sum()),
                     len(np.unique(self.t.doc_of[ana[good]])))

    def candidate(self, rule: MatchRule) -> Candidate:
        idx = self.links(rule)
        return Candidate(rule, self.stats(idx), self.bp.ana[idx], self.bp.cand[idx])

    def roles(self, preds: Sequence[Pred], lift: float) -> tuple[list[Pred], list[Pred]]:
        """Predicates that may require (their pairs corefer more often) and veto (less often)."""
        rows = self.train
        base = self.gold[rows].mean() if rows.any() else 0.0
        require, veto = [], []
        for p in preds:
            hold = self.masks[p] & rows
            if hold.sum() < 20 or not base:
                continue
            rate = self.gold[hold].mean()
            if rate >= base * lift and may_require(p):
                require.append(p)
            elif rate <= base / lift and may_veto(p):
                veto.append(p)
        return require, veto


def induce(docs: Sequence[GoldDoc], pipeline: Pipeline, settings: Settings = Settings(),
           progress: Progress | None = None, stage: Callable[[str, int], None] | None = None) -> Induction:
    """Learn rules on ``docs`` on top of ``pipeline``'s rules (see the module docstring)."""
    names = [gd.name for gd in docs]
    kept, back = split_by_name(names, settings.holdout)
    if stage:
        stage("base rules", len(docs))
    t = Training(docs, pipeline, set(back), progress)
    used = {gd.name for gd in t.docs}
    kept, back = [n for n in kept if n in used], [n for n in back if n in used]
    umls = pipeline.umls is not None
    preds = [p for p in predicates(umls) if p.name not in settings.leave_out]
    store = PairStore(t, preds)
    state = LinkState(t, store)
    result = Induction([], kept, back, state.f1(False), state.f1(True), settings.holdout)
    keys = blockings(umls)
    if stage:
        stage("candidate rules", len(keys))
    pool: dict[MatchRule | FilterRule, Candidate] = {}
    for b in keys:
        bp = enumerate_pairs(t, store, b, settings.cap)
        result.truncated[b.label] = bp.truncated
        if len(bp):
            _beam(BlockSearch(t, store, state, bp, preds), settings, pool, t)
        if progress:
            progress(1)
    result.broken = dict(store.broken)
    result.warnings = t.warnings + [diagnostic("RC579", severity="warning", name=str(name), detail=why)
                                    for name, why in store.broken.items()]
    result.tried = len(pool)
    _choose(t, store, state, pool, settings, result, progress, stage)
    return result


def _beam(bs: BlockSearch, s: Settings, pool: dict, t: Training) -> None:
    """Refine each root rule of the blocking (window x scope family) by one predicate at a time."""
    preds = list(bs.masks)
    require, veto = bs.roles(preds, s.lift)
    families = scopes(t.type_names, t.pronoun_types, bs.state.t.pipeline.settings.people.types)
    need_docs = min(s.min_docs, max(1, int((~t.held_back_doc).sum())))
    for w in bs.bp.blocking.windows:
        for scope in families:
            frontier = [bs.candidate(MatchRule(bs.bp.blocking, w, scope))]
            _offer(frontier[0], s, need_docs, pool)
            for _ in range(MAX_REQUIRE + MAX_VETO):
                children = []
                for parent in frontier:
                    r = parent.rule
                    options = [r.refine(require=p) for p in require if p not in r.require and len(r.require) < MAX_REQUIRE]
                    options += [r.refine(veto=p) for p in veto if p not in r.veto and len(r.veto) < MAX_VETO]
                    for rule in options:
                        if rule in pool or any(c.rule == rule for c in children):
                            continue
                        c = bs.candidate(rule)
                        if c.stats.net > parent.stats.net or c.stats.new_precision > parent.stats.new_precision + 0.02:
                            children.append(c)
                            _offer(c, s, need_docs, pool)
                            narrow = _narrowed(bs, c, s)
                            if narrow is not None:
                                _offer(narrow, s, need_docs, pool)
                children.sort(key=lambda c: c.stats.net, reverse=True)
                frontier = children[: s.beam]
                if not frontier:
                    break


def _offer(c: Candidate, s: Settings, need_docs: int, pool: dict) -> None:
    st = c.stats
    if st.new_precision >= s.min_precision and st.new_correct >= s.min_links and st.docs >= need_docs and st.net > 0:
        pool[c.rule] = c


def _narrowed(bs: BlockSearch, c: Candidate, s: Settings) -> Candidate | None:
    """The rule kept to the mention types it does well on, when that leaves some out."""
    rule = c.rule
    assert isinstance(rule, MatchRule)
    t = bs.t
    train = ~t.held_back_doc[t.doc_of[c.ana]]
    ana, cand = c.ana[train], c.cand[train]
    new = bs.state.new_links(ana, cand)
    good = t.owner[ana] == t.owner[cand]
    at = t.type_code[ana]
    admitted = {k for k, name in enumerate(t.type_names) if rule.scope.admits(name)}
    keep = set()
    for k in admitted:
        mine = new & (at == k)
        n, ok = int(mine.sum()), int((mine & good).sum())
        if n and ok / n >= s.min_precision and 2 * ok > n:
            keep.add(k)
    if not keep or keep >= {k for k in admitted if (new & (at == k)).any()}:
        return None
    kept_types = {t.type_names[k] for k in keep}
    if kept_types & t.pronoun_types:  # pronouns keep the types of the mentions they link to correctly
        pron = np.isin(at, [k for k in keep if t.type_names[k] in t.pronoun_types]) & new & good
        kept_types |= {t.type_names[k] for k in np.unique(t.type_code[cand[pron]])}
    return bs.candidate(rule.with_scope(_scope_for(kept_types, set(t.type_names))))


def _scope_for(types: set[str], present: set[str]) -> Scope:
    """``types``, written as the shorter of a list of types and a list of those left out."""
    left_out = present - types
    if not left_out:
        return Scope()
    return Scope(exclude=frozenset(left_out)) if len(left_out) < len(types) else Scope(types=frozenset(types))


def _filters(t: Training, store: PairStore, state: LinkState, s: Settings, preds: Sequence[Pred]) -> list[Candidate]:
    """Filter candidates over the current links: a scope, one predicate that removes a link, and
    either every link or only those one base pass made alone (``made_by``). The ``exact_filters``
    with the most net wrong links removed are offered (each is rescored exactly when measured)."""
    a, b = state.kept_links()
    if not len(a):
        return []
    rows = state.judged_rows(b, a)
    wrong = t.owner[a] != t.owner[b]
    train = ~t.held_back_doc[t.doc_of[a]]
    present = set(t.type_names)
    fams = list(dict.fromkeys([Scope(), *scopes(t.type_names, t.pronoun_types, t.pipeline.settings.people.types),
                               *(Scope(types=frozenset({name})) for name in sorted(present))]))
    makers: list[tuple[str, ...]] = [()]
    judged_by: dict[tuple[str, ...], np.ndarray] = {(): np.ones(len(a), dtype=bool)}
    for name in t.link_passes:
        mine = state.made_only_by(a, b, frozenset({name}))
        if int((mine & train).sum()) >= s.min_links:
            makers.append((name,))
            judged_by[(name,)] = mine
    columns = {p: store.column(p)[rows] for p in preds if may_veto(p)}
    need_docs = min(s.min_docs, max(1, int((~t.held_back_doc).sum())))
    out = []
    seen: set[bytes] = set()  # the removals of a candidate already made: the simplest filter that removes them stays
    for scope in fams:
        admit = t.admit_vector(scope)
        in_scope = admit[t.type_code[a]] | admit[t.type_code[b]]
        for made_by in makers:
            judged = in_scope & judged_by[made_by]
            if int((judged & train).sum()) < s.min_links:
                continue
            for p, col in columns.items():
                hit = judged & col
                mine = hit & train
                n, ok = int(mine.sum()), int((mine & wrong).sum())
                if n < s.min_links or ok / n < s.min_precision:
                    continue
                docs = len(np.unique(t.doc_of[a[mine & wrong]]))
                if docs < need_docs:  # as for match rules: no filter fitted to one or two documents
                    continue
                removes = np.flatnonzero(hit)
                if (key := removes.tobytes()) in seen:
                    continue
                seen.add(key)
                st = Stats(n, ok, n, ok, docs)
                out.append(Candidate(FilterRule(scope, (p,), made_by), st, a[removes], b[removes]))
    out.sort(key=lambda c: 2 * c.stats.correct - c.stats.links, reverse=True)
    return out[: s.exact_filters]


def link_stats(t: Training, state: LinkState, ana: np.ndarray, cand: np.ndarray) -> Stats:
    """A match rule's links (gids) counted on the chosen-on documents against the current state."""
    train = ~t.held_back_doc[t.doc_of[ana]]
    ana, cand = ana[train], cand[train]
    gold = t.owner[ana] == t.owner[cand]
    new = state.new_links(ana, cand)
    good = gold & new
    return Stats(len(ana), int(gold.sum()), int(new.sum()), int(good.sum()), len(np.unique(t.doc_of[ana[good]])))


def _measure(state: LinkState, c: Candidate, version: int) -> None:
    """Exact CoNLL F1 change on the chosen-on and held-back documents, against the current state."""
    if isinstance(c.rule, FilterRule):
        removed: dict[int, set[tuple[int, int]]] = {}
        t = state.t
        for x, y in zip(c.ana.tolist(), c.cand.tolist()):
            d = int(t.doc_of[x])
            off = int(t.offsets[d])
            removed.setdefault(d, set()).add((x - off, y - off))
        c.gain, c.held_gain = state.delta(state.without(removed))
    else:
        c.stats = link_stats(state.t, state, c.ana, c.cand)
        c.gain, c.held_gain = state.delta(state.merged(c.ana, c.cand))
    c.version = version


def _choose(t: Training, store: PairStore, state: LinkState, pool: dict, s: Settings, result: Induction,
            progress: Progress | None, stage: Callable[[str, int], None] | None = None) -> None:
    """Lazy greedy selection with a held-back check (module docstring, step 4): a candidate measured
    on an older state is measured again when it reaches the top, and filters are made afresh from
    the links of each new state."""
    preds = [p for p in store.predicates if p not in store.broken]
    heap: list[tuple[float, int, Candidate]] = []
    order = itertools.count()  # ties go to the candidate offered first: the same rules on every run

    # the links (or removals) of refused candidates, by kind (filter or not): near duplicates are not tried
    rejected: list[tuple[bool, set[tuple[int, int]]]] = []

    def push(c: Candidate) -> None:
        if c.gain >= s.min_gain:
            heapq.heappush(heap, (-c.gain, next(order), c))

    first = sorted(pool.values(), key=lambda c: c.stats.net, reverse=True)[: s.exact]
    if stage:
        stage("measuring candidates", len(first))
    for c in first:
        _measure(state, c, 0)
        push(c)
        if progress:
            progress(1)
    if stage:
        stage("choosing rules", s.max_rules)
    version, failures = 0, 0
    filters_of = -1
    while len(result.chosen) < s.max_rules and failures < s.patience:
        if filters_of != version:
            for f in _filters(t, store, state, s, preds):
                _measure(state, f, version)
                push(f)
            filters_of = version
        if not heap:
            break
        _, _, best = heapq.heappop(heap)
        if best.version != version:
            if isinstance(best.rule, MatchRule):  # a filter of an older state is made afresh instead
                _measure(state, best, version)
                push(best)
            continue
        is_filter = isinstance(best.rule, FilterRule)
        if any(kind == is_filter and best.like(r) for kind, r in rejected):
            continue
        if best.held_gain <= 0:
            failures += 1
            rejected.append((is_filter, best.pairs()))
            result.rejected.append((best.rule, best.gain, best.held_gain))
            continue
        failures = 0
        if isinstance(best.rule, FilterRule):
            state.add_filter(ChosenFilter(t.admit_vector(best.rule.scope), best.rule.remove_if,
                                          frozenset(best.rule.made_by)))
        else:
            state.add_links(best.ana, best.cand)
        version += 1
        result.chosen.append(Chosen(best.rule, best.stats, best.gain, best.held_gain, state.f1(False), state.f1(True)))
        if progress:
            progress(1)
