"""Plain-text word lists: one entry per line, ``#`` starts a comment, entries are lowercased.

A clinician edits these files, never Python. Multi-word entries ("consistent with") are kept as
token tuples so a pass can look for them inside a token sequence.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from ..errors import ResourceError, diagnostic


class Lexicon:
    """A set of lowercased words and phrases with fast membership and phrase search."""

    __slots__ = ("name", "words", "phrases", "_max_len")

    def __init__(self, entries: Iterable[str], name: str = "<inline>"):
        self.name = name
        self.words: frozenset[str] = frozenset()
        words: set[str] = set()
        phrases: set[tuple[str, ...]] = set()
        for entry in entries:
            entry = " ".join(entry.lower().split())
            if not entry:
                continue
            if " " in entry:
                phrases.add(tuple(entry.split(" ")))
            else:
                words.add(entry)
        self.words = frozenset(words)
        self.phrases: frozenset[tuple[str, ...]] = frozenset(phrases | {(w,) for w in words})
        self._max_len = max((len(p) for p in self.phrases), default=0)

    @classmethod
    def from_file(cls, path: str | Path) -> Lexicon:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise ResourceError(diagnostic("RC302", path=str(path), detail=str(exc))) from exc
        return cls((line.split("#", 1)[0] for line in text.splitlines()), name=str(path))

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.lower() in self.words

    def __len__(self) -> int:
        return len(self.phrases)

    def __iter__(self):
        return iter(sorted(" ".join(p) for p in self.phrases))

    def find(self, tokens: Sequence[str]) -> str | None:
        """The first entry (word or phrase) that occurs in ``tokens``, or None."""
        low = [t.lower() for t in tokens]
        n = len(low)
        for i in range(n):
            for k in range(min(self._max_len, n - i), 0, -1):
                cand = tuple(low[i : i + k])
                if cand in self.phrases:
                    return " ".join(cand)
        return None

    def any_word(self, tokens: Iterable[str]) -> str | None:
        """The first single token that is an entry, or None."""
        for t in tokens:
            if t.lower() in self.words:
                return t.lower()
        return None

    def __repr__(self) -> str:
        return f"Lexicon({self.name!r}, {len(self)} entries)"
