"""Plain-text word lists: one entry per line, ``#`` starts a comment, entries are lowercased.

A clinician edits these files, never Python. Multi-word entries ("consistent with") are kept as
token tuples so a pass can look for them inside a token sequence. A word list is UTF-8 text of
at most ``MAX_WORDLIST_BYTES``; ``read_wordlist`` checks that, and the rule compiler calls it, so
``rulecoref check`` finds a binary or oversized list that ``resolve`` would stop on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from ..errors import ResourceError, diagnostic

#: Largest word list read (the bundled ones are 35 kB together); a bigger file is refused before
#: it is read, so a wrong path (a corpus, a database) costs no memory.
MAX_WORDLIST_BYTES = 8 * 1024 * 1024


#: Most words in one entry (the bundled lists' longest is 5, "consistent with" 2): phrase search
#: tries each length at each position, so this bounds it to a fixed cost per token of a line.
MAX_PHRASE_WORDS = 32


class WordListError(Exception):
    """A word list that is not usable text: ``kind`` is "size", "binary", "encoding", "read" or
    "phrase" (an entry of more than MAX_PHRASE_WORDS words)."""

    def __init__(self, kind: str, detail: str, line: int | None = None):
        super().__init__(detail)
        self.kind, self.detail, self.line = kind, detail, line


def read_wordlist(path: str | Path, limit: int = MAX_WORDLIST_BYTES) -> str:
    """The text of a word list: UTF-8 (a BOM is dropped), no NUL bytes, at most ``limit`` bytes.

    Raises WordListError naming the line of the first bad byte.
    """
    try:
        with open(path, "rb") as fh:
            raw = fh.read(limit + 1)
    except OSError as exc:
        raise WordListError("read", exc.strerror or str(exc)) from exc
    if len(raw) > limit:
        raise WordListError("size", f"larger than {limit} bytes")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        nul = raw.find(b"\0", 0, exc.start)
        if nul < 0:
            line = raw.count(b"\n", 0, exc.start) + 1
            raise WordListError("encoding", f"byte {raw[exc.start]:#04x} is not UTF-8", line) from exc
    else:
        nul = raw.find(b"\0")
        if nul < 0:
            return text
    raise WordListError("binary", "a NUL byte: this is a binary file, not a word list", raw.count(b"\n", 0, nul) + 1)


def check_phrases(entries: Iterable[str]) -> None:
    """Raise WordListError ("phrase", with the 1-based line) for an entry of more than
    MAX_PHRASE_WORDS words; ``entries`` are a word list's lines (comments still in)."""
    for n, entry in enumerate(entries, 1):
        words = len(entry.split("#", 1)[0].split())
        if words > MAX_PHRASE_WORDS:
            raise WordListError("phrase", f"an entry of {words} words (at most {MAX_PHRASE_WORDS})", n)


class Lexicon:
    """A set of lowercased words and phrases with fast membership and phrase search."""

    __slots__ = ("name", "words", "phrases", "_max_len", "_lengths")

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
        self._lengths = tuple(sorted({len(p) for p in self.phrases}, reverse=True))  # longest first

    @classmethod
    def from_file(cls, path: str | Path) -> Lexicon:
        path = Path(path)
        try:
            text = read_wordlist(path)
            check_phrases(text.split("\n"))
        except WordListError as exc:
            raise ResourceError(diagnostic("RC302", file=str(path), line=exc.line, path=str(path), detail=exc.detail)) from exc
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
            for k in self._lengths:
                if k <= n - i and (cand := tuple(low[i : i + k])) in self.phrases:
                    return " ".join(cand)
        return None

    def __repr__(self) -> str:
        return f"Lexicon({self.name!r}, {len(self)} entries)"
