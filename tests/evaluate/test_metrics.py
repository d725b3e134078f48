"""Hand-computed values for each metric on tiny partitions (mentions are letters)."""

from __future__ import annotations

import numpy as np
import pytest

from rulecoref.errors import EvaluationError
from rulecoref.evaluate import DocPartition, score_partitions
from rulecoref.evaluate.bcubed import bcubed_counts
from rulecoref.evaluate.blanc import blanc_counts, blanc_score
from rulecoref.evaluate.ceaf import align, ceafe_counts, ceafm_counts
from rulecoref.evaluate.core import Contingency, dedupe
from rulecoref.evaluate.i2b2 import bcubed as i2b2_bcubed
from rulecoref.evaluate.i2b2 import blanc as i2b2_blanc
from rulecoref.evaluate.i2b2 import py2_round
from rulecoref.evaluate.muc import muc_counts


def table(key: str, response: str) -> Contingency:
    """'abc d' -> entities {a b c} {d}."""
    return Contingency.build([list(e) for e in key.split()], [list(e) for e in response.split()])


def test_core_dedupe_first_wins():
    entities, origin, dropped = dedupe([["a", "b"], ["b", "c"], ["a"]])
    assert entities == [["a", "b"], ["c"]]
    assert origin == [0, 1]
    assert dropped == 2


def test_core_contingency_counts_overlaps():
    t = table("abc d", "ab cd e")
    cells = sorted(zip(t.ki.tolist(), t.ri.tolist(), t.counts.tolist()))
    assert cells == [(0, 0, 2), (0, 1, 1), (1, 1, 1)]
    assert (t.n_key, t.n_resp, t.n_common) == (4, 5, 4)


def test_muc_split_chain():
    """key {a b c d}, response {a b} {c d}: recall (4-2)/3, precision 2/2."""
    s = muc_counts(table("abcd", "ab cd")).score()
    assert (s.recall, s.precision) == pytest.approx((2 / 3, 1.0))


def test_muc_singletons_only_score_zero():
    s = muc_counts(table("a b", "a b")).score()
    assert (s.recall, s.precision, s.f1) == (0.0, 0.0, 0.0)


def test_bcubed_mention_weighted():
    """key {a b c}, response {a b} {c}: recall (2/3+2/3+1/3)/3 = 5/9, precision 1."""
    s = bcubed_counts(table("abc", "ab c")).score()
    assert (s.recall, s.precision) == pytest.approx((5 / 9, 1.0))


def test_bcubed_twinless_response_mention_costs_precision():
    s = bcubed_counts(table("ab", "abx")).score()
    assert s.recall == pytest.approx(1.0)
    assert s.precision == pytest.approx((2 / 3 + 2 / 3 + 0) / 3)


def test_ceaf_entity_and_mention_based():
    """key {a b c}, response {a b} {c}: phi4 best 2*2/5 = 0.8; phi3 best 2."""
    e = ceafe_counts(table("abc", "ab c")).score()
    assert (e.recall, e.precision) == pytest.approx((0.8, 0.4))
    m = ceafm_counts(table("abc", "ab c")).score()
    assert (m.recall, m.precision) == pytest.approx((2 / 3, 2 / 3))


def test_ceaf_alignment_is_one_to_one():
    """Both key entities overlap the one response entity; only one may be aligned to it."""
    m = ceafm_counts(table("ab cd", "abcd")).score()
    assert m.recall == pytest.approx(0.5)


def test_ceaf_alignment_splits_components():
    """Two independent 2x2 blocks are aligned separately; the total is the sum of both optima."""
    t = table("abc def ghi jkl", "ab cd ef ghij kl")
    value = t.counts.astype(float)
    cells = align(t, value)
    assert int(value[cells].sum()) == 2 + 2 + 3 + 2  # {abc}-{ab}, {def}-{ef}, {ghi}-{ghij}, {jkl}-{kl}
    assert len(set(t.ki[cells].tolist())) == len(cells) and len(set(t.ri[cells].tolist())) == len(cells)


def test_ceaf_alignment_rank_first_then_value():
    """The i2b2 alignment maximises int(100*phi4) first; the raw phi4 only breaks ties."""
    t = Contingency(np.array([3, 3]), np.array([3, 3]), np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1]),
                    np.array([1, 1, 1, 1]))
    value = np.array([0.699, 0.70, 0.69, 0.699])
    by_value = align(t, value)
    by_rank = align(t, value, rank=np.array([69.0, 70.0, 69.0, 69.0]))
    assert value[by_value].sum() == pytest.approx(1.398)
    assert value[by_rank].sum() == pytest.approx(1.39)


