"""Seed 000 Algorithm 1: mention-synchronous beam search over the Bell tree.

Mentions are added left to right. A node (hypothesis) is a partition of the mentions seen so far;
its children link the active mention m to one partial entity (probability P_link(e, m)) or start a
new entity with probability (eqs. 5-6)

    P_start(m) = alpha * (1 - max_e P_link(e, m))

where alpha in (0, 1] is the start penalty (alpha < 1 makes new entities dearer). A path's score is
the product of its link/start probabilities (summed in log space here). Pruning, as in seed 4:
local (drop a child whose probability is below ``local_prune`` x the best sibling's), global
(drop a hypothesis whose cumulative score is below ``global_prune`` x the best one's), and at most
``beam`` live hypotheses. A mention may only join an entity whose non-pronoun types include its
own type; pronouns are compatible with every type.

Candidate window: with ``window = W > 0``, only entities with a mention in the last W sentences,
plus entities the rules already linked to m, are scored; the others count as P_link = 0. Each step
then costs O(beam x entities in the window), so decoding time grows about linearly with the number
of mentions. ``window = 0`` scores every entity (plain Algorithm 1, quadratic).

Hypotheses share structure: the mention -> entity map and the root -> entity table are persistent
vectors (chunks of 64), so extending a hypothesis copies one chunk, not the whole map.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

_CHUNK = 64
_SHIFT = 6


class PVec:
    """A persistent vector: ``set``/``append`` return a new vector sharing untouched chunks."""

    __slots__ = ("chunks", "tail", "n")

    def __init__(self, chunks: tuple = (), tail: tuple = (), n: int = 0):
        self.chunks = chunks
        self.tail = tail
        self.n = n

    def __len__(self) -> int:
        return self.n

    def get(self, i: int) -> Any:
        c = i >> _SHIFT
        if c < len(self.chunks):
            return self.chunks[c][i & (_CHUNK - 1)]
        return self.tail[i & (_CHUNK - 1)]

    def append(self, x: Any) -> PVec:
        tail = self.tail + (x,)
        if len(tail) == _CHUNK:
            return PVec(self.chunks + (tail,), (), self.n + 1)
        return PVec(self.chunks, tail, self.n + 1)

    def set(self, i: int, x: Any) -> PVec:
        c = i >> _SHIFT
        j = i & (_CHUNK - 1)
        if c < len(self.chunks):
            chunk = self.chunks[c]
            chunk = chunk[:j] + (x,) + chunk[j + 1 :]
            return PVec(self.chunks[:c] + (chunk,) + self.chunks[c + 1 :], self.tail, self.n)
        return PVec(self.chunks, self.tail[:j] + (x,) + self.tail[j + 1 :], self.n)

    def to_list(self) -> list:
        out: list = []
        for ch in self.chunks:
            out.extend(ch)
        out.extend(self.tail)
        return out


@dataclass(frozen=True)
class SearchSettings:
    """Search settings (the decoder's YAML parameters)."""

    beam: int = 8
    alpha: float = 1.0
    local_prune: float = 0.0
    global_prune: float = 0.0
    window: int = 10
    top_n: int = 1
    type_check: bool = True


@dataclass(frozen=True)
class Problem:
    """What the search needs to know about a document's mentions (besides the scorer)."""

    sentences: Sequence[int]
    types: Sequence[str]
    pronoun: Sequence[bool]
    #: for each mention, earlier mentions the rules linked it to (always candidates)
    rule_antecedents: Sequence[Sequence[int]] = field(default_factory=tuple)

    @property
    def n(self) -> int:
        return len(self.sentences)


class Hypothesis:
    """A Bell-tree node: log score, mention -> entity root, root -> entity, entities in the window."""

    __slots__ = ("score", "assign", "ents", "recent", "n_entities")

    def __init__(self, score: float, assign: PVec, ents: PVec, recent: tuple[int, ...], n_entities: int):
        self.score = score
        self.assign = assign
        self.ents = ents
        self.recent = recent
        self.n_entities = n_entities

    def partition(self) -> list[list[int]]:
        groups: dict[int, list[int]] = {}
        for i, r in enumerate(self.assign.to_list()):
            groups.setdefault(r, []).append(i)
        return sorted(groups.values(), key=lambda g: g[0])


@dataclass
class SearchResult:
    """The top hypotheses at the leaves, best first, and search statistics."""

    partitions: list[list[list[int]]]
    log_scores: list[float]
    live_per_step: list[int]

    @property
    def best(self) -> list[list[int]]:
        return self.partitions[0]

    @property
    def scores(self) -> list[float]:
        return [math.exp(s) for s in self.log_scores]


def search(problem: Problem, scorer: Any, settings: SearchSettings,
           on_step: Callable[[int], None] | None = None) -> SearchResult:
    """Run Algorithm 1 over all mentions; return the ``top_n`` best leaves (and live counts per step)."""
    n = problem.n
    if n == 0:
        return SearchResult([[]], [0.0], [])
    sent, types, pron = problem.sentences, problem.types, problem.pronoun
    rules = problem.rule_antecedents or [()] * n
    alpha = settings.alpha
    window = settings.window
    local = settings.local_prune
    log_global = math.log(settings.global_prune) if settings.global_prune > 0 else -math.inf
    beam = max(1, settings.beam)
    type_check = settings.type_check

    first = scorer.new_entity(0)
    hyps = [Hypothesis(0.0, PVec().append(0), PVec().append(first), (0,), 1)]
    live = [1]
    for m in range(1, n):
        if on_step is not None:
            on_step(m)
        floor = sent[m] - window
        tm, pm = types[m], pron[m]
        children: list[tuple[float, int, int, Hypothesis, int]] = []  # (score, hyp order, action order, hyp, root)
        for h_i, h in enumerate(hyps):
            if window > 0:
                recent = tuple(r for r in h.recent if h.ents.get(r).last_sentence >= floor)
            else:
                recent = h.recent
            roots = list(recent)
            extra = [h.assign.get(a) for a in rules[m]]
            for r in extra:
                if r not in roots:
                    roots.append(r)
            ents = [h.ents.get(r) for r in roots]
            if type_check and not pm:
                keep = [i for i, e in enumerate(ents) if not e.types or tm in e.types]
                if len(keep) < len(ents):
                    roots = [roots[i] for i in keep]
                    ents = [ents[i] for i in keep]
            root_of = h.assign.get
            probs = scorer.link_probs(m, ents, root_of) if ents else []
            p_start = alpha * (1.0 - max(probs, default=0.0))
            best = max(max(probs, default=0.0), p_start)
            cut = local * best
            base = h.score
            order = 0
            for r, p in zip(roots, probs):
                if p > 0.0 and p >= cut:
                    children.append((base + math.log(p), h_i, order, h, r))
                order += 1
            if p_start > 0.0 and p_start >= cut:
                children.append((base + math.log(p_start), h_i, order, h, -1))
            h.recent = recent  # the window only moves forward: later steps reuse the trimmed tuple
        children.sort(key=lambda c: (-c[0], c[1], c[2]))
        if children:
            top = children[0][0]
            limit = top + log_global
            children = [c for c in children[:beam] if c[0] >= limit]
        new_hyps = []
        for score, _, _, h, r in children:
            if r < 0:
                e = scorer.new_entity(m)
                new_hyps.append(Hypothesis(score, h.assign.append(m), h.ents.append(e), h.recent + (m,), h.n_entities + 1))
            else:
                e = scorer.extend(h.ents.get(r), m)
                recent = h.recent if r in h.recent else h.recent + (r,)
                new_hyps.append(Hypothesis(score, h.assign.append(r), h.ents.set(r, e).append(None), recent, h.n_entities))
        hyps = new_hyps
        live.append(len(hyps))
        if not hyps:  # every child had probability 0: cannot happen with alpha > 0, kept as a guard
            raise RuntimeError(f"beam search emptied at mention {m}")
    top = hyps[: max(1, settings.top_n)]
    return SearchResult([h.partition() for h in top], [h.score for h in top], live)
