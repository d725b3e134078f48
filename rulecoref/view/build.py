"""Build the view of a batch: read each document with its gold and system chains, write its page,
then the index with per-document scores.

System output is what ``rulecoref resolve`` wrote: ``OUT/NAME.txt.chains`` (or ``NAME.jsonl`` from
``--format jsonl``: every format that reads its own output back, ``Format.system_chains``) and, with
``--provenance``, ``OUT/NAME.links.json``. Scores need the ``eval``
extra (NumPy, SciPy); without it the index says so and shows the rest. One document that cannot be
read is listed on the index with its problem; the others are written.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..document import Concept, Document
from ..errors import Diagnostic, RulecorefError, diagnostic
from ..extras import missing
from ..finder import add_mentions
from ..io.formats import ReadOptions, Record, formats, read_record, typed
from ..io.i2b2 import read_chains
from ..io.outdir import OutputFolder
from .model import DocView, read_provenance
from .page import INDEX_PAGE, IndexRow, document_page, index_page, page_name


@dataclass
class Built:
    """What a build wrote and met."""

    pages: int = 0
    rows: list[IndexRow] = field(default_factory=list)
    failed: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)


def load_view(record: Record, opts: ReadOptions, system_dir: Path | None = None) -> DocView:
    """One document with its gold chains (if its input has them) and the system's (if given)."""
    read = read_record(record, opts, with_chains=True)
    doc = read.document
    view = DocView(doc, warnings=list(read.warnings))
    if read.chains is not None:
        view.gold, view.gold_types = read.chains, typed(doc, read.chains, read.chain_types)
    if system_dir is None:
        return view
    doc, given = system_mentions(doc, system_dir, opts.encoding)
    if len(given) != len(doc.concepts):  # the pronouns resolve's finder added: shown in their chains
        view.doc = doc
        view.gold = [[given[i] for i in chain] for chain in view.gold] if view.gold is not None else None
    try:
        found = next((got for f in formats() if (got := f.system_chains(system_dir, doc, opts)) is not None), None)
        if found is not None:
            view.system, view.system_types = found
        else:
            view.warnings.append(diagnostic("RC523", severity="warning", doc=doc.name, path=str(system_dir)))
    except RulecorefError as exc:
        view.warnings.append(diagnostic("RC525", severity="warning", doc=doc.name,
                                        detail="; ".join(str(d) for d in exc.diagnostics[:3])))
    links = system_dir / f"{doc.name}.links.json"
    if links.is_file():
        view.provenance, warns = read_provenance(links, doc)
        view.warnings.extend(warns)
    return view


def system_mentions(doc: Document, system_dir: Path, encoding: str = "utf-8") -> tuple[Document, list[int]]:
    """``doc`` with the mentions of its i2b2 system chains that are no concept of it but one word of its
    text (what ``resolve``'s mention finder added to NER concepts: docs/rules.md, "Finding mentions"),
    typed ``pronoun``; and the new index of each of its concepts."""
    path = next((p for p in (system_dir / f"{doc.name}.txt.chains", system_dir / "chains" / f"{doc.name}.txt.chains")
                 if p.is_file()), None)
    try:
        chains = read_chains(path, encoding=encoding) if path is not None else None
    except RulecorefError:  # reported when the chains are read for the page
        chains = None
    known = doc.by_span()
    spans = sorted({s for chain in (chains.chains if chains else ()) for s in chain
                    if s not in known and s[0] == s[2] and s[1] == s[3] and 1 <= s[0] <= len(doc.lines)
                    and s[1] < len(doc.lines[s[0] - 1])
                    and doc.lines[s[0] - 1][s[1]].lower() == chains.texts.get(s, "").strip().lower()})
    if not spans:
        return doc, list(range(len(doc.concepts)))
    return add_mentions(doc, [Concept(-1, doc.lines[s[0] - 1][s[1]].lower(), "pronoun", (s[0], s[1]), (s[2], s[3]),
                                      added=True) for s in spans])


def planned_pages(records: Iterable[Record]) -> list[str]:
    """The files a view of ``records`` writes, claimed before any is written (io/outdir.py)."""
    return [page_name(rec.name) for rec in records] + [INDEX_PAGE]


def build_view(records: Iterable[Record], opts: ReadOptions, out: OutputFolder, system_dir: Path | None = None) -> Built:
    """Write NAME.html for every record and index.html into an opened output folder; never stops
    on one bad document (a page that cannot be written, a full disk, is that document's RC510)."""
    built = Built()
    views_for_scores = []
    for rec in records:
        try:
            view = load_view(rec, opts, system_dir)
            out.write(page_name(view.doc.name), document_page(view))
        except RulecorefError as exc:
            built.failed.extend(exc.diagnostics)
            built.rows.append(IndexRow(rec.name, problem=f"not shown: {exc.diagnostics[0].code}"))
            continue
        built.pages += 1
        built.warnings.extend(view.warnings)
        diff = view.diff()
        built.rows.append(IndexRow(
            view.doc.name, len(view.doc.concepts),
            len(view.gold) if view.gold is not None else None,
            len(view.system) if view.system is not None else None,
            {k: len(v) for k, v in diff.items()} if diff is not None else None))
        if diff is not None:
            views_for_scores.append((built.rows[-1], _partition(view)))
    note, total = _score(views_for_scores)
    out.write(INDEX_PAGE, index_page(built.rows, total, note))
    return built


def _partition(view: DocView):
    """Key and response of one document as the scorer takes them (singletons on both sides)."""
    spans = [c.span for c in view.doc.concepts]

    def entities(chains: list[list[int]]) -> list[list[tuple[int, int, int, int]]]:
        seen = {m for c in chains for m in c}
        return [[spans[m] for m in c] for c in chains] + [[s] for i, s in enumerate(spans) if i not in seen]

    assert view.gold is not None and view.system is not None
    in_gold = {m for c in view.gold for m in c}
    key_types = list(view.gold_types or []) + [c.type for c in view.doc.concepts if c.index not in in_gold]
    return view.doc.name, entities(view.gold), entities(view.system), key_types


def _score(items: list) -> tuple[str, IndexRow | None]:
    """Fill each row's CoNLL F1 and i2b2 overall; the first row of the table sums every document."""
    if not items:
        return "", None
    if missing("eval"):
        return ("Scores (CoNLL F1, i2b2 overall) need the eval extra: pip install 'rulecoref[eval]'. "
                "Links against the gold are counted without it."), _sum_row(items)
    from ..evaluate import DocPartition, score_partitions

    parts = []
    for row, (name, key, response, key_types) in items:
        part = DocPartition(name, key, response, key_types)
        parts.append(part)
        row.conll_f1 = score_partitions([part], mode="conll").conll_f1
        row.i2b2 = score_partitions([part], mode="i2b2").i2b2_overall
    total = _sum_row(items)
    total.conll_f1 = score_partitions(parts, mode="conll").conll_f1
    total.i2b2 = score_partitions(parts, mode="i2b2").i2b2_overall
    return ("CoNLL F1: MUC, B3 and CEAF-e as the reference scorer v8.01 computes them; i2b2: the official "
            "i2b2/VA 2011 overall score. The first row is the whole batch."), total


def _sum_row(items: list) -> IndexRow:
    rows = [row for row, _ in items]
    total = IndexRow(f"all ({len(rows)} documents)", sum(r.mentions for r in rows),
                     sum(r.gold_chains or 0 for r in rows), sum(r.system_chains or 0 for r in rows),
                     {k: sum((r.diff or {}).get(k, 0) for r in rows) for k in ("correct", "wrong", "missing")})
    return total
