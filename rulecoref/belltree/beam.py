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
vectors (chunks of 64), so extending a hypothesis copies one chunk, not the whole map; entities are
immutable, and the hypotheses that add m to the same entity object (or start m) share the new one
(``LinkScorer.extend``), so the next mention scores it once for all of them. The best ``beam``
children of a step come from a bounded heap, and a hypothesis whose score is below the heap's worst
child (hypotheses come best first) is not expanded: its children could not enter.
"""

from __future__ import annotations

import heapq
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
    """A Bell-tree node: log score, mention -> entity root, root -> entity, and the window.

    ``window`` holds the entity objects a new mention is compared with (in the order they
    entered it), so a step reads them without looking roots up; ``floor`` is the sentence the
    window was last trimmed to (trimming is needed only when the floor moves).
    """

    __slots__ = ("score", "assign", "ents", "window", "floor")

    def __init__(self, score: float, assign: PVec, ents: PVec, window: tuple, floor: int):
        self.score = score
        self.assign = assign
        self.ents = ents
        self.window = window
        self.floor = floor

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
    step = _Step(problem, scorer, settings)
    first = scorer.new_entity(0)
    hyps = [Hypothesis(0.0, PVec().append(0), PVec().append(first), (first,), problem.sentences[0] - settings.window)]
    live = [1]
    for m in range(1, n):
        if on_step is not None:
            on_step(m)
        step.begin(m)
        for h_i, h in enumerate(hyps):
            if step.closed_to(h):
                break  # hypotheses come best first: no later one has a child good enough either
            ents = step.candidates(h)
            probs = scorer.link_probs(m, ents, h.assign.get) if ents else []
            step.offer(h, h_i, ents, probs)
        hyps = step.children()
        live.append(len(hyps))
        if not hyps:  # every child had probability 0: cannot happen with alpha > 0, kept as a guard
            raise RuntimeError(f"beam search emptied at mention {m}")
    top = hyps[: max(1, settings.top_n)]
    return SearchResult([h.partition() for h in top], [h.score for h in top], live)


#: a child whose probability is this factor below the beam's worst score's cannot enter it; the
#: margin absorbs the rounding of exp/log, and the exact log score decides the rest
_MARGIN = 1.0 - 1e-9


class _Step:
    """One mention's expansion of the beam: candidates per hypothesis, the best children, the new beam.

    Children are (log score, -hypothesis order, -action order, hypothesis, entity or None for a
    start) in a heap of at most ``beam``: hypotheses come in order and actions in order, so a
    child enters the full heap only when it scores strictly above the worst one, which is the
    order ``sorted(key=(-score, hypothesis, action))[:beam]`` gives. A child whose probability
    cannot reach the heap's worst score is never given a log score.
    """

    def __init__(self, problem: Problem, scorer: Any, settings: SearchSettings):
        self.problem, self.scorer, self.s = problem, scorer, settings
        self.rules = problem.rule_antecedents or [()] * problem.n
        self.beam = max(1, settings.beam)
        self.log_global = math.log(settings.global_prune) if settings.global_prune > 0 else -math.inf
        self.m = 0
        self.heap: list[tuple] = []

    def begin(self, m: int) -> None:
        self.m, self.heap = m, []
        self.floor = self.problem.sentences[m] - self.s.window
        self.type, self.pron = self.problem.types[m], self.problem.pronoun[m]

    def closed_to(self, h: Hypothesis) -> bool:
        """The beam is full of children scoring at least h's score, which bounds h's children's."""
        return len(self.heap) == self.beam and self.heap[0][0] >= h.score

    def candidates(self, h: Hypothesis) -> list:
        """The entities m may join in ``h``: those in the window, then rule-linked ones, of m's type."""
        if self.s.window > 0 and self.floor > h.floor:
            floor = self.floor
            h.window = tuple(e for e in h.window if e.last_sentence >= floor)  # the floor only rises
            h.floor = floor
        ents = list(h.window)
        ants = self.rules[self.m]
        if ants:
            roots = {e.root for e in ents}
            for a in ants:
                r = h.assign.get(a)
                if r not in roots:
                    roots.add(r)
                    ents.append(h.ents.get(r))
        if self.s.type_check and not self.pron:
            tm = self.type
            ents = [e for e in ents if not e.types or tm in e.types]
        return ents

    def offer(self, h: Hypothesis, h_i: int, ents: list, probs: list[float]) -> None:
        """Put h's children (links to ``ents`` with ``probs``, then a start) into the heap."""
        p_link = max(probs, default=0.0)
        p_start = self.s.alpha * (1.0 - p_link)
        lo = self.s.local_prune * max(p_link, p_start)
        heap, base = self.heap, h.score
        if len(heap) == self.beam:  # closed_to(h) is false: the exponent is negative
            lo = max(lo, math.exp(heap[0][0] - base) * _MARGIN)
        if p_link > 0.0 and p_link >= lo:
            for order, p in enumerate(probs):
                if p > 0.0 and p >= lo:
                    self._push((base + math.log(p), -h_i, -order, h, ents[order]))
        if p_start > 0.0 and p_start >= lo:
            self._push((base + math.log(p_start), -h_i, -len(probs), h, None))

    def _push(self, child: tuple) -> None:
        heap = self.heap
        if len(heap) < self.beam:
            heapq.heappush(heap, child)
        elif child[0] > heap[0][0]:
            heapq.heapreplace(heap, child)

    def children(self) -> list[Hypothesis]:
        """The new beam, best first, without the children below the global pruning limit."""
        kids = sorted(self.heap, reverse=True)
        if not kids:
            return []
        limit = kids[0][0] + self.log_global
        m, scorer, out = self.m, self.scorer, []
        for score, _, _, h, e in kids:
            if score < limit:
                break
            if e is None:
                e2 = scorer.new_entity(m)
                out.append(Hypothesis(score, h.assign.append(m), h.ents.append(e2), h.window + (e2,), h.floor))
                continue
            e2 = scorer.extend(e, m)
            try:
                i = h.window.index(e)
                window = h.window[:i] + (e2,) + h.window[i + 1:]
            except ValueError:  # a rule-linked entity outside the window comes back into it
                window = h.window + (e2,)
            out.append(Hypothesis(score, h.assign.append(e.root), h.ents.set(e.root, e2).append(None), window, h.floor))
        return out
