"""What an induced rule may be: the search space of ``rulecoref induce``.

A learned ``match`` rule is a blocking key (an attribute, with its antecedent key and direction),
a sentence window, a type scope, up to ``MAX_REQUIRE`` required predicates and up to ``MAX_VETO``
vetoes; a learned ``filter`` is a type scope, optionally the one base pass whose links it judges
(``made_by``), and one predicate that removes a link.

Nothing here names an attribute or a predicate: the registries say what the learner may use.
An attribute serves as a key when its ``@attribute`` declares a ``BlockingKey``
(``declared_blockings``, in the declared ``order``): each says something a reader recognises ("the
same head word", "the same gender") and carries the phrase a learned rule's name uses. A key that
many mentions share (a type, a gender) is ``broad``: tried only within a few sentences, as the
engine would walk every earlier mention with it otherwise. A predicate's ``@predicate`` declares its
``role`` (``links``: only required; ``conflicts``: only a veto or a filter; ``skip``: never tried)
and the small ``grid`` of settings tried ("more than 3 / 10 / 30 sentences apart"; without one, its
defaults). Whether one of role ``either`` may require or veto is not fixed here: the data says, by
how often the pairs a predicate holds for corefer (``induce.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..attributes import ATTRIBUTES, closure
from ..candidates import TypeScope
from ..predicates import PREDICATES

MAX_REQUIRE = 2
MAX_VETO = 3


@dataclass(frozen=True)
class Blocking:
    """A blocking key: the mention's attribute, the candidates' (when it differs) and the direction."""

    key: str
    antecedent_key: str | None = None
    direction: str = "backward"
    broad: bool = False  # a category many mentions share: only within BROAD_WINDOWS sentences
    only_windows: tuple[int, ...] | None = None  # the windows that mean something for this key

    @property
    def windows(self) -> tuple[int, ...]:
        if self.only_windows is not None:
            return self.only_windows
        return BROAD_WINDOWS if self.broad else NARROW_WINDOWS

    @property
    def label(self) -> str:
        return self.key if self.antecedent_key is None else f"{self.key}/{self.antecedent_key}"


#: sentence windows tried: 0 is any distance (the engine's meaning of ``window: {sentences: 0}``)
NARROW_WINDOWS = (0, 10, 3, 1)
BROAD_WINDOWS = (1, 2, 3)

def declared_blockings() -> list[Blocking]:
    """Every ``BlockingKey`` the attributes declare (``@attribute(..., blocking=...)``), as a
    ``Blocking``, in their ``order``: the keys induce tries."""
    declared = sorted(((d.order, name, d) for name, spec in ATTRIBUTES.items() for d in spec.blocking or ()),
                      key=lambda item: item[:2])
    return [Blocking(name, d.antecedent_key, d.direction, d.broad, d.only_windows) for _, name, d in declared]


@dataclass(frozen=True, order=True)
class Pred:
    """A predicate with its settings, as a rule names it: ``number_clash`` or ``{sentences_apart: {more_than: 10}}``."""

    name: str
    params: tuple[tuple[str, Any], ...] = field(default=())

    @classmethod
    def of(cls, name: str, params: dict[str, Any] | None = None) -> Pred:
        return cls(name, tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in (params or {}).items())))

    @property
    def settings(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.params}

    def yaml(self) -> str | dict[str, Any]:
        return {self.name: self.settings} if self.params else self.name

    def __str__(self) -> str:
        inner = ", ".join(f"{k}={v}" for k, v in self.settings.items())
        return f"{self.name}({inner})" if inner else self.name


def role(name: str) -> str:
    """What induce may do with a predicate (``@predicate(..., role=...)``): ``links`` (only
    required), ``conflicts`` (only a veto or a filter's test), ``skip`` (never tried) or ``either``."""
    spec = PREDICATES.get(name)
    return (spec.role or "either") if spec is not None else "either"


def may_require(p: Pred) -> bool:
    """A predicate of role ``either`` may take either role; the data decides."""
    return role(p.name) != "conflicts"


def may_veto(p: Pred) -> bool:
    return role(p.name) != "links"


def usable(names: Iterable[str], *, umls: bool) -> list[str]:
    """The attributes (or predicates' attributes) computable here: UMLS ones only with a database."""
    return [n for n in names if umls or not any("umls" in ATTRIBUTES[a].needs for a in closure([n]))]


def blockings(umls: bool = False) -> list[Blocking]:
    declared = declared_blockings()
    keys = set(usable({a for b in declared for a in (b.key, b.antecedent_key) if a}, umls=umls))
    return [b for b in declared if b.key in keys and (b.antecedent_key is None or b.antecedent_key in keys)]


def predicates(umls: bool = False) -> list[Pred]:
    """The predicates tried as requirements, vetoes and filters, in registration order: each with
    its defaults, or with each setting of its declared ``grid``; none of role ``skip``."""
    out = []
    for name, spec in PREDICATES.items():
        if spec.role == "skip":
            continue
        if umls or not any("umls" in ATTRIBUTES[a].needs for a in closure(list(spec.attributes))):
            out += [Pred.of(name, params) for params in spec.grid or ({},)]
    return out


@dataclass(frozen=True)
class Scope:
    """A rule's ``applies_to``: ``types`` (None: every type) less ``exclude``."""

    types: frozenset[str] | None = None
    exclude: frozenset[str] = frozenset()

    def type_scope(self, pronoun_types: frozenset[str]) -> TypeScope:
        return TypeScope(types=self.types, exclude=self.exclude, pronoun_types=pronoun_types)

    def yaml(self) -> dict[str, Any] | None:
        if self.types is not None:
            return {"types": sorted(self.types)}
        if self.exclude:
            return {"exclude_types": sorted(self.exclude)}
        return None

    def admits(self, t: str) -> bool:
        return (self.types is None or t in self.types) and t not in self.exclude


def scopes(types: Iterable[str], pronoun_types: frozenset[str], person_types: frozenset[str]) -> list[Scope]:
    """The scope families the search starts from; narrower ones are cut from these by the types a
    rule does well on (``induce._narrowed``)."""
    present = set(types)
    pron = frozenset(present & pronoun_types)
    person = frozenset(present & person_types)
    out = [Scope()]
    if pron:
        out.append(Scope(exclude=pron))
    if person and present - person - pron:
        out.append(Scope(exclude=person))
    return out


@dataclass(frozen=True)
class MatchRule:
    blocking: Blocking
    window: int
    scope: Scope
    require: tuple[Pred, ...] = ()
    veto: tuple[Pred, ...] = ()

    def refine(self, require: Pred | None = None, veto: Pred | None = None) -> MatchRule:
        return MatchRule(self.blocking, self.window, self.scope,
                         tuple(sorted({*self.require, require})) if require else self.require,
                         tuple(sorted({*self.veto, veto})) if veto else self.veto)

    def with_scope(self, scope: Scope) -> MatchRule:
        return MatchRule(self.blocking, self.window, scope, self.require, self.veto)

    def entry(self) -> dict[str, Any]:
        """The rule's keys in a ``match`` entry (without name, description and examples)."""
        out: dict[str, Any] = {"kind": "match"}
        if self.scope.yaml():
            out["applies_to"] = self.scope.yaml()
        out["key"] = self.blocking.key
        if self.blocking.antecedent_key:
            out["antecedent_key"] = self.blocking.antecedent_key
        if self.require:
            out["require"] = [p.yaml() for p in self.require]
        if self.veto:
            out["veto"] = [p.yaml() for p in self.veto]
        if self.window:
            out["window"] = {"sentences": self.window}
        if self.blocking.direction != "backward":
            out["direction"] = self.blocking.direction
        return out


@dataclass(frozen=True)
class FilterRule:
    scope: Scope
    remove_if: tuple[Pred, ...]
    made_by: tuple[str, ...] = ()  # the passes whose links it judges (empty: every link)

    def entry(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "filter"}
        if self.scope.yaml():
            out["applies_to"] = self.scope.yaml()
        if self.made_by:
            out["made_by"] = list(self.made_by)
        out["remove_if"] = [p.yaml() for p in self.remove_if]
        return out
