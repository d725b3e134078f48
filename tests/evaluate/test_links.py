"""Exact-link scoring of seed 001 and pairwise links."""

from __future__ import annotations

from rulecoref.evaluate import DocPartition, score_partitions
from rulecoref.evaluate.links import chain_links, exact_link_counts


def test_links_consecutive_in_text_order():
    assert chain_links([[(5,), (1,), (3,)], [(9,)]]) == [((1,), (3,)), ((3,), (5,))]


def test_links_skipped_antecedent_is_wrong():
    """Gold A B C; system A C: the link A-C corefers but skips B, so it is wrong (seed 001, fig. 4)."""
    a, b, c = (1,), (2,), (3,)
    overall, _ = exact_link_counts([[a, b, c]], [[a, c], [b]])
    assert overall.to_dict() == {"recall_num": 0, "recall_den": 2, "precision_num": 0, "precision_den": 1}


def test_links_singletons_ignored():
    overall, _ = exact_link_counts([[(1,)], [(2,)]], [[(1,)], [(2,)]])
    assert (overall.recall_den, overall.precision_den) == (0, 0)


def test_links_per_type_follows_the_later_mention():
    """A system link is charged to the gold type of its later mention; the gold link to its chain."""
    pt, he, pain = (1,), (2,), (3,)
    key = [[pt, he], [pain]]
    _, per_type = exact_link_counts(key, [[pt, pain], [he]], ["person", "problem"])
    assert (per_type["person"].recall_num, per_type["person"].recall_den, per_type["person"].precision_den) == (0, 1, 0)
    assert (per_type["problem"].precision_num, per_type["problem"].precision_den) == (0, 1)
    _, per_type = exact_link_counts(key, [[pt, he, pain]], ["person", "problem"])
    assert per_type["person"].to_dict() == {"recall_num": 1, "recall_den": 1, "precision_num": 1, "precision_den": 1}
    assert per_type["problem"].precision_den == 1 and per_type["problem"].precision_num == 0


def test_links_report_overall_and_pairwise():
    a, b, c, d = (1,), (2,), (3,), (4,)
    report = score_partitions([DocPartition("x", [[a, b, c], [d]], [[a, b, c, d]], ["t", "t"])], by_type=True)
    ex, pw = report.metrics["exact_links"], report.metrics["pairwise"]
    assert (ex.recall, ex.precision) == (1.0, 2 / 3)
    assert (pw.recall, pw.precision) == (1.0, 3 / 6)
    assert report.by_type["t"].metrics["exact_links"].precision == 2 / 3
