"""The document/concept matrix of seed 001 ("Data input and access"), and links with provenance.

A Document holds the text as a line x token matrix (lines from 1, tokens from 0, as i2b2 numbers
them) and its concepts sorted by position. Every rule asks the same few questions (what lies
between two concepts, which words surround one, which concept comes before), so the matrix keeps a
flat token index that answers them with slices instead of loops. No I/O and no rules here.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import accumulate, chain
from typing import Any, NamedTuple

Position = tuple[int, int]  # (line from 1, token from 0)


@dataclass(frozen=True, slots=True)
class Concept:
    """A marked mention: inclusive span, type, lowercased text, index in text order."""

    index: int
    text: str
    type: str
    start: Position
    end: Position
    source_line: int = 0  # line in the .con file, for messages

    @property
    def span(self) -> tuple[int, int, int, int]:
        return (self.start[0], self.start[1], self.end[0], self.end[1])

    @property
    def line(self) -> int:
        return self.start[0]

    def i2b2(self) -> str:
        """The mention as i2b2 writes it: ``c="text" L:T L:T``."""
        return f'c="{self.text}" {self.start[0]}:{self.start[1]} {self.end[0]}:{self.end[1]}'


class Provenance:
    """Who made (or removed) a link and why: the answer to "why were these linked?".

    ``evidence`` may be given as a zero-argument callable that returns the string: a pass whose
    explanation is costly to build (which words matched, and how) then pays for it only when
    somebody reads it (``--provenance``, ``explain``), not for every link of a batch run.
    """

    __slots__ = ("pass_name", "kind", "rule_file", "rule_line", "_evidence")

    def __init__(self, pass_name: str, kind: str, rule_file: str = "", rule_line: int = 0,
                 evidence: str | Callable[[], str] = ""):
        self.pass_name = pass_name
        self.kind = kind
        self.rule_file = rule_file
        self.rule_line = rule_line
        self._evidence = evidence

    @property
    def evidence(self) -> str:
        ev = self._evidence
        if not isinstance(ev, str):
            ev = self._evidence = ev()
        return ev

    def _key(self) -> tuple[str, str, str, int, str]:
        return (self.pass_name, self.kind, self.rule_file, self.rule_line, self.evidence)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Provenance) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Provenance(pass_name={self.pass_name!r}, kind={self.kind!r}, rule_file={self.rule_file!r}, "
                f"rule_line={self.rule_line!r}, evidence={self.evidence!r})")

    def describe(self) -> str:
        where = f" ({self.rule_file}:{self.rule_line})" if self.rule_file else ""
        why = f": {self.evidence}" if self.evidence else ""
        return f"{self.pass_name} [{self.kind}]{where}{why}"

    def to_dict(self) -> dict[str, object]:
        return {
            "pass": self.pass_name,
            "kind": self.kind,
            "rule_file": self.rule_file,
            "rule_line": self.rule_line,
            "evidence": self.evidence,
        }


class Link:
    """An undirected link between two concepts (a < b by index), with the pass that proposed it.

    Read only by convention: a plain slotted class rather than a frozen dataclass, because the
    engine makes one per proposal (50,000 in a CRAFT batch) and a frozen dataclass's constructor
    costs three times as much.
    """

    __slots__ = ("a", "b", "provenance")

    def __init__(self, a: int, b: int, provenance: Provenance):
        self.a = a
        self.b = b
        self.provenance = provenance

    @property
    def pair(self) -> tuple[int, int]:
        return (self.a, self.b)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Link) and (self.a, self.b, self.provenance) == (other.a, other.b, other.provenance)

    def __hash__(self) -> int:
        return hash((self.a, self.b, self.provenance))

    def __repr__(self) -> str:
        return f"Link(a={self.a!r}, b={self.b!r}, provenance={self.provenance!r})"


@dataclass(frozen=True, slots=True)
class Removal:
    """A link a filter took out, and the filter's own provenance."""

    pair: tuple[int, int]
    by: Provenance


