"""Tiny documents written inline: ``[text|type]`` marks a concept, ``[text|type|id]`` a gold chain.

Used by the ``examples:`` blocks of rule files, by the tests, and to write the bundled example
notes, so a rule can be shown on one readable line such as
``culture grew [MRSA|problem] [which|pronoun] responded to vancomycin .``
Lines of the markup are the lines of the document; tokens are separated by whitespace.
"""

from __future__ import annotations

import re

from .document import Concept, Document

_MARK = re.compile(r"\[([^\[\]|]+)\|([A-Za-z_][\w-]*)(?:\|([\w-]+))?\]")


class MarkupError(ValueError):
    """The markup cannot be read (unbalanced brackets, empty concept)."""


def parse_markup(text: str, name: str = "example") -> tuple[Document, dict[str, list[int]]]:
    """Build a Document from markup; also return gold chain ids -> concept indices."""
    lines: list[list[str]] = []
    raw: list[tuple[tuple[int, int], tuple[int, int], str, str | None]] = []
    for lineno, line in enumerate(text.strip("\n").split("\n"), 1):
        tokens: list[str] = []
        pos = 0
        for m in _MARK.finditer(line):
            tokens.extend(line[pos : m.start()].split())
            inner = m.group(1).split()
            if not inner:
                raise MarkupError(f"empty concept in {m.group(0)!r}")
            start = len(tokens)
            tokens.extend(inner)
            raw.append(((lineno, start), (lineno, len(tokens) - 1), m.group(2).lower(), m.group(3)))
            pos = m.end()
        rest = line[pos:]
        if "[" in rest or "]" in rest or any("[" in t or "]" in t for t in tokens):
            raise MarkupError(f"unbalanced or malformed [text|type] in line {lineno}: {line!r}")
        tokens.extend(rest.split())
        lines.append(tokens)
    raw.sort(key=lambda r: (r[0], r[1]))
    concepts = []
    chains: dict[str, list[int]] = {}
    for i, (start, end, ctype, chain) in enumerate(raw):
        toks = lines[start[0] - 1][start[1] : end[1] + 1]
        concepts.append(Concept(index=i, text=" ".join(toks).lower(), type=ctype, start=start, end=end))
        if chain:
            chains.setdefault(chain, []).append(i)
    return Document(name=name, lines=lines, concepts=concepts), chains


def retype(text: str, types: dict[str, str]) -> str:
    """Markup with its concept types renamed (lowercased names): an included rule file's examples
    as the including file names the types. ``retype("[He|pronoun]", {"pronoun": "people"})`` -> "[He|people]"."""

    def one(m: re.Match[str]) -> str:
        chain = f"|{m.group(3)}" if m.group(3) else ""
        return f"[{m.group(1)}|{types.get(m.group(2).lower(), m.group(2))}{chain}]"

    return _MARK.sub(one, text)
