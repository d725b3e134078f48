"""One document's mention table: every concept with its named attributes (``attributes.py``).

The engine builds a table per document before the passes run, with the attributes the rule file's
passes name, so that a head, a gender or a set of initials is worked out once, not once per pass,
and every pass and the Bell-tree features agree on it. A table lives as long as its document.

    table = MentionTable(doc, settings)
    table["head"][3]          # the head of concept 3
    table.build(["words", "head_keys"])
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from .attributes import ATTRIBUTES, MentionSettings, UmlsStrings, closure
from .document import Document


class MentionTable:
    """Named attribute columns (one value per concept index) of one document."""

    def __init__(self, doc: Document, settings: MentionSettings, umls: UmlsStrings | None = None):
        self.doc = doc
        self.settings = settings
        self.n = len(doc.concepts)
        self._umls = umls
        self._columns: dict[str, list[Any]] = {}

    def __getitem__(self, name: str) -> list[Any]:
        column = self._columns.get(name)
        if column is None:
            spec = ATTRIBUTES[name]
            column = self._columns[name] = spec.compute(self)
        return column

    def __contains__(self, name: object) -> bool:
        return name in self._columns

    def build(self, names: list[str] | tuple[str, ...] | set[str]) -> MentionTable:
        """Compute the attributes ``names`` and what they depend on, dependencies first."""
        for name in closure(names):
            self[name]
        return self

    def row(self, i: int) -> dict[str, Any]:
        """Every attribute computed so far for concept ``i`` (for explain and debugging)."""
        return {name: column[i] for name, column in self._columns.items()}

    @property
    def umls(self) -> UmlsStrings:
        if self._umls is None:
            raise RuntimeError("the cuis attribute needs a UMLS lookup (the pipeline opens one when a rule names cuis)")
        return self._umls

    @cached_property
    def token_set(self) -> frozenset[str]:
        """Every token the document writes, as written (does it also write "students" in lowercase?)."""
        return frozenset(self.doc.flat_tokens)
