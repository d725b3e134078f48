"""Throughput of full resolution next to a parse-only pass, one core, WordNet loaded.

For a corpus (gum or craft under ../shared/corpora), in a fresh process with WordNet loaded, the
even-numbered records are resolved (twice) to warm the word-level memo of ``Resources`` with what
documents share, then it times, on the odd-numbered records:
  unseen  reading and resolving each once: documents the process has not seen, as in a long batch
          of new notes (their new words are looked up in WordNet for the first time);
  again   the same documents once more (their words are in the memo now);
  parse   reading them only (.txt + .con -> Document);
in CPU seconds (single-threaded work), best of ``--repeat`` rounds for again and parse; .chains
text is formatted, not written. The unseen run also reports the garbage collector's wall seconds
and collections per generation (0, 1, 2), and ``unseen_exponent``: the least-squares slope of
log(CPU seconds of a document) on log(its mentions), i.e. time grows as mentions ** exponent
(issue 26: at most 1.2 on CRAFT). One JSON line per corpus.

``--floor`` (issue 26) adds the exact-only floor (``rules/exact.yaml``: reading, one exact-string
pass, writing) in the same run: its in-process docs/s on the same odd records beside the rules'
(``floor_docs_per_s``, ``unseen_over_floor``), and the whole process, ``rulecoref resolve DATA
--types auto`` of the whole corpus folder with the rules and with the floor, ``--runs`` times each,
alternating, CPU seconds (user+sys) of each child, medians and their ratio (``process_ratio``; the
target is at most 3).

    python benchmarks/bench_throughput.py --corpus gum
    python benchmarks/bench_throughput.py --corpus craft --rules rules/i2b2.yaml --repeat 3
    python benchmarks/bench_throughput.py --corpus craft --floor --runs 3
    RULECOREF_SHARED=/work/shared PYTHONPATH=OLD_CHECKOUT python OLD_CHECKOUT/benchmarks/bench_throughput.py ...
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("RULECOREF_SHARED", ROOT.parent / "shared"))
sys.path.insert(0, str(ROOT))

from rulecoref.engine import Pipeline  # noqa: E402
from rulecoref.io.i2b2 import format_chains, read_document  # noqa: E402
from rulecoref.io.layout import find_records  # noqa: E402
from rulecoref.resources import Resources  # noqa: E402
from rulecoref.rules.compiler import compile_rules  # noqa: E402


def parse_all(records) -> int:
    n = 0
    for r in records:
        n += len(read_document(r.txt, r.con, name=r.name).document.concepts)
    return n


def resolve_all(pipeline: Pipeline, records, per_doc: list[tuple[int, float]] | None = None) -> int:
    """Read, resolve and format each record; (mentions, CPU seconds) of each into ``per_doc``."""
    n = 0
    for r in records:
        t0 = time.process_time()
        doc = read_document(r.txt, r.con, name=r.name).document
        res = pipeline.resolve(doc)
        chains = res.chains()
        format_chains(doc, [c for c, _ in chains], [t for _, t in chains])
        n += len(doc.concepts)
        if per_doc is not None:
            per_doc.append((len(doc.concepts), time.process_time() - t0))
    return n


def exponent(per_doc: list[tuple[int, float]]) -> float:
    """The least-squares slope of log(seconds) on log(mentions): time grows as mentions ** slope."""
    import math

    xs = [math.log(m) for m, _ in per_doc]
    ys = [math.log(max(s, 1e-6)) for _, s in per_doc]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


class CollectorClock:
    """Wall seconds the garbage collector spends, per generation, while installed: a measurement
    only (it changes no collector setting). Full collections scan every tracked object, NLTK's
    WordNet index (about 440,000 objects until issue 26 read WordNet into plain dicts) included,
    which is why they are reported."""

    def __init__(self) -> None:
        self.seconds = [0.0, 0.0, 0.0]
        self.count = [0, 0, 0]
        self._start = 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.seconds[info["generation"]] += time.perf_counter() - self._start
            self.count[info["generation"]] += 1

    def __enter__(self) -> CollectorClock:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def cpu(fn, *args) -> tuple[float, float, int]:
    c0, w0 = time.process_time(), time.perf_counter()
    out = fn(*args)
    return time.process_time() - c0, time.perf_counter() - w0, out


def process_cpu(corpus: Path, rules: str, out: Path) -> float:
    """CPU seconds (user+sys) of one ``rulecoref resolve`` child over the corpus folder."""
    exe = Path(sys.executable).parent / "rulecoref"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([str(exe), "resolve", str(corpus), "--rules", rules, "--types", "auto", "--out", str(out),
                    "--overwrite", "-q", "--no-progress"], check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def whole_process(corpus: Path, rules: str, floor: str, runs: int) -> dict[str, object]:
    """Medians of ``runs`` alternating child processes with the rules and with the floor."""
    times: dict[str, list[float]] = {"rules": [], "floor": []}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            for label, path in (("rules", rules), ("floor", floor)):
                times[label].append(process_cpu(corpus, path, Path(tmp) / label))
    med = {k: statistics.median(v) for k, v in times.items()}
    return {"process_cpu_s": {k: [round(x, 2) for x in v] for k, v in times.items()},
            "process_median_s": {k: round(v, 2) for k, v in med.items()},
            "process_ratio": round(med["rules"] / med["floor"], 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", action="append", help="corpus folder name under ../shared/corpora (repeatable)")
    ap.add_argument("--rules", default=str(ROOT / "rules" / "i2b2.yaml"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--floor", action="store_true", help="compare with the exact-only floor, in process and whole")
    ap.add_argument("--floor-rules", default=str(ROOT / "rules" / "exact.yaml"))
    ap.add_argument("--runs", type=int, default=3, help="whole-process runs of each, with --floor")
    args = ap.parse_args()
    ap.set_defaults(corpus=None)
    names = args.corpus or ["gum"]
    if len(names) > 1:
        ap.error("one --corpus per process: the unseen run needs a process that has not seen the others")
    pipeline = Pipeline(compile_rules(args.rules), Resources())  # WordNet loads here
    for name in names:
        folder = SHARED / "corpora" / name
        records, _ = find_records([str(folder)])
        records = [r for r in records if r.txt is not None]
        warm, records = records[0::2], records[1::2]
        resolve_all(pipeline, warm)
        resolve_all(pipeline, warm)
        per_doc: list[tuple[int, float]] = []
        with CollectorClock() as collector:
            unseen_cpu, unseen_wall, mentions = cpu(resolve_all, pipeline, records, per_doc)
        parse = min(cpu(parse_all, records)[0] for _ in range(args.repeat))
        again = min(cpu(resolve_all, pipeline, records)[0] for _ in range(args.repeat))
        docs = len(records)
        out = {
            "corpus": name, "rules": Path(args.rules).name, "documents": docs, "mentions": mentions,
            "unseen_docs_per_s": round(docs / unseen_cpu, 1), "unseen_wall_s": round(unseen_wall, 3),
            "again_docs_per_s": round(docs / again, 1), "parse_docs_per_s": round(docs / parse, 1),
            "unseen_gc_s": [round(x, 3) for x in collector.seconds], "unseen_collections": collector.count,
            "unseen_over_parse": round(unseen_cpu / parse, 2), "again_over_parse": round(again / parse, 2),
            "unseen_exponent": round(exponent(per_doc), 3),
        }
        if args.floor:
            floor = Pipeline(compile_rules(args.floor_rules), Resources())
            floor_cpu = min(cpu(resolve_all, floor, records)[0] for _ in range(args.repeat))
            out |= {"floor_rules": Path(args.floor_rules).name, "floor_docs_per_s": round(docs / floor_cpu, 1),
                    "unseen_over_floor": round(unseen_cpu / floor_cpu, 2)}
            out |= whole_process(folder, args.rules, args.floor_rules, args.runs)
        out |= {"peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                "python": platform.python_version()}
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
