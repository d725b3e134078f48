"""Score predicted partitions against gold ones (for the sweep command and the benchmarks).

Thin glue over ``rulecoref.evaluate.score_partitions`` (CoNLL mode: MUC, B3, CEAF-e summed per
document, CoNLL F1 = their mean F1): mentions are concept spans, singletons are included.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..document import Document


def partition_spans(doc: Document, clusters: Sequence[Sequence[int]]) -> list[list[tuple[int, int, int, int]]]:
    """Clusters of concept indices -> clusters of spans, every concept included (singletons too)."""
    seen: set[int] = set()
    out = []
    for c in clusters:
        out.append([doc.concepts[i].span for i in c])
        seen.update(c)
    out.extend([[c.span] for c in doc.concepts if c.index not in seen])
    return out


def score(docs: Sequence[Document], gold: Sequence[Sequence[Sequence[int]]],
          predicted: Sequence[Sequence[Sequence[int]]], mode: str = "conll") -> Any:
    """A ``rulecoref.evaluate`` Report for the documents (``report.conll_f1``, ``report.metrics``)."""
    try:
        from ..evaluate import score_partitions
    except ImportError:  # the package's public names may not be exported yet
        from ..evaluate.scoring import score_partitions
    try:
        from ..evaluate import DocPartition
    except ImportError:
        from ..evaluate.data import DocPartition
    parts = [DocPartition(d.name, partition_spans(d, g), partition_spans(d, p)) for d, g, p in zip(docs, gold, predicted)]
    return score_partitions(parts, mode=mode)
