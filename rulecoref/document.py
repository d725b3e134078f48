"""The document/concept matrix of seed 001 ("Data input and access"), and links with provenance.

A Document holds the text as a line x token matrix (lines from 1, tokens from 0, as i2b2 numbers
them) and its concepts sorted by position. Every rule asks the same few questions (what lies
between two concepts, which words surround one, which concept comes before), so the matrix keeps a
flat token index that answers them with slices instead of loops. No I/O and no rules here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import accumulate, chain
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .syntax import Parse

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
    #: found by rulecoref's mention finder (a pronoun no input marked), not given with the input
    added: bool = False

    @property
    def span(self) -> tuple[int, int, int, int]:
        return (self.start[0], self.start[1], self.end[0], self.end[1])

    @property
    def line(self) -> int:
        return self.start[0]

    def i2b2(self) -> str:
        """The mention as i2b2 writes it: ``c="text" L:T L:T``."""
        return f'c="{self.text}" {self.start[0]}:{self.start[1]} {self.end[0]}:{self.end[1]}'


class Evidence:
    """Why a pass linked (or a predicate holds for) two mentions, spelt out when read: ``str()``
    calls ``spell(table, i, j)``. Evidence is text or one of these; a rule asks about many
    candidates and links few, so the words of "all words of ... match ..." are put together only
    for the links somebody reads (``--provenance``, ``explain``). One small object per link: the
    table and two indices, no closure."""

    __slots__ = ("spell", "table", "i", "j")

    def __init__(self, spell: Callable[[Any, int, int], str], table: Any, i: int, j: int):
        self.spell, self.table, self.i, self.j = spell, table, i, j

    def __str__(self) -> str:
        return self.spell(self.table, self.i, self.j)

    def __repr__(self) -> str:
        return f"Evidence({str(self)!r})"


class Provenance:
    """Who made (or removed) a link and why: the answer to "why were these linked?".

    ``evidence`` is text, or an ``Evidence`` that spells it out when somebody reads it.
    """

    __slots__ = ("pass_name", "kind", "rule_file", "rule_line", "_evidence")

    def __init__(self, pass_name: str, kind: str, rule_file: str = "", rule_line: int = 0,
                 evidence: str | Evidence = ""):
        self.pass_name = pass_name
        self.kind = kind
        self.rule_file = rule_file
        self.rule_line = rule_line
        self._evidence = evidence

    @property
    def evidence(self) -> str:
        ev = self._evidence
        if not isinstance(ev, str):
            ev = self._evidence = str(ev)
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


@dataclass(frozen=True, slots=True)
class GivenConcept:
    """One concept as the input gave it (JSONL, brat): what an output hands back unchanged.

    ``span`` is the (line, token, line, token) span of the Document concept it became, None when
    the type map dropped it; ``raw`` is the JSONL object as given (its other keys pass through)."""

    start: int
    end: int
    label: str
    id: str | int | None = None
    span: tuple[int, int, int, int] | None = None
    raw: dict[str, Any] | None = None


@dataclass(frozen=True)
class Origin:
    """The input a Document was made from, when it came as text with character offsets (JSONL,
    brat): its text as given, the character span of every token, and every concept in the input's
    order. Tokenizing is rulecoref's own step; writers use this to give the user back the text, the
    ids, offsets and labels and the other keys exactly as they came (``io/faithful.py``)."""

    format: str
    text: str
    #: offsets[line - 1][token] = (start, end) in ``text``
    offsets: list[list[tuple[int, int]]]
    concepts: list[GivenConcept]
    #: JSONL: the record as given (its keys in order); brat: {} (the .ann lines are in ``lines``)
    record: dict[str, Any] = field(default_factory=dict)
    #: brat: the .ann lines as given, each (line, is a coreference line)
    lines: tuple[tuple[str, bool], ...] = ()

    def char_span(self, c: Concept) -> tuple[int, int]:
        """The characters of a Document concept (one the input gave, or one rulecoref added)."""
        return self.offsets[c.start[0] - 1][c.start[1]][0], self.offsets[c.end[0] - 1][c.end[1]][1]


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
    #: medspaCy's ConText and sectionizer into them); the attributes registered ``from_facts=True`` use them
    facts: dict[int, dict[str, Fact]] = field(default_factory=dict)
    #: a dependency parse of the tokens (``syntax.Parse``), when one was asked for (``--parser``) or
    #: came with the text (a parsed spaCy Doc); the syntactic attributes read it, None: word order only
    parse: Parse | None = None
    #: the text, ids, offsets and other keys the input gave (JSONL, brat), for faithful outputs
    origin: Origin | None = None

    def fact(self, index: int, name: str) -> Fact | None:
        """The given fact ``name`` of concept ``index``, if there is one."""
        found = self.facts.get(index)
        return found.get(name) if found else None

    # -- flat token index: the document's one position index ---------------------------------
    @cached_property
    def line_offsets(self) -> list[int]:
        """The flat index of token 0 of each line (lines from 1; index 0 unused), one past the end last."""
        return [0, *accumulate(map(len, self.lines), initial=0)]

    @cached_property
    def flat_tokens(self) -> list[str]:
        return list(chain.from_iterable(self.lines))

    def flat(self, pos: Position) -> int:
        """Flat token index of a (line, token) position."""
        return self.line_offsets[pos[0]] + pos[1]

    @property
    def n_lines(self) -> int:
        return len(self.lines)

    # -- concept queries --------------------------------------------------------------------
    @cached_property
    def concept_starts(self) -> list[int]:
        """Flat index of each concept's first token, by concept index (read only: the mention
        table's ``start`` column is this list)."""
        offsets = self.line_offsets
        return [offsets[line] + tok for line, tok in (c.start for c in self.concepts)]

    @cached_property
    def concept_ends(self) -> list[int]:
        """Flat index of each concept's last token, by concept index (read only; the ``end`` column)."""
        offsets = self.line_offsets
        return [offsets[line] + tok for line, tok in (c.end for c in self.concepts)]

    def start_of(self, c: Concept | int) -> int:
        return self.concept_starts[c if isinstance(c, int) else c.index]

    def end_of(self, c: Concept | int) -> int:
        return self.concept_ends[c if isinstance(c, int) else c.index]

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

    def before(self, c: Concept, n: int = 1, *, same_line: bool = True) -> list[str]:
        """Up to ``n`` tokens right before a concept (within its line by default)."""
        start = self.start_of(c)
        lo = max(0, start - n)
        if same_line:
            lo = max(lo, self.line_offsets[c.start[0]])
        return self.flat_tokens[lo:start]

    def by_span(self) -> dict[tuple[int, int, int, int], Concept]:
        return {c.span: c for c in self.concepts}
