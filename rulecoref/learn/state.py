"""The links and chains of the rules chosen so far, and what a candidate rule would change.

The state of each document is its set of kept links: the base rules' links, plus the links of the
learned ``match`` rules chosen so far, less the links the learned filters chosen so far remove
(they run after every learned match rule, as in the written file, so they judge those links too,
except a filter limited to a base pass's links, ``made_by``, which judges a link only while that
pass alone made it). Chains are the union-find of the kept links. A candidate's effect is worked out on the documents it
changes only: a match rule's links merge the current chains of their two mentions (a link inside
one chain changes nothing), a filter's removals rebuild the chains of the documents it touches, and
those documents are rescored (``score.doc_counts``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..chains import UnionFind, clusters_from_pairs
from .pairs import PairStore, Training
from .score import conll_f1, doc_counts
from .space import Pred

#: the maker of links that learned match rules add (a ``made_by`` filter never judges them)
LEARNED = ""


def clusters_of(labels: np.ndarray) -> list[list[int]]:
    """The partition given by one label per mention."""
    order = np.argsort(labels, kind="stable")
    cuts = np.flatnonzero(np.diff(labels[order])) + 1
    return [part.tolist() for part in np.split(order, cuts)]


@dataclass(frozen=True)
class ChosenFilter:
    admit: np.ndarray  # by type code: does the filter's scope admit the type
    remove_if: tuple[Pred, ...]
    made_by: frozenset[str] = frozenset()  # empty: every link


class LinkState:
    def __init__(self, training: Training, store: PairStore):
        self.t = training
        self.store = store
        self.keys = [gd.key() for gd in training.docs]
        self.pairs: list[set[tuple[int, int]]] = [set(p) for p in training.base_pairs]
        #: who made each link ever kept (removed ones too: a learned rule may link a pair again)
        self.makers: list[dict[tuple[int, int], frozenset[str]]] = [dict(m) for m in training.base_makers]
        self.label = np.arange(training.n, dtype=np.int64)
        self.counts = np.zeros((len(training.docs), 12))
        self.filters: list[ChosenFilter] = []
        for d in range(len(training.docs)):
            self._rebuild(d)

    # -- reading ------------------------------------------------------------------------------------
    def f1(self, held_back: bool = False) -> float:
        return conll_f1(self.counts[self.t.held_back_doc == held_back].sum(axis=0))

    def delta(self, changed: dict[int, np.ndarray]) -> tuple[float, float]:
        """CoNLL F1 change (0-1) on the chosen-on documents and on the held-back ones."""
        out = []
        for back in (False, True):
            docs = self.t.held_back_doc == back
            before = self.counts[docs].sum(axis=0)
            after = before.copy()
            for d, row in changed.items():
                if docs[d]:
                    after += row - self.counts[d]
            out.append(conll_f1(after) - conll_f1(before))
        return out[0], out[1]

    def new_links(self, ana: np.ndarray, cand: np.ndarray) -> np.ndarray:
        """Which links join two chains of the current state (the others change nothing)."""
        return self.label[ana] != self.label[cand]

    def merged(self, ana: np.ndarray, cand: np.ndarray) -> dict[int, np.ndarray]:
        """The counts of every document that links (gids) would change, learned filters applied."""
        keep = self.new_links(ana, cand)
        ana, cand = ana[keep], cand[keep]
        if len(ana) and self.filters:
            keep = ~self.filtered(ana, cand)
            ana, cand = ana[keep], cand[keep]
        out: dict[int, np.ndarray] = {}
        docs = self.t.doc_of[ana]
        for d in np.unique(docs):
            mine = docs == d
            out[int(d)] = doc_counts(self.keys[d], clusters_of(self._merge(int(d), ana[mine], cand[mine])))
        return out

    def without(self, removed: dict[int, set[tuple[int, int]]]) -> dict[int, np.ndarray]:
        """The counts of every document once ``removed`` (local pairs) are taken out of its links."""
        out = {}
        for d, gone in removed.items():
            n = len(self.t.docs[d].doc.concepts)
            out[d] = doc_counts(self.keys[d], clusters_from_pairs(n, self.pairs[d] - gone))
        return out

    def filtered(self, ana: np.ndarray, cand: np.ndarray, filters: list[ChosenFilter] | None = None,
                 judged: dict[frozenset[str], np.ndarray] | None = None) -> np.ndarray:
        """Which links (gids) the chosen learned filters remove. New links of learned rules have no
        ``judged`` masks: the ``made_by`` filters leave them alone."""
        filters = self.filters if filters is None else filters
        out = np.zeros(len(ana), dtype=bool)
        if not filters or not len(ana):
            return out
        rows = self.judged_rows(ana, cand)
        types = self.t.type_code
        for f in filters:
            if f.made_by and judged is None:
                continue
            hit = np.zeros(len(ana), dtype=bool)
            for name in f.remove_if:
                hit |= self.store.column(name)[rows]
            hit &= f.admit[types[ana]] | f.admit[types[cand]]
            if f.made_by:
                hit &= judged[f.made_by]
            out |= hit
        return out

    def made_only_by(self, a: np.ndarray, b: np.ndarray, names: frozenset[str]) -> np.ndarray:
        """Which links (gids, kept) were made by the passes ``names`` alone."""
        docs = self.t.doc_of[a]
        off = self.t.offsets[docs]
        makers = self.makers
        return np.array([makers[d].get((x, y), frozenset({LEARNED})) <= names
                         for d, x, y in zip(docs.tolist(), (a - off).tolist(), (b - off).tolist())], dtype=bool)

    def judged_rows(self, ana: np.ndarray, cand: np.ndarray) -> np.ndarray:
        """Pair rows as a filter asks about a link: (later mention, earlier mention)."""
        later, earlier = np.maximum(ana, cand), np.minimum(ana, cand)
        off = self.t.offsets[self.t.doc_of[later]]
        row, docs = self.store.row, self.t.doc_of[later]
        return np.array([row(int(d), int(b), int(a)) for d, b, a in zip(docs, later - off, earlier - off)],
                        dtype=np.int64)

    def kept_links(self) -> tuple[np.ndarray, np.ndarray]:
        """Every kept link as gid arrays (earlier, later)."""
        a, b = [], []
        for d, pairs in enumerate(self.pairs):
            off = int(self.t.offsets[d])
            for x, y in pairs:
                a.append(off + x)
                b.append(off + y)
        return np.array(a, dtype=np.int64), np.array(b, dtype=np.int64)

    # -- changing -----------------------------------------------------------------------------------
    def add_links(self, ana: np.ndarray, cand: np.ndarray) -> None:
        if len(ana) and self.filters:
            keep = ~self.filtered(ana, cand)
            ana, cand = ana[keep], cand[keep]
        touched = set()
        for x, y in zip(ana.tolist(), cand.tolist()):
            d = int(self.t.doc_of[x])
            off = int(self.t.offsets[d])
            pair = (min(x, y) - off, max(x, y) - off)
            self.pairs[d].add(pair)
            self.makers[d][pair] = self.makers[d].get(pair, frozenset()) | {LEARNED}
            touched.add(d)
        for d in touched:
            self._rebuild(d)

    def add_filter(self, chosen: ChosenFilter) -> None:
        a, b = self.kept_links()
        self.filters.append(chosen)
        judged = {chosen.made_by: self.made_only_by(a, b, chosen.made_by)} if chosen.made_by else {}
        gone = self.filtered(b, a, [chosen], judged) if len(a) else np.zeros(0, dtype=bool)
        touched = set()
        for x, y in zip(a[gone].tolist(), b[gone].tolist()):
            d = int(self.t.doc_of[x])
            off = int(self.t.offsets[d])
            self.pairs[d].discard((x - off, y - off))
            touched.add(d)
        for d in touched:
            self._rebuild(d)

    def _merge(self, d: int, ana: Sequence[int], cand: Sequence[int]) -> np.ndarray:
        """Document d's labels (local) after merging the chains of each link."""
        off = int(self.t.offsets[d])
        n = len(self.t.docs[d].doc.concepts)
        lab = self.label[off: off + n] - off
        uf = UnionFind(n)
        joined: set[int] = set()
        for x, y in zip(ana, cand):
            rx, ry = int(lab[x - off]), int(lab[y - off])
            uf.union(rx, ry)
            joined.update((rx, ry))
        lowest: dict[int, int] = {}  # a merged chain is labelled by its lowest label, as _rebuild labels
        for r in joined:
            root = uf.find(r)
            lowest[root] = min(lowest.get(root, r), r)
        roots = np.arange(n, dtype=np.int64)
        for r in joined:
            roots[r] = lowest[uf.find(r)]
        return roots[lab]

    def _rebuild(self, d: int) -> None:
        off = int(self.t.offsets[d])
        n = len(self.t.docs[d].doc.concepts)
        clusters = clusters_from_pairs(n, self.pairs[d])
        for members in clusters:
            self.label[[off + m for m in members]] = off + members[0]
        self.counts[d] = doc_counts(self.keys[d], clusters)
