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

    keys: tuple[str, ...]  # attributes whose values block candidates (a set-valued attribute gives several)
    test: Callable[[MentionTable, int, int], str | None]  # evidence for (mention, candidate), or None
    antecedent: str = "nearest"  # "nearest": the first candidate that passes; "all": every one
    window: int = 0  # sentences apart at most; 0 = any distance
    #: "backward": earlier candidates only; "backward_then_forward": when no earlier one passes, the
    #: later ones, nearest first (an acronym written before its expansion)
    direction: str = "backward"


def key_values(value: Any) -> Iterable[Any]:
    """The blocking values of one attribute value: a string is one value, a set or tuple several,
    None or an empty value none (the mention takes no part)."""
    if value is None or value == "" or value is False:
        return ()
    if isinstance(value, (frozenset, set, tuple, list)):
        return value
    return (value,)


def _unique(indices: Iterator[int]) -> Iterator[int]:
    last = -1
    for j in indices:
        if j != last:
            last = j
            yield j


def _candidates(lists: list[list[int]], i: int, forward: bool) -> Iterator[int]:
    """The indices of ``lists`` (each ascending) before ``i``, nearest first; then, with
    ``forward``, those after ``i``, nearest first."""
    earlier = [lst[: bisect_left(lst, i)] for lst in lists]
    yield from _unique(merge(*(reversed(e) for e in earlier), reverse=True))
    if forward:
        later = [lst[bisect_right(lst, i):] for lst in lists]
        yield from _unique(merge(*later))


def search(table: MentionTable, scope: TypeScope, spec: SearchSpec) -> Iterator[tuple[int, int, str]]:
    """(antecedent, mention, evidence) for every link the rule makes, in text order of the mention."""
    types, lines = table["type"], table["line"]
    columns = [table[k] for k in spec.keys]
    several = len(columns) > 1
    blocking: dict[int, list[Any]] = {}  # admitted mention -> its key values
    postings: dict[Any, list[int]] = {}  # key value -> admitted mentions holding it, in text order
    for i in range(table.n):
        if scope.admits_type(types[i]):
            values = list(dict.fromkeys((k, v) if several else v for k, col in enumerate(columns)
                                        for v in key_values(col[i])))
            if values:
                blocking[i] = values
                for v in values:
                    postings.setdefault(v, []).append(i)
    forward = spec.direction == "backward_then_forward"
    for i, values in blocking.items():
        lists = [postings[v] for v in values if len(postings[v]) > 1]
        for j in _candidates(lists, i, forward) if lists else ():
            if spec.window and abs(lines[i] - lines[j]) > spec.window:
                if j < i:
                    continue  # further back is further away; later candidates may still be near
                break
            if not scope.allows_types(types[j], types[i]):
                continue
            evidence = spec.test(table, i, j)
            if evidence is not None:
                yield j, i, evidence
                if spec.antecedent == "nearest":
                    break
