"""Decode time of the Bell-tree decoder vs document length, with and without the candidate window.

Synthetic documents (fixed random seed): 4 mentions per sentence; each mention starts a new entity
(p = 0.35) or refers to an entity mentioned in the last 5 sentences (p = 0.9 of the rest) or to any
earlier one; later mentions are "the <noun>" or a pronoun. A mention-pair model is trained on a
separate 2,000-mention synthetic document first. For each size (100, 1,000, 5,000, 10,000
mentions) and beam (1, 8, 32) the decoder runs with window 10 and window 0 (all entities).
A configuration whose predicted time (from the previous size, exponent 2 without the window, 1.1
with it) exceeds --budget seconds is skipped and reported as such. Fitted exponent: least squares of log time on log size.

    python benchmarks/bench_belltree_scaling.py [--sizes 100,1000,5000,10000] [--beams 1,8,32] [--budget 300]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulecoref.belltree.decoder import BellTreeDecoder  # noqa: E402
from rulecoref.belltree.experiment import score  # noqa: E402
from rulecoref.belltree.train import TrainingDoc, TrainSettings, train_documents  # noqa: E402
from rulecoref.document import Concept, Document  # noqa: E402
from rulecoref.engine import Pipeline  # noqa: E402
from rulecoref.resources import Resources  # noqa: E402
from rulecoref.rules.compiler import compile_rules  # noqa: E402

NOUNS = ["widget", "sample", "protein", "gene", "cell", "mouse", "tumor", "device", "patient", "region", "signal", "enzyme"]
ADJS = ["small", "red", "novel", "mutant", "large", "first", "second", "mature"]
PRONOUNS = ["it", "its", "they", "this"]


def synthetic(n: int, seed: int) -> tuple[Document, list[list[int]]]:
    rng = random.Random(seed)
    lines: list[list[str]] = []
    raw: list[tuple[int, int, int, str, int]] = []  # line, start, end, type, entity
    last_seen: dict[int, int] = {}
    surface: dict[int, str] = {}
    n_ent = 0
    while len(raw) < n:
        line_no = len(lines) + 1
        toks: list[str] = []
        for _ in range(min(4, n - len(raw))):
            recent = [e for e, s in last_seen.items() if s >= line_no - 5]
            if not last_seen or rng.random() < 0.35:
                ent = n_ent
                n_ent += 1
                surface[ent] = f"{NOUNS[ent % len(NOUNS)]}{ent // len(NOUNS)}"
                words = ["the", rng.choice(ADJS), surface[ent]]
                ctype = "noun_phrase"
            else:
                ent = rng.choice(recent) if recent and rng.random() < 0.9 else rng.choice(list(last_seen))
                if rng.random() < 0.2:
                    words, ctype = [rng.choice(PRONOUNS)], "pronoun"
                else:
                    words, ctype = ["the", surface[ent]], "noun_phrase"
            toks.extend(rng.choice(["saw", "with", "and", "near"]).split())
            start = len(toks)
            toks.extend(words)
            raw.append((line_no, start, len(toks) - 1, ctype, ent))
            last_seen[ent] = line_no
        toks.append(".")
        lines.append(toks)
    concepts = [Concept(i, " ".join(lines[l - 1][s : e + 1]).lower(), t, (l, s), (l, e)) for i, (l, s, e, t, _) in enumerate(raw)]
    chains: dict[int, list[int]] = {}
    for i, r in enumerate(raw):
        chains.setdefault(r[4], []).append(i)
    return Document(f"synthetic-{n}", lines, concepts), [c for c in chains.values() if len(c) > 1]


def fit_exponent(points: list[tuple[int, float]]) -> float | None:
    pts = [(math.log(n), math.log(t)) for n, t in points if t > 0]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    den = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / den if den else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100,1000,5000,10000")
    ap.add_argument("--beams", default="1,8,32")
    ap.add_argument("--windows", default="10,0")
    ap.add_argument("--budget", type=float, default=300.0, help="skip a run predicted to take longer (seconds)")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    beams = [int(x) for x in args.beams.split(",")]
    windows = [int(x) for x in args.windows.split(",")]

    resources = Resources()
    alone = compile_rules(ROOT / "rules" / "belltree.yaml", decoder_overrides={"model": "unused"})
    pipeline = Pipeline(dataclasses.replace(alone, decoder=None), resources)
    doc, gold = synthetic(2000, seed=1)
    model = train_documents(pipeline, [TrainingDoc(doc, gold)], TrainSettings(kind="mention-pair", window=10))
    path = Path(tempfile.mkdtemp(prefix="bt-scale-")) / "model.json"
    model.save(path)
    docs = {n: synthetic(n, seed=100 + n) for n in sizes}
    for window in windows:
        for beam in beams:
            dec = Pipeline(dataclasses.replace(alone, decoder=None), resources)
            dec.decoder = BellTreeDecoder({"model": str(path), "beam": beam, "alpha": 0.5, "window": window,
                                           "max_members": None, "type_check": None}, resources, alone)
            points: list[tuple[int, float]] = []
            for n in sizes:
                if points:
                    pn, pt = points[-1]
                    predicted = pt * (n / pn) ** (2 if window == 0 else 1.1)
                    if predicted > args.budget:
                        print(json.dumps({"mentions": n, "beam": beam, "window": window, "skipped": True,
                                          "predicted_seconds": round(predicted, 1)}), flush=True)
                        continue
                d, g = docs[n]
                t = time.perf_counter()
                pred = dec.resolve(d).clusters
                secs = time.perf_counter() - t
                points.append((n, secs))
                f1 = score([d], [g], [pred]).conll_f1
                print(json.dumps({"mentions": n, "beam": beam, "window": window, "seconds": round(secs, 3),
                                  "ms_per_mention": round(1000 * secs / n, 3), "conll_f1": round(100 * f1, 2)}), flush=True)
            print(json.dumps({"beam": beam, "window": window, "fitted_exponent": fit_exponent(points),
                              "sizes_used": [n for n, _ in points]}), flush=True)


if __name__ == "__main__":
    main()
