"""Decode time of the Bell-tree decoder on one document against the rules alone (issue 14:
at most 20x the rules-only time of a CRAFT-size document, about 1,260 mentions, beam 8).

The best of ``--repeat`` alternating runs, CPU seconds, after one warm-up run of each. One JSON line.

    python benchmarks/bench_belltree_decode.py --model M.json [--rules rules/belltree.yaml]
        [--corpus craft --doc 17696610] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulecoref.engine import Pipeline  # noqa: E402
from rulecoref.io.i2b2 import read_document  # noqa: E402
from rulecoref.io.layout import find_records  # noqa: E402
from rulecoref.resources import Resources  # noqa: E402
from rulecoref.rules.compiler import compile_rules  # noqa: E402


def cpu(pipe: Pipeline, doc) -> float:
    t0 = time.process_time()
    pipe.resolve(doc)
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="a model from rulecoref train")
    ap.add_argument("--rules", default=str(ROOT / "rules" / "belltree.yaml"), help="a rule file with a belltree decoder")
    ap.add_argument("--corpus", default="craft")
    ap.add_argument("--doc", default="17696610", help="record name (default: a CRAFT document of 1,253 mentions)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    resources = Resources()
    rules = Pipeline(compile_rules(ROOT / "rules" / "i2b2.yaml"), resources)
    decoder = Pipeline.from_file(args.rules, resources, model=args.model)
    folder = ROOT.parent / "shared" / "corpora" / args.corpus
    rec = next(r for r in find_records([folder])[0] if r.name == args.doc)
    doc = read_document(rec.txt, rec.con, name=rec.name).document
    cpu(rules, doc), cpu(decoder, doc)
    runs = [(cpu(rules, doc), cpu(decoder, doc)) for _ in range(args.repeat)]
    r, d = min(a for a, _ in runs), min(b for _, b in runs)
    print(json.dumps({"document": doc.name, "mentions": len(doc.concepts), "rules": Path(args.rules).name,
                      "model": Path(args.model).name, "rules_only_ms": round(1000 * r), "decoder_ms": round(1000 * d),
                      "ratio": round(d / r, 1)}))


if __name__ == "__main__":
    main()
