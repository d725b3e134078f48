"""Resolve every (rule file, corpus) cell into one folder, to show that a change keeps outputs.

Each cell is ``rulecoref resolve DATA --rules rules/R.yaml --types auto --provenance`` written to
``OUT/R/CORPUS/``; ``i2b2-umls`` reads a UMLS database built from tests/fixtures/umls (so its UMLS
pass links something). Run it before and after a change and compare the folders:

    python benchmarks/snapshot_outputs.py /tmp/before          # on the old commit
    python benchmarks/snapshot_outputs.py /tmp/after           # on the new one
    python benchmarks/snapshot_outputs.py --compare /tmp/before /tmp/after

``--compare`` prints, per cell, how many ``.txt.chains`` files differ (and the ``.links.json`` files
with ``--links``) and exits 1 when any does.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("RULECOREF_SHARED", ROOT.parent / "shared"))
RULES = ("i2b2", "odie", "exact", "people", "i2b2-umls")
CORPORA = ("examples", "gum", "litbank", "craft", "mtsamples", "gap")


def corpus_path(name: str) -> Path:
    return ROOT / "resources" / "examples" if name == "examples" else SHARED / "corpora" / name


def umls_db(folder: Path) -> str:
    sys.path.insert(0, str(ROOT))
    from rulecoref.resources.umls import LoadOptions, load_mrconso, to_url

    path = folder / "umls.sqlite"
    if not path.exists():
        load_mrconso(ROOT / "tests" / "fixtures" / "umls" / "MRCONSO.RRF", to_url(str(path)), LoadOptions())
    return to_url(str(path))


def snapshot(out: Path, rules: list[str], corpora: list[str], jobs: int) -> None:
    exe = Path(sys.executable).parent / "rulecoref"
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        if "i2b2-umls" in rules:
            env["RULECOREF_UMLS_DB"] = umls_db(Path(tmp))
        for r in rules:
            for c in corpora:
                dest = out / r / c
                cmd = [str(exe), "resolve", str(corpus_path(c)), "--rules", str(ROOT / "rules" / f"{r}.yaml"),
                       "--types", "auto", "--provenance", "--out", str(dest), "--overwrite", "--no-progress",
                       "-q", "--jobs", str(jobs)]
                done = subprocess.run(cmd, env=env, capture_output=True, text=True)
                print(f"{r:10} {c:10} exit {done.returncode} {done.stdout.strip() or done.stderr.strip()[-200:]}")


def compare(a: Path, b: Path, links: bool) -> int:
    bad = 0
    suffixes = (".txt.chains", ".links.json") if links else (".txt.chains",)
    for cell in sorted(p.relative_to(a) for p in a.glob("*/*") if p.is_dir()):
        names = sorted({p.name for p in (a / cell).iterdir() if p.name.endswith(suffixes)}
                       | {p.name for p in (b / cell).iterdir() if p.name.endswith(suffixes)})
        differ = [n for n in names if not ((a / cell / n).is_file() and (b / cell / n).is_file()
                                           and filecmp.cmp(a / cell / n, b / cell / n, shallow=False))]
        bad += bool(differ)
        print(f"{str(cell):22} {len(names) - len(differ)}/{len(names)} identical"
              + (f"; differ: {', '.join(differ[:5])}{' ...' if len(differ) > 5 else ''}" if differ else ""))
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, nargs="+", help="the folder to write (or, with --compare, two folders)")
    ap.add_argument("--rules", default=",".join(RULES))
    ap.add_argument("--corpora", default=",".join(CORPORA))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--compare", action="store_true", help="compare two snapshot folders")
    ap.add_argument("--links", action="store_true", help="with --compare: the .links.json files too")
    args = ap.parse_args()
    if args.compare:
        if len(args.out) != 2:
            ap.error("--compare takes two folders")
        return compare(*args.out, links=args.links)
    snapshot(args.out[0], args.rules.split(","), args.corpora.split(","), args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
