"""Gold documents for learning: each record read once, with its gold chains as concept indices,
and the split of a corpus by document name into the part rules are chosen on and the part held back.

The split depends on the document names only (a hash with a fixed salt), so it is the same on
every machine and run and does not follow the files' order (a corpus sorted by genre is not split
by genre).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..document import Document
from ..errors import CliError, Diagnostic, RulecorefError, diagnostic
from ..io.formats import Format, ReadOptions, Record, find_inputs, read_gold_record, read_options
from ..io.layout import find_records
from ..io.typemap import TypeMap

#: the salt of the internal split; the file's header records it
SPLIT_SALT = "rulecoref-induce-1"


@dataclass
class GoldDoc:
    """A document and its gold partition: ``owner[i]`` is concept i's gold entity, and every concept
    outside a gold chain has an entity of its own (so ``owner[i] == owner[j]`` means coreferent)."""

    doc: Document
    gold: list[list[int]]
    owner: list[int]

    @property
    def name(self) -> str:
        return self.doc.name

    def key(self) -> list[list[int]]:
        """The key partition, singletons included, as the scorer wants it."""
        inside = {i for chain in self.gold for i in chain}
        return [list(c) for c in self.gold] + [[i] for i in range(len(self.doc.concepts)) if i not in inside]


def gold_doc(doc: Document, gold: Sequence[Sequence[int]]) -> GoldDoc:
    """A GoldDoc from a document and its gold chains (concept indices)."""
    n = len(doc.concepts)
    owner = list(range(n, 2 * n))
    chains = [sorted(set(c)) for c in gold if len(set(c)) > 1]
    for k, chain in enumerate(chains):
        for i in chain:
            owner[i] = k
    return GoldDoc(doc, chains, owner)


def read_gold(record: Record, types: Sequence[str] | None, encoding: str = "utf-8",
              opts: ReadOptions | None = None) -> tuple[GoldDoc, list[Diagnostic]]:
    """One record of any format with its gold chains; i2b2 chain mentions that are not concepts
    are warnings (RC209). A record without gold chains is RC570."""
    read, gold = read_gold_record(record, opts or ReadOptions(tuple(types) if types else None, encoding=encoding))
    if gold is None:
        raise _NoChains(record)
    return gold_doc(read.document, gold), list(read.warnings)


class _NoChains(Exception):
    def __init__(self, record: Record):
        self.record = record


def load_gold(inputs: Iterable[str | Path], types: Sequence[str] | None = None,
              encoding: str = "utf-8", *, fmt: Format | None = None,
              type_map: TypeMap | None = None) -> tuple[list[GoldDoc], list[Diagnostic]]:
    """Every readable record of ``inputs`` (i2b2, or ``fmt``: JSONL with ``chains``, brat with
    coreference) that has gold chains, in name order.

    A record without chains (RC570) or one that cannot be read (RC575) is left out with a warning,
    so one bad document never stops a run; no usable record at all is RC571.
    """
    inputs = list(inputs)
    if fmt is None or fmt.name == "i2b2":
        records, problems = find_records(inputs)
    else:
        records, problems = find_inputs(inputs, fmt.name, encoding)
    opts = read_options(fmt.name if fmt is not None else "i2b2", types=tuple(types) if types else None,
                        encoding=encoding, type_map=type_map)
    warnings: list[Diagnostic] = [Diagnostic(p.code, p.message, p.file, p.line, p.hint, "warning") for p in problems]
    docs: list[GoldDoc] = []
    for rec in sorted(records, key=lambda r: r.name):
        if rec.txt is None:
            continue
        try:
            gd, warns = read_gold(rec, types, encoding, opts)
        except _NoChains:
            warnings.append(diagnostic("RC570", file=str(rec.con), severity="warning", path=str(rec.con), doc=rec.name))
            continue
        except RulecorefError as exc:  # named where the problem is: the file (chains, text or concepts) and line
            first = exc.diagnostics[0]
            warnings.append(diagnostic("RC575", file=first.file or str(rec.con), line=first.line, severity="warning",
                                       doc=rec.name, detail="; ".join(d.message for d in exc.diagnostics[:3])))
            continue
        docs.append(gd)
        warnings.extend(warns)
    if not docs:
        raise CliError(diagnostic("RC571", inputs=", ".join(map(str, inputs))))
    return docs, warnings


def split_by_name(names: Sequence[str], share: float, salt: str = SPLIT_SALT) -> tuple[list[str], list[str]]:
    """(kept, held back) names: the ``round(share * n)`` names (at least one, and never all) whose
    salted hash is lowest are held back. Names only decide, so the split is the same on every run."""
    if share <= 0 or len(names) < 2:
        return list(names), []
    count = min(len(names) - 1, max(1, round(share * len(names))))
    back = set(sorted(names, key=lambda n: (_position(n, salt), n))[:count])
    return [n for n in names if n not in back], [n for n in names if n in back]


def _position(name: str, salt: str) -> float:
    """Where a name falls in [0, 1): a hash of the salted name."""
    return int.from_bytes(hashlib.blake2b(f"{salt}:{name}".encode(), digest_size=8).digest(), "big") / 2**64
