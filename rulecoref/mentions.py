"""One document's mention table: every concept with its named attributes (``attributes/``).

The engine makes a table per document; each column is computed when a rule first reads it, so that
a head, a gender or a set of initials is worked out once, not once per pass (and not at all in a
document where no rule that reads it admits a mention), and every pass and the Bell-tree features
agree on it. A table lives as long as its document.

    table = MentionTable(doc, settings)
    table["head"][3]          # the head of concept 3
    table.build(["words", "head_family"])
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import cached_property
from typing import Any, TypeVar

from .attributes import ATTRIBUTES, MentionSettings, UmlsStrings, closure
from .document import Document

T = TypeVar("T")


_UNSET = object()  # a cell not worked out yet


class Cells(Sequence):
    """A column worked out one mention at a time, when a rule first asks about that mention
    (``AttributeSpec.per_mention``); read like a list."""

    __slots__ = ("_cell", "_values")

    def __init__(self, n: int, cell: Callable[[int], Any]):
        self._cell = cell
        self._values: list[Any] = [_UNSET] * n

    def __len__(self) -> int:
        return len(self._values)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(len(self))[i]]
        value = self._values[i]
        if value is _UNSET:
            value = self._values[i] = self._cell(i % len(self._values))
        return value

    def __iter__(self):
        return map(self.__getitem__, range(len(self._values)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (list, tuple, Cells)) and list(self) == list(other)

    def worked_out(self) -> int:
        """How many cells have been asked for so far."""
        return sum(v is not _UNSET for v in self._values)

    def __repr__(self) -> str:
        return f"Cells({list(self)!r})"


class _TokenMap(dict):
    """token -> fn(token), computed when first asked."""

    def __init__(self, fn: Callable[[str], Any]):
        super().__init__()
        self.fn = fn

    def __missing__(self, token: str) -> Any:
        value = self[token] = self.fn(token)
        return value


class MentionTable(dict):
    """Named attribute columns (one value per concept index) of one document: a mapping from
    attribute name to column, each column computed on first use (``build`` computes them up
    front) and then a plain dictionary lookup for every rule that reads it."""

    def __init__(self, doc: Document, settings: MentionSettings, umls: UmlsStrings | None = None):
        super().__init__()
        self.doc = doc
        self.settings = settings
        self.n = len(doc.concepts)
        self._umls = umls
        self._token_maps: dict[str, _TokenMap] = {}
        self._document: dict[Hashable, Any] = {}

    def __missing__(self, name: str) -> list[Any]:
        spec = ATTRIBUTES[name]
        if spec.of_words:  # once per distinct token sequence, shared by the mentions that write it
            words = self.words_table
            column = self[name] = list(map(words[name].__getitem__, words.rows))
        elif spec.per_mention:
            column = self[name] = Cells(self.n, spec.compute(self))  # type: ignore[assignment]
        else:
            column = self[name] = spec.compute(self)
        return column

    @cached_property
    def words_table(self) -> WordsTable:
        """The document's distinct token sequences, where the ``of_words`` attributes are computed."""
        return WordsTable(self)

    def build(self, names: list[str] | tuple[str, ...] | set[str]) -> MentionTable:
        """Compute the attributes ``names`` and what they depend on, dependencies first."""
        for name in closure(names):
            self[name]
        return self

    def per_token(self, name: str, fn: Callable[[str], T]) -> dict[str, T]:
        """``fn`` of each distinct token of this document, worked out on first use: attributes that
        look at every token of every mention (nested mentions share most of them) ask once per token."""
        found = self._token_maps.get(name)
        if found is None:
            found = self._token_maps[name] = _TokenMap(fn)
        return found

    def document_value(self, name: Hashable, fn: Callable[[MentionTable], T]) -> T:
        """A fact about the whole document (the word families of its vocabulary, the blocking
        postings of a key), worked out once."""
        if name not in self._document:
            self._document[name] = fn(self)
        return self._document[name]

    def row(self, i: int) -> dict[str, Any]:
        """Every attribute computed so far for concept ``i`` (for explain and debugging)."""
        return {name: column[i] for name, column in self.items()}

    @property
    def umls(self) -> UmlsStrings:
        if self._umls is None:
            raise RuntimeError("the cuis attribute needs a UMLS lookup (the pipeline opens one when a rule names cuis)")
        return self._umls

    @cached_property
    def token_set(self) -> frozenset[str]:
        """Every token the document writes, as written (does it also write "students" in lowercase?)."""
        return frozenset(self.doc.flat_tokens)


class WordsTable(MentionTable):
    """The distinct token sequences of one document as a table of their own, one row each.

    An attribute that is a pure function of a mention's words (``of_words``: its head, its
    conditioned words, its initials) is computed here, once per distinct sequence, and the
    document's table hands each mention its sequence's value: in a CRAFT article more than half of
    the mentions repeat an earlier one's words. Only ``of_words`` attributes can be asked here, and
    nothing of the document (no positions, no neighbours)."""

    def __init__(self, table: MentionTable):
        dict.__init__(self)
        index: dict[tuple[str, ...], int] = {}
        #: the row of each mention of the document, by concept index
        self.rows = [index.setdefault(toks, len(index)) for toks in table["tokens"]]
        self["tokens"] = list(index)
        self.settings = table.settings
        self.n = len(index)
        self._umls = None
        self._token_maps = table._token_maps  # one token map per document
        self._document = {}

    def __missing__(self, name: str) -> list[Any]:
        spec = ATTRIBUTES[name]
        if not spec.of_words:
            raise KeyError(f"attribute {name!r} is not a function of a mention's words alone (of_words)")
        column = self[name] = spec.compute(self)
        return column

    @property
    def doc(self) -> Document:  # type: ignore[override]
        raise AttributeError("an of_words attribute reads the mention's words, not the document")

    @property
    def words_table(self) -> WordsTable:  # type: ignore[override]
        return self
