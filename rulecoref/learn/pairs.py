"""Candidate pairs and predicate outcomes, computed once per run and shared by every candidate rule.

A ``match`` rule links each mention to the first of its blocking candidates (nearest first, the
engine's order) that its scope and window admit, no veto rules out and every requirement accepts.
So for one blocking key the candidates of every mention are listed once, in that order, by the
engine's own search (``candidates.search`` with a test that only records what it is asked about);
each distinct (mention, candidate) pair gets one row, and each predicate is asked about each row
once. A rule is then a mask over the rows of its blocking, and its links are the first admitted
row of each mention: array operations, not a run of the engine per candidate rule.

A mention's list is cut after ``cap`` candidates. When none of them passes, the engine would go on
to later ones; those mentions are counted (``BlockPairs.truncated``), and the learned file is
measured with the engine itself before it is written.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..candidates import SearchSpec, TypeScope, search
from ..engine import Pipeline
from ..errors import Diagnostic, diagnostic
from ..mentions import MentionTable
from ..predicates import PREDICATES
from .corpus import GoldDoc
from .space import Blocking, Pred, Scope

Progress = Callable[[int], None]


class Training:
    """The gold documents with what every candidate is measured against: each document's mention
    table and base-rule links (one run of the base rules per document), and one numbering of all
    mentions (``gid``) so that a corpus's mentions are one array."""

    def __init__(self, docs: Sequence[GoldDoc], pipeline: Pipeline, held_back: set[str],
                 progress: Progress | None = None):
        self.pipeline = pipeline
        self.pronoun_types = pipeline.ruleset.pronoun_types or frozenset({"pronoun"})
        #: the base file's linking passes, whose links a learned filter may judge alone (``made_by``)
        self.link_passes = [p.name for p in pipeline.passes if p.role == "link"]
        self.docs: list[GoldDoc] = []
        self.tables: list[MentionTable] = []
        self.base_pairs: list[set[tuple[int, int]]] = []
        #: per document, the passes that made each kept base link (a ``made_by`` filter judges by them)
        self.base_makers: list[dict[tuple[int, int], frozenset[str]]] = []
        #: documents the base rules failed on (RC575): they are left out, the run goes on
        self.warnings: list[Diagnostic] = []
        for gd in docs:
            try:
                res = pipeline.run_passes(gd.doc)
            except Exception as exc:  # one bad document never stops a run (as in resolve's batches)
                self.warnings.append(diagnostic("RC575", severity="warning", doc=gd.name,
                                                detail=f"the base rules failed on it: {type(exc).__name__}: {exc}"))
                continue
            self.docs.append(gd)
            self.tables.append(res.table)
            self.base_pairs.append(set(res.kept))
            self.base_makers.append({pair: frozenset(link.provenance.pass_name for link in links)
                                     for pair, links in res.kept.items()})
            if progress:
                progress(1)
        sizes = [len(gd.doc.concepts) for gd in self.docs]
        self.offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self.n = int(self.offsets[-1])
        self.doc_of = np.repeat(np.arange(len(sizes)), sizes)
        self.type_names = sorted({c.type for gd in self.docs for c in gd.doc.concepts})
        code = {t: k for k, t in enumerate(self.type_names)}
        self.type_code = np.array([code[c.type] for gd in self.docs for c in gd.doc.concepts], dtype=np.int64)
        self.owner = np.array([o + 2 * int(off) for gd, off in zip(self.docs, self.offsets) for o in gd.owner],
                              dtype=np.int64)
        self.line = np.array([c.line for gd in self.docs for c in gd.doc.concepts], dtype=np.int64)
        self.held_back_doc = np.array([gd.name in held_back for gd in self.docs])

    def allow_matrix(self, scope: Scope) -> np.ndarray:
        """``allow[type of candidate, type of mention]``: the scope's TypeScope.allows_types, by type code."""
        ts = scope.type_scope(self.pronoun_types)
        names = self.type_names
        return np.array([[ts.allows_types(a, b) for b in names] for a in names], dtype=bool)

    def admit_vector(self, scope: Scope) -> np.ndarray:
        return np.array([scope.admits(t) for t in self.type_names], dtype=bool)


