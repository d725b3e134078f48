"""Training events for the two link models (seed 000 section 5.2) and model fitting.

Mention-pair: one event per compatible pair (a, m), a < m, labelled by whether the gold chains put
them together. The seed uses all compatible pairs; on long documents (CRAFT: ~1,260 mentions, so
~800,000 pairs each) that is out of reach here, so by default the pairs are the ones the decoder
will score: a within ``window`` sentences of m, or a with m's string or head (the latest 10 such),
or a linked to m by a rule. ``window = 0`` restores all compatible pairs.

Entity-mention: walk the true path of the Bell tree. At each mention the gold partial entities to
its left are the in-focus candidates (the same window and rule candidates as decoding); the link
event to m's true entity is positive, the others negative. Starting events need no separate
example: the start probability is derived from the link probabilities (eq. 5).

Documents are read and their events made one at a time (in worker processes with ``jobs > 1``,
through ``pool.parallel_map``, the path ``rulecoref resolve`` takes), each document's events
coming back as integer arrays over its own feature strings; they are merged into one sparse
matrix of 32-bit column numbers, so memory grows with the number of feature occurrences, not with
Python lists of strings.
"""

from __future__ import annotations

import warnings
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..document import Document
from ..errors import Diagnostic, RulecorefError, diagnostic
from ..pool import parallel_map
from .features import FeatureExtractor, MentionView, PartialEntity, extractor
from .maxent import MaxEntModel

FAR_SAME_STRING = 10


@dataclass
class TrainingDoc:
    """A document, its gold clusters (concept indices) and, for hybrid models, the rule Resolution."""

    doc: Document
    gold: list[list[int]]
    resolution: Any = None


@dataclass(frozen=True)
class TrainSettings:
    kind: str = "mention-pair"
    window: int = 10
    max_members: int = 16
    c: float = 1.0
    min_count: int = 2
    type_check: bool = True


def gold_owner(n: int, gold: Sequence[Sequence[int]]) -> list[int]:
    """Gold entity id per mention (singletons get their own id)."""
    owner = list(range(n, 2 * n))
    for k, chain in enumerate(gold):
        for i in chain:
            owner[i] = k
    return owner


def compatible(tab: MentionView, a: int, m: int, type_check: bool = True) -> bool:
    """Seed 4: mentions of different entity types never corefer; pronouns fit every type."""
    return not type_check or tab.pron[a] or tab.pron[m] or tab.type[a] == tab.type[m]


def mention_pair_events(fx: FeatureExtractor, owner: Sequence[int], s: TrainSettings) -> Iterator[tuple[list[str], int]]:
    tab = fx.tab
    by_norm: dict[str, list[int]] = {}
    by_head: dict[str, list[int]] = {}
    for m in range(tab.n):
        cands: set[int] = set()
        if s.window > 0:
            a = m - 1
            floor = tab.sent[m] - s.window
            while a >= 0 and tab.sent[a] >= floor:
                cands.add(a)
                a -= 1
            if not tab.pron[m]:
                cands.update(by_norm.get(tab.norm[m], [])[-FAR_SAME_STRING:])
                cands.update(by_head.get(tab.head[m], [])[-FAR_SAME_STRING:])
            cands.update(fx.rules.antecedents[m])
        else:
            cands.update(range(m))
        for a in sorted(cands):
            if compatible(tab, a, m, s.type_check):
                yield fx.pair(a, m), int(owner[a] == owner[m])
        if not tab.pron[m]:
            by_norm.setdefault(tab.norm[m], []).append(m)
            by_head.setdefault(tab.head[m], []).append(m)


def entity_mention_events(fx: FeatureExtractor, owner: Sequence[int], s: TrainSettings) -> Iterator[tuple[list[str], int]]:
    tab = fx.tab
    entities: dict[int, PartialEntity] = {}
    root: dict[int, int] = {}

    def root_of(a: int) -> int:
        return root[owner[a]]

    for m in range(tab.n):
        floor = tab.sent[m] - s.window
        cands = [g for g, e in entities.items() if s.window <= 0 or e.last_sentence >= floor]
        for a in fx.rules.antecedents[m]:
            g = owner[a]
            if g not in cands:
                cands.append(g)
        for g in cands:
            e = entities[g]
            if s.type_check and not tab.pron[m] and e.types and tab.type[m] not in e.types:
                continue
            yield fx.entity(e, m, root_of), int(owner[m] == g)
        g = owner[m]
        if g in entities:
            entities[g] = entities[g].extend(tab, m, s.max_members)
        else:
            entities[g] = PartialEntity.start(tab, m, s.max_members)
            root[g] = m


