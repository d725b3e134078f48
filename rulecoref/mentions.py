"""One number per distinct mention text in the process, so passes cache their analyses in lists.

Every linking pass analyses a mention from its tokens (normalised text, conditioned words,
initials) and caches the analysis across documents. Keyed by token tuple, each pass paid a tuple
lookup per mention and document: hashing the tuple and comparing its strings, which are fresh
objects in every document, with the cached key's. Here the tuples are numbered once per document
(``Document.concept_ids``), and a pass's ``MentionCache`` is a list indexed by that number.

The numbering is bounded: past ``LIMIT`` sequences it starts afresh with a new ``generation``,
between documents only, and every ``MentionCache`` empties itself when it sees the change.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress, repeat
from operator import is_
from typing import Generic, TypeVar

T = TypeVar("T")

LIMIT = 200_000  # distinct token sequences numbered per process before starting afresh


class MentionTable:
    """Token sequence -> a small int, for the whole process (``TABLE``)."""

    def __init__(self, limit: int = LIMIT):
        self.limit = limit
        self.ids: dict[tuple[str, ...], int] = {}
        self.generation = 0

    def __len__(self) -> int:
        return len(self.ids)

    def number(self, seqs: Sequence[tuple[str, ...]]) -> list[int]:
        """The ids of a document's token sequences (new ones numbered in order). Called once per
        document, so the bound is enforced between documents."""
        ids = self.ids
        if len(ids) > self.limit:
            ids.clear()
            self.generation += 1
        out = list(map(ids.get, seqs))
        if None in out:
            add = ids.setdefault
            for k in compress(range(len(out)), map(is_, out, repeat(None))):
                out[k] = add(seqs[k], len(ids))
        return out


TABLE = MentionTable()


class MentionCache(Generic[T]):
    """A pass's analysis of each numbered token sequence (never None), computed on first use."""

    __slots__ = ("values", "generation")

    def __init__(self) -> None:
        self.values: list[T | None] = []
        self.generation = -1

    def lookup(self, ids: Sequence[int], seqs: Callable[[int], tuple[str, ...]],
               compute: Callable[[tuple[str, ...]], T]) -> list[T]:
        """The analyses of the mentions numbered ``ids``; ``seqs(k)`` gives the tokens of the
        ``k``-th of them, read only for sequences not analysed yet."""
        values = self.values
        if self.generation != TABLE.generation:
            values.clear()
            self.generation = TABLE.generation
        if len(values) < len(TABLE):
            values.extend(repeat(None, len(TABLE) - len(values)))
        out = list(map(values.__getitem__, ids))
        if None in out:
            for k in compress(range(len(out)), map(is_, out, repeat(None))):
                hit = values[ids[k]]  # a repeat within this call was analysed a moment ago
                out[k] = values[ids[k]] = hit if hit is not None else compute(seqs(k))
        return out  # type: ignore[return-value]

    def clear(self) -> None:
        self.values.clear()
