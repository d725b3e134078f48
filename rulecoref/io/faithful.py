"""Outputs that give the input back as it came: the text, every concept's id, offsets and label,
the input's order and its other keys (JSONL, brat), with rulecoref's chains added.

A Document read from text with character offsets carries its ``Origin`` (``document.py``):
tokenizing is rulecoref's internal step, so a JSONL or brat output of such a document is the
input's own text and concepts, not the tokens. Chains name their mentions by position in the
output's concept list and by id. Mentions rulecoref added (``Concept.added``: the mention finder's
pronouns) come after the input's concepts, marked ``"source": "rulecoref"`` (JSONL) or by an
``AnnotatorNotes`` line (brat), under ids that no input concept has.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..document import Document, Origin

#: what marks a mention rulecoref added, in JSONL (``source``) and in a brat note
ADDED_SOURCE = "rulecoref"
_BRAT_ID = re.compile(r"^T\S+$")


@dataclass
class Mention:
    """One concept of a faithful output: an input concept as given, or one rulecoref added."""

    start: int
    end: int
    label: str
    id: str | int | None
    added: bool = False
    raw: dict[str, Any] | None = None


@dataclass
class Faithful:
    """A document's output concepts (the input's, in its order, then the added ones in text
    order) and its chains as positions in that list, each chain in text order."""

    origin: Origin
    mentions: list[Mention]
    chains: list[list[int]]
    types: list[str]
    #: Document concept index -> its positions in ``mentions`` (two when the input repeated a span)
    positions: dict[int, list[int]]

    def ids(self, chain: Sequence[int]) -> list[str | int | None]:
        return [self.mentions[k].id for k in chain]

    @property
    def has_ids(self) -> bool:
        return any(m.id is not None for m in self.mentions)


def faithful(doc: Document, chains: Iterable[Sequence[int]], chain_types: Sequence[str], *,
             fresh: str = ADDED_SOURCE + "-{}", taken: Iterable[str] = ()) -> Faithful:
    """The output concepts and chains of ``doc`` (which has an origin). A Document concept maps to
    the input concepts with its span (two when the input repeated a span, RC212); one no input
    concept has is an added mention, named ``fresh.format(n)`` with the first n that neither an input
    id nor ``taken`` holds."""
    origin = doc.origin
    assert origin is not None
    mentions = [Mention(g.start, g.end, g.label, g.id, raw=g.raw) for g in origin.concepts]
    by_span: dict[tuple[int, int, int, int], list[int]] = {}
    for k, g in enumerate(origin.concepts):
        if g.span is not None:
            by_span.setdefault(g.span, []).append(k)
    taken = {str(m.id) for m in mentions if m.id is not None} | set(taken)
    counter = 0
    positions: dict[int, list[int]] = {}
    for c in doc.concepts:
        found = by_span.get(c.span)
        if found is None or c.added:
            start, end = origin.char_span(c)
            counter += 1
            while fresh.format(counter) in taken:
                counter += 1
            found = [len(mentions)]
            mentions.append(Mention(start, end, c.type, fresh.format(counter), added=True))
        positions[c.index] = found
    out_chains: list[tuple[list[int], str]] = []
    for members, ctype in zip(chains, chain_types):
        if len(members) < 2:
            continue
        ks = sorted({k for i in members for k in positions[i]}, key=lambda k: (mentions[k].start, mentions[k].end, k))
        out_chains.append((ks, ctype))
    out_chains.sort(key=lambda ch: (mentions[ch[0][0]].start, mentions[ch[0][0]].end, ch[0][0]))
    return Faithful(origin, mentions, [c for c, _ in out_chains], [t for _, t in out_chains], positions)


def faithful_jsonl(doc: Document, chains: Iterable[Sequence[int]], chain_types: Sequence[str]) -> str:
    """One JSONL line: the input record with its keys in order (a brat input: id, text, concepts),
    its concepts as given plus the added ones, and ``chains`` the system's (by position and id)."""
    out = faithful(doc, chains, chain_types)
    origin = out.origin
    concepts: list[dict[str, Any]] = []
    for m in out.mentions:
        if m.raw is not None:
            concepts.append(m.raw)
            continue
        item: dict[str, Any] = {} if m.id is None else {"id": m.id}
        item.update({"start": m.start, "end": m.end, "type": m.label, "text": origin.text[m.start:m.end]})
        if m.added:
            item["source"] = ADDED_SOURCE
        concepts.append(item)
    record = dict(origin.record) if origin.format == "jsonl" else {"id": doc.name, "text": origin.text}
    record["concepts"] = concepts
    record["chains"] = [
        {"type": t, "mentions": c, **({"ids": out.ids(c)} if out.has_ids else {})} for c, t in zip(out.chains, out.types)
    ]
    return json.dumps(record, ensure_ascii=False) + "\n"


def faithful_brat(doc: Document, chains: Iterable[Sequence[int]], chain_types: Sequence[str]) -> tuple[str, str]:
    """(NAME.txt, NAME.ann): the input's text exactly; a brat input's .ann lines as given but its
    coreference (the output's chains replace it), another input's concepts as T lines under their
    own ids where these are brat ids; then the added mentions (fresh T ids, an AnnotatorNotes line
    each) and one equivalence line per chain."""
    from .brat import COREFERENCE

    origin = doc.origin
    assert origin is not None
    ids = _brat_ids(origin)
    out = faithful(doc, chains, chain_types, fresh="T{}", taken=ids)
    lines: list[str] = []
    if origin.format == "brat":
        lines = [line for line, coreference in origin.lines if not coreference]
    else:
        for k, m in enumerate(out.mentions[:len(origin.concepts)]):
            label = "_".join(m.label.split()) or "concept"
            lines.append(f"{ids[k]}\t{label} {m.start} {m.end}\t{_one_line(origin.text[m.start:m.end])}")
    notes = {line.split("\t", 1)[0] for line, _ in origin.lines if line.startswith("#")}
    note = 0
    for k in range(len(origin.concepts), len(out.mentions)):
        m = out.mentions[k]
        ids.append(str(m.id))
        lines.append(f"{m.id}\t{m.label} {m.start} {m.end}\t{_one_line(origin.text[m.start:m.end])}")
        note += 1
        while f"#{note}" in notes:
            note += 1
        lines.append(f"#{note}\tAnnotatorNotes {m.id}\tsource: {ADDED_SOURCE}")
    for chain in out.chains:
        lines.append(f"*\t{COREFERENCE} " + " ".join(ids[k] for k in chain))
    return origin.text, "".join(line + "\n" for line in lines)


def _brat_ids(origin: Origin) -> list[str]:
    """The T id of each input concept: its own when all are distinct brat ids (``T...``), else T1, T2, ..."""
    given = [str(g.id) if g.id is not None else "" for g in origin.concepts]
    if all(_BRAT_ID.match(i) for i in given) and len(set(given)) == len(given):
        return given
    return [f"T{k + 1}" for k in range(len(given))]


def _one_line(text: str) -> str:
    """A concept's text on one .ann line (brat writes a line break inside a span as a space)."""
    return " ".join(text.split("\n")).replace("\r", " ")

