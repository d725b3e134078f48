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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .document import Concept, Evidence
    from .mentions import MentionTable


@dataclass(frozen=True)
class TypeScope:
    """Which concept pairs a pass may link, declared in YAML (``applies_to``).

    By default a concept links only with concepts of its own type, and a pronoun may link with any
    type (seed 001: "each type of concept mention will only co-refer with a concept mention of
    the same type, with the exception of pronouns").
    """

    types: frozenset[str] | None = None
    exclude: frozenset[str] = frozenset()
    same_type: bool = True
    pronoun_types: frozenset[str] = frozenset({"pronoun"})

    def admits(self, c: Concept) -> bool:
        return self.admits_type(c.type)

    def admits_type(self, type_: str) -> bool:
        return (self.types is None or type_ in self.types) and type_ not in self.exclude

    def allows(self, a: Concept, b: Concept) -> bool:
        return self.allows_types(a.type, b.type)

    def allows_types(self, ta: str, tb: str) -> bool:
        if not (self.admits_type(ta) and self.admits_type(tb)):
            return False
        if not self.same_type or ta == tb:
            return True
        return ta in self.pronoun_types or tb in self.pronoun_types


@dataclass(frozen=True)
class SearchSpec:
    """What a keyed rule asks the engine for."""

    keys: tuple[str, ...]  # the mention's blocking attributes (a set-valued attribute gives several values)
    #: evidence for (mention, candidate), or None: text, or a ``document.Evidence`` spelt out when read
    test: Callable[[MentionTable, int, int], str | Evidence | None]
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


def postings(table: MentionTable, key: str, lookup: str | None = None) -> dict[Any, tuple[int, ...]]:
    """Blocking value -> the mentions holding it, in text order: built once per key attribute and
    document, whichever rules block on it (each rule skips the mentions its scope does not admit).
    With ``lookup``, the mentions' own blocking attribute when the candidates block by another one
    (``acronym`` against ``acronym_forms``), only the values some mention looks up are kept: a
    long form admits dozens of acronyms, and a document writes a few. Tuples of ints, which the
    garbage collector stops walking."""

    def build(t: MentionTable) -> dict[Any, tuple[int, ...]]:
        wanted = None if lookup in (None, key) else frozenset(v for value in t[lookup] for v in key_values(value))
        if wanted is not None and not wanted:  # no mention looks any value up: the key is not even computed
            return {}
        out: dict[Any, list[int]] = {}
        for j, value in enumerate(t[key]):
            if value is None:
                continue
            if value.__class__ is str:  # most keys: one string ("" for none)
                if value and (wanted is None or value in wanted):
                    out.setdefault(value, []).append(j)
                continue
            if wanted is None:
                values: Iterable[Any] = dict.fromkeys(value) if isinstance(value, (tuple, list)) else key_values(value)
            elif wanted.isdisjoint(key_values(value)):  # most long forms admit no acronym the document writes
                continue
            else:
                values = wanted.intersection(key_values(value))
            for v in values:
                out.setdefault(v, []).append(j)
        return {v: tuple(js) for v, js in out.items()}

    return table.document_value(("postings", key) if lookup in (None, key) else ("postings", key, lookup), build)


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else frozenset(value) if isinstance(value, set) else value


def _candidates(blocks: list[tuple[list[Any], dict[Any, Sequence[int]]]], i: int,
                merged: dict[Any, Sequence[int]]) -> Sequence[int] | None:
    """The mentions that share a blocking value with mention ``i``, ascending: its value of each
    key (a column) looked up among the candidates' values of the key in the same position (their
    postings). A mention with several values (a set of heads) gets one list, the union of their
    postings, made once per distinct set of values in the search (``merged``)."""
    if len(blocks) == 1:
        column, found = blocks[0]
        value = column[i]
        if value is None:  # no value: most mentions are no acronym, no name, no thing pronoun
            return None
        if isinstance(value, str):  # most keys: one string, or "" for none
            return found.get(value)
        values: Any = (value,)
        key: Any = value if value.__class__ is frozenset else _hashable(value)
    else:
        values = tuple(column[i] for column, _ in blocks)
        key = tuple(map(_hashable, values))
    hit = merged.get(key)
    if hit is None:
        got = [found[v] for (_, found), value in zip(blocks, values) for v in key_values(value) if v in found]
        hit = merged[key] = got[0] if len(got) == 1 else tuple(sorted(set().union(*got)))
    return hit or None


def search(table: MentionTable, scope: TypeScope, spec: SearchSpec,
           test: Callable[[MentionTable, int, int], Any] | None = None) -> Iterator[tuple[int, int, Any]]:
    """(antecedent, mention, evidence) for every link the rule makes, in text order of the mention;
    ``test``, when given, in place of the spec's (the engine's planned test for this document, ``plan.py``).

    Each mention's candidates are read nearest first and the walk ends at the window's edge (the
    next one is further still) and, for ``antecedent: nearest``, at the first that passes; the
    later candidates of ``backward_then_forward`` are read only when no earlier one passed (or,
    for ``all``, after them)."""
    types, lines = table["type"], table["line"]
    partners = {ti: frozenset(tj for tj in set(types) if scope.allows_types(tj, ti)) for ti in set(types)}
    if not any(partners.values()):
        return
    test = spec.test if test is None else test
    blocks = [(table[key], postings(table, other, key)) for key, other in zip(spec.keys, spec.antecedent_keys or spec.keys)]
    merged: dict[Any, Sequence[int]] = {}  # a set of blocking values -> the union of their postings
    window, nearest = spec.window, spec.antecedent == "nearest"
    directions = (False, True) if spec.direction == "backward_then_forward" else (False,)
    for i, ti in enumerate(types):
        allowed = partners[ti]
        if not allowed:  # the scope does not admit the mention (or any partner for it)
            continue
        candidates = _candidates(blocks, i, merged)
        if candidates is None:
            continue
        line, hit = lines[i], False
        for forward in directions:
            if hit and nearest:
                break
            # the candidates before i, nearest first (or after it), read in place
            for k in range(bisect_right(candidates, i), len(candidates)) if forward else \
                    range(bisect_left(candidates, i) - 1, -1, -1):
                j = candidates[k]
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