def test_blanc_docstring_example():
    """key {a b} {c}, response {a b c}: coref F 0.5, non-coref F 0 -> BLANC F 0.25."""
    s = blanc_score(blanc_counts(table("ab c", "abc")))
    assert s.f1 == pytest.approx(0.25)
    assert s.recall == pytest.approx((1 + 0) / 2)
    assert s.precision == pytest.approx((1 / 3 + 0) / 2)


def test_blanc_key_without_coref_links_uses_noncoref_only():
    s = blanc_score(blanc_counts(table("a b c", "a b c")))
    assert (s.recall, s.precision, s.f1) == (1.0, 1.0, 1.0)


def test_blanc_key_without_noncoref_links_uses_coref_only():
    s = blanc_score(blanc_counts(table("abc", "ab c")))
    assert s.recall == pytest.approx(1 / 3)
    assert s.precision == pytest.approx(1.0)


def test_blanc_nothing_to_score_is_zero():
    s = blanc_score(blanc_counts(table("a", "a")))
    assert (s.recall, s.precision, s.f1) == (0.0, 0.0, 0.0)


def test_i2b2_round_is_python2_round():
    assert py2_round(0.0625) == 0.063  # an exact tie: away from zero (Python 3's round gives 0.062)
    assert py2_round(2.675, 2) == 2.67  # the double 2.675 is just below the tie
    assert py2_round(2 / 3) == 0.667


def test_i2b2_bcubed_entity_weighted():
    """key {a b c} {d}, response {a b} {c} {d}: R = (5/9 + 1) / 2 entities, P = 1."""
    s = i2b2_bcubed(table("abc d", "ab c d"))
    assert s.recall == 0.778
    assert s.precision == 1.0
    assert s.f1 == 0.875  # from the ROUNDED recall and precision: 2*.778/(1.778) = 0.8751...


def test_i2b2_blanc_pooled_pairs():
    """key {a b} {c d}, response {a b c d}: rc=2, wc=4, wn=0, rn=0 of 6 pairs."""
    s = i2b2_blanc(table("ab cd", "abcd"))
    assert s.counts["rc"] == 2 and s.counts["wc"] == 4 and s.counts["wn"] == 0 and s.counts["rn"] == 0
    # coref P=.333 R=1; non-coref P=1 (empty denominator), R=0. The script computes the float
    # (0.333 + 1.0) / 2 = 0.66649999..., which Python 2 rounds to 0.666 (exact arithmetic: 0.667).
    assert s.precision == 0.666
    assert s.recall == 0.5


def test_scoring_unknown_mode_is_rc711():
    with pytest.raises(EvaluationError) as err:
        score_partitions([DocPartition("d", [["a"]], [["a"]])], mode="muc")
    assert err.value.code == "RC711"


def test_scoring_i2b2_mode_needs_one_mention_universe():
    with pytest.raises(EvaluationError) as err:
        score_partitions([DocPartition("d", [["a", "b"]], [["a", "c"]])], mode="i2b2")
    assert err.value.code == "RC706"


def test_scoring_response_duplicates_warn_rc710():
    report = score_partitions([DocPartition("d", [["a", "b"]], [["a", "b"], ["a"]])])
    assert [w.code for w in report.warnings] == ["RC710"]
    assert report.metrics["muc"].f1 == 1.0


def test_scoring_conll_sums_over_documents():
    """Counts are summed per document, so MUC = (1 + 0) / (1 + 1) links, not an average of ratios."""
    docs = [DocPartition("d1", [["a", "b"]], [["a", "b"]]), DocPartition("d2", [["a", "b"]], [["a"], ["b"]])]
    report = score_partitions(docs)
    assert report.metrics["muc"].recall == pytest.approx(0.5)
    assert report.metrics["muc"].counts == {"recall_num": 1, "recall_den": 2, "precision_num": 1, "precision_den": 1}


def test_scoring_i2b2_blanc_counts_cross_document_pairs():
    """Pooled: the 2 x 2 pairs across the two records are correct non-coreference (rn), per
    document they would not exist."""
    docs = [DocPartition("d1", [["a", "b"]], [["a"], ["b"]]), DocPartition("d2", [["a", "b"]], [["a", "b"]])]
    report = score_partitions(docs, mode="i2b2")
    assert report.metrics["blanc"].counts["rn"] == 4
    assert report.metrics["blanc"].counts["wn"] == 1
