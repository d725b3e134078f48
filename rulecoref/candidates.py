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


def _before(lst: list[int], i: int) -> Iterator[int]:
    """The entries of ascending ``lst`` before ``i``, nearest first (no copy of the list)."""
    return map(lst.__getitem__, range(bisect_left(lst, i) - 1, -1, -1))


def _after(lst: list[int], i: int) -> Iterator[int]:
    """The entries of ascending ``lst`` after ``i``, nearest first."""
    return map(lst.__getitem__, range(bisect_right(lst, i), len(lst)))


def _candidates(lists: list[list[int]], i: int, forward: bool) -> Iterator[int]:
    """The indices of ``lists`` (each ascending) before ``i``, nearest first; then, with
    ``forward``, those after ``i``, nearest first."""
    if len(lists) == 1:
        yield from _before(lists[0], i)
        if forward:
            yield from _after(lists[0], i)
        return
    yield from _unique(merge(*(_before(lst, i) for lst in lists), reverse=True))
    if forward:
        yield from _unique(merge(*(_after(lst, i) for lst in lists)))


def _blocking(table: MentionTable, keys: tuple[str, ...], admitted: list[int]) -> dict[int, list[Any]]:
    """Each admitted mention's blocking values (tagged by key position when there are several keys)."""
    columns = [table[k] for k in keys]
    several = len(columns) > 1
    out: dict[int, list[Any]] = {}
    for i in admitted:
        values = list(dict.fromkeys((k, v) if several else v for k, col in enumerate(columns) for v in key_values(col[i])))
        if values:
            out[i] = values
    return out


def search(table: MentionTable, scope: TypeScope, spec: SearchSpec) -> Iterator[tuple[int, int, Any]]:
    """(antecedent, mention, evidence) for every link the rule makes, in text order of the mention."""
    types, lines = table["type"], table["line"]
    admitted_types = {t for t in set(types) if scope.admits_type(t)}
    admitted = [i for i, t in enumerate(types) if t in admitted_types]
    mentions = _blocking(table, spec.keys, admitted)
    antecedents = mentions if spec.antecedent_keys in (None, spec.keys) else _blocking(table, spec.antecedent_keys, admitted)
    postings: dict[Any, list[int]] = {}  # blocking value -> the admitted mentions holding it, in text order
    for j, values in antecedents.items():
        for v in values:
            postings.setdefault(v, []).append(j)
    allowed: dict[tuple[str, str], bool] = {}
    forward = spec.direction == "backward_then_forward"
    nearest = spec.antecedent == "nearest"
    for i, values in mentions.items():
        lists = [postings[v] for v in values if v in postings]
        for j in _candidates(lists, i, forward) if lists else ():
            if spec.window and abs(lines[i] - lines[j]) > spec.window:
                if j < i:
                    continue  # further back is further away; later candidates may still be near
                break
            pair = (types[j], types[i])
            ok = allowed.get(pair)
            if ok is None:
                ok = allowed[pair] = scope.allows_types(*pair)
            if not ok:
                continue
            evidence = spec.test(table, i, j)
            if evidence is not None:
                yield j, i, evidence
                if nearest:
                    break
