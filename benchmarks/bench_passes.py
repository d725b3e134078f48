"""CPU milliseconds of each pass over a corpus, next to the whole run and a parse-only pass.

Each pass's ``propose``/``reject`` is timed inside full runs (read, resolve, format the .chains
text of every document); a pass's number is its minimum over ``--runs`` runs. The heap is collected
and frozen after one warm-up run, so the numbers show the passes' own work; the first pass also
pays for the document's flat index (built on first use). "other" is the full run minus the
parse-only run minus the passes: engine, chain building and formatting.

With ``--unseen``, each pass's cost of first analyses instead: in a fresh process the
even-numbered documents are resolved twice, then the odd-numbered ones once ("first") and again
``--runs`` times ("again", the minimum); the difference per new mention text (token sequence)
is what the pass spends analysing a mention it has not seen before.

    python benchmarks/bench_passes.py gum [--rules rules/i2b2.yaml] [--runs 5] [--unseen]
"""

from __future__ import annotations

import argparse
import collections
import gc
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_throughput import parse_all, resolve_all  # noqa: E402

from rulecoref import mentions  # noqa: E402
from rulecoref.engine import Pipeline  # noqa: E402
from rulecoref.io.layout import find_records  # noqa: E402
from rulecoref.resources import Resources  # noqa: E402
from rulecoref.rules.compiler import compile_rules  # noqa: E402


def pass_cpu(records, pipe: Pipeline) -> collections.Counter[str]:
    """CPU seconds per pass in one full run."""
    spent: collections.Counter[str] = collections.Counter()
    clock = time.process_time
    for p in pipe.passes:
        meth = "reject" if p.role == "filter" else "propose"
        orig = getattr(p, meth)

        def timed(doc, ctx, _orig=orig, _name=p.name):
            t0 = clock()
            out = list(_orig(doc, ctx))
            spent[_name] += clock() - t0
            return out

        setattr(p, meth, timed)
    try:
        resolve_all(records, pipe)
    finally:
        for p in pipe.passes:
            p.__dict__.pop("reject", None)
            p.__dict__.pop("propose", None)
    return spent


def first_analyses(records, pipe: Pipeline, runs: int) -> None:
    """Print each pass's CPU ms on documents not seen before and on the same documents again."""
    warm, timed = records[0::2], records[1::2]
    resolve_all(warm, pipe)
    resolve_all(warm, pipe)
    before = len(mentions.TABLE.ids), mentions.TABLE.generation
    first = pass_cpu(timed, pipe)
    if mentions.TABLE.generation != before[1]:
        raise SystemExit("the mention table started afresh during the run: new mentions unknown")
    new = len(mentions.TABLE.ids) - before[0]
    again: dict[str, float] = collections.defaultdict(lambda: float("inf"))
    for _ in range(runs):
        for name, secs in pass_cpu(timed, pipe).items():
            again[name] = min(again[name], secs)
    print(f"{len(timed)} documents not seen before, {new} new mention texts")
    print(f"{'pass':35s} {'first':>8s} {'again':>8s} {'us per new mention':>19s}")
    for name in sorted(first, key=lambda k: -(first[k] - again[k])):
        print(f"{name:35s} {first[name] * 1000:8.1f} {again[name] * 1000:8.1f} "
              f"{(first[name] - again[name]) / new * 1e6:19.2f}")
    total = sum(first.values()) - sum(again.values())
    print(f"sum of passes: first {sum(first.values()) * 1000:.1f} ms, again {sum(again.values()) * 1000:.1f} ms, "
          f"{total / new * 1e6:.1f} us per new mention")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", help="gum, craft, litbank (a folder under --corpora)")
    ap.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    ap.add_argument("--rules", type=Path, default=ROOT / "rules" / "i2b2.yaml")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--unseen", action="store_true", help="first analyses per pass (documents not seen before)")
    args = ap.parse_args(argv)
    pipe = Pipeline(compile_rules(args.rules), Resources())
    records, _ = find_records([args.corpora / args.corpus])
    records = [r for r in records if r.txt is not None]
    if args.unseen:
        first_analyses(records, pipe, args.runs)
        return 0
    resolve_all(records, pipe)
    gc.collect()
    gc.freeze()
    best: dict[str, float] = collections.defaultdict(lambda: float("inf"))
    clock = time.process_time
    for _ in range(args.runs):
        for name, secs in pass_cpu(records, pipe).items():
            best[name] = min(best[name], secs)
        t0 = clock()
        resolve_all(records, pipe)
        best["FULL"] = min(best["FULL"], clock() - t0)
        t0 = clock()
        parse_all(records)
        best["PARSE"] = min(best["PARSE"], clock() - t0)
    passes = sum(v for k, v in best.items() if k not in ("FULL", "PARSE"))
    for name, secs in sorted(best.items(), key=lambda kv: -kv[1]):
        print(f"{name:35s} {secs * 1000:8.1f} ms")
    print(f"sum of passes {passes * 1000:.1f} ms, other {(best['FULL'] - best['PARSE'] - passes) * 1000:.1f} ms, "
          f"{len(records) / best['FULL']:.1f} docs/s, full/parse {best['FULL'] / best['PARSE']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