@dataclass
class DocEvents:
    """One document's training events, compact: features are numbered per document (``columns``)."""

    name: str
    ok: bool = True
    diagnostics: list[Diagnostic] = field(default_factory=list)
    indices: array = field(default_factory=lambda: array("i"))
    lengths: array = field(default_factory=lambda: array("i"))  # features per event
    labels: array = field(default_factory=lambda: array("b"))
    columns: dict[str, int] = field(default_factory=dict, repr=False)  # feature -> its column, in order

    def add(self, features: Sequence[str], label: int) -> None:
        """One event: its features as this document's column numbers."""
        cols = {self.columns.setdefault(f, len(self.columns)) for f in features}
        self.indices.extend(sorted(cols))
        self.lengths.append(len(cols))
        self.labels.append(label)


def events_of(pipeline: Any, settings: TrainSettings, passes: Sequence[tuple[str, Any]], td: TrainingDoc) -> DocEvents:
    """The events of one gold document; with ``passes`` (hybrid) the rules run first."""
    if passes:
        td.resolution = pipeline.run_passes(td.doc)
        table = td.resolution.table
    else:
        table = pipeline.table(td.doc)
    fx = extractor(table, td.resolution if passes else None, passes)
    gen = mention_pair_events if settings.kind == "mention-pair" else entity_mention_events
    out = DocEvents(td.doc.name)
    for feats, label in gen(fx, gold_owner(len(td.doc.concepts), td.gold), settings):
        out.add(feats, label)
    return out


def document_events(pipeline: Any, settings: TrainSettings, passes: Sequence[tuple[str, Any]], record: Any,
                    *, types: Sequence[str] | None = None, encoding: str = "utf-8", opts: Any = None) -> DocEvents:
    """Read one gold record and make its events; a bad document is reported, never raised."""
    try:
        td, warnings = load_gold(record, types=types, encoding=encoding, opts=opts)
        out = events_of(pipeline, settings, passes, td)
        out.diagnostics = warnings
        return out
    except RulecorefError as exc:
        return DocEvents(record.name, False, exc.diagnostics)
    except Exception as exc:  # a bug or an unexpected input: report it, keep training on the rest
        return DocEvents(record.name, False, [diagnostic("RC550", file=str(record.con), detail=f"{type(exc).__name__}: {exc}")])


class EventMatrix:
    """Every document's events as one sparse 0/1 matrix (rows: events, columns: feature strings)."""

    def __init__(self) -> None:
        self.columns: dict[str, int] = {}
        self.indices = array("i")
        self.indptr = array("q", [0])
        self.labels = array("b")
        self.counts = array("i")  # events holding each column

    def add(self, d: DocEvents) -> None:
        columns, counts = self.columns, self.counts
        remap = array("i", (columns.setdefault(f, len(columns)) for f in d.columns))
        counts.extend([0] * (len(columns) - len(counts)))
        pos = 0
        for n in d.lengths:
            row = sorted(remap[k] for k in d.indices[pos: pos + n])
            for c in row:
                counts[c] += 1
            self.indices.extend(row)
            self.indptr.append(len(self.indices))
            pos += n
        self.labels.extend(d.labels)

    @property
    def events(self) -> int:
        return len(self.labels)

    @classmethod
    def from_events(cls, events: Sequence[Sequence[str]], labels: Sequence[int]) -> EventMatrix:
        """A matrix from feature-string events (a few hand-made ones; training streams documents)."""
        d = DocEvents("events")
        for feats, label in zip(events, labels):
            d.add(feats, label)
        m = cls()
        m.add(d)
        return m


