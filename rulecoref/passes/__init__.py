"""Pass kinds: one module per YAML ``kind:``, registered under the module's own name.

A reader goes from ``kind: relative_pronoun`` to ``rulecoref/passes/relative_pronoun.py`` in one
step. The registry (``KINDS``, a ``rulecoref.registry.Registry``) imports the modules of this
package, so adding a kind means adding a module with a class decorated
``@register("its_module_name")``; a module of shared code (``people.py``) registers nothing and
says so with ``NOT_A_KIND``. A lookup miss lists the known kinds (RC102).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..candidates import SearchSpec, TypeScope
from ..document import Document, Link
from ..mentions import MentionTable
from ..params import Param
from ..registry import Registry
from ..resources.lexicon import Lexicon

#: every pass kind, by its YAML ``kind:`` (the modules of this package register themselves)
KINDS: Registry[type[Pass]] = Registry("pass kind", code="RC102", field="kind", package=__name__, module_named=True)
#: kinds of earlier versions whose rule is now a ``match`` or ``filter`` entry (docs/rules.md)
REPLACED = {
    "exact_match": "match with key: text_norm",
    "head_synonym": "match with key: head_family, antecedent_key: head, require: [head_matches, words_covered], "
                    "veto: [overlaps]",
    "acronym": "match with key: acronym, antecedent_key: acronym_forms, require: [acronym_of], veto: [overlaps]",
    "umls": "match with key: cuis, veto: [overlaps] (UMLS settings under attributes.umls)",
    "partial_name": "match with key: name_keys, require: [names_match], veto: [gender_clash]",
    "filter_date": "filter with remove_if: [dates_conflict]",
    "filter_modifier": "filter with remove_if: [clues_conflict]",
    "filter_adjective": "filter with remove_if: [adjective_only]",
}


def register(kind: str):
    """Class decorator binding a pass class to its YAML kind (which must equal its module name)."""

    def deco(cls: type[Pass]) -> type[Pass]:
        KINDS.register(kind, cls, module=cls.__module__)
        cls.kind = kind
        return cls

    return deco


def known_kinds() -> list[str]:
    return KINDS.names()


def get_kind(kind: str) -> type[Pass] | None:
    return KINDS.get(kind)


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
    #: the kind's own top-level keys (``match``: key, require, veto, antecedent, window), validated
    rule: dict[str, Any] = field(default_factory=dict)
    #: False: shipped off (``enabled: false``, no including file's ``enable:``); such a pass never
    #: runs and is only in ``RuleSet.every_pass``, so ``explain`` can say it is off
    enabled: bool = True


@dataclass
class Context:
    """Per-document state the engine shares with passes.

    ``table`` holds the mention attributes (``mentions.MentionTable``); ``links`` the links kept so
    far, by pair; ``state`` lets one pass leave facts for later ones (the people linker's staff
    and subject).
    """

    doc: Document
    links: dict[tuple[int, int], tuple[Link, ...]]
    table: MentionTable
    state: dict[str, Any] = field(default_factory=dict)


class Pass:
    """Base of every pass. Subclasses declare ``params`` and either a ``search()`` (keyed linking:
    the engine walks the candidates), ``propose`` (positional linking) or ``reject`` (a filter).

    A link pass yields ``(i, j, evidence)`` for concept indices; the engine applies the YAML type
    scope and records provenance. A filter (``role = "filter"``) yields ``(pair, evidence)`` for
    links to remove. Passes never mutate the document.
    """

    kind: ClassVar[str] = ""
    role: ClassVar[str] = "link"
    params: ClassVar[dict[str, Param]] = {}
    #: top-level keys of the kind's entries besides the common ones (``match``: key, require, ...)
    rule_keys: ClassVar[dict[str, Param]] = {}
    #: mention attributes the pass reads from ``ctx.table`` (each computed once per document, on
    #: first use; the resources they need load at start-up)
    attributes: ClassVar[tuple[str, ...]] = ()
    #: resources the pass needs loaded before documents run ("wordnet"), besides its attributes'
    needs: ClassVar[tuple[str, ...]] = ()
    #: kinds whose passes must run earlier in the same rule file because this pass reads what they
    #: leave in ``ctx.state``; the compiler checks the order (RC133) and the ``examples:`` runner
    #: includes those passes
    requires: ClassVar[tuple[str, ...]] = ()

    def __init__(self, config: PassConfig, resources: Any):
        self.config = config
        self.resources = resources
        self.p: dict[str, Any] = config.params
        self.scope = config.scope
        self.setup()

    @property
    def name(self) -> str:
        return self.config.name

    def setup(self) -> None:
        """Prepare what the pass needs once per process (errors here fail at start-up)."""

    def needed_attributes(self) -> tuple[str, ...]:
        """The mention attributes this pass reads (a ``match`` rule: those its key and predicates name)."""
        return self.attributes

    def search(self) -> SearchSpec | None:
        """A keyed pass's blocking keys and pair test; the engine runs the candidate search."""
        return None

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

    def admitted(self, table: MentionTable) -> list[int]:
        """The concept indices this pass's scope admits, in text order."""
        admits = self.scope.admits_type
        return [i for i, t in enumerate(table["type"]) if admits(t)]
