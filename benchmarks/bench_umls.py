"""Time the UMLS loader and lookups on an MRCONSO file (synthetic: benchmarks/gen_mrconso.py).

Prints one JSON line: load rows/s (input lines over wall time, and over this process's CPU time,
because the benchmark machine is shared), and lookups/s cold (every string a database query),
cold batched (``cuis_many``, one query per 500 strings) and cached (the same strings again).

    python benchmarks/gen_mrconso.py /tmp/MRCONSO.RRF --rows 1000000
    python benchmarks/bench_umls.py /tmp/MRCONSO.RRF --db /tmp/umls-bench.sqlite
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from rulecoref.resources.umls import LoadOptions, UmlsLookup, load_mrconso


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _since(start: tuple[float, float]) -> tuple[float, float]:
    wall, cpu = _clock()
    return wall - start[0], cpu - start[1]


def sample_queries(path: Path, n: int, seed: int) -> list[str]:
    """n distinct strings as a note would spell them: 80% taken from the file (raw STR, so mixed case
    and punctuation), 20% misses."""
    rng = random.Random(seed)
    hits: list[str] = []
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f):  # reservoir sample of English strings
            parts = line.split("|")
            if len(parts) < 15 or parts[1] != "ENG":
                continue
            if len(hits) < n:
                hits.append(parts[14])
            else:
                j = rng.randint(0, i)
                if j < n:
                    hits[j] = parts[14]
    queries = hits[: int(n * 0.8)]
    queries += [f"zz{rng.randint(0, 10**9)} missing term" for _ in range(n - len(queries))]
    rng.shuffle(queries)
    return list(dict.fromkeys(queries))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mrconso", type=Path)
    ap.add_argument("--db", type=Path, default=Path("/tmp/rulecoref-umls-bench.sqlite"), help="SQLite file (replaced)")
    ap.add_argument("--sorted-index", action="store_true")
    ap.add_argument("--reload", action="store_true", help="also time a second, forced load over the first (the swap)")
    ap.add_argument("--lookups", type=int, default=20000, help="distinct query strings")
    ap.add_argument("--repeat", type=int, default=20, help="passes over the strings for the cached rate")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)

    for suffix in ("", "-journal"):
        Path(str(args.db) + suffix).unlink(missing_ok=True)
    out: dict[str, object] = {"file": str(args.mrconso), "sorted_index": args.sorted_index}
    opts = LoadOptions(sorted_index=args.sorted_index, force=True)
    start = _clock()
    rep = load_mrconso(args.mrconso, str(args.db), opts)
    wall, cpu = _since(start)
    out.update(lines=rep.lines, kept=rep.kept, load_s=round(wall, 2), load_cpu_s=round(cpu, 2),
               index_s=round(rep.index_seconds, 2), load_rows_per_s=round(rep.lines / wall),
               load_rows_per_cpu_s=round(rep.lines / cpu), db_mb=round(args.db.stat().st_size / 2**20, 1))
    if args.reload:
        start = _clock()
        rep = load_mrconso(args.mrconso, str(args.db), opts)
        wall, cpu = _since(start)
        out.update(reload_s=round(wall, 2), reload_rows_per_s=round(rep.lines / wall),
                   reload_rows_per_cpu_s=round(rep.lines / cpu))

    queries = sample_queries(args.mrconso, args.lookups, args.seed)
    mode = "sorted" if args.sorted_index else "exact"
    db = UmlsLookup(str(args.db))
    start = _clock()
    found = sum(1 for q in queries if db.cuis(q, mode))
    wall, cpu = _since(start)
    out.update(queries=len(queries), found=found, cold_lookups_per_s=round(len(queries) / wall),
               cold_lookups_per_cpu_s=round(len(queries) / cpu))
    db.close()

    db = UmlsLookup(str(args.db))
    start = _clock()
    batch = db.cuis_many(queries, mode)
    wall, _ = _since(start)
    assert sum(1 for v in batch.values() if v) == found
    out.update(cold_batched_lookups_per_s=round(len(queries) / wall))

    start = _clock()
    for _ in range(args.repeat):
        for q in queries:
            db.cuis(q, mode)
    wall, cpu = _since(start)
    n = len(queries) * args.repeat
    out.update(cached_lookups_per_s=round(n / wall), cached_lookups_per_cpu_s=round(n / cpu))
    db.close()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
