"""Plain text with character-offset concepts -> a Document (lines x tokens), and back.

i2b2 text comes tokenised: one sentence per line, tokens separated by spaces, concepts as token
positions. Other sources (JSONL, brat standoff, spaCy, Spark rows) give text and character spans.
``tokenize`` splits such text the way i2b2 text looks: words with their inner hyphens, apostrophes
and dots ("methicillin-resistant", "3.5", "b.i.d") are tokens, clitics are tokens of their own
("patient's" -> "patient 's", "don't" -> "do n't"), other punctuation is a token of its own, a line
break or a sentence-final ". ! ?" ends a line (with the closing quotes and brackets after it; an
ellipsis "..." ends none). A "." stays on an abbreviation, an initial or a dotted acronym ("Dr.",
"J.", "U.S."), which then ends no sentence. A token never crosses a concept
boundary and a line never breaks inside a concept, so every concept is a whole run of tokens.

``tokenized=True`` reads text that is already i2b2-shaped (lines are sentences, whitespace
separates tokens) without splitting further, so i2b2 -> JSONL -> i2b2 gives the same files.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..document import Concept, Document
from ..errors import Diagnostic, InputError, diagnostic

CharSpan = tuple[int, int]  # [start, end) character offsets, as Python slices

_APOS = "'\u2019"
_CLITIC = rf"(?i:[{_APOS}](?:s|d|m|ll|re|ve)|n[{_APOS}]t)(?!\w)"  # 's 'd 'm 'll 're 've n't, as i2b2 splits them
_WORD = re.compile(
    rf"\w+?(?={_CLITIC})"  # "do" of "don't"
    rf"|{_CLITIC}"
    rf"|\w+(?:(?:[-./]|[{_APOS}](?!(?i:s|d|m|ll|re|ve)(?!\w)))\w+)*"  # "O'Brien", "3.5", "b.i.d"
    r"|\.{2,}|-{2,}|\S"  # an ellipsis is one token, and ends no sentence; so is a "--" dash
)
_FIELD = re.compile(r"\S+")
_SENTENCE_END = frozenset(".!?")
_CLOSERS = frozenset(")]}\u201d\u2019\u00bb")  # always close what came before
_QUOTES = frozenset("\"'")  # open or close


@dataclass
class TextDocument:
    """A Document built from text, with each token's character span in that text."""

    document: Document
    text: str
    offsets: list[list[CharSpan]]  # offsets[line - 1][token] = (start, end)
    #: for each concept given to ``document_from_text``, the index of its Document concept (chains
    #: given by input position are renumbered through it); empty for ``document_text``
    concept_of: list[int] = field(default_factory=list)
    #: (input position, earlier input position) of concepts whose span repeats an earlier one's:
    #: the Document keeps the first, as the i2b2 reader does (RC212), and ``concept_of`` points there
    duplicates: list[tuple[int, int]] = field(default_factory=list)

    def char_span(self, c: Concept) -> CharSpan:
        """The characters a concept covers: from its first token's start to its last token's end."""
        return self.offsets[c.start[0] - 1][c.start[1]][0], self.offsets[c.end[0] - 1][c.end[1]][1]


def tokenize(text: str, spans: Sequence[CharSpan] = (), *, tokenized: bool = False,
             abbreviations: frozenset[str] = frozenset()) -> list[list[CharSpan]]:
    """Character spans of the tokens of each line.

    Args:
        spans: concept spans; a token never crosses their edges and a sentence never ends inside one.
        tokenized: the text is i2b2-shaped; split it on line breaks and whitespace only.
        abbreviations: lowercased words whose following "." does not end a sentence ("dr", "mr").
    """
    cuts = sorted({x for span in spans for x in span})
    inside = bytearray(len(text) + 1)  # 1 where a position lies strictly inside some concept
    for a, b in spans:
        inside[a + 1:b] = b"\x01" * max(0, b - a - 1)
    pattern = _FIELD if tokenized else _WORD
    lines: list[list[CharSpan]] = []
    pos = 0
    for raw_line in text.split("\n"):
        tokens: list[CharSpan] = []
        lines.append(tokens)
        ended = False  # the line's sentence has ended; its closing quotes and brackets may follow
        for m in pattern.finditer(raw_line):
            start, end = m.start() + pos, m.end() + pos
            pieces = [start, *cuts[bisect_right(cuts, start): bisect_right(cuts, end - 1)], end]
            for a, b in zip(pieces, pieces[1:]) if not tokenized else [(start, end)]:
                if tokenized:
                    tokens.append((a, b))
                    continue
                if text[a:b] == "." and _abbreviation(text, tokens, a, abbreviations):
                    tokens[-1] = (tokens[-1][0], b)  # "Dr." and "J." keep their dot, and go on
                    continue
                if ended and not inside[a] and not _closing(text, a, b):
                    if not _said(text, tokens, a):
                        tokens = []
                        lines.append(tokens)
                    ended = False
                tokens.append((a, b))
                ended = ended or (text[a:b] in _SENTENCE_END and not inside[b])
        pos += len(raw_line) + 1
    if not tokenized:  # blank lines and the empty line after a final "." carry nothing
        lines = [tokens for tokens in lines if tokens] or [[]]
    while len(lines) > 1 and not lines[-1]:
        lines.pop()
    return lines


