"""GAP pronoun-name F1 with and without a dependency parse (issue 35), on the two halves of GAP's
development split: ``odd`` (positions 1, 3, ... in sorted file order; the rules were tuned there)
and ``even`` (checked only), and on the whole split.

    python benchmarks/bench_gap_parser.py --parser en_core_web_sm [--jobs 2]

Each half is resolved with ``rulecoref resolve --types auto`` (and ``--parser MODEL``) into a temp
folder and scored GAP's way (``rulecoref evaluate --gap``, ``rulecoref/evaluate/gap.py``). Prints
one JSON line per (set, variant): recall, precision, F1 overall, masculine and feminine.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("RULECOREF_SHARED", ROOT.parent / "shared"))


def halves(gap: Path, into: Path) -> dict[str, Path]:
    """Folders of symbolic links to the odd and the even half of ``gap`` (docs, concepts, chains)."""
    names = sorted(p.name for p in (gap / "docs").glob("*.txt"))
    out = {}
    for part, chosen in (("odd", names[0::2]), ("even", names[1::2])):
        out[part] = into / f"gap-{part}"
        for sub, suffix in (("docs", ""), ("concepts", ".con"), ("chains", ".chains")):
            (out[part] / sub).mkdir(parents=True)
            for name in chosen:
                if (gap / sub / f"{name}{suffix}").exists():
                    (out[part] / sub / f"{name}{suffix}").symlink_to(gap / sub / f"{name}{suffix}")
    return out


def score(gold: Path, system: Path) -> dict[str, float]:
    from rulecoref.evaluate.gap import score_gap

    report = score_gap(gold, system)
    return {f"{group}_{m}": round(getattr(getattr(report, group), m), 1)
            for group in ("overall", "masculine", "feminine") for m in ("recall", "precision", "f1")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gap", type=Path, default=SHARED / "corpora" / "gap")
    ap.add_argument("--parser", required=True, help="an installed spaCy pipeline (en_core_web_sm)")
    ap.add_argument("--jobs", default="1")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-gap-"))
    try:
        parts = halves(args.gap, tmp)
        for variant, extra in (("no parser", []), (f"--parser {args.parser}", ["--parser", args.parser])):
            every = tmp / f"all-{len(extra)}"
            every.mkdir()
            for part, data in parts.items():
                out = tmp / f"out-{part}-{len(extra)}"
                subprocess.run([sys.executable, "-m", "rulecoref", "resolve", str(data), "--types", "auto", "--out",
                                str(out), "-q", "--no-progress", "--jobs", args.jobs, *extra], check=True,
                               stdout=subprocess.DEVNULL)
                print(json.dumps({"set": part, "variant": variant, **score(data, out)}), flush=True)
                for f in out.glob("*.txt.chains"):
                    shutil.copy(f, every / f.name)
            print(json.dumps({"set": "all", "variant": variant, **score(args.gap, every)}), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
