"""CoNLL F1 of partitions, kept as counts per document so a change to one document is rescored alone.

The CoNLL F1 of a corpus is the mean F1 of MUC, B3 and CEAF-e, each from numerators and
denominators summed over documents (``rulecoref.evaluate``, mode conll). A document's twelve
counts are one row here; a corpus total is the sum of the rows, so trying a rule on a corpus costs
one rescoring per document it changes, not a scoring of the corpus. The counts come from the
evaluation package's own metric functions, so these numbers are ``rulecoref evaluate``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from ..evaluate.bcubed import bcubed_counts
from ..evaluate.ceaf import ceafe_counts
from ..evaluate.core import Contingency
from ..evaluate.muc import muc_counts

METRICS = ("muc", "bcub", "ceafe")


def doc_counts(key: Sequence[Sequence[int]], clusters: Sequence[Sequence[int]]) -> np.ndarray:
    """The twelve counts (recall num/den, precision num/den of MUC, B3, CEAF-e) of one document;
    ``clusters`` must cover the same mentions as ``key`` (singletons included)."""
    table = Contingency.build(key, clusters)
    out = np.empty(12)
    for k, counts in enumerate((muc_counts(table), bcubed_counts(table), ceafe_counts(table))):
        out[4 * k: 4 * k + 4] = (counts.recall_num, counts.recall_den, counts.precision_num, counts.precision_den)
    return out


def metric_f1(total: np.ndarray) -> dict[str, float]:
    """F1 of each metric from summed counts (a zero denominator gives 0, as the reference scorer)."""
    out = {}
    for k, name in enumerate(METRICS):
        rn, rd, pn, pd = total[4 * k: 4 * k + 4]
        r = rn / rd if rd else 0.0
        p = pn / pd if pd else 0.0
        out[name] = 2 * r * p / (r + p) if r + p else 0.0
    return out


def conll_f1(total: np.ndarray) -> float:
    """The CoNLL F1 (0-1) of summed counts."""
    f = metric_f1(total)
    return (f["muc"] + f["bcub"] + f["ceafe"]) / 3


def total(rows: Iterable[np.ndarray]) -> np.ndarray:
    out = np.zeros(12)
    for row in rows:
        out += row
    return out
