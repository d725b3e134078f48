"""Property tests (hypothesis): identity scores 1, every score stays in [0, 1], and the order of
documents, chains and mentions never changes a score, in both modes and per type."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rulecoref.evaluate import DocPartition, Report, score_partitions

TYPES = ("person", "problem", "pronoun")
SETTINGS = settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _groups(mentions, labels):
    groups: dict[int, list] = {}
    for m, label in zip(mentions, labels):
        groups.setdefault(label, []).append(m)
    return list(groups.values())


@st.composite
def documents(draw, twinless: bool = False, max_mentions: int = 10):
    """One document: mentions (i, i), a random key partition with types, a random response
    partition; with ``twinless`` the response may drop key mentions and add its own."""
    n = draw(st.integers(1, max_mentions))
    mentions = [(i, i) for i in range(n)]
    key = _groups(mentions, draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n)))
    types = [draw(st.sampled_from(TYPES)) for _ in key]
    resp_mentions = list(mentions)
    if twinless:
        keep = draw(st.lists(st.booleans(), min_size=n, max_size=n))
        resp_mentions = [m for m, k in zip(mentions, keep) if k]
        resp_mentions += [(100 + i, 100 + i) for i in range(draw(st.integers(0, 3)))]
    labels = draw(st.lists(st.integers(0, max(len(resp_mentions) - 1, 0)), min_size=len(resp_mentions),
                           max_size=len(resp_mentions)))
    response = _groups(resp_mentions, labels)
    return key, types, response


@st.composite
def corpora(draw, twinless: bool = False):
    docs = draw(st.lists(documents(twinless=twinless), min_size=1, max_size=3))
    return [DocPartition(f"doc{i}", key, response, types) for i, (key, types, response) in enumerate(docs)]


def _values(report: Report) -> dict[str, float]:
    out = {"conll_f1": report.conll_f1}
    if report.i2b2_overall is not None:
        out["i2b2_overall"] = report.i2b2_overall
    for name, score in report.metrics.items():
        out.update({f"{name}.r": score.recall, f"{name}.p": score.precision, f"{name}.f": score.f1})
    for t, sub in report.by_type.items():
        out.update({f"{t}/{k}": v for k, v in _values(sub).items()})
    return out


@SETTINGS
@given(corpora(), st.sampled_from(("conll", "i2b2")))
def test_properties_identity_scores_one(docs, mode):
    assume(any(len(e) > 1 for d in docs for e in d.key))  # MUC and link metrics need a gold link
    same = [DocPartition(d.name, d.key, [list(e) for e in d.key], d.key_types) for d in docs]
    report = score_partitions(same, mode=mode)
    for name, value in _values(report).items():
        assert value == 1.0, name


@SETTINGS
@given(corpora(twinless=True))
def test_properties_bounds_conll_with_twinless(docs):
    report = score_partitions(docs, mode="conll", by_type=True)
    for name, value in _values(report).items():
        assert 0.0 <= value <= 1.0, name


@SETTINGS
@given(corpora(), st.sampled_from(("conll", "i2b2")))
def test_properties_bounds_same_mentions(docs, mode):
    report = score_partitions(docs, mode=mode, by_type=True)
    for name, value in _values(report).items():
        assert 0.0 <= value <= 1.0, name


def _shuffled(docs: list[DocPartition], rng: random.Random) -> list[DocPartition]:
    out = []
    for d in docs:
        order = list(range(len(d.key)))
        rng.shuffle(order)
        key = [rng.sample(d.key[i], len(d.key[i])) for i in order]
        types = [d.key_types[i] for i in order]
        response = [rng.sample(e, len(e)) for e in rng.sample(d.response, len(d.response))]
        out.append(DocPartition(d.name, key, response, types))
    return rng.sample(out, len(out))


@SETTINGS
@given(corpora(twinless=False), st.sampled_from(("conll", "i2b2")), st.integers(0, 2**32 - 1))
def test_properties_order_does_not_matter(docs, mode, seed):
    before = _values(score_partitions(docs, mode=mode, by_type=True))
    after = _values(score_partitions(_shuffled(docs, random.Random(seed)), mode=mode, by_type=True))
    assert before.keys() == after.keys()
    for name in before:
        assert abs(before[name] - after[name]) <= 1e-12, name


@SETTINGS
@given(corpora(twinless=True), st.integers(0, 2**32 - 1))
def test_properties_order_does_not_matter_twinless(docs, seed):
    before = _values(score_partitions(docs, mode="conll"))
    after = _values(score_partitions(_shuffled(docs, random.Random(seed)), mode="conll"))
    for name in before:
        assert abs(before[name] - after[name]) <= 1e-12, name