class PairStore:
    """Every (mention, candidate) pair asked about in a run, with its gold label and, per
    predicate, whether it holds (``test(table, mention, candidate)``, as a rule asks it)."""

    def __init__(self, training: Training, predicates: Sequence[Pred]):
        self.t = training
        self.predicates = list(predicates)
        self._index: list[dict[tuple[int, int], int]] = [{} for _ in training.docs]
        self.doc = array("q")
        self.i = array("q")
        self.j = array("q")
        self._cols: dict[Pred, bytearray] = {p: bytearray() for p in self.predicates}
        self._arrays: dict[Pred, np.ndarray] = {}
        #: predicates that raised (the predicate -> the error): they are left out of the search
        self.broken: dict[Pred, str] = {}

    def __len__(self) -> int:
        return len(self.doc)

    def row(self, d: int, i: int, j: int) -> int:
        index = self._index[d]
        r = index.get((i, j))
        if r is None:
            r = index[(i, j)] = len(self.doc)
            self.doc.append(d)
            self.i.append(i)
            self.j.append(j)
        return r

    def column(self, name: Pred) -> np.ndarray:
        """Whether predicate ``name`` holds for each row (rows added since the last call are asked now)."""
        col = self._cols[name]
        if len(col) < len(self.doc):
            self._fill(name, col)
            self._arrays.pop(name, None)
        arr = self._arrays.get(name)
        if arr is None or len(arr) != len(col):
            arr = self._arrays[name] = np.frombuffer(bytes(col), dtype=np.uint8).astype(bool)
        return arr

    def _fill(self, name: Pred, col: bytearray) -> None:
        test = PREDICATES[name.name].bind(name.settings)
        tables, docs, ii, jj = self.t.tables, self.doc, self.i, self.j
        start = len(col)
        if name in self.broken:
            col.extend(bytes(len(docs) - start))
            return
        try:
            col.extend(test(tables[docs[r]], ii[r], jj[r]) is not None for r in range(start, len(docs)))
        except Exception as exc:  # a predicate that cannot judge these documents must not stop the run
            self.broken[name] = f"{type(exc).__name__}: {exc}"
            del col[start:]
            col.extend(bytes(len(docs) - start))

    def gold(self, rows: np.ndarray) -> np.ndarray:
        """Whether each row's two mentions are in one gold chain."""
        t = self.t
        d = np.frombuffer(self.doc, dtype=np.int64)[rows]
        off = t.offsets[d]
        i = np.frombuffer(self.i, dtype=np.int64)[rows] + off
        j = np.frombuffer(self.j, dtype=np.int64)[rows] + off
        return t.owner[i] == t.owner[j]


@dataclass
class BlockPairs:
    """The candidate rows of one blocking key, grouped by mention in text order, each mention's
    candidates in the engine's order."""

    blocking: Blocking
    row: np.ndarray
    ana: np.ndarray  # gid of the mention
    cand: np.ndarray  # gid of the candidate
    dist: np.ndarray  # lines (sentences) apart
    truncated: int  # mentions whose list was cut at the cap

    def __len__(self) -> int:
        return len(self.row)


def enumerate_pairs(training: Training, store: PairStore, blocking: Blocking, cap: int) -> BlockPairs:
    """The blocking's candidates of every mention of every document (at most ``cap`` each), found
    by the engine's candidate search with an open scope; narrower scopes and windows are masks."""
    open_scope = TypeScope(same_type=False, pronoun_types=training.pronoun_types)
    window = 0 if 0 in blocking.windows else max(blocking.windows)
    ante = (blocking.antecedent_key,) if blocking.antecedent_key else None
    rows, anas, cands = array("q"), array("q"), array("q")
    truncated = 0
    for d, table in enumerate(training.tables):
        seen: dict[int, int] = {}
        found: list[tuple[int, int]] = []

        def record(t: MentionTable, i: int, j: int, seen=seen, found=found) -> None:
            k = seen.get(i, 0)
            seen[i] = k + 1
            if k < cap:
                found.append((i, j))
            return None

        spec = SearchSpec((blocking.key,), record, "all", window, blocking.direction, ante)
        for _ in search(table, open_scope, spec):
            pass
        truncated += sum(1 for k in seen.values() if k > cap)
        off = int(training.offsets[d])
        for i, j in found:
            rows.append(store.row(d, i, j))
            anas.append(off + i)
            cands.append(off + j)
    ana = np.frombuffer(anas, dtype=np.int64).copy()
    cand = np.frombuffer(cands, dtype=np.int64).copy()
    dist = np.abs(training.line[ana] - training.line[cand])
    return BlockPairs(blocking, np.frombuffer(rows, dtype=np.int64).copy(), ana, cand, dist, truncated)


def first_passing(ana: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Indices of the first row of each mention where ``mask`` holds (rows grouped by mention)."""
    idx = np.flatnonzero(mask)
    if len(idx) < 2:
        return idx
    a = ana[idx]
    keep = np.empty(len(idx), dtype=bool)
    keep[0] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    return idx[keep]
