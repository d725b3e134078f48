"""Rule induction (issue 24): base rules vs rules induced on top of them, on documents induction never saw.

For every corpus (default: gum, litbank, craft, mtsamples under ../shared/corpora) the documents
are split once by name: the third whose salted hash (``SALT``) is lowest are untouched, the rest are
given to ``rulecoref induce --base rules/i2b2.yaml --types auto`` (through a folder of symbolic
links, so induction cannot read the untouched documents). Induce splits its part again by name
(its own salt) into the documents rules are chosen on and those held back to decide whether a rule
is kept. The script prints one JSON line per corpus:

- internal split: CoNLL F1 of the base rules and of the learned file on induce's chosen-on and
  held-back parts (as the learned file's header records them);
- untouched split: CoNLL F1 of the base rules and of the learned file on the untouched documents,
  measured with the engine (the numbers ``rulecoref evaluate`` gives on the written chains);
- the learned passes, the CPU seconds (user + sys) and the peak memory (max RSS) of the induce
  process, read with ``os.wait4``.

    nice -n 10 python benchmarks/bench_induce.py [--corpus gum ...] [--out DIR] [--markdown]
        [--limit N]   # induce on the first N documents of the induce part only (the cost run)
        [--internal-only]  # development runs: the untouched third is not scored (choose settings on these)
    python benchmarks/bench_induce.py --headroom [--corpus craft]
        # what perfect rules could add: the CoNLL F1 with every wrong link of one base pass removed
        # (a perfect filter for it), and with every gold link added (perfect recall)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulecoref.engine import Pipeline  # noqa: E402
from rulecoref.learn.ablate import corpus_f1  # noqa: E402
from rulecoref.learn.corpus import load_gold, split_by_name  # noqa: E402
from rulecoref.resources import Resources  # noqa: E402
from rulecoref.rules.compiler import compile_rules  # noqa: E402

SALT = "rulecoref-bench-untouched"
BASE = ROOT / "rules" / "i2b2.yaml"


def link_folder(corpus: Path, names: list[str], folder: Path) -> None:
    """An i2b2 folder of symbolic links to the named documents of ``corpus``."""
    for sub, suffix in (("docs", ".txt"), ("concepts", ".txt.con"), ("chains", ".txt.chains")):
        (folder / sub).mkdir(parents=True, exist_ok=True)
        for name in names:
            src = corpus / sub / f"{name}{suffix}"
            if src.exists():
                (folder / sub / src.name).symlink_to(src.resolve())


def run_induce(folder: Path, out: Path, extra: list[str]) -> tuple[dict, float, float]:
    """Run ``rulecoref induce`` in a child process: its JSON summary, CPU seconds (user + sys) and
    peak memory (max RSS, MB), both of that child alone (``os.wait4``)."""
    cmd = [sys.executable, "-m", "rulecoref", "induce", str(folder), "--out", str(out), "--base", str(BASE),
           "--types", "auto", "--json", "--quiet", "--overwrite", *extra]
    with tempfile.TemporaryFile("w+") as so, tempfile.TemporaryFile("w+") as se:
        proc = subprocess.Popen(cmd, stdout=so, stderr=se, text=True, cwd=ROOT)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        so.seek(0)
        se.seek(0)
        if proc.returncode:
            raise SystemExit(f"induce failed ({proc.returncode}): {se.read()[-2000:]}")
        return json.loads(so.read()), usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def measure(corpus: Path, name: str, out_dir: Path, limit: int | None, extra: list[str],
            internal_only: bool = False) -> dict:
    docs, _ = load_gold([corpus], None)
    names = [gd.name for gd in docs]
    induce_names, untouched = split_by_name(names, 1 / 3, SALT)
    if limit:
        induce_names = induce_names[:limit]
    out = out_dir / f"{name}-learned.yaml"
    with tempfile.TemporaryDirectory(prefix=f"rulecoref-induce-{name}-") as tmp:
        folder = Path(tmp) / name
        link_folder(corpus, induce_names, folder)
        summary, cpu, peak_mb = run_induce(folder, out, extra)
    resources = Resources()
    held = [gd for gd in docs if gd.name in set(untouched)]
    if internal_only:  # a development run: the untouched third stays unscored
        base_f1 = learned_f1 = float("nan")
    else:
        base_f1 = corpus_f1(Pipeline(compile_rules(BASE), resources), held)
        learned_f1 = corpus_f1(Pipeline(compile_rules(out), resources), held)
    return {
        "corpus": name, "documents": len(names), "induce_documents": len(induce_names), "untouched": len(untouched),
        "internal": {"chosen_on": [round(100 * summary["base_f1"], 2), round(100 * summary["f1"], 2)],
                     "held_back": [round(100 * summary["held_base_f1"], 2), round(100 * summary["held_f1"], 2)],
                     "held_back_documents": len(summary["held_back"])},
        "untouched_f1": [round(100 * base_f1, 2), round(100 * learned_f1, 2)],
        "gain": round(100 * (learned_f1 - base_f1), 2),
        "passes": [p["name"] for p in summary["passes"]],
        "examples": summary["examples"],
        "cpu_seconds": round(cpu, 1), "peak_rss_mb": round(peak_mb, 1),
        "learned_file": str(out),
    }


def headroom(corpus: Path, name: str) -> dict:
    """CoNLL F1 of the base rules, without each pass's wrong links (an oracle filter for it), without
    all wrong links, and with every gold link added: where a learned rule could gain, and how much."""
    from rulecoref.chains import clusters_from_pairs
    from rulecoref.learn.score import conll_f1, doc_counts, total

    docs, _ = load_gold([corpus], None)
    pipe = Pipeline(compile_rules(BASE), Resources())
    runs = [(gd, pipe.resolve(gd.doc)) for gd in docs]

    def f1(keep, add_gold: bool = False) -> float:
        rows = []
        for gd, res in runs:
            pairs = [p for p, links in res.kept.items() if keep(gd, p, links)]
            if add_gold:
                pairs += [(c[k], c[k + 1]) for c in gd.gold for k in range(len(c) - 1)]
            rows.append(doc_counts(gd.key(), clusters_from_pairs(len(gd.doc.concepts), pairs)))
        return round(100 * conll_f1(total(rows)), 2)

    def right(gd, p) -> bool:
        return gd.owner[p[0]] == gd.owner[p[1]]

    names = sorted({link.provenance.pass_name for _, res in runs for links in res.kept.values() for link in links})
    out = {"corpus": name, "base": f1(lambda gd, p, l: True), "no_wrong_links": f1(lambda gd, p, l: right(gd, p)),
           "every_gold_link_added": f1(lambda gd, p, l: True, add_gold=True)}
    out["without_wrong_links_of"] = {
        n: f1(lambda gd, p, l, n=n: right(gd, p) or any(x.provenance.pass_name != n for x in l)) for n in names}
    return out


def markdown(rows: list[dict]) -> str:
    out = ["| corpus | induce docs (chosen-on + held back) | untouched docs | internal chosen-on: base -> learned | "
           "internal held back: base -> learned | **untouched: base -> learned** | gain | passes | CPU s | peak MB |",
           "|---|---:|---:|---|---|---|---:|---:|---:|---:|"]
    for r in rows:
        i = r["internal"]
        out.append(f"| {r['corpus']} | {r['induce_documents']} ({r['induce_documents'] - i['held_back_documents']} + "
                   f"{i['held_back_documents']}) | {r['untouched']} | {i['chosen_on'][0]:.2f} -> {i['chosen_on'][1]:.2f} | "
                   f"{i['held_back'][0]:.2f} -> {i['held_back'][1]:.2f} | **{r['untouched_f1'][0]:.2f} -> "
                   f"{r['untouched_f1'][1]:.2f}** | {r['gain']:+.2f} | {len(r['passes'])} | {r['cpu_seconds']:.0f} | "
                   f"{r['peak_rss_mb']:.0f} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    ap.add_argument("--corpus", action="append", default=None, help="gum, litbank, craft, mtsamples (repeatable)")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "rulecoref-bench-induce",
                    help="folder for the learned files")
    ap.add_argument("--limit", type=int, default=None, help="induce on the first N documents of the induce part")
    ap.add_argument("--markdown", action="store_true", help="also print a markdown table")
    ap.add_argument("--headroom", action="store_true", help="print what perfect filters and recall would give")
    ap.add_argument("--internal-only", action="store_true",
                    help="development runs: report the internal split only and leave the untouched third unscored")
    ap.add_argument("induce_args", nargs="*", help="extra arguments for rulecoref induce (after --)")
    args = ap.parse_args(argv)
    if args.headroom:
        for name in args.corpus or ["gum", "litbank", "craft", "mtsamples"]:
            print(json.dumps(headroom(args.corpora / name, name)), flush=True)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in args.corpus or ["gum", "litbank", "craft", "mtsamples"]:
        row = measure(args.corpora / name, name, args.out, args.limit, args.induce_args, args.internal_only)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.markdown:
        print(markdown(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
