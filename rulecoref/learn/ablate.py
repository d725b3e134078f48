"""What each pass of a rule file contributes on gold documents: the links it made, how many of them
join mentions of one gold chain (link precision), the gold links no other pass would have found,
the links a filter removed and how many of those were wrong, and the CoNLL F1 of the whole file
without the pass (leave-one-out; a pass that later passes need, such as ``people_roles``, is left
out together with them, since they cannot run without it).

Every number comes from running the normal engine: the full file once per document, then the file
without each pass.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..chains import clusters_from_pairs
from ..engine import Pipeline, Resolution
from ..passes import PassConfig, get_kind
from ..resources import Resources
from ..rules.compiler import RuleSet
from .corpus import GoldDoc
from .score import conll_f1, doc_counts, total

Progress = Callable[[int], None]


@dataclass
class PassReport:
    """One pass's row of the ablation table."""

    name: str
    kind: str
    role: str
    rule_file: str
    line: int
    links: int = 0  # links it proposed (a link of a pair is counted once per pass)
    correct: int = 0  # of those, joining two mentions of one gold chain
    kept: int = 0  # of those, not removed by a filter
    only_it: int = 0  # correct kept links whose mentions no other pass's kept links join
    removed: int = 0  # a filter's removals
    removed_wrong: int = 0  # of those, joining mentions of different gold entities
    left_out_with: list[str] = field(default_factory=list)  # passes that cannot run without it
    conll_f1_without: float | None = None

    @property
    def precision(self) -> float | None:
        if self.role == "filter":
            return self.removed_wrong / self.removed if self.removed else None
        return self.correct / self.links if self.links else None

    def to_dict(self, full_f1: float) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "role": self.role,
                               "rule_file": self.rule_file, "line": self.line}
        if self.role == "filter":
            out.update(removed=self.removed, removed_wrong=self.removed_wrong, precision=self.precision)
        else:
            out.update(links=self.links, correct=self.correct, precision=self.precision, kept=self.kept,
                       only_it=self.only_it)
        out["left_out_with"] = self.left_out_with
        out["conll_f1_without"] = self.conll_f1_without
        out["delta"] = None if self.conll_f1_without is None else self.conll_f1_without - full_f1
        return out


@dataclass
class AblationReport:
    rules: str
    documents: int
    conll_f1: float
    passes: list[PassReport]

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules, "documents": self.documents, "conll_f1": self.conll_f1,
                "passes": [p.to_dict(self.conll_f1) for p in self.passes]}


def without(ruleset: RuleSet, names: set[str]) -> RuleSet:
    """The rule set with the passes ``names`` left out (a shallow copy; the passes are shared)."""
    sub = copy.copy(ruleset)
    sub.passes = [p for p in ruleset.passes if p.name not in names]
    return sub


def dependents(passes: Sequence[PassConfig], name: str) -> list[str]:
    """The passes that cannot run once ``name`` is left out: those whose kind ``requires`` a kind no
    remaining earlier pass has (the compiler's RC133 rule), transitively."""
    gone = {name}
    seen: set[str] = set()
    out: list[str] = []
    for cfg in passes:
        if cfg.name in gone:
            continue
        cls = get_kind(cfg.kind)
        if cls is not None and any(k not in seen for k in cls.requires):
            gone.add(cfg.name)
            out.append(cfg.name)
            continue
        seen.add(cfg.kind)
    return out


def input_clusters(res: Resolution) -> list[list[int]]:
    """The resolution's clusters over the concepts of the document given to it (by their index there)."""
    if len(res.input_index) == len(res.doc.concepts):
        return res.clusters
    back = {new: old for old, new in enumerate(res.input_index)}
    return [kept for c in res.clusters if (kept := [back[m] for m in c if m in back])]


def corpus_f1(pipeline: Pipeline, docs: Sequence[GoldDoc], progress: Progress | None = None) -> float:
    """CoNLL F1 of a pipeline's chains on the gold documents (over the gold concepts: a mention the
    finder added is left out, as the learning commands build their pipelines with it off)."""
    rows = []
    for gd in docs:
        rows.append(doc_counts(gd.key(), input_clusters(pipeline.resolve(gd.doc))))
        if progress:
            progress(1)
    return conll_f1(total(rows))


