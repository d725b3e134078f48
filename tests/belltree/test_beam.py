"""Algorithm 1 on tiny documents with a stub link model: the Bell tree, its scores and its pruning."""

from __future__ import annotations

import math

import pytest

from rulecoref.belltree.beam import Problem, PVec, SearchSettings, search
from rulecoref.belltree.features import MentionView
from rulecoref.belltree.scoring import LinkScorer
from tests.belltree.support import view


class StubScorer(LinkScorer):
    """P_link(e, m) from a fixed function of the entity's first mention, its size and m."""

    def __init__(self, tab, fn):
        super().__init__(tab)
        self.fn = fn
        self.calls = 0

    def link_probs(self, m, entities, root_of):
        self.calls += len(entities)
        return [self.fn(e.root, e.size, m) for e in entities]


def table(markup: str) -> MentionView:
    return view(markup)


def problem(tab: MentionView, rules=()) -> Problem:
    return Problem(tab.sent, tab.type, tab.pron, rules)


def set_partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for p in set_partitions(rest):
        yield [[first], *p]
        for i in range(len(p)):
            yield [*p[:i], [first, *p[i]], *p[i + 1 :]]


def expected_score(partition, fn, alpha):
    """Product of link/start probabilities along the Bell-tree path that builds ``partition``."""
    owner = {m: k for k, block in enumerate(partition) for m in block}
    score = 1.0
    entities: list[list[int]] = []
    for m in sorted(owner):
        if m == 0:
            entities.append([0])
            continue
        probs = [fn(e[0], len(e), m) for e in entities]
        target = [e for e in entities if owner[e[0]] == owner[m]]
        if target:
            score *= fn(target[0][0], len(target[0]), m)
            target[0].append(m)
        else:
            score *= alpha * (1 - max(probs))
            entities.append([m])
    return score


def fn3(root, size, m):
    return 0.15 + 0.2 * root + 0.1 * size + 0.05 * m


def test_beam_three_mentions_enumerate_five_bell_leaves():
    tab = table("[a pain|problem] then [the pain|problem] and [pain|problem] .")
    alpha = 0.7
    res = search(problem(tab), StubScorer(tab, fn3), SearchSettings(beam=100, alpha=alpha, window=0, top_n=100))
    got = {tuple(tuple(b) for b in p): s for p, s in zip(res.partitions, res.scores)}
    leaves = [sorted(p) for p in set_partitions([0, 1, 2])]
    assert len(leaves) == 5  # Bell number B3
    assert set(got) == {tuple(tuple(b) for b in p) for p in leaves}
    for p in leaves:
        assert got[tuple(tuple(b) for b in p)] == pytest.approx(expected_score(p, fn3, alpha), rel=1e-12)
    assert res.scores == sorted(res.scores, reverse=True)
    assert res.live_per_step == [1, 2, 5]


def test_beam_four_mentions_fifteen_leaves():
    tab = table("[a|problem] [b|problem] [c|problem] [d|problem]")
    res = search(problem(tab), StubScorer(tab, lambda r, s, m: 0.3), SearchSettings(beam=100, window=0, top_n=100))
    assert len(res.partitions) == 15  # B4
    assert res.live_per_step == [1, 2, 5, 15]  # Bell numbers B1..B4


@pytest.mark.parametrize(
    ("settings", "live"),
    [
        (SearchSettings(beam=100, window=0), [1, 2, 5]),
        (SearchSettings(beam=2, window=0), [1, 2, 2]),
        (SearchSettings(beam=1, window=0), [1, 1, 1]),
        # siblings: link 0.6, start 0.4; 0.4 < 0.7 x 0.6 so every start is pruned locally
        (SearchSettings(beam=100, window=0, local_prune=0.7), [1, 1, 1]),
        # paths after mention 3: .36 .24 .24 .24 .16; the last is below 0.5 x .36
        (SearchSettings(beam=100, window=0, global_prune=0.5), [1, 2, 4]),
        (SearchSettings(beam=100, window=0, local_prune=0.5), [1, 2, 5]),
    ],
)
def test_beam_pruning_limits_live_hypotheses(settings, live):
    tab = table("[x|problem] [y|problem] [z|problem]")
    res = search(problem(tab), StubScorer(tab, lambda r, s, m: 0.6), settings)
    assert res.live_per_step == live


