"""GAP-style scoring: precision, recall and F1 of "this pronoun and this name corefer".

GAP (Webster et al. 2018, TACL 6) asks one question per paragraph and per name: does the ambiguous
pronoun refer to name A, to name B? Its scorer (``gap_scorer.py`` of google-research-datasets/
gap-coreference) counts, over the two (pronoun, name) pairs of every example, a true positive when
gold and system both say "coreferent", a false positive when only the system does, a false negative
when only gold does (and when the system gave no answer for the example), a true negative
otherwise; P = tp/(tp+fp), R = tp/(tp+fn), F1 their harmonic mean, in percent. It scores the
masculine and the feminine examples (by the pronoun's word) separately and reports the bias, F1
feminine / F1 masculine.

Here the answers come from chains over the i2b2 concepts: a pair is "coreferent" when its pronoun
and its name are in one chain. The pairs of a document are every pronoun concept with every
concept that is no pronoun (a GAP document has one pronoun and two names: two pairs). A system
folder without a document's chains file gave no answer: its pairs are false negatives, as in
GAP's scorer (and warning RC703).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Diagnostic, EvaluationError, diagnostic
from ..io.formats import doc_name
from ..io.i2b2 import Span, read_chains
from .data import _chains_dir, _concepts_dir, read_concepts

#: GAP's pronoun genders (constants.PRONOUNS of its scorer)
MASCULINE_WORDS = frozenset({"he", "him", "his"})
FEMININE_WORDS = frozenset({"she", "her", "hers"})


@dataclass
class GapScores:
    """GAP's tallies for one group of examples (all, masculine or feminine)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    def add(self, gold: bool, system: bool | None) -> None:
        if system is None:  # no answer: GAP counts a false negative whatever gold says
            self.fn += 1
        elif gold and system:
            self.tp += 1
        elif system:
            self.fp += 1
        elif gold:
            self.fn += 1
        else:
            self.tn += 1

    @property
    def recall(self) -> float:
        d = self.tp + self.fn
        return 100.0 * self.tp / d if d else 0.0

    @property
    def precision(self) -> float:
        d = self.tp + self.fp
        return 100.0 * self.tp / d if d else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self) -> dict[str, float | int]:
        return {"recall": self.recall, "precision": self.precision, "f1": self.f1,
                "tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn}


@dataclass
class GapReport:
    overall: GapScores = field(default_factory=GapScores)
    masculine: GapScores = field(default_factory=GapScores)
    feminine: GapScores = field(default_factory=GapScores)
    documents: int = 0
    pairs: int = 0
    warnings: list[Diagnostic] = field(default_factory=list)

    @property
    def bias(self) -> float | None:
        """F1 feminine / F1 masculine (None when either is 0, GAP's '-')."""
        m, f = self.masculine.f1, self.feminine.f1
        return f / m if m and f else None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "mode": "gap", "documents": self.documents, "pairs": self.pairs,
            "overall": self.overall.to_dict(), "masculine": self.masculine.to_dict(),
            "feminine": self.feminine.to_dict(), "bias": self.bias,
        }
        if self.warnings:
            out["warnings"] = [w.to_dict() for w in self.warnings]
        return out


def format_gap(report: GapReport) -> str:
    """GAP's scorecard (its scorer prints one decimal)."""
    lines = ["mode gap: GAP scorer (Webster et al. 2018): P/R/F1 of coreferent (pronoun, name) pairs",
             f"{report.documents} documents, {report.pairs} pairs", ""]
    for name, s in (("Overall", report.overall), ("Masculine", report.masculine), ("Feminine", report.feminine)):
        lines.append(f"{name} recall: {s.recall:.1f} precision: {s.precision:.1f} f1: {s.f1:.1f}")
        lines.append(f"\t\ttp {s.tp}\tfp {s.fp}")
        lines.append(f"\t\tfn {s.fn}\ttn {s.tn}")
    bias = report.bias
    lines.append(f"Bias (F/M): {'-' if bias is None else f'{bias:.2f}'}")
    return "\n".join(lines) + "\n"


def _together(path: Path, encoding: str) -> dict[Span, int]:
    """Mention -> chain number of one chains file."""
    return {span: k for k, spans in enumerate(read_chains(path, encoding=encoding).chains) for span in spans}


def score_gap(gold_dir: str | Path, system_dir: str | Path, *, concepts_dir: str | Path | None = None,
              encoding: str = "utf-8", pronoun_types: tuple[str, ...] = ("pronoun",)) -> GapReport:
    """Score ``system_dir``'s chains against ``gold_dir`` GAP's way (see the module docstring)."""
    gold_dir, system_dir = Path(gold_dir), Path(system_dir)
    if not gold_dir.is_dir():
        raise EvaluationError(diagnostic("RC712", what="gold folder", path=str(gold_dir)))
    if not system_dir.is_dir():
        raise EvaluationError(diagnostic("RC712", what="system folder", path=str(system_dir)))
    cdir = _concepts_dir(gold_dir, Path(concepts_dir) if concepts_dir else None)
    con_files = sorted(cdir.glob("*.con"))
    if not con_files:
        raise EvaluationError(diagnostic("RC705", path=str(gold_dir)))
    gold_chains, sys_chains = _chains_dir(gold_dir), _chains_dir(system_dir)
    report = GapReport()
    for con in con_files:
        name = doc_name(con)
        concepts, warnings = read_concepts(con, encoding)
        report.warnings.extend(warnings)
        gold_path = gold_chains / f"{name}.txt.chains"
        gold = _together(gold_path, encoding) if gold_path.is_file() else {}
        sys_path = sys_chains / f"{name}.txt.chains"
        system = _together(sys_path, encoding) if sys_path.is_file() else None
        if system is None:
            report.warnings.append(diagnostic("RC703", file=str(sys_path), severity="warning", doc=name, side="system"))
        report.documents += 1
        pronouns = [c for c in concepts if c.type in pronoun_types]
        names = [c for c in concepts if c.type not in pronoun_types]
        for p in pronouns:
            word = p.text.lower()
            group = report.masculine if word in MASCULINE_WORDS else report.feminine if word in FEMININE_WORDS else None
            for n in names:
                g = p.span in gold and gold.get(p.span) == gold.get(n.span)
                s = None if system is None else (p.span in system and system.get(p.span) == system.get(n.span))
                report.pairs += 1
                report.overall.add(g, s)
                if group is not None:
                    group.add(g, s)
    return report
