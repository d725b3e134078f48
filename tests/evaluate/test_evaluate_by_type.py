"""--by-type: each gold type sees its chains' mentions plus its singletons; never aborts."""

from __future__ import annotations

import pytest

from rulecoref.evaluate import DocPartition, score_dirs, score_partitions
from rulecoref.evaluate.data import restrict, type_universes
from tests.helpers import FIXTURES

BASE = FIXTURES / "scorer-cases" / "i2b2"


def test_by_type_universe_puts_pronouns_with_their_chain():
    doc = DocPartition("d", [[(1,), (2,)], [(3,)], [(4,)]], [[(1,), (2,), (3,), (4,)]], ["person", "pronoun", "problem"])
    universes = type_universes(doc)
    assert universes == {"person": {(1,), (2,)}, "pronoun": {(3,)}, "problem": {(4,)}}
    person = restrict(doc, universes["person"])
    assert person.key == [[(1,), (2,)]] and person.response == [[(1,), (2,)]]


@pytest.mark.parametrize("name", ["S2", "S4"])
@pytest.mark.parametrize("mode", ["conll", "i2b2"])
def test_by_type_pronouns_in_person_chains_do_not_abort(name, mode):
    """S2 and S4 make the official -i option abort (BLANC out of range); ours stays in [0, 1]."""
    report = score_dirs(BASE / "gold", BASE / "responses" / name, mode=mode, by_type=True, concepts_dir=BASE / "concepts")
    assert set(report.by_type) == {"person", "problem", "test", "treatment"}
    total = sum(r.summary["key_mentions"] for r in report.by_type.values())
    assert total == report.summary["key_mentions"]  # the types partition the mentions
    for sub in report.by_type.values():
        for score in sub.metrics.values():
            assert 0.0 <= score.recall <= 1.0 and 0.0 <= score.precision <= 1.0 and 0.0 <= score.f1 <= 1.0


def test_by_type_perfect_response_is_perfect_per_type():
    report = score_dirs(BASE / "gold", BASE / "responses" / "S1", mode="i2b2", by_type=True, concepts_dir=BASE / "concepts")
    for t, sub in report.by_type.items():
        assert sub.i2b2_overall == 1.0, t
        assert sub.metrics["exact_links"].f1 == 1.0, t


def test_by_type_cross_type_link_only_hurts_overall():
    """A system link from a problem to a person mention leaves each type's precision alone."""
    key = [[(1,), (2,)], [(3,)]]
    docs = [DocPartition("d", key, [[(1,), (2,), (3,)]], ["person", "problem"])]
    report = score_partitions(docs, by_type=True)
    assert report.by_type["person"].metrics["muc"].f1 == 1.0
    assert report.metrics["muc"].precision == 0.5


def test_by_type_sums_of_exact_links_match_overall():
    report = score_dirs(BASE / "gold", BASE / "responses" / "S2", by_type=True, concepts_dir=BASE / "concepts")
    overall = report.metrics["exact_links"].counts
    for field in ("recall_num", "recall_den", "precision_num", "precision_den"):
        assert sum(r.metrics["exact_links"].counts[field] for r in report.by_type.values()) == overall[field]
