"""The result of an evaluation: scores per metric (and per type), as a table or as JSON."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Diagnostic
from .core import Score

METRIC_ORDER = ("muc", "bcub", "ceafm", "ceafe", "blanc", "pairwise", "exact_links")
METRIC_NAMES = {
    "muc": "MUC",
    "bcub": "B-cubed",
    "ceafm": "CEAF-m",
    "ceafe": "CEAF-e",
    "blanc": "BLANC",
    "pairwise": "pairwise links",
    "exact_links": "exact links",
}
MODE_TITLES = {
    "conll": "CoNLL-2012 reference scorer v8.01 definitions, counts summed over documents",
    "i2b2": "official i2b2/VA 2011 scorer definitions, pooled corpus, 3-decimal rounding",
}


@dataclass
class Report:
    """Scores of one evaluation.

    ``metrics`` keys: muc, bcub, ceafm, ceafe, blanc, pairwise, exact_links. ``conll_f1`` is the
    mean F1 of MUC, B3 and CEAF-e (in i2b2 mode: of the i2b2 variants, unrounded, i.e. the value
    that ``i2b2_overall`` rounds). ``by_type`` holds one Report per gold type with ``--by-type``.
    """

    mode: str
    metrics: dict[str, Score]
    conll_f1: float
    i2b2_overall: float | None = None
    by_type: dict[str, Report] = field(default_factory=dict)
    summary: dict[str, int] = field(default_factory=dict)
    official_xml: dict[str, object] | None = None
    warnings: list[Diagnostic] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "mode": self.mode,
            "summary": dict(self.summary),
            "metrics": {name: self.metrics[name].to_dict() for name in METRIC_ORDER if name in self.metrics},
            "conll_f1": self.conll_f1,
            "i2b2_overall": self.i2b2_overall,
        }
        if self.official_xml is not None:
            out["official_xml"] = self.official_xml
        if self.by_type:
            out["by_type"] = {t: r.to_dict() for t, r in self.by_type.items()}
        if self.warnings:
            out["warnings"] = [w.to_dict() for w in self.warnings]
        return out


def _fmt(x: float) -> str:
    return f"{x:.3f}"


def format_table(report: Report) -> str:
    """A plain-text table: one row per metric, then (with --by-type) F1 per type."""
    s = report.summary
    lines = [
        f"mode {report.mode}: {MODE_TITLES.get(report.mode, report.mode)}",
        f"{s.get('documents', 0)} documents, {s.get('key_mentions', 0)} key mentions in {s.get('key_entities', 0)} entities "
        f"({s.get('key_chains', 0)} chains), {s.get('response_mentions', 0)} response mentions in "
        f"{s.get('response_entities', 0)} entities ({s.get('response_chains', 0)} chains)",
        "",
        f"{'metric':<16}{'recall':>9}{'precision':>11}{'F1':>9}",
        "-" * 45,
    ]
    for name in METRIC_ORDER:
        if name in report.metrics:
            m = report.metrics[name]
            lines.append(f"{METRIC_NAMES[name]:<16}{_fmt(m.recall):>9}{_fmt(m.precision):>11}{_fmt(m.f1):>9}")
    lines.append("-" * 45)
    if report.mode == "i2b2":
        lines.append(f"{'i2b2 overall':<16}{'':>9}{'':>11}{_fmt(report.i2b2_overall or 0.0):>9}"
                     "   mean F of MUC, B3, CEAF-e; BLANC excluded")
        lines.append("note: the official XML lists MUC precision under 'recall' and vice versa; this table does not.")
    else:
        lines.append(f"{'CoNLL F1':<16}{'':>9}{'':>11}{_fmt(report.conll_f1):>9}   mean F of MUC, B3, CEAF-e")
    if report.by_type:
        lines += ["", "by gold type (F1; exact links R/P/F):", ""]
        head = f"{'type':<14}{'mentions':>9}" + "".join(f"{METRIC_NAMES[n]:>9}" for n in ("muc", "bcub", "ceafe", "blanc"))
        head += f"{'avg':>8}{'exact R':>9}{'P':>7}{'F':>7}"
        lines += [head, "-" * len(head)]
        for t, r in report.by_type.items():
            row = f"{t:<14}{r.summary.get('key_mentions', 0):>9}"
            row += "".join(f"{_fmt(r.metrics[n].f1):>9}" for n in ("muc", "bcub", "ceafe", "blanc"))
            avg = r.i2b2_overall if report.mode == "i2b2" and r.i2b2_overall is not None else r.conll_f1
            ex = r.metrics["exact_links"]
            row += f"{_fmt(avg):>8}{_fmt(ex.recall):>9}{_fmt(ex.precision):>7}{_fmt(ex.f1):>7}"
            lines.append(row)
    return "\n".join(lines) + "\n"
