"""The predicate registry: ``PredicateSpec`` (what a predicate reads, takes and tells the plan and
the learner) and ``@predicate``, which every module of this package uses to register its own."""


from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from ..document import Evidence
from ..params import Param
from ..registry import Registry

if TYPE_CHECKING:
    from ..mentions import MentionTable

Test = Callable[["MentionTable", int, int], "str | Evidence | None"]
#: (the part of a learned rule's name, the phrase of its description) that say a predicate holds,
#: or the function of its settings that gives them ("more-than-3-sentences-apart")
Phrase = tuple[str, str] | Callable[[dict[str, Any]], tuple[str, str]]
#: what ``rulecoref induce`` may do with a predicate: ``links`` (it says two mentions name one
#: thing: only required), ``conflicts`` (they differ: only a veto or a filter's test), ``either``
#: (the data decides) or ``skip`` (never tried: the type scope says what ``same_type`` would)
ROLES = ("links", "conflicts", "either", "skip")
#: the setting every predicate accepts: it holds only for two mentions of these types
TYPES = Param("str_list", default=[], help="only for mentions of these types (empty: every type)")


@dataclass(frozen=True)
class PredicateSpec:
    name: str
    fn: Callable[..., str | Evidence | None]
    attributes: tuple[str, ...]
    params: dict[str, Param] = field(default_factory=dict)  # its own settings, and ``types``
    help: str = ""
    #: (key, antecedent key): the predicate holds for every pair that a match rule blocking on
    #: this key finds (the candidate holds one of the mention's values), so the engine's plan
    #: need not ask it in that rule's search (``plan.py``, shortcut 1)
    implied_by: tuple[str, str] | None = None
    #: an attribute of which one of the two mentions must have a true value for the predicate to
    #: hold: in a document where no mention has one, the plan leaves the predicate out (no family
    #: history section in a CRAFT article, no dates in most; ``plan.py``, shortcut 3)
    needs_value: str | None = None
    #: for ``rulecoref induce`` (``learn/space.py`` and ``learn/naming.py`` read these): its role
    #: (``ROLES``; None: not declared, which tests/learn/test_space.py refuses), the settings
    #: tried (``grid``; none: its defaults only) and how a learned rule says it (``phrase``; None:
    #: its own name, "number clash")
    role: str | None = None
    grid: tuple[dict[str, Any], ...] = ()
    phrase: Phrase | None = None

    def bind(self, params: dict[str, Any] | None = None) -> Test:
        """The predicate with its settings applied: ``test(table, i, j)``; with ``types``, a test
        that holds only when both mentions have one of them."""
        own = {k: v for k, v in (params or {}).items() if k != "types"}
        test = partial(self.fn, **own) if own else self.fn
        types = self.limited_to(params)
        if not types:
            return test

        def typed(t: MentionTable, i: int, j: int) -> str | Evidence | None:
            ty = t["type"]
            return test(t, i, j) if ty[i] in types and ty[j] in types else None

        return typed

    def reads(self, params: dict[str, Any] | None = None) -> tuple[str, ...]:
        """The attributes the bound predicate reads: its own, and ``type`` when ``types`` limits it."""
        return (*self.attributes, "type") if self.limited_to(params) and "type" not in self.attributes else self.attributes

    def limited_to(self, params: dict[str, Any] | None = None) -> frozenset[str]:
        """The concept types its ``types`` setting limits it to (empty: every type): it holds only
        when both mentions have one of them, so in a document with none of them it never does."""
        return frozenset((params or {}).get("types") or ())


#: every predicate, in registration order (the order ``induce`` tries them in)
PREDICATES: Registry[PredicateSpec] = Registry("predicate", code="RC131")


def predicate(name: str, *, attributes: tuple[str, ...], params: dict[str, Param] | None = None, help: str,
              implied_by: tuple[str, str] | None = None, needs_value: str | None = None, role: str | None = None,
              grid: tuple[dict[str, Any], ...] = (), phrase: Phrase | None = None):
    """Register a pair predicate under ``name`` (the name rule files use); it accepts its ``params``
    and ``types`` (``TYPES``). ``role``, ``grid`` and ``phrase`` tell ``rulecoref induce`` how to
    use it (``PredicateSpec``), so the learner keeps no list of predicates of its own."""
    if role is not None and role not in ROLES:  # None: not declared (tests/learn/test_space.py says so)
        raise ValueError(f"predicate {name!r}: role {role!r} is not one of {', '.join(ROLES)}")
    unknown = sorted({k for settings in grid for k in settings} - set(params or {}))
    if unknown:
        raise ValueError(f"predicate {name!r}: its grid sets {', '.join(unknown)}, which it does not take")

    def deco(fn: Callable[..., str | Evidence | None]) -> Callable[..., str | Evidence | None]:
        PREDICATES.register(name, PredicateSpec(name, fn, attributes, {**(params or {}), "types": TYPES}, help,
                                                implied_by, needs_value, role, grid, phrase))
        return fn

    return deco


def mention_text(t: MentionTable, i: int) -> str:
    """The mention's words as evidence quotes them."""
    return t.doc.concepts[i].text
