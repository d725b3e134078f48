"""Start-up of ``rulecoref resolve``: CPU seconds of a whole process, and what it imports.

Runs ``rulecoref resolve resources/examples --out TMP --overwrite -q --no-progress`` (the README's
first command: four small notes, the default rules) ``--runs`` times and prints the CPU seconds
(user+sys of each child) and their median; then once more under ``python -X importtime`` and lists
the heavy packages it imported (issue 26: none of nltk, scipy, numpy, sklearn, sqlalchemy, spacy,
pyspark, unless the rule file needs them) and the slowest top-level imports. One JSON line.

    python benchmarks/bench_startup.py
    python benchmarks/bench_startup.py --rules rules/exact.yaml --runs 5
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("nltk", "scipy", "numpy", "sklearn", "sqlalchemy", "spacy", "pyspark")


def command(out: Path, rules: str) -> list[str]:
    return ["-m", "rulecoref", "resolve", str(ROOT / "resources" / "examples"), "--rules", rules, "--out", str(out),
            "--overwrite", "-q", "--no-progress"]


def cpu_of(args: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, *args], check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def imports(args: list[str]) -> list[tuple[str, int]]:
    """(top-level package, cumulative microseconds) of every import ``-X importtime`` reports."""
    done = subprocess.run([sys.executable, "-X", "importtime", *args], check=True, capture_output=True, text=True)
    out = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = (part.strip() for part in line[len("import time:"):].split("|"))
            if cumulative.isdigit():
                out.append((name, int(cumulative)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default=str(ROOT / "rules" / "i2b2.yaml"))
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        times = [cpu_of(command(Path(tmp) / "out", args.rules)) for _ in range(args.runs)]
        found = imports(command(Path(tmp) / "out", args.rules))
    heavy = sorted({name.split(".")[0] for name, _ in found if name.split(".")[0] in HEAVY})
    slowest = sorted(((n, us) for n, us in found if "." not in n), key=lambda x: -x[1])[:8]
    print(json.dumps({"rules": Path(args.rules).name, "cpu_s": [round(t, 2) for t in times],
                      "median_cpu_s": round(statistics.median(times), 2), "heavy_imports": heavy,
                      "slowest_imports_ms": {n: round(us / 1000, 1) for n, us in slowest}}))


if __name__ == "__main__":
    main()