def test_beam_greedy_follows_best_child():
    tab = table("[x|problem] [y|problem] [z|problem]")
    res = search(problem(tab), StubScorer(tab, lambda r, s, m: 0.6), SearchSettings(beam=1, window=0))
    assert res.best == [[0, 1, 2]]
    res = search(problem(tab), StubScorer(tab, lambda r, s, m: 0.6), SearchSettings(beam=1, window=0, alpha=1.0))
    assert res.log_scores[0] == pytest.approx(2 * math.log(0.6))


def test_beam_start_penalty_favours_links():
    tab = table("[x|problem] [y|problem]")
    fn = lambda r, s, m: 0.4  # noqa: E731
    no_penalty = search(problem(tab), StubScorer(tab, fn), SearchSettings(window=0, alpha=1.0))
    penalty = search(problem(tab), StubScorer(tab, fn), SearchSettings(window=0, alpha=0.5))
    assert no_penalty.best == [[0], [1]]  # start 0.6 > link 0.4
    assert penalty.best == [[0, 1]]  # start 0.3 < link 0.4


def test_beam_incompatible_types_never_join_but_pronouns_join_any():
    tab = table("[fever|problem] [a culture|test] [it|pronoun]")
    res = search(problem(tab), StubScorer(tab, lambda r, s, m: 0.9), SearchSettings(beam=100, window=0, top_n=100))
    for p in res.partitions:
        assert not any(0 in b and 1 in b for b in p)
    assert len(res.partitions) == 3  # [0][1][2], [0 2][1], [0][1 2]
    off = search(problem(tab), StubScorer(tab, lambda r, s, m: 0.9),
                 SearchSettings(beam=100, window=0, top_n=100, type_check=False))
    assert len(off.partitions) == 5


def test_beam_window_hides_old_entities_unless_rules_linked_them():
    lines = ["[x|problem] and [y|problem] ."] + ["filler ."] * 20 + ["[z|problem] ."]
    tab = table("\n".join(lines))
    settings = SearchSettings(beam=100, window=5, top_n=100)
    stub = StubScorer(tab, lambda r, s, m: 0.9)
    res = search(problem(tab), stub, settings)
    assert all([2] in p for p in res.partitions)
    linked = search(problem(tab, rules=((), (), (0,))), StubScorer(tab, lambda r, s, m: 0.9), settings)
    assert any(any(0 in b and 2 in b for b in p) for p in linked.partitions)
    assert not any(any(1 in b and 2 in b and 0 not in b for b in p) for p in linked.partitions)


def test_beam_pvec_is_persistent():
    v = PVec()
    for i in range(200):
        v = v.append(i)
    w = v.set(5, "x").set(150, "y").append(200)
    assert v.to_list() == list(range(200))
    assert w.get(5) == "x" and w.get(150) == "y" and w.get(200) == 200 and len(w) == 201


def test_beam_ties_go_to_the_earlier_hypothesis_then_the_earlier_action():
    # every link and every start has probability 0.5: all children of a step tie
    tab = table("[x|problem] [y|problem] [z|problem]")
    half = lambda r, s, m: 0.5  # noqa: E731
    greedy = search(problem(tab), StubScorer(tab, half), SearchSettings(beam=1, window=0, alpha=1.0))
    assert greedy.best == [[0, 1, 2]]  # linking (action 0) comes before starting
    two = search(problem(tab), StubScorer(tab, half), SearchSettings(beam=2, window=0, alpha=1.0, top_n=2))
    # after y: {x y} and {x}{y}; after z the four best tie, and both kept children come from {x y}
    assert two.partitions == [[[0, 1, 2]], [[0, 1], [2]]]
    assert two.log_scores == pytest.approx([2 * math.log(0.5)] * 2)


def test_beam_keeps_the_best_children_over_all_hypotheses():
    tab = table("[x|problem] [y|problem] [z|problem]")

    def fn(root, size, m):
        if m == 1:
            return 0.6  # {x y} 0.6 first, {x}{y} 0.4 second
        return 0.99 if root == 1 else 0.01  # z belongs with y alone

    res = search(problem(tab), StubScorer(tab, fn), SearchSettings(beam=2, window=0, alpha=1.0, top_n=2))
    # {x y}{z}: 0.6 x 0.99; then the second hypothesis' link {x}{y z}: 0.4 x 0.99 beats the
    # first one's other child {x y z}: 0.6 x 0.01
    assert res.partitions == [[[0, 1], [2]], [[0], [1, 2]]]
    assert res.scores == pytest.approx([0.6 * 0.99, 0.4 * 0.99])
