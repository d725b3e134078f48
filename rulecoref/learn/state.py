"""The links and chains of the rules chosen so far, and what a candidate rule would change.

The state of each document is its set of kept links: the base rules' links, plus the links of the
learned ``match`` rules chosen so far, less the links the learned filters chosen so far remove
(they run after every learned match rule, as in the written file, so they judge those links too).
Chains are the union-find of the kept links. A candidate's effect is worked out on the documents it
changes only: a match rule's links merge the current chains of their two mentions (a link inside
one chain changes nothing), a filter's removals rebuild the chains of the documents it touches, and
those documents are rescored (``score.doc_counts``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..chains import clusters_from_pairs
from .pairs import PairStore, Training
from .score import conll_f1, doc_counts


def clusters_of(labels: np.ndarray) -> list[list[int]]:
    """The partition given by one label per mention."""
    order = np.argsort(labels, kind="stable")
    cuts = np.flatnonzero(np.diff(labels[order])) + 1
    return [part.tolist() for part in np.split(order, cuts)]


@dataclass(frozen=True)
class ChosenFilter:
    admit: np.ndarray  # by type code: does the filter's scope admit the type
    remove_if: tuple[str, ...]


class LinkState:
    def __init__(self, training: Training, store: PairStore):
        self.t = training
        self.store = store
        self.keys = [gd.key() for gd in training.docs]
        self.pairs: list[set[tuple[int, int]]] = [set(p) for p in training.base_pairs]
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

    def filtered(self, ana: np.ndarray, cand: np.ndarray) -> np.ndarray:
        """Which links (gids) the chosen learned filters remove."""
        rows = self.judged_rows(ana, cand)
        types = self.t.type_code
        out = np.zeros(len(ana), dtype=bool)
        for f in self.filters:
            hit = np.zeros(len(ana), dtype=bool)
            for name in f.remove_if:
                hit |= self.store.column(name)[rows]
            out |= hit & (f.admit[types[ana]] | f.admit[types[cand]])
        return out

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
            self.pairs[d].add((min(x, y) - off, max(x, y) - off))
            touched.add(d)
        for d in touched:
            self._rebuild(d)

    def add_filter(self, chosen: ChosenFilter) -> None:
        a, b = self.kept_links()
        self.filters.append(chosen)
        gone = self.filtered(b, a) if len(a) else np.zeros(0, dtype=bool)
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
        parent: dict[int, int] = {}

        def find(x: int) -> int:
            while parent.get(x, x) != x:
                x = parent[x]
            return x

        for x, y in zip(ana, cand):
            rx, ry = find(int(lab[x - off])), find(int(lab[y - off]))
            if rx != ry:
                parent[max(rx, ry)] = min(rx, ry)
        roots = np.arange(n, dtype=np.int64)
        for r in parent:
            roots[r] = find(r)
        return roots[lab]

    def _rebuild(self, d: int) -> None:
        off = int(self.t.offsets[d])
        n = len(self.t.docs[d].doc.concepts)
        clusters = clusters_from_pairs(n, self.pairs[d])
        for members in clusters:
            self.label[[off + m for m in members]] = off + members[0]
        self.counts[d] = doc_counts(self.keys[d], clusters)
