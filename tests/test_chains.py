"""Union-find chain building and chain typing."""

from __future__ import annotations

from rulecoref.chains import UnionFind, chain_type, clusters_from_pairs
from rulecoref.markup import parse_markup


def test_chains_union_find_transitive_and_ordered() -> None:
    assert clusters_from_pairs(6, [(4, 1), (1, 3), (5, 2)]) == [[0], [1, 3, 4], [2, 5]]
    uf = UnionFind(3)
    assert uf.union(0, 2) and not uf.union(2, 0)


def test_chains_type_is_majority_of_non_pronouns() -> None:
    doc, _ = parse_markup("[fever|problem] [it|pronoun] [it|pronoun] [its|pronoun] [the test|test] [fever|problem]")
    assert chain_type(doc, [0, 1, 2, 3, 4, 5]) == "problem"  # pronouns do not vote


def test_chains_type_tie_goes_to_earliest_mention() -> None:
    doc, _ = parse_markup("[a cath|test] [stent|treatment] [the cath|test] [stenting|treatment]")
    assert chain_type(doc, [3, 2, 1, 0]) == "test"
    assert chain_type(doc, [1, 2]) == "treatment"


def test_chains_pronoun_only_chain_is_typed_pronoun() -> None:
    doc, _ = parse_markup("[he|pronoun] said [he|pronoun] was fine")
    assert chain_type(doc, [0, 1]) == "pronoun"


def test_clusters_from_pairs_equal_the_union_find_reference() -> None:
    import random

    from rulecoref.chains import UnionFind, clusters_from_pairs

    rng = random.Random(7)
    for _ in range(500):
        n = rng.randint(1, 30)
        pairs = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 40))]
        uf = UnionFind(n)
        for a, b in pairs:
            uf.union(a, b)
        expected = sorted(sorted(g) for g in uf.groups())
        assert clusters_from_pairs(n, pairs) == expected  # members ascending, ordered by first member