class Fact(NamedTuple):
    """A fact about one concept that the caller supplies in place of the attribute rulecoref would work
    out from the words ("negated", said by medspaCy's ConText), and who said it, for provenance."""

    value: Any
    source: str


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@dataclass
class Document:
    """Text as lines x tokens plus concepts; cheap positional queries for the rules."""

    name: str
    lines: list[list[str]]
    concepts: list[Concept] = field(default_factory=list)
    source: str = ""  # path of the .txt, for messages
    #: concept index -> attribute name -> Fact: values given from outside (the spaCy component reads
    #: medspaCy's ConText and sectionizer into them); the attributes registered ``given=True`` use them
    facts: dict[int, dict[str, Fact]] = field(default_factory=dict)

    def fact(self, index: int, name: str) -> Fact | None:
        """The given fact ``name`` of concept ``index``, if there is one."""
        found = self.facts.get(index)
        return found.get(name) if found else None

    # -- flat token index -------------------------------------------------------------------
    @cached_property
    def _line_offsets(self) -> list[int]:
        # offsets[line] = flat index of token 0 of that line (lines from 1); one past the end last
        return [0, *accumulate(map(len, self.lines), initial=0)]

    @cached_property
    def flat_tokens(self) -> list[str]:
        return list(chain.from_iterable(self.lines))

    def flat(self, pos: Position) -> int:
        """Flat token index of a (line, token) position."""
        return self._line_offsets[pos[0]] + pos[1]

    @property
    def n_lines(self) -> int:
        return len(self.lines)

    def line_tokens(self, line: int) -> list[str]:
        return self.lines[line - 1]

    # -- concept queries --------------------------------------------------------------------
    @cached_property
    def _starts(self) -> list[int]:
        offsets = self._line_offsets
        return [offsets[line] + tok for line, tok in (c.start for c in self.concepts)]

    @cached_property
    def _ends(self) -> list[int]:
        offsets = self._line_offsets
        return [offsets[line] + tok for line, tok in (c.end for c in self.concepts)]

    @property
    def concept_starts(self) -> list[int]:
        """Flat index of each concept's first token, by concept index (read only; for hot loops,
        where ``start_of`` per concept costs a call each)."""
        return self._starts

    @property
    def concept_ends(self) -> list[int]:
        """Flat index of each concept's last token, by concept index (read only)."""
        return self._ends

    @cached_property
    def concept_tokens(self) -> list[tuple[str, ...]]:
        """Each concept's tokens as a tuple, by concept index (sliced once per document)."""
        flat = self.flat_tokens
        return [tuple(flat[s : e + 1]) for s, e in zip(self._starts, self._ends)]

    def start_of(self, c: Concept | int) -> int:
        return self._starts[c if isinstance(c, int) else c.index]

    def end_of(self, c: Concept | int) -> int:
        return self._ends[c if isinstance(c, int) else c.index]

    def tokens(self, c: Concept) -> list[str]:
        """The tokens a concept covers (it may cross a line break)."""
        return self.flat_tokens[self.start_of(c) : self.end_of(c) + 1]

    def surface(self, c: Concept) -> str:
        return " ".join(self.tokens(c))

    def between(self, a: Concept, b: Concept) -> list[str]:
        """Tokens strictly between two concepts (empty when they touch or overlap)."""
        if self.start_of(b) < self.start_of(a):
            a, b = b, a
        return self.flat_tokens[self.end_of(a) + 1 : self.start_of(b)]

    def gap(self, a: Concept, b: Concept) -> int:
        """Number of tokens between two concepts; negative when they overlap."""
        if self.start_of(b) < self.start_of(a):
            a, b = b, a
        return self.start_of(b) - self.end_of(a) - 1

    def before(self, c: Concept, n: int = 1, *, same_line: bool = True) -> list[str]:
        """Up to ``n`` tokens right before a concept (within its line by default)."""
        start = self.start_of(c)
        lo = max(0, start - n)
        if same_line:
            lo = max(lo, self._line_offsets[c.start[0]])
        return self.flat_tokens[lo:start]

    def after(self, c: Concept, n: int = 1, *, same_line: bool = True) -> list[str]:
        """Up to ``n`` tokens right after a concept (within its end line by default)."""
        end = self.end_of(c) + 1
        hi = end + n
        if same_line:
            hi = min(hi, self._line_offsets[c.end[0] + 1])
        return self.flat_tokens[end:hi]

    def sentence(self, c: Concept) -> list[str]:
        """The sentence (line) a concept starts on; i2b2 text has one sentence per line."""
        return self.lines[c.start[0] - 1]

    @cached_property
    def _by_line(self) -> dict[int, list[Concept]]:
        out: dict[int, list[Concept]] = {}
        for c in self.concepts:
            out.setdefault(c.start[0], []).append(c)
        return out

    def concepts_on_line(self, line: int) -> list[Concept]:
        return self._by_line.get(line, [])

    def preceding(self, c: Concept) -> Concept | None:
        return self.concepts[c.index - 1] if c.index > 0 else None

    def following(self, c: Concept) -> Concept | None:
        return self.concepts[c.index + 1] if c.index + 1 < len(self.concepts) else None

    @cached_property
    def _by_type(self) -> dict[str, list[Concept]]:
        out: dict[str, list[Concept]] = {}
        for c in self.concepts:
            out.setdefault(c.type, []).append(c)
        return out

    def of_type(self, type_: str) -> list[Concept]:
        return self._by_type.get(type_, [])

    @property
    def types(self) -> list[str]:
        return list(self._by_type)

    def concepts_in_window(self, start_flat: int, end_flat: int) -> list[Concept]:
        """Concepts whose start lies in the flat token range [start_flat, end_flat]."""
        lo = bisect_left(self._starts, start_flat)
        hi = bisect_right(self._starts, end_flat)
        return self.concepts[lo:hi]

    def by_span(self) -> dict[tuple[int, int, int, int], Concept]:
        return {c.span: c for c in self.concepts}
