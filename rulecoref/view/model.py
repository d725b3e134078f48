"""What one page shows: a document's mentions, its chains, who linked them, and the gold diff.

The diff is over antecedent links, the way a reader checks a chain: each mention is linked to the
mention before it in its chain (seed 001's "exact links", ``evaluate/links.py``). A system link is
*correct* when the two mentions are in one gold chain and *wrong* otherwise; a gold link is
*missing* when the system did not put its two mentions in one chain. Gold A B C against system
A C: the system link A-C is correct (A and C corefer), the gold link B-C is missing, and A-B too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bounded import Limit, NotRegular, json_loads, read_bytes
from ..document import Document
from ..errors import Diagnostic, diagnostic
from ..io.i2b2 import parse_mention

Pair = tuple[int, int]

#: A provenance file (``NAME.links.json`` of ``resolve --provenance``): at most this many bytes and values.
MAX_PROVENANCE_BYTES = 256 * 1024 * 1024
MAX_PROVENANCE_VALUES = 20_000_000



@dataclass
class LinkLog:
    """The links of a ``--provenance`` file, by concept index."""

    links: list[dict[str, Any]] = field(default_factory=list)  # a, b, kept, pass, kind, rule_file, rule_line, evidence
    removed: list[dict[str, Any]] = field(default_factory=list)  # a, b, pass, kind, rule_file, rule_line, evidence


@dataclass
class DocView:
    """One document and everything its page shows."""

    doc: Document
    gold: list[list[int]] | None = None
    gold_types: list[str] | None = None
    system: list[list[int]] | None = None
    system_types: list[str] | None = None
    provenance: LinkLog | None = None
    warnings: list[Diagnostic] = field(default_factory=list)

    @property
    def shown(self) -> tuple[list[list[int]], list[str]]:
        """The chains the page colours: the system's when there are any, else the gold."""
        if self.system is not None:
            return self.system, self.system_types or [""] * len(self.system)
        if self.gold is not None:
            return self.gold, self.gold_types or [""] * len(self.gold)
        return [], []

    def diff(self) -> dict[str, list[Pair]] | None:
        """Correct, wrong and missing antecedent links (None without both gold and system)."""
        if self.gold is None or self.system is None:
            return None
        gold_of = _owner(self.gold)
        system_of = _owner(self.system)
        out: dict[str, list[Pair]] = {"correct": [], "wrong": [], "missing": []}
        for a, b in antecedent_links(self.system):
            same = a in gold_of and gold_of.get(a) == gold_of.get(b)
            out["correct" if same else "wrong"].append((a, b))
        for a, b in antecedent_links(self.gold):
            if not (a in system_of and system_of.get(a) == system_of.get(b)):
                out["missing"].append((a, b))
        return out


def antecedent_links(chains: Sequence[Sequence[int]]) -> list[Pair]:
    """Each mention of a chain linked to the one before it (text order)."""
    out = []
    for chain in chains:
        ordered = sorted(chain)
        out.extend(zip(ordered, ordered[1:]))
    return sorted(out, key=lambda p: (p[1], p[0]))


def _owner(chains: Sequence[Sequence[int]]) -> dict[int, int]:
    return {m: k for k, chain in enumerate(chains) for m in chain}


def read_provenance(path: Path, doc: Document) -> tuple[LinkLog | None, list[Diagnostic]]:
    """A ``NAME.links.json`` file by concept index; links naming no concept of ``doc`` are left
    out with one warning (RC525), an unreadable file is a warning (RC524) and no provenance."""
    try:
        data = json_loads(read_bytes(path, MAX_PROVENANCE_BYTES).decode("utf-8"), max_values=MAX_PROVENANCE_VALUES)
        links, removed = data["links"], data["removed"]
    except (OSError, ValueError, KeyError, TypeError, Limit, NotRegular) as exc:
        return None, [diagnostic("RC524", file=str(path), severity="warning", path=str(path), detail=str(exc))]
    index = {c.span: c.index for c in doc.concepts}
    misses = 0
    out = LinkLog()
    for rows, target in ((links, out.links), (removed, out.removed)):
        for row in rows if isinstance(rows, list) else []:
            try:
                a, b = index[_span(row["a"])], index[_span(row["b"])]
            except (KeyError, TypeError):
                misses += 1
                continue
            target.append({**row, "a": min(a, b), "b": max(a, b)})
    warnings = []
    if misses:
        warnings.append(diagnostic("RC525", file=str(path), severity="warning", doc=doc.name,
                                   detail=f"{misses} link(s) of the provenance file name no concept of it"))
    return out, warnings


def _span(mention: str) -> tuple[int, int, int, int]:
    parsed = parse_mention(mention) if mention == mention.strip() else None
    if parsed is None:
        raise KeyError(mention)
    return parsed[1]
