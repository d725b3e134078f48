"""Union-find over surviving links -> chains, typed and ordered as i2b2 writes them (seed 001,
"Building the chains": follow the web of links, keep each concept once, sort by position).

Chain type = the most frequent type among the chain's non-pronoun mentions; a tie goes to the type
of the earliest such mention (text order), so output never depends on hash order. A chain made
only of pronouns is typed with the pronoun type itself (``coref pronoun``), which the i2b2 scorer
accepts because it is a concept type.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from .document import Document


class UnionFind:
    """Disjoint sets over 0..n-1 with path halving and union by size."""

    __slots__ = ("parent", "size")

    def __init__(self, n: int):
        self.parent = list(range(n))
        self.size = [1] * n

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        if self.size[ra] < self.size[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.size[ra] += self.size[rb]
        return True

    def groups(self) -> list[list[int]]:
        """Every set, members ascending, ordered by first member (the first time a root is seen
        is at its smallest member, so the dict keeps that order and no sort is needed)."""
        parent = self.parent
        out: dict[int, list[int]] = {}
        for i in range(len(parent)):
            r = i
            while parent[r] != r:
                r = parent[r]
            found = out.get(r)
            if found is None:
                out[r] = [i]
            else:
                found.append(i)
        return list(out.values())


def clusters_from_pairs(n: int, pairs: Iterable[tuple[int, int]]) -> list[list[int]]:
    """All clusters (singletons included), each sorted, ordered by first member."""
    uf = UnionFind(n)
    for a, b in pairs:
        uf.union(a, b)
    return uf.groups()


def chain_type(doc: Document, members: Sequence[int], pronoun_types: Iterable[str] = ("pronoun",)) -> str:
    """Majority non-pronoun type; ties go to the earliest mention's type; all-pronoun -> pronoun type."""
    if len(members) == 1:
        return doc.concepts[members[0]].type
    pron = pronoun_types if isinstance(pronoun_types, (set, frozenset)) else set(pronoun_types)
    ordered = sorted(members)
    types = [doc.concepts[i].type for i in ordered if doc.concepts[i].type not in pron]
    if not types:
        return doc.concepts[ordered[0]].type
    if types.count(types[0]) == len(types):
        return types[0]  # the usual case: one type
    counts = Counter(types)
    best = max(counts.values())
    for t in types:  # text order: the earliest of the tied types wins
        if counts[t] == best:
            return t
    raise AssertionError("unreachable")


def chain_types(doc: Document, clusters: Sequence[Sequence[int]], pronoun_types: Iterable[str] = ("pronoun",)) -> list[str]:
    pron = frozenset(pronoun_types)
    concepts = doc.concepts
    # most clusters are singletons, whose type is their mention's
    return [concepts[c[0]].type if len(c) == 1 else chain_type(doc, c, pron) for c in clusters]