def fit(m: EventMatrix, kind: str, *, c: float = 1.0, min_count: int = 1, max_iter: int = 300,
        settings: dict[str, Any] | None = None) -> MaxEntModel:
    """Fit an L2 logistic regression over the indicator features; features seen in fewer than
    ``min_count`` events are dropped (most are one-off spelling pairs).

    Memory: the matrix is 0/1, so its values are float32 ones beside the int32 column numbers, and
    L-BFGS works on it as it is (liblinear would copy it into 16 bytes per entry): training the
    hybrid model on all of CRAFT (126 million entries) stays within a few GB.
    """
    import numpy as np
    from scipy.sparse import csr_matrix
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression

    ys = np.frombuffer(m.labels, dtype=np.int8)
    if len(set(ys.tolist())) < 2:
        raise ValueError("training needs both linked and unlinked events (are there chains in the gold data?)")
    keep = np.frombuffer(m.counts, dtype=np.int32) >= min_count
    new_col = np.cumsum(keep, dtype=np.int32) - 1  # a kept column's number among the kept ones
    new_col[~keep] = -1
    mapped = new_col[np.frombuffer(m.indices, dtype=np.int32)]
    kept = mapped >= 0
    indptr = np.concatenate((np.zeros(1, dtype=np.int64), np.cumsum(kept, dtype=np.int64)[np.frombuffer(m.indptr, dtype=np.int64)[1:] - 1]))
    indices = mapped[kept]
    del mapped, kept
    x = csr_matrix((np.ones(len(indices), dtype=np.float32), indices, indptr), shape=(m.events, max(1, int(keep.sum()))))
    clf = LogisticRegression(C=c, solver="lbfgs", max_iter=max_iter)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=ConvergenceWarning)  # reported in the model's stats
        clf.fit(x, ys)
    names = [""] * int(keep.sum())
    for name, col in m.columns.items():
        if keep[col]:
            names[new_col[col]] = name
    coef = clf.coef_[0]
    weights = {name: float(coef[i]) for i, name in enumerate(names) if coef[i] != 0.0}
    stats = {"events": m.events, "positive": int(ys.sum()), "features": len(weights),
             "iterations": int(clf.n_iter_[0]), "converged": bool(clf.n_iter_[0] < max_iter)}
    return MaxEntModel(kind, weights, float(clf.intercept_[0]), settings, stats)


def _model(matrix: EventMatrix, s: TrainSettings, pipeline: Any, passes: Sequence[tuple[str, Any]],
           documents: int) -> MaxEntModel:
    settings = {**asdict(s), "rule_passes": [name for name, _ in passes],
                "pronoun_types": sorted(pipeline.ruleset.pronoun_types), "documents": documents}
    return fit(matrix, s.kind, c=s.c, min_count=s.min_count, settings=settings)


def train(pipeline: Any, records: Sequence[Any], s: TrainSettings, *, hybrid: bool = False, jobs: int = 1,
          types: Sequence[str] | None = None, encoding: str = "utf-8",
          on_document: Any = None, opts: Any = None) -> tuple[MaxEntModel, list[DocEvents]]:
    """Make every record's events (``jobs`` processes) and fit the model; returns it and the
    documents that failed (their problems in ``diagnostics``). ``opts``: how records of another
    format than i2b2 are read (ReadOptions)."""
    from functools import partial

    passes = [(p.name, p.scope) for p in pipeline.passes] if hybrid else []
    work = partial(document_events, pipeline, s, passes, types=types, encoding=encoding, opts=opts)
    matrix, failed = EventMatrix(), []
    for d in parallel_map(work, records, jobs, lambda r: DocEvents(r.name, False, [diagnostic("RC551", file=str(r.con))])):
        if on_document is not None:
            on_document(d)
        if d.ok:
            matrix.add(d)
        else:
            failed.append(d)
    return _model(matrix, s, pipeline, passes, len(records) - len(failed)), failed


def train_documents(pipeline: Any, docs: Sequence[TrainingDoc], s: TrainSettings, *, hybrid: bool = False) -> MaxEntModel:
    """The model of documents already read (benchmarks, tests): the same events and fit as ``train``."""
    passes = [(p.name, p.scope) for p in pipeline.passes] if hybrid else []
    matrix = EventMatrix()
    for td in docs:
        matrix.add(events_of(pipeline, s, passes, td))
    return _model(matrix, s, pipeline, passes, len(docs))


def load_gold(record: Any, *, types: Sequence[str] | None = None, encoding: str = "utf-8",
              opts: Any = None) -> tuple[TrainingDoc, list[Any]]:
    """Read one record with its gold chains (any format: ``io.formats.read_gold_record``; ``opts``
    its ReadOptions, by default i2b2's with ``types`` and ``encoding``).

    Returns the training document and warnings (reading warnings, chain mentions that are not
    concepts). A record without gold chains trains as all singletons, with a warning.
    """
    from ..io.formats import ReadOptions, read_gold_record

    read, members = read_gold_record(record, opts or ReadOptions(tuple(types) if types else None, encoding=encoding))
    doc = read.document
    warnings = list(read.warnings)
    if members is None:
        warnings.append(diagnostic("RC605", file=str(record.con), severity="warning",
                                   detail=f"no {'.txt.chains' if record.kind == 'i2b2' else 'gold chains'} for {record.name}; "
                                          "its concepts train as singletons"))
        return TrainingDoc(doc, []), warnings
    return TrainingDoc(doc, [sorted(m) for m in members if len(m) > 1]), warnings