def ablate(docs: Sequence[GoldDoc], ruleset: RuleSet, resources: Resources | None = None,
           progress: Progress | None = None) -> AblationReport:
    """The ablation table of ``ruleset`` on ``docs`` (``progress(n)`` after each document run)."""
    resources = resources or Resources()
    full = Pipeline(ruleset, resources, find_mentions="off")  # scored against the gold concepts
    reports = {cfg.name: PassReport(cfg.name, cfg.kind, getattr(get_kind(cfg.kind), "role", "link"), cfg.rule_file,
                                    cfg.line) for cfg in ruleset.passes}
    rows = []
    for gd in docs:
        res = full.resolve(gd.doc)
        _tally(gd, res, reports)
        rows.append(doc_counts(gd.key(), res.clusters))
        if progress:
            progress(1)
    full_f1 = conll_f1(total(rows))
    for cfg in ruleset.passes:
        rep = reports[cfg.name]
        rep.left_out_with = dependents(ruleset.passes, cfg.name)
        sub = Pipeline(without(ruleset, {cfg.name, *rep.left_out_with}), resources, settings=full.settings,
                       find_mentions="off")
        rep.conll_f1_without = corpus_f1(sub, docs, progress)
    return AblationReport(ruleset.path, len(docs), full_f1, list(reports.values()))


def _tally(gd: GoldDoc, res: Resolution, reports: dict[str, PassReport]) -> None:
    """Add one document's links and removals to the pass rows."""
    owner = gd.owner
    by_pass: dict[str, set[tuple[int, int]]] = {}
    for link in res.proposed:
        by_pass.setdefault(link.provenance.pass_name, set()).add(link.pair)
    for name, pairs in by_pass.items():
        rep = reports[name]
        rep.links += len(pairs)
        rep.correct += sum(owner[a] == owner[b] for a, b in pairs)
        rep.kept += sum(p in res.kept for p in pairs)
    for pair, removal in res.removed.items():
        rep = reports[removal.by.pass_name]
        rep.removed += 1
        rep.removed_wrong += owner[pair[0]] != owner[pair[1]]
    n = len(gd.doc.concepts)
    for name, pairs in by_pass.items():
        others = [p for p, links in res.kept.items() if any(l.provenance.pass_name != name for l in links)]
        label = np.empty(n, dtype=np.int64)
        for k, members in enumerate(clusters_from_pairs(n, others)):
            label[members] = k
        reports[name].only_it += sum(1 for a, b in pairs
                                     if (a, b) in res.kept and owner[a] == owner[b] and label[a] != label[b])


def format_ablation(report: AblationReport) -> str:
    """The ablation as a plain-text table (F1 in points, 0-100)."""
    w = max([len(p.name) for p in report.passes] + [4]) + 2
    k = max([len(p.kind) for p in report.passes] + [4]) + 2
    head = (f"{'pass':<{w}}{'kind':<{k}}{'links':>7}{'correct':>8}{'prec':>7}{'only it':>8}"
            f"{'F1 without':>11}{'delta':>8}")
    lines = [f"{report.rules}: {report.documents} documents, CoNLL F1 {100 * report.conll_f1:.2f}", "", head,
             "-" * len(head)]
    for p in report.passes:
        prec = "-" if p.precision is None else f"{100 * p.precision:.1f}"
        if p.role == "filter":
            counts = f"{p.removed:>7}{p.removed_wrong:>8}{prec:>7}{'':>8}"
        else:
            counts = f"{p.links:>7}{p.correct:>8}{prec:>7}{p.only_it:>8}"
        f1 = p.conll_f1_without
        delta = "" if f1 is None else f"{100 * (f1 - report.conll_f1):+.2f}"
        lines.append(f"{p.name:<{w}}{p.kind:<{k}}{counts}{'' if f1 is None else f'{100 * f1:.2f}':>11}{delta:>8}")
        if p.left_out_with:
            lines.append(f"{'':<4}(left out with it: {', '.join(p.left_out_with)})")
    lines += ["", "links/correct/prec: links the pass made and their share joining one gold chain; for a filter, "
              "links it removed and the share of those that were wrong. only it: correct links no other pass's "
              "links join. F1 without: the file without the pass (and the passes that need it)."]
    return "\n".join(lines) + "\n"
