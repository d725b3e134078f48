"""Shared pieces of every metric: de-duplicated partitions, the key x response contingency table,
counts and F1.

Every metric of the CoNLL scorer and of the i2b2 scorer is a function of the overlaps
|k ∩ r| between key entities k and response entities r (plus entity and mention counts), so both
modes build one sparse table of the non-zero overlaps and read everything from it. A CRAFT
document has ~1,260 mentions and ~350 key entities: the table has at most one cell per mention,
where an all-pairs loop would visit ~400,000 entity pairs.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

import numpy as np

Mention = Hashable  # a span tuple in practice: (line, token, line, token) for i2b2, (first, last) for CoNLL


def dedupe(entities: Sequence[Sequence[Mention]]) -> tuple[list[list[Mention]], list[int], int]:
    """Drop repeated mentions (the first occurrence wins) and the entities left empty.

    This is the reference scorer's rule for a response that lists one span twice (test cases
    A7-A9); the order of entities and of mentions inside them decides which copy is first.
    Returns the kept entities, the index each came from, and the number of mentions dropped.
    """
    flat = [m for entity in entities for m in entity]
    if len(set(flat)) == len(flat) and all(entities):  # the usual case: nothing to drop
        return [list(e) for e in entities], list(range(len(entities))), 0
    seen: set[Mention] = set()
    out: list[list[Mention]] = []
    origin: list[int] = []
    dropped = 0
    for i, entity in enumerate(entities):
        kept = []
        for m in entity:
            if m in seen:
                dropped += 1
                continue
            seen.add(m)
            kept.append(m)
        if kept:
            out.append(kept)
            origin.append(i)
    return out, origin, dropped


@dataclass(frozen=True)
class Contingency:
    """Entity sizes on both sides and the non-zero overlaps ``counts[i] = |key[ki[i]] ∩ resp[ri[i]]|``.

    Mentions that only one side has (CoNLL "twinless" mentions) count in that side's sizes and
    nowhere else, which is exactly how the reference scorer's B3, CEAF and BLANC treat them.
    """

    key_sizes: np.ndarray
    resp_sizes: np.ndarray
    ki: np.ndarray
    ri: np.ndarray
    counts: np.ndarray

    @property
    def n_key(self) -> int:
        return int(self.key_sizes.sum())

    @property
    def n_resp(self) -> int:
        return int(self.resp_sizes.sum())

    @property
    def n_common(self) -> int:
        return int(self.counts.sum())

    @classmethod
    def build(cls, key: Sequence[Sequence[Mention]], response: Sequence[Sequence[Mention]]) -> Contingency:
        """Both sides must be de-duplicated already (see :func:`dedupe`)."""
        owner = {m: k for k, entity in enumerate(key) for m in entity}
        pairs: list[int] = []
        n_resp = len(response)
        for r, entity in enumerate(response):
            for m in entity:
                k = owner.get(m)
                if k is not None:
                    pairs.append(k * n_resp + r)
        if pairs:
            cells, counts = np.unique(np.asarray(pairs, dtype=np.int64), return_counts=True)
            ki, ri = np.divmod(cells, n_resp)
        else:
            ki = ri = counts = np.zeros(0, dtype=np.int64)
        return cls(
            key_sizes=np.fromiter((len(e) for e in key), dtype=np.int64, count=len(key)),
            resp_sizes=np.fromiter((len(e) for e in response), dtype=np.int64, count=n_resp),
            ki=ki.astype(np.int64),
            ri=ri.astype(np.int64),
            counts=counts.astype(np.int64),
        )

    @classmethod
    def pool(cls, tables: Sequence[Contingency]) -> Contingency:
        """One table for a whole corpus (the i2b2 scorer pools all records): indices are offset."""
        if not tables:
            empty = np.zeros(0, dtype=np.int64)
            return cls(empty, empty, empty, empty, empty)
        k_off = np.cumsum([0] + [len(t.key_sizes) for t in tables[:-1]])
        r_off = np.cumsum([0] + [len(t.resp_sizes) for t in tables[:-1]])
        return cls(
            key_sizes=np.concatenate([t.key_sizes for t in tables]),
            resp_sizes=np.concatenate([t.resp_sizes for t in tables]),
            ki=np.concatenate([t.ki + o for t, o in zip(tables, k_off)]),
            ri=np.concatenate([t.ri + o for t, o in zip(tables, r_off)]),
            counts=np.concatenate([t.counts for t in tables]),
        )


def pairs_within(sizes: np.ndarray) -> int:
    """Number of unordered mention pairs inside groups of the given sizes."""
    s = sizes.astype(np.int64)
    return int((s * (s - 1) // 2).sum())


def safe_div(num: float, den: float) -> float:
    """The reference scorer's rule: a ratio with a zero denominator is 0."""
    return num / den if den else 0.0


def f1(recall: float, precision: float) -> float:
    return 2 * recall * precision / (recall + precision) if recall + precision else 0.0


@dataclass(frozen=True)
class Counts:
    """Numerators and denominators of recall and precision, summable over documents."""

    recall_num: float = 0.0
    recall_den: float = 0.0
    precision_num: float = 0.0
    precision_den: float = 0.0

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.recall_num + other.recall_num,
            self.recall_den + other.recall_den,
            self.precision_num + other.precision_num,
            self.precision_den + other.precision_den,
        )

    def score(self) -> Score:
        r = safe_div(self.recall_num, self.recall_den)
        p = safe_div(self.precision_num, self.precision_den)
        return Score(r, p, f1(r, p), counts=self.to_dict())

    def to_dict(self) -> dict[str, float]:
        return {
            "recall_num": _num(self.recall_num),
            "recall_den": _num(self.recall_den),
            "precision_num": _num(self.precision_num),
            "precision_den": _num(self.precision_den),
        }


def _num(x: float) -> float | int:
    x = float(x)
    return int(x) if x.is_integer() else x


@dataclass
class Score:
    """Recall, precision and F1 of one metric, plus the counts they came from."""

    recall: float
    precision: float
    f1: float
    counts: dict[str, object] = field(default_factory=dict)
    raw_f1: float | None = field(default=None, repr=False, compare=False)  # i2b2 mode: F before rounding

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"recall": self.recall, "precision": self.precision, "f1": self.f1}
        if self.counts:
            out["counts"] = self.counts
        return out
