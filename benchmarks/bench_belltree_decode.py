"""Decode time of the Bell-tree decoder on one document against the rules alone (issue 26: hybrid
decoding of a CRAFT-size document, about 1,250 mentions, at beam 8 at most 10x the rules-only time).

Alternating runs of the rules alone (rules/i2b2.yaml) and of the decoder's rule file, whole
``Pipeline.resolve`` each, after one warm-up run of each; then the decoder's search alone
(``decode`` on a resolution made beforehand). CPU seconds, medians of ``--repeat`` runs. One JSON
line: ``rules_only_ms``, ``decoder_ms`` (rules + decoding, what ``resolve`` pays), ``decode_ms``
(the search alone), ``ratio`` = decoder / rules only, and ``ratio_if_rules_2.5x``, the ratio if
everything but the search took 1/2.5 of its time: (decoder - decode + 2.5 x decode) / rules only.

    python benchmarks/bench_belltree_decode.py --model M.json [--rules rules/hybrid.yaml]
        [--corpus craft --doc 17696610] [--repeat 5] [--profile 25]

``--profile N`` then prints (to stderr) the N functions of one more search with the most own
time under cProfile, whose overhead inflates small functions: read it for shares, not times.
"""

from __future__ import annotations

import argparse
import json
import statistics
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

SPEEDUP = 2.5


def cpu(fn, *args) -> float:
    t0 = time.process_time()
    fn(*args)
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="a model from rulecoref train")
    ap.add_argument("--rules", default=str(ROOT / "rules" / "belltree.yaml"), help="a rule file with a belltree decoder")
    ap.add_argument("--corpus", default="craft")
    ap.add_argument("--doc", default="17696610", help="record name (default: a CRAFT document of 1,253 mentions)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--profile", type=int, default=0, metavar="N", help="print the N costliest functions of a search")
    args = ap.parse_args()
    resources = Resources()
    rules = Pipeline(compile_rules(ROOT / "rules" / "i2b2.yaml"), resources)
    decoder = Pipeline.from_file(args.rules, resources, model=args.model)
    folder = ROOT.parent / "shared" / "corpora" / args.corpus
    rec = next(r for r in find_records([folder])[0] if r.name == args.doc)
    doc = read_document(rec.txt, rec.con, name=rec.name).document
    cpu(rules.resolve, doc), cpu(decoder.resolve, doc)
    runs = [(cpu(rules.resolve, doc), cpu(decoder.resolve, doc)) for _ in range(args.repeat)]
    resolution = decoder.run_passes(doc)
    search = [cpu(decoder.decoder.decode, doc, resolution) for _ in range(args.repeat)]
    r = statistics.median(a for a, _ in runs)
    d = statistics.median(b for _, b in runs)
    s = statistics.median(search)
    print(json.dumps({"document": doc.name, "mentions": len(doc.concepts), "rules": Path(args.rules).name,
                      "model": Path(args.model).name, "rules_only_ms": round(1000 * r), "decoder_ms": round(1000 * d),
                      "decode_ms": round(1000 * s), "ratio": round(d / r, 1),
                      f"ratio_if_rules_{SPEEDUP}x": round((d - s + SPEEDUP * s) / r, 1)}))
    if args.profile:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.runcall(decoder.decoder.decode, doc, resolution)
        pstats.Stats(profile, stream=sys.stderr).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
