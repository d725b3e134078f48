"""Pass kinds: one module per YAML ``kind:``, registered under the module's own name.

A reader goes from ``kind: acronym`` to ``rulecoref/passes/acronym.py`` in one step. The registry
discovers the modules of this package, so adding a kind means adding a module with a class
decorated ``@register("its_module_name")``. A lookup miss lists the known kinds (RC102).
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..document import Concept, Document, Link
from ..resources.lexicon import Lexicon
from ..rules.schema import Param

_REGISTRY: dict[str, type[Pass]] = {}
_NOT_KINDS = {"base", "predicates", "conditioning"}
_discovered = False


def register(kind: str):
    """Class decorator binding a pass class to its YAML kind (which must equal its module name)."""

    def deco(cls: type[Pass]) -> type[Pass]:
        module = cls.__module__.rsplit(".", 1)[-1]
        if module != kind:
            raise ValueError(f"pass kind {kind!r} must live in rulecoref/passes/{kind}.py, not {module}.py")
        cls.kind = kind
        _REGISTRY[kind] = cls
        return cls

    return deco


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_") and info.name not in _NOT_KINDS:
            importlib.import_module(f"{__name__}.{info.name}")
    _discovered = True


def known_kinds() -> list[str]:
    _discover()
    return sorted(_REGISTRY)


def get_kind(kind: str) -> type[Pass] | None:
    _discover()
    return _REGISTRY.get(kind)


def suggest(word: str, options: Iterable[str]) -> str | None:
    """'did you mean ...' for a misspelt key or kind."""
    options = list(options)
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if not close:
        close = difflib.get_close_matches(word.replace("-", "_").lower(), options, n=1, cutoff=0.6)
    return close[0] if close else None


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


@dataclass
class PassConfig:
    """A pass entry after validation: everything the pass needs, plus where it came from."""

    kind: str
    name: str
    params: dict[str, Any]
    scope: TypeScope
    rule_file: str = ""
    line: int = 0
    examples: dict[str, list[str]] = field(default_factory=dict)
    description: str = ""


@dataclass
class Context:
    """Per-document state the engine shares with passes.

    ``state`` lets one pass leave facts for later ones (the people linker's staff list and subject);
    ``links`` holds the links kept so far, by pair.
    """

    doc: Document
    links: dict[tuple[int, int], list[Link]]
    state: dict[str, Any] = field(default_factory=dict)


class Pass:
    """Base of every pass. Subclasses declare ``params`` and implement ``propose`` or ``reject``.

    A link pass yields ``(i, j, evidence)`` for concept indices; the engine applies the YAML type
    scope and records provenance. A filter (``role = "filter"``) yields ``(pair, evidence)`` for
    links to remove. Passes never mutate the document.
    """

    kind: ClassVar[str] = ""
    role: ClassVar[str] = "link"
    params: ClassVar[dict[str, Param]] = {}
    #: Resources the pass needs loaded before documents run ("wordnet", "umls"), so start-up
    #: fails early and workers share them.
    needs: ClassVar[tuple[str, ...]] = ()
    #: Kinds whose passes must run earlier in the same rule file because this pass reads what they
    #: leave in ``ctx.state`` (e.g. people-linker passes need the staff/subject detection). The
    #: ``examples:`` runner includes those passes when it checks this pass's examples.
    requires: ClassVar[tuple[str, ...]] = ()

    def __init__(self, config: PassConfig, resources: Any):
        self.config = config
        self.resources = resources
        self.p: dict[str, Any] = config.params
        self.scope = config.scope
        #: the scope's verdict per (type, type) pair, filled by the engine as pairs come up
        self.scope_verdicts: dict[tuple[str, str], bool] = {}
        self.setup()

    @property
    def name(self) -> str:
        return self.config.name

    def setup(self) -> None:
        """Prepare indexes or open resources once per process (errors here fail at start-up)."""

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        raise NotImplementedError

    def reject(self, doc: Document, ctx: Context) -> Iterator[tuple[tuple[int, int], str]]:
        raise NotImplementedError

    def lexicon(self, param: str) -> Lexicon:
        """The word list a ``wordlist`` parameter names (a file, shared via Resources, or inline)."""
        value = self.p.get(param)
        if value is None:
            return Lexicon([], name=f"{self.name}.{param}")
        if isinstance(value, (list, tuple)):
            return Lexicon(value, name=f"{self.name}.{param}")
        return self.resources.lexicon(value)

    def candidates(self, doc: Document) -> list[Concept]:
        """Concepts this pass's scope admits, in text order (the scope looks only at types, so it
        is asked once per type, not once per concept)."""
        admitted = {t for t in doc.types if self.scope.admits_type(t)}
        if len(admitted) == len(doc.types):
            return list(doc.concepts)
        return [c for c in doc.concepts if c.type in admitted]
