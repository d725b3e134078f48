"""The official i2b2/VA 2011 scorer (Bodnari, v1.6.3, ``coreferenceEvaluation.py``, Track 1C), as
its code computes, on the gold concepts (``shared/i2b2-format.md``, "Official scoring").

All records and all categories are POOLED into one corpus, with gold singletons on both sides:
  * MUC: Vilain et al. F is exact; the XML swaps the labels (its "recall" is MUC precision).
    We report the correct recall and precision and keep the XML's order in ``official_xml``.
  * B3 is ENTITY-weighted: R = (1/G) Σ_k Σ_{m∈k} |k ∩ r(m)| / |k|², G = number of gold entities
    (singletons included) in the pooled corpus; P likewise with response entities. P and R are
    rounded to 3 decimals BEFORE F.
  * CEAF-e with singletons: per record, the alignment maximises Σ int(100·phi4) (munkres on integer
    costs), then the RAW phi4 of the aligned pairs are summed; sums and self-similarities (= number
    of entities) are pooled. Among alignments tied on the integer total, the script takes whichever
    munkres returns; we take the one with the largest raw total, so the score cannot depend on
    chain order (a deliberate, documented difference that only matters on such ties).
  * BLANC over ALL N(N-1)/2 concept pairs of the pooled corpus (cross-record pairs are correct
    non-coreference): coref P, R rounded to 3 decimals before F; empty coref denominators give 0,
    empty non-coref denominators give 1; BLANC = mean of the coref and non-coref P, R, F.
  * Every reported number is rounded to 3 decimals (Python 2 half-up); overall =
    round(mean(F_MUC, F_B3, F_CEAF), 3) from the unrounded F values, BLANC excluded.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import numpy as np

from .ceaf import align, phi4
from .core import Contingency, Score, pairs_within

# Where the script's float arithmetic is a fixed function of integer counts (MUC, BLANC, the
# final means) it is reproduced operation by operation, because its 3-decimal rounding sees those
# exact floats: BLANC's (0.333 + 1.0) / 2 is the float 0.66649999..., which rounds to 0.666.
# Where the script sums floats in file order (B3's per-mention terms, CEAF's aligned phi4) the sum
# is computed exactly and converted once, so no score depends on the order of records, chains or
# mentions; it differs from the script's sum by a few units in the last place at most.


def py2_round(x: float, digits: int = 3) -> float:
    """Python 2's ``round``: the exact value of the double, rounded half away from zero.

    >>> py2_round(0.0625), round(0.0625, 3)
    (0.063, 0.062)
    """
    return float(Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def fmeasure(precision: float, recall: float) -> float:
    """The script's ``computeFmeasure``, with its operation order."""
    if precision + recall == 0:
        return 0.0
    return 2.0 * (precision * recall) / float(precision + recall)


def _score(recall: float, precision: float, f: float, **raw: object) -> Score:
    counts: dict[str, object] = {"recall_raw": recall, "precision_raw": precision, "f1_raw": f, **raw}
    return Score(py2_round(recall), py2_round(precision), py2_round(f), counts=counts, raw_f1=f)


def _grouped_sum(num: np.ndarray, den: np.ndarray) -> Fraction:
    """Σ num/den exactly, adding numerators per distinct denominator first (few distinct sizes)."""
    by_den: dict[int, int] = defaultdict(int)
    for n, d in zip(num.tolist(), den.tolist()):
        by_den[d] += n
    return sum((Fraction(n, d) for d, n in by_den.items()), Fraction(0))


def muc(table: Contingency) -> Score:
    correct = int(table.counts.sum()) - len(table.counts)
    key_links = int((table.key_sizes - 1).sum())
    resp_links = int((table.resp_sizes - 1).sum())
    r = float(correct) / key_links if key_links else 0.0
    p = float(correct) / resp_links if resp_links else 0.0
    return _score(r, p, fmeasure(p, r), correct=correct, key_links=key_links, response_links=resp_links)


def bcubed(table: Contingency) -> Score:
    g, s = len(table.key_sizes), len(table.resp_sizes)
    c2 = table.counts ** 2
    r = float(_grouped_sum(c2, table.key_sizes[table.ki] ** 2) / g) if g else 0.0
    p = float(_grouped_sum(c2, table.resp_sizes[table.ri] ** 2) / s) if s else 0.0
    r3, p3 = py2_round(r), py2_round(p)
    return _score(r3, p3, fmeasure(p3, r3), recall_unrounded=r, precision_unrounded=p,
                  gold_entities=g, system_entities=s)


def ceafe(table: Contingency) -> Score:
    sim = phi4(table)
    cells = align(table, sim, rank=np.floor(100.0 * sim))
    total = float(_grouped_sum(2 * table.counts[cells], table.key_sizes[table.ki[cells]] + table.resp_sizes[table.ri[cells]]))
    g, s = len(table.key_sizes), len(table.resp_sizes)
    r = total / g if g else 0.0
    p = total / s if s else 0.0
    return _score(r, p, fmeasure(p, r), aligned_similarity=total, gold_entities=g, system_entities=s)


def blanc(table: Contingency) -> Score:
    n = table.n_key
    gold_pairs = pairs_within(table.key_sizes)
    sys_pairs = pairs_within(table.resp_sizes)
    rc_i = pairs_within(table.counts)
    rn = n * (n - 1) / 2.0 - (gold_pairs + sys_pairs - rc_i)
    rc, wc, wn = 1.0 * rc_i, 1.0 * (sys_pairs - rc_i), 1.0 * (gold_pairs - rc_i)
    p_c = py2_round(rc / (rc + wc)) if rc + wc else 0.0
    r_c = py2_round(rc / (rc + wn)) if rc + wn else 0.0
    f_c = fmeasure(p_c, r_c)
    p_n = rn / (rn + wn) if rn + wn else 1.0
    r_n = rn / (rn + wc) if rn + wc else 1.0
    f_n = fmeasure(p_n, r_n)
    return _score((r_c + r_n) / 2, (p_c + p_n) / 2, (f_c + f_n) / 2,
                  rc=int(rc), wc=int(wc), wn=int(wn), rn=int(rn))


def overall(muc_score: Score, b3_score: Score, ceafe_score: Score) -> tuple[float, float]:
    """(unrounded mean, official overall): the script adds the three F values in this order."""
    total = 0.0
    for score in (muc_score, b3_score, ceafe_score):
        total += score.raw_f1 if score.raw_f1 is not None else score.f1
    mean = total / 3
    return mean, py2_round(mean)


def official_xml(scores: dict[str, Score], overall_value: float, system_chain_markables: int) -> dict[str, object]:
    """The numbers in the official XML's order and labels (MUC recall/precision swapped)."""
    m, b, c, bl = scores["muc"], scores["bcub"], scores["ceafe"], scores["blanc"]
    return {
        "unweightedAverageAllMetrics": overall_value,
        "system_chain_markables": system_chain_markables,
        "MucEvaluation": {"precision": m.recall, "recall": m.precision, "fmeasure": m.f1},
        "BcubedEvaluationChain": {"precision": b.precision, "recall": b.recall, "fmeasure": b.f1},
        "CEAFEvaluationChain": {"precision": c.precision, "recall": c.recall, "fmeasure": c.f1},
        "BlancEvaluationChain": {"precision": bl.precision, "recall": bl.recall, "fmeasure": bl.f1},
    }