def _closing(text: str, a: int, b: int) -> bool:
    """Whether the token ``text[a:b]``, right after a sentence end, still belongs to that sentence:
    more end punctuation ("?!"), a closing bracket or quote (a straight quote only when a space or
    the line's end follows it: '... salt." They' but 'left. "Why?"')."""
    tok = text[a:b]
    if tok in _SENTENCE_END or tok in _CLOSERS:
        return True
    return tok in _QUOTES and (b == len(text) or text[b].isspace())


def _said(text: str, tokens: list[CharSpan], a: int) -> bool:
    """Whether a lower-case word goes on after a closing quote: '"Any hurry?" the doctor asked'."""
    last = text[tokens[-1][0]:tokens[-1][1]] if tokens else ""
    return (last in _QUOTES or last in _CLOSERS) and text[a].islower()


def _abbreviation(text: str, tokens: list[CharSpan], dot: int, abbreviations: frozenset[str]) -> bool:
    """Whether a "." at ``dot`` closes the token right before it as an abbreviation or an initial."""
    if not tokens or tokens[-1][1] != dot:
        return False
    word = text[tokens[-1][0]:dot]
    if "." in word:  # a dotted acronym: "U.S", "a.m", "Ph.D"
        return all(part.isalpha() and len(part) <= 2 for part in word.split("."))
    return (len(word) == 1 and word.isalpha()) or word.lower() in abbreviations


def document_from_text(name: str, text: str, concepts: Sequence[tuple[int, int, str]], *,
                       tokenized: bool = False, abbreviations: frozenset[str] = frozenset(),
                       source: str = "", lines_of: Sequence[int] | None = None) -> TextDocument:
    """Tokenise ``text`` and place each concept ``(start, end, type)`` (characters, end exclusive).

    Raises InputError with every problem at once: a span outside the text or empty (RC202), a span
    that starts or ends inside a token of tokenised text (RC215). ``lines_of`` gives each concept's
    line in the source file, for messages; the concept's index is used otherwise.
    """
    problems: list[Diagnostic] = []
    for k, (start, end, _) in enumerate(concepts):
        where = lines_of[k] if lines_of is not None else k + 1
        if not 0 <= start < end <= len(text):
            problems.append(diagnostic("RC202", file=source or name, line=where, offset=f"{start}-{end}",
                                       detail=f"the text has {len(text)} characters"))
    if problems:
        raise InputError(problems)
    spans = [_snap(text, start, end) for start, end, _ in concepts]
    lines = tokenize(text, spans, tokenized=tokenized, abbreviations=abbreviations)
    starts: dict[int, tuple[int, int]] = {}
    ends: dict[int, tuple[int, int]] = {}
    for ln, tokens in enumerate(lines, 1):
        for t, (a, b) in enumerate(tokens):
            starts[a] = (ln, t)
            ends[b] = (ln, t)
    placed = []
    first_at: dict[tuple[tuple[int, int], tuple[int, int]], int] = {}
    duplicates: list[tuple[int, int]] = []
    for k, ((start, end, ctype), (s, e)) in enumerate(zip(concepts, spans)):
        if s not in starts or e not in ends:
            where = lines_of[k] if lines_of is not None else k + 1
            problems.append(diagnostic("RC215", file=source or name, line=where, span=f"{start}-{end}",
                                       text=text[start:end][:60]))
            continue
        key = (starts[s], ends[e])
        if key in first_at:
            duplicates.append((k, first_at[key]))
            continue
        first_at[key] = k
        placed.append((starts[s], ends[e], ctype.strip().lower(), k))
    if problems:
        raise InputError(problems)
    token_lines = [[text[a:b] for a, b in tokens] for tokens in lines]
    placed.sort(key=lambda p: (p[0], p[1]))
    doc_concepts = []
    concept_of = [0] * len(concepts)
    for i, (s, e, ctype, k) in enumerate(placed):
        words = " ".join(_slice(token_lines, s, e))
        doc_concepts.append(Concept(index=i, text=words.lower(), type=ctype, start=s, end=e))
        concept_of[k] = i
    for k, first in duplicates:
        concept_of[k] = concept_of[first]
    return TextDocument(Document(name=name, lines=token_lines, concepts=doc_concepts, source=source), text, lines,
                        concept_of, duplicates)


def _snap(text: str, start: int, end: int) -> tuple[int, int]:
    """A span without the whitespace at its edges ("  chest pain " -> "chest pain")."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _slice(lines: list[list[str]], s: tuple[int, int], e: tuple[int, int]) -> list[str]:
    if s[0] == e[0]:
        return lines[s[0] - 1][s[1]: e[1] + 1]
    out = lines[s[0] - 1][s[1]:]
    for ln in range(s[0] + 1, e[0]):
        out += lines[ln - 1]
    return out + lines[e[0] - 1][: e[1] + 1]


def document_text(doc: Document) -> TextDocument:
    """The i2b2 text of a Document (tokens joined by spaces, lines by newlines) with token offsets:
    what JSONL and brat outputs carry, and ``document_from_text(..., tokenized=True)`` reads back."""
    offsets: list[list[CharSpan]] = []
    pos = 0
    for tokens in doc.lines:
        spans = []
        for tok in tokens:
            spans.append((pos, pos + len(tok)))
            pos += len(tok) + 1
        if not tokens:
            pos += 1
        offsets.append(spans)
    text = "\n".join(" ".join(tokens) for tokens in doc.lines)
    return TextDocument(doc, text, offsets)
