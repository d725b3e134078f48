"""Rules alone vs the Bell-tree decoder (both models) vs hybrid, on half of a corpus each way (issue 7).

Split: the corpus folder's records sorted by name; even positions (0, 2, ...) train, odd positions
test. Both halves are also written as symlinked i2b2 folders under --work so the same runs can be
repeated with the CLI (``rulecoref train`` / ``resolve`` / ``evaluate``). Scores: CoNLL F1 (mean of
MUC, B3 and CEAF-e F1, rulecoref.evaluate in conll mode), singletons included.

    python benchmarks/bench_belltree_corpora.py --corpus gum [--sweep] [--window-cost]

Prints one JSON line per system (and per alpha with --sweep, per window with --window-cost).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulecoref.belltree.decoder import BellTreeDecoder  # noqa: E402
from rulecoref.belltree.experiment import score  # noqa: E402
from rulecoref.belltree.train import TrainSettings, load_gold, train_documents  # noqa: E402
from rulecoref.chains import clusters_from_pairs  # noqa: E402
from rulecoref.engine import Pipeline  # noqa: E402
from rulecoref.io.layout import find_records  # noqa: E402
from rulecoref.resources import Resources  # noqa: E402
from rulecoref.rules.compiler import compile_rules  # noqa: E402

CORPORA = Path("/work/shared/corpora")


def link_split(records, work: Path) -> None:
    """Symlinked i2b2 folders work/train and work/test (the CLI sees the same split)."""
    for half, recs in (("train", records[0::2]), ("test", records[1::2])):
        for sub in ("docs", "concepts", "chains"):
            (work / half / sub).mkdir(parents=True, exist_ok=True)
        for r in recs:
            for src, sub in ((r.txt, "docs"), (r.con, "concepts"), (r.chains, "chains")):
                if src is not None:
                    dst = work / half / sub / src.name
                    if not dst.exists():
                        dst.symlink_to(src)


def emit(**row) -> None:
    print(json.dumps(row), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", required=True, help="gum, litbank, craft or a path to an i2b2 folder")
    ap.add_argument("--work", type=Path, default=None, help="folder for the split and the models (default /tmp/bt-CORPUS)")
    ap.add_argument("--alpha", type=float, default=0.5)
    ap.add_argument("--beam", type=int, default=8)
    ap.add_argument("--window", type=int, default=10)
    ap.add_argument("--models", default="mp,em,hmp,hem", help="mp, em (Bell tree alone), hmp, hem (hybrid)")
    ap.add_argument("--sweep", action="store_true", help="also decode at log alpha -2.5..0 (step 0.5)")
    ap.add_argument("--window-cost", action="store_true", help="also decode the mention-pair models with window 0")
    args = ap.parse_args()

    folder = Path(args.corpus) if "/" in args.corpus else CORPORA / args.corpus
    name = folder.name
    work = args.work or Path(f"/tmp/bt-{name}")
    records, _ = find_records([folder])
    records = sorted(records, key=lambda r: r.name)
    link_split(records, work)
    resources = Resources()
    ruleset = dataclasses.replace(compile_rules(ROOT / "rules" / "i2b2.yaml"), decoder=None)
    pipeline = Pipeline(ruleset, resources)

    t0 = time.perf_counter()
    train_docs = [load_gold(r)[0] for r in records[0::2]]
    test_docs = [load_gold(r)[0] for r in records[1::2]]
    t_rules = time.perf_counter()
    for td in train_docs + test_docs:
        td.resolution = pipeline.run_passes(td.doc)
    t_rules = time.perf_counter() - t_rules
    docs = [td.doc for td in test_docs]
    gold = [td.gold for td in test_docs]
    common = {"corpus": name, "train_docs": len(train_docs), "test_docs": len(test_docs),
              "test_mentions": sum(len(d.concepts) for d in docs), "split": "sorted names, even=train, odd=test"}

    def report(system: str, preds, seconds: float, **extra) -> float:
        rep = score(docs, gold, preds)
        emit(**common, system=system, conll_f1=round(100 * rep.conll_f1, 2),
             muc=round(100 * rep.metrics["muc"].f1, 2), b3=round(100 * rep.metrics["bcub"].f1, 2),
             ceafe=round(100 * rep.metrics["ceafe"].f1, 2), seconds=round(seconds, 1), **extra)
        return rep.conll_f1

    report("rules (i2b2.yaml, union-find)",
           [clusters_from_pairs(len(td.doc.concepts), td.resolution.kept) for td in test_docs], t_rules,
           note="passes run on train+test docs")
    hybrid_rules = compile_rules(ROOT / "rules" / "hybrid.yaml", decoder_overrides={"model": "unused"})
    alone_rules = compile_rules(ROOT / "rules" / "belltree.yaml", decoder_overrides={"model": "unused"})
    specs = {"mp": ("mention-pair", False), "em": ("entity-mention", False),
             "hmp": ("mention-pair", True), "hem": ("entity-mention", True)}
    for key in [k.strip() for k in args.models.split(",") if k.strip()]:
        kind, hybrid = specs[key]
        t = time.perf_counter()
        model = train_documents(pipeline, train_docs, TrainSettings(kind=kind, window=args.window), hybrid=hybrid)
        path = work / f"{key}.json"
        model.save(path)
        t_train = time.perf_counter() - t
        rs = hybrid_rules if hybrid else alone_rules
        params = {**rs.decoder.params, "model": str(path), "beam": args.beam, "alpha": args.alpha, "window": args.window}
        dec = BellTreeDecoder(params, resources, rs)
        label = ("hybrid " if hybrid else "Bell tree ") + kind
        t = time.perf_counter()
        preds = [dec.decode(td.doc, td.resolution) for td in test_docs]
        report(label, preds, time.perf_counter() - t, train_seconds=round(t_train, 1), events=model.stats["events"],
               features=model.stats["features"], alpha=args.alpha, beam=args.beam, window=args.window)
        if args.sweep:
            for la in [-2.5, -2.0, -1.5, -1.0, -0.5, 0.0]:
                d2 = dec.with_settings(alpha=math.exp(la))
                t = time.perf_counter()
                preds = [d2.decode(td.doc, td.resolution) for td in test_docs]
                report(label, preds, time.perf_counter() - t, sweep=True, log_alpha=la, beam=args.beam)
        if args.window_cost and kind == "mention-pair":
            d2 = dec.with_settings(window=0)
            t = time.perf_counter()
            preds = [d2.decode(td.doc, td.resolution) for td in test_docs]
            report(label, preds, time.perf_counter() - t, window=0, alpha=args.alpha, beam=args.beam, window_cost=True)
    emit(**common, system="total", seconds=round(time.perf_counter() - t0, 1))


if __name__ == "__main__":
    main()
