"""Engine-owned candidate search: the antecedents a keyed rule may link a mention to.

A ``match`` rule (or any pass with a ``SearchSpec``) declares blocking keys and a pair test; the
engine walks the mentions in text order and, for each one the rule's scope admits, reads the
earlier admitted mentions that share a key value, nearest first, within the window, and asks the
test about each until one passes (``antecedent: nearest``) or about all (``antecedent: all``).
So no rule writes its own antecedent walk, and each pair is asked about once: cost is linear in
the mentions times the candidates that share a key, not quadratic.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from heapq import merge
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .mentions import MentionTable
    from .passes import TypeScope


@dataclass(frozen=True)
class SearchSpec:
    """What a keyed rule asks the engine for."""

    keys: tuple[str, ...]  # the mention's blocking attributes (a set-valued attribute gives several values)
    #: evidence for (mention, candidate), or None; evidence may be a function that spells it out when read
    test: Callable[[MentionTable, int, int], str | Callable[[], str] | None]
    antecedent: str = "nearest"  # "nearest": the first candidate that passes; "all": every one
    window: int = 0  # sentences apart at most; 0 = any distance
    #: "backward": earlier candidates only; "backward_then_forward": when no earlier one passes, the
    #: later ones, nearest first (an acronym written before its expansion)
    direction: str = "backward"
    #: the candidates' blocking attributes, position by position with ``keys`` (default: the same):
    #: ``head_family`` against ``head`` finds the mentions whose head matches the mention's
    antecedent_keys: tuple[str, ...] | None = None
    #: the test made for one document, when the rule can leave out there what cannot hold (a typed
    #: veto in a document with none of its types); None: ``test`` itself
    prepare: Callable[[MentionTable], Callable[[MentionTable, int, int], Any]] | None = None


def key_values(value: Any) -> Iterable[Any]:
    """The blocking values of one attribute value: a string is one value, a set or tuple several,
    None or an empty value none (the mention takes no part)."""
    if value is None or value == "" or value is False:
        return ()
    if isinstance(value, (frozenset, set, tuple, list)):
        return value
    return (value,)


def postings(table: MentionTable, key: str) -> dict[Any, list[int]]:
    """Blocking value -> the mentions holding it, in text order: built once per key attribute and
    document, whichever rules block on it (each rule skips the mentions its scope does not admit)."""

    def build(t: MentionTable) -> dict[Any, list[int]]:
        out: dict[Any, list[int]] = {}
        for j, value in enumerate(t[key]):
            for v in key_values(value):
                out.setdefault(v, []).append(j)
        return out

    return table.document_value(("postings", key), build)


def _unique(indices: Iterator[int]) -> Iterator[int]:
    last = -1
    for j in indices:
        if j != last:
            last = j
            yield j


def _before(lst: list[int], i: int) -> Iterator[int]:
    """The entries of ascending ``lst`` before ``i``, nearest first (no copy of the list)."""
    return map(lst.__getitem__, range(bisect_left(lst, i) - 1, -1, -1))


def _after(lst: list[int], i: int) -> Iterator[int]:
    """The entries of ascending ``lst`` after ``i``, nearest first."""
    return map(lst.__getitem__, range(bisect_right(lst, i), len(lst)))


def _walk(lists: list[list[int]], i: int, forward: bool) -> Iterator[int]:
    """The indices of ``lists`` (each ascending) before ``i``, nearest first, or, with ``forward``,
    those after it; one index once, though several of the mention's values lead to it."""
    step = _after if forward else _before
    if len(lists) == 1:
        return step(lists[0], i)
    return _unique(merge(*(step(lst, i) for lst in lists), reverse=not forward))


def _lists(blocks: list[tuple[list[Any], dict[Any, list[int]]]], i: int) -> list[list[int]]:
    """The postings the mention's blocking values lead to: its value of each key (a column),
    looked up among the candidates' values of the key in the same position (their postings)."""
    out = []
    for column, found in blocks:
        value = column[i]
        if isinstance(value, str):  # most keys: one string, or "" for none
            if value in found:
                out.append(found[value])
        else:
            out.extend(found[v] for v in key_values(value) if v in found)
    return out if len(out) < 2 else list({id(lst): lst for lst in out}.values())


def search(table: MentionTable, scope: TypeScope, spec: SearchSpec) -> Iterator[tuple[int, int, Any]]:
    """(antecedent, mention, evidence) for every link the rule makes, in text order of the mention.

    Each mention's candidates are read nearest first and the walk ends at the window's edge (the
    next one is further still) and, for ``antecedent: nearest``, at the first that passes; the
    later candidates of ``backward_then_forward`` are read only when no earlier one passed (or,
    for ``all``, after them)."""
    types, lines = table["type"], table["line"]
    partners = {ti: frozenset(tj for tj in set(types) if scope.allows_types(tj, ti)) for ti in set(types)}
    if not any(partners.values()):
        return
    test = spec.test if spec.prepare is None else spec.prepare(table)
    blocks = [(table[key], postings(table, other)) for key, other in zip(spec.keys, spec.antecedent_keys or spec.keys)]
    window, nearest = spec.window, spec.antecedent == "nearest"
    directions = (False, True) if spec.direction == "backward_then_forward" else (False,)
    for i, ti in enumerate(types):
        allowed = partners[ti]
        if not allowed:  # the scope does not admit the mention (or any partner for it)
            continue
        lists = _lists(blocks, i)
        if not lists:
            continue
        line, hit = lines[i], False
        for forward in directions:
            if hit and nearest:
                break
            for j in _walk(lists, i, forward):
                if window and abs(line - lines[j]) > window:
                    break  # the next candidate is further away still
                if types[j] not in allowed:
                    continue
                evidence = test(table, i, j)
                if evidence is not None:
                    yield j, i, evidence
                    hit = True
                    if nearest:
                        break
