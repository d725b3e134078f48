"""Ablation of the main linker and filters (issue 4): what each pass of rules/i2b2.yaml adds.

For every corpus (default: gum, litbank, craft under ../shared/corpora) it scores, in CoNLL mode
(``rulecoref.evaluate.score_dirs``), the chains of
  (a) rules/exact.yaml (exact string match only),
  (b) the full rules/i2b2.yaml,
  (c) the full set minus each pass in turn,
and prints one JSON line per (corpus, configuration): CoNLL F1 and recall/precision/F1 of MUC,
B-cubed, CEAF-m, CEAF-e and BLANC. ``--markdown`` also prints the tables for benchmarks/RESULTS.md.

Documents are read once per corpus (with ``--types auto``: the corpora bring their own types) and
resolved in this process; chains are written to a temporary folder and scored against the gold.

    python benchmarks/bench_ablation.py [--corpora DIR] [--corpus gum --corpus craft] [--markdown]
        [--only full] [--set head-and-synonym.drop_adjectives=false]
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulecoref.engine import Pipeline  # noqa: E402
from rulecoref.evaluate import score_dirs  # noqa: E402
from rulecoref.io.i2b2 import format_chains, read_document  # noqa: E402
from rulecoref.io.layout import find_records  # noqa: E402
from rulecoref.io.outdir import write_atomic  # noqa: E402
from rulecoref.resources import Resources  # noqa: E402
from rulecoref.rules.compiler import RuleSet, compile_rules  # noqa: E402

METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")


def load_corpus(path: Path) -> list:
    records, _ = find_records([path])
    return [read_document(r.txt, r.con, name=r.name, types=None).document for r in records if r.txt is not None]


def configurations(full: RuleSet, exact: RuleSet) -> list[tuple[str, RuleSet]]:
    """exact, full, then full minus each pass of the rule file; the passes of an included file
    (people.yaml) depend on each other (people_roles), so an include is removed as a whole."""
    out = [("exact", exact), ("full", full)]
    top = str(Path(full.path).resolve())
    groups: dict[str, list] = {}
    for cfg in full.passes:
        label = f"-{cfg.name}" if str(Path(cfg.rule_file).resolve()) == top else f"-include:{Path(cfg.rule_file).name}"
        groups.setdefault(label, []).append(cfg)
    for label, cfgs in groups.items():
        sub = copy.copy(full)
        sub.passes = [p for p in full.passes if not any(p is c for c in cfgs)]
        out.append((label, sub))
    return out


def run(corpus: Path, name: str, label: str, ruleset: RuleSet, docs: list, resources: Resources,
        overrides: list[str]) -> dict:
    pipe = Pipeline(ruleset, resources)
    with tempfile.TemporaryDirectory(prefix="rulecoref-ablation-") as tmp:
        t0 = time.perf_counter()
        links = removed = 0
        for doc in docs:
            res = pipe.resolve(doc)
            links += len(res.kept)
            removed += len(res.removed)
            chains = res.chains()
            write_atomic(Path(tmp) / f"{doc.name}.txt.chains", format_chains(doc, [c for c, _ in chains], [t for _, t in chains]))
        seconds = time.perf_counter() - t0
        report = score_dirs(corpus, tmp, mode="conll")
    row: dict = {"corpus": name, "config": label, "overrides": overrides, "docs": len(docs), "links": links, "removed": removed,
                 "seconds": round(seconds, 2), "conll_f1": round(100 * report.conll_f1, 2)}
    for m in METRICS:
        s = report.metrics[m]
        row[m] = {"r": round(100 * s.recall, 2), "p": round(100 * s.precision, 2), "f1": round(100 * s.f1, 2)}
    return row


def markdown(rows: list[dict]) -> str:
    out = []
    for corpus in dict.fromkeys(r["corpus"] for r in rows):
        mine = [r for r in rows if r["corpus"] == corpus]
        full = next((r for r in mine if r["config"] == "full"), None)
        out.append(f"\n**{corpus}** ({mine[0]['docs']} documents)\n")
        out.append("| configuration | CoNLL F1 | Δ vs full | MUC R / P / F1 | B3 R / P / F1 | CEAF-m F1 | CEAF-e R / P / F1 | BLANC F1 | links |")
        out.append("|---|---:|---:|---|---|---:|---|---:|---:|")
        for r in mine:
            delta = f"{r['conll_f1'] - full['conll_f1']:+.2f}" if full and r is not full else ""

            def rpf(m: str, r: dict = r) -> str:
                return f"{r[m]['r']:.1f} / {r[m]['p']:.1f} / {r[m]['f1']:.2f}"

            out.append(f"| {r['config']} | {r['conll_f1']:.2f} | {delta} | {rpf('muc')} | {rpf('bcub')} | "
                       f"{r['ceafm']['f1']:.2f} | {rpf('ceafe')} | {r['blanc']['f1']:.2f} | {r['links']} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    ap.add_argument("--corpus", action="append", default=None, help="gum, litbank, craft (repeatable)")
    ap.add_argument("--rules", type=Path, default=ROOT / "rules" / "i2b2.yaml")
    ap.add_argument("--baseline", type=Path, default=ROOT / "rules" / "exact.yaml")
    ap.add_argument("--only", action="append", default=None, help="only these configurations (exact, full, -NAME)")
    ap.add_argument("--set", action="append", default=[], metavar="PASS.PARAM=VALUE",
                    help="override a scalar parameter of a pass of the full set (value read as YAML), "
                         "e.g. head-and-synonym.drop_adjectives=false; repeatable")
    ap.add_argument("--markdown", action="store_true", help="also print markdown tables")
    args = ap.parse_args(argv)
    resources = Resources()
    full, exact = compile_rules(args.rules), compile_rules(args.baseline)
    for item in args.set:
        target, _, value = item.partition("=")
        pass_name, _, param = target.rpartition(".")
        cfg = next((c for c in full.passes if c.name == pass_name), None)
        if cfg is None or param not in cfg.params:
            ap.error(f"--set {item}: no pass {pass_name!r} with a parameter {param!r}")
        cfg.params = {**cfg.params, param: yaml.safe_load(value)}
    rows = []
    for name in args.corpus or ["gum", "litbank", "craft"]:
        corpus = args.corpora / name
        docs = load_corpus(corpus)
        for label, rs in configurations(full, exact):
            if args.only and label not in args.only:
                continue
            row = run(corpus, name, label, rs, docs, resources, args.set)
            rows.append(row)
            print(json.dumps(row), flush=True)
    if args.markdown:
        print(markdown(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
