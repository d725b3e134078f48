"""Time ``rulecoref evaluate`` on a corpus (default: CRAFT dev, ~1,260 mentions per document).

Systems scored (each written to a temporary folder, never into the corpus):
  singletons  an empty system folder: every concept is a singleton (the issue's benchmark);
  gold        the gold chains themselves (every score must be 1);
  perturbed   every gold chain split in two at a seeded random point and every 4th chain's second
              half merged into the next chain: many multi-entity CEAF components (the hard case
              for the alignment), deterministic for a given --seed.

For each (system, mode) it prints one JSON line: the in-process load and scoring times and the
wall time of the command itself (``python -m rulecoref evaluate CORPUS SYSTEM --mode M``).

    python benchmarks/bench_evaluate.py [/work/shared/corpora/craft] [--systems singletons,perturbed]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulecoref.evaluate import score_partitions  # noqa: E402
from rulecoref.evaluate.data import load_i2b2  # noqa: E402
from rulecoref.io.i2b2 import read_chains  # noqa: E402


def write_system(corpus: Path, out: Path, kind: str, seed: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    if kind == "singletons":
        return
    rng = random.Random(seed)
    for path in sorted((corpus / "chains").glob("*.txt.chains")):
        cs = read_chains(path)
        chains = [list(c) for c in cs.chains]
        types = list(cs.types)
        if kind == "perturbed":
            pieces, piece_types = [], []
            for chain, t in zip(chains, types):
                cut = rng.randint(1, len(chain) - 1)
                pieces += [chain[:cut], chain[cut:]]
                piece_types += [t, t]
            merged, merged_types = [], []
            i = 0
            while i < len(pieces):
                if i % 8 == 1 and i + 1 < len(pieces):  # every 4th chain: its 2nd half joins the next chain
                    merged.append(pieces[i] + pieces[i + 1])
                    merged_types.append(piece_types[i])
                    i += 2
                    continue
                merged.append(pieces[i])
                merged_types.append(piece_types[i])
                i += 1
            chains, types = merged, merged_types
        lines = []
        for chain, t in zip(chains, types):
            if len(chain) < 2:
                continue
            mentions = "||".join(f'c="{cs.texts[s]}" {s[0]}:{s[1]} {s[2]}:{s[3]}' for s in sorted(chain))
            lines.append(f'{mentions}||t="coref {t}"\n')
        (out / path.name).write_text("".join(lines), encoding="utf-8")


def run(corpus: Path, system: Path, kind: str, mode: str, by_type: bool) -> dict:
    t0 = time.perf_counter()
    loaded = load_i2b2(corpus, system)
    t1 = time.perf_counter()
    report = score_partitions(loaded.documents, mode=mode, by_type=by_type)
    t2 = time.perf_counter()
    cmd = [sys.executable, "-m", "rulecoref", "evaluate", str(corpus), str(system), "--mode", mode, "--quiet"]
    if by_type:
        cmd.append("--by-type")
    t3 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    t4 = time.perf_counter()
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
    return {
        "corpus": corpus.name,
        "system": kind,
        "mode": mode,
        "by_type": by_type,
        "documents": report.summary["documents"],
        "mentions": report.summary["key_mentions"],
        "key_entities": report.summary["key_entities"],
        "response_entities": report.summary["response_entities"],
        "load_s": round(t1 - t0, 3),
        "score_s": round(t2 - t1, 3),
        "cli_wall_s": round(t4 - t3, 3),
        "conll_f1": round(report.conll_f1, 4),
        "i2b2_overall": report.i2b2_overall,
        "muc_f1": round(report.metrics["muc"].f1, 4),
        "bcub_f1": round(report.metrics["bcub"].f1, 4),
        "ceafe_f1": round(report.metrics["ceafe"].f1, 4),
        "blanc_f1": round(report.metrics["blanc"].f1, 4),
        "warnings": len(report.warnings),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("corpus", nargs="?", type=Path, default=Path("/work/shared/corpora/craft"))
    p.add_argument("--systems", default="singletons,perturbed", help="comma list of singletons, gold, perturbed")
    p.add_argument("--modes", default="conll,i2b2")
    p.add_argument("--by-type", action="store_true")
    p.add_argument("--seed", type=int, default=13)
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-evaluate-") as tmp:
        for kind in args.systems.split(","):
            system = Path(tmp) / kind
            write_system(args.corpus, system, kind, args.seed)
            for mode in args.modes.split(","):
                print(json.dumps(run(args.corpus, system, kind, mode, args.by_type)), flush=True)


if __name__ == "__main__":
    main()
