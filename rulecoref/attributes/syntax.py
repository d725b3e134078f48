"""Grammatical roles and syntactic heads from a dependency parse (issue 35), when there is one.

A document has a parse when the run named a spaCy pipeline (``--parser MODEL`` or this group's
``parser`` setting; ``rulecoref/parsing.py``) or a parsed spaCy ``Doc`` came in (the spaCy
component). Without one these columns are None and the salience attributes keep their word-order
approximations (``attributes/salience.py``), so a run without a parser is what it always was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..document import Document
from .registry import attribute, setting, settings_group

if TYPE_CHECKING:
    from .registry import Table


# fmt: off
@settings_group("syntax", help="an optional dependency parse (docs/parser.md)")
class Syntax:
    parser: str = setting("str", default="",
                          help="a spaCy pipeline with a parser, by package name or folder ('en_core_web_sm'), run over "
                               "the tokens of every document; '' none (word order only); --parser overrides it")
# fmt: on


def span_role(doc: Document, line: int, first: int, last: int) -> str | None:
    """The grammatical role of tokens ``first..last`` of ``line`` by the document's parse (the role of
    their syntactic head), or None without a parse."""
    parse = doc.parse
    if parse is None:
        return None
    base = doc.line_offsets[line]
    return parse.role(parse.head_of(base + first, base + last))


def _span(doc: Document, i: int) -> tuple[int, int, int]:
    """Concept ``i``'s line and tokens, the part on its first line for a concept that runs on."""
    c = doc.concepts[i]
    return c.start[0], c.start[1], c.end[1] if c.end[0] == c.start[0] else len(doc.lines[c.start[0] - 1]) - 1


@attribute("grammatical_role", depends=("line",),
           help="by the dependency parse (--parser): subject, object, possessor, oblique (object of a preposition), "
                "predicate, root or other; a conjunct or apposition shares the role of the mention it joins "
                "('Ann and [Bo] left' -> subject); None without a parse", blocking=())
def _grammatical_role(t: Table) -> list[str | None]:
    doc = t.doc
    if doc.parse is None:
        return [None] * t.n
    return [span_role(doc, *_span(doc, i)) for i in range(t.n)]


@attribute("syntactic_head", depends=("line",),
           help="by the dependency parse (--parser): the (line, token) of the mention's syntactic head, the token "
                "whose own head lies outside the mention ('the [police] officer' -> officer); None without a parse",
           blocking=())
def _syntactic_head(t: Table) -> list[tuple[int, int] | None]:
    doc, parse = t.doc, t.doc.parse
    if parse is None:
        return [None] * t.n
    out: list[tuple[int, int] | None] = []
    for i in range(t.n):
        line, first, last = _span(doc, i)
        base = doc.line_offsets[line]
        out.append((line, parse.head_of(base + first, base + last) - base))
    return out
