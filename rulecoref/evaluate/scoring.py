"""Score key/response partitions in one of the two modes, overall and per gold type.

conll: each metric's numerators and denominators are computed per document and summed, as the
       reference scorer v8.01 does (``perl scorer.pl <metric> key response``).
i2b2:  the official i2b2/VA 2011 scorer's pooled-corpus definitions (:mod:`.i2b2`).

Per type (``by_type``): type T sees only the mentions of the gold chains of type T plus the gold
singletons whose concept has type T; key and response are both cut down to those mentions and
every metric is computed on them as usual. The types partition the mentions, so a pronoun in a
person chain is scored under person, and nothing can make a score leave [0, 1] (the official
``-i`` option aborts on exactly that case). A response link between two types shows up in neither
type's precision; the overall scores see it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import EvaluationError, diagnostic
from . import i2b2
from .bcubed import bcubed_counts
from .blanc import BlancCounts, blanc_counts, blanc_score
from .ceaf import ceafe_counts, ceafm_counts
from .core import Contingency, Counts, dedupe, pairs_within
from .data import DocPartition, mention_sets_differ, restrict, twinless_in_key, type_universes
from .links import exact_link_counts
from .muc import muc_counts
from .report import Report

MODES = ("conll", "i2b2")


def _clean(docs: Sequence[DocPartition]) -> tuple[list[DocPartition], list]:
    out, warnings = [], []
    for d in docs:
        key, origin, _ = dedupe(d.key)
        types = [d.key_types[i] for i in origin] if d.key_types is not None else None
        response, _, dropped = dedupe(d.response)
        if dropped:
            warnings.append(diagnostic("RC710", severity="warning", count=dropped, doc=d.name))
        out.append(DocPartition(d.name, key, response, types, d.response_chain_mentions, d.twinless))
    return out, warnings


def _summary(docs: Sequence[DocPartition]) -> dict[str, int]:
    return {
        "documents": len(docs),
        "key_mentions": sum(len(e) for d in docs for e in d.key),
        "key_entities": sum(len(d.key) for d in docs),
        "key_chains": sum(1 for d in docs for e in d.key if len(e) > 1),
        "response_mentions": sum(len(e) for d in docs for e in d.response),
        "response_entities": sum(len(d.response) for d in docs),
        "response_chains": sum(1 for d in docs for e in d.response if len(e) > 1),
        "system_chain_markables": sum(len(e) for d in docs for e in d.response if len(e) > 1),
    }


def _score(docs: Sequence[DocPartition], mode: str, exact: Counts) -> Report:
    tables = [Contingency.build(d.key, d.response) for d in docs]
    summary = _summary(docs)
    if mode == "conll":
        muc = sum((muc_counts(t) for t in tables), Counts())
        b3 = sum((bcubed_counts(t) for t in tables), Counts())
        cm = sum((ceafm_counts(t) for t in tables), Counts())
        ce = sum((ceafe_counts(t) for t in tables), Counts())
        bl = sum((blanc_counts(t) for t in tables), BlancCounts(Counts(), Counts()))
        metrics = {
            "muc": muc.score(),
            "bcub": b3.score(),
            "ceafm": cm.score(),
            "ceafe": ce.score(),
            "blanc": blanc_score(bl),
            "pairwise": bl.coref.score(),
            "exact_links": exact.score(),
        }
        conll_f1 = (metrics["muc"].f1 + metrics["bcub"].f1 + metrics["ceafe"].f1) / 3
        return Report(mode, metrics, conll_f1, summary=summary)
    pooled = Contingency.pool(tables)
    both = pairs_within(pooled.counts)
    metrics = {
        "muc": i2b2.muc(pooled),
        "bcub": i2b2.bcubed(pooled),
        "ceafm": ceafm_counts(pooled).score(),
        "ceafe": i2b2.ceafe(pooled),
        "blanc": i2b2.blanc(pooled),
        "pairwise": Counts(both, pairs_within(pooled.key_sizes), both, pairs_within(pooled.resp_sizes)).score(),
        "exact_links": exact.score(),
    }
    mean, overall = i2b2.overall(metrics["muc"], metrics["bcub"], metrics["ceafe"])
    xml = i2b2.official_xml(metrics, overall, summary["system_chain_markables"])
    return Report(mode, metrics, mean, i2b2_overall=overall, summary=summary, official_xml=xml)


def score_partitions(docs: Sequence[DocPartition], mode: str = "conll", by_type: bool = False) -> Report:
    """Score documents given as key/response partitions (singletons included on both sides).

    Raises EvaluationError for an unknown mode (RC711), and in i2b2 mode when a document's key and
    response hold different mentions (RC706): the official formulas assume one mention universe.
    A partition's ``twinless`` system mentions join the key as singletons in i2b2 mode first.
    """
    if mode not in MODES:
        raise EvaluationError(diagnostic("RC711", mode=mode, known=", ".join(MODES)))
    clean, warnings = _clean(docs)
    if mode == "i2b2":
        clean = [twinless_in_key(d) for d in clean]
        problem = mention_sets_differ(clean)
        if problem:
            raise EvaluationError(diagnostic("RC706", detail=problem))
    exact = Counts()
    exact_by_type: dict[str, Counts] = {}
    for d in clean:
        overall, per_type = exact_link_counts(d.key, d.response, d.key_types)
        exact = exact + overall
        for t, c in per_type.items():
            exact_by_type[t] = exact_by_type.get(t, Counts()) + c
    report = _score(clean, mode, exact)
    report.warnings = warnings
    if by_type and any(d.key_types for d in clean):
        universes = [type_universes(d) for d in clean]
        for t in sorted({t for u in universes for t in u}):
            sub = [restrict(d, u.get(t, set())) for d, u in zip(clean, universes)]
            report.by_type[t] = _score(sub, mode, exact_by_type.get(t, Counts()))
    return report
