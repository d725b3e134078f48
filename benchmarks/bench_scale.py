"""Throughput per core and peak memory at scale: distinct notes by the ten thousand (issue 33).

Earlier figures (bench_spark.py) came from 35-50 documents, or the same documents copied under new
names, whose per-mention analyses are warm after the first copy. This benchmark makes every note
different and measures the three ways to run a batch:

  make     N distinct i2b2 notes (NAME.txt + NAME.txt.con) recombined from the sentences and
           concepts of the shared MTSamples corpus (clinical notes with i2b2 types, so the default
           rules run as on a hospital's notes): each note takes runs of 2-8 consecutive sentences
           (with their concepts) from random notes until it reaches a length drawn from the
           corpus's own note lengths; a note that repeats an earlier one is drawn again. A fixed
           seed makes the same notes on every machine.
  run      one command over them, as a user runs it, into a fresh folder:
             resolve        ``rulecoref resolve DATA --out OUT --jobs N``
             local          ``rulecoref spark-resolve DATA --out OUT --master local[N]``
             cluster        ``rulecoref spark-resolve DATA --out OUT --master spark://...`` (a
                            standalone cluster, ``scripts/start-spark.sh``)
           It reads the report and summary line (start-up: rules, WordNet and for Spark the JVM),
           and samples every 0.5 s the resident memory of each process of the run (the command,
           its workers; for ``cluster`` also the worker JVM's tree: executor JVM and its Python
           workers): peak RSS per worker process, and the JVMs' apart; and the CPU seconds each
           process used (utime + stime at its last sample), so that documents per CPU second of
           the workers, what a core that is not shared would give, can be told apart from the
           wall-clock rate on a machine that other work shares.
           Steady state: with ``--warmup M`` it first runs the same command over the first M notes
           (another folder), and reports the marginal rate (N - M) / (work_N - work_M), the docs/s
           once every worker has built its pipeline and the JVM has warmed.

Each run prints one JSON line (and appends it to ``--log``). Run on a quiet machine; ``nice`` it on
a shared one, and read the load average it records.

    python benchmarks/bench_scale.py make --n 20000 --out /tmp/scale20k
    python benchmarks/bench_scale.py run --data /tmp/scale20k --mode resolve --jobs 2 --warmup 1000
    python benchmarks/bench_scale.py run --data /tmp/scale20k --mode cluster --master spark://127.0.0.1:7077 --cores 2
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("RULECOREF_SHARED") or ROOT.parent / "shared")
_CON = re.compile(r'^c="(.*)" (\d+):(\d+) (\d+):(\d+)\|\|t="([^"]+)"\s*$')


def _sentences(corpus: Path) -> tuple[list[list[tuple[str, list[tuple[str, int, int, str]]]]], list[int]]:
    """Per note: its lines, each (text, [(concept text, first token, last token, type)]); and each note's line count.
    Concepts that span lines are left out."""
    notes, lengths = [], []
    for txt in sorted((corpus / "docs").glob("*.txt")):
        lines = txt.read_text(encoding="utf-8").splitlines()
        concepts: list[list[tuple[str, int, int, str]]] = [[] for _ in lines]
        for raw in (corpus / "concepts" / f"{txt.name}.con").read_text(encoding="utf-8").splitlines():
            m = _CON.match(raw)
            if m and m.group(2) == m.group(4) and 0 < int(m.group(2)) <= len(lines):
                concepts[int(m.group(2)) - 1].append((m.group(1), int(m.group(3)), int(m.group(5)), m.group(6)))
        notes.append([(line, concepts[i]) for i, line in enumerate(lines) if line.strip()])
        lengths.append(len(notes[-1]))
    return notes, lengths


def make(n: int, out: Path, seed: int, corpus: Path) -> dict[str, object]:
    """Write ``n`` distinct notes into ``out`` (flat: NAME.txt, NAME.txt.con)."""
    notes, lengths = _sentences(corpus)
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=False)
    seen: set[bytes] = set()
    tokens = concepts = 0
    for k in range(n):
        while True:
            want, lines = rng.choice(lengths), []
            while len(lines) < want:
                note = rng.choice(notes)
                start = rng.randrange(len(note))
                lines += note[start:start + rng.randint(2, 8)]
            lines = lines[:want]
            key = hashlib.sha1("\n".join(t for t, _ in lines).encode()).digest()
            if key not in seen:
                seen.add(key)
                break
        name = f"scale-{k:06d}"
        (out / f"{name}.txt").write_text("".join(t + "\n" for t, _ in lines), encoding="utf-8")
        con = [f'c="{c}" {i}:{a} {i}:{b}||t="{t}"\n' for i, (_, cs) in enumerate(lines, 1) for c, a, b, t in cs]
        (out / f"{name}.txt.con").write_text("".join(con), encoding="utf-8")
        tokens += sum(len(t.split()) for t, _ in lines)
        concepts += len(con)
    return {"made": n, "seed": seed, "corpus": str(corpus), "tokens_per_note": round(tokens / n, 1),
            "concepts_per_note": round(concepts / n, 1)}


class Sampler(threading.Thread):
    """Peak RSS (VmRSS sampled every 0.5 s, and VmHWM at the last sample) of every process under the roots."""

    def __init__(self, roots: list[int]):
        super().__init__(daemon=True)
        self.roots, self.peak, self.names, self.cpu = roots, {}, {}, {}
        self.base = {pid: _cpu_s(pid) or 0.0 for pid in self._tree()}  # the cluster's JVMs ran before
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            for pid in self._tree():
                rss = _status_kb(pid)
                if rss is not None:
                    self.peak[pid] = max(self.peak.get(pid, 0), rss)
                    self.names[pid] = _name(pid)  # again each time: spark-submit's bash execs a JVM
                    cpu = _cpu_s(pid)
                    if cpu is not None:
                        self.cpu[pid] = cpu - self.base.get(pid, 0.0)
            self.stop.wait(0.5)

    def _tree(self) -> list[int]:
        out, todo = [], list(self.roots)
        while todo:
            pid = todo.pop()
            out.append(pid)
            try:
                todo += [int(c) for t in os.listdir(f"/proc/{pid}/task")
                         for c in Path(f"/proc/{pid}/task/{t}/children").read_text().split()]
            except OSError:
                pass
        return out

    def summary(self) -> dict[str, object]:
        """Peak MB of the Python worker processes (max and count) and of the JVMs."""
        py = [kb for pid, kb in self.peak.items() if "python" in self.names[pid] and pid not in self.roots]
        jvm = [kb for pid, kb in self.peak.items() if "java" in self.names[pid]]
        main = [self.peak.get(pid, 0) for pid in self.roots[:1]]
        cpu_py = sum(s for pid, s in self.cpu.items() if "python" in self.names[pid] and pid not in self.roots)
        cpu_jvm = sum(s for pid, s in self.cpu.items() if "java" in self.names[pid])
        return {"cpu_s_python_workers": round(cpu_py, 1), "cpu_s_jvms": round(cpu_jvm, 1),
                "cpu_s_command": round(self.cpu.get(self.roots[0], 0.0), 1), "python_workers": len(py), "worker_peak_mb_max": round(max(py, default=0) / 1024, 1),
                "worker_peak_mb_median": round(sorted(py)[len(py) // 2] / 1024, 1) if py else 0,
                "jvm_peak_mb": [round(kb / 1024, 1) for kb in sorted(jvm)], "command_peak_mb": round(main[0] / 1024, 1)}


def _status_kb(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def _cpu_s(pid: int) -> float | None:
    """utime + stime of a process, in seconds (/proc/PID/stat fields 14 and 15)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
    except OSError:
        return "?"


def _command(mode: str, data: Path, out: Path, jobs: int, master: str | None) -> list[str]:
    base = [sys.executable, "-m", "rulecoref"]
    if mode == "resolve":
        return [*base, "resolve", str(data), "--out", str(out), "--jobs", str(jobs), "--no-progress", "--quiet"]
    return [*base, "spark-resolve", str(data), "--out", str(out), "--master",
            master if mode == "cluster" else f"local[{jobs}]", "--no-progress", "--quiet"]


def run_once(mode: str, data: Path, jobs: int, master: str | None, extra_roots: list[int]) -> dict[str, object]:
    """One command over ``data`` into a fresh folder: wall, start-up, work seconds, memory."""
    out = Path(tempfile.mkdtemp(prefix="bench-scale-")) / "out"
    t0 = time.perf_counter()
    proc = subprocess.Popen(_command(mode, data, out, jobs, master), cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    sampler = Sampler([proc.pid, *extra_roots])
    sampler.start()
    stdout, stderr = proc.communicate()
    wall = time.perf_counter() - t0
    sampler.stop.set()
    sampler.join()
    if proc.returncode not in (0, 1) or not (out / "rulecoref-report.json").exists():
        raise SystemExit(f"{mode} failed ({proc.returncode}): {stderr[-2000:]}")
    report = json.loads((out / "rulecoref-report.json").read_text(encoding="utf-8"))
    chains = len(list(out.glob("*.txt.chains")))
    shutil.rmtree(out.parent)
    return {"documents": report["documents"], "resolved": report["resolved"], "chains_files": chains,
            "wall_s": round(wall, 2), "command_s": report["seconds"], "startup_s": report["startup_seconds"],
            "work_s": round(report["seconds"] - report["startup_seconds"], 2), "summary": stdout.strip()[-300:],
            **sampler.summary()}


def _subset(data: Path, m: int) -> Path:
    """The first ``m`` notes of ``data`` as links in a folder of their own."""
    sub = Path(tempfile.mkdtemp(prefix="bench-scale-sub-"))
    for txt in sorted(data.glob("*.txt"))[:m]:
        (sub / txt.name).symlink_to(txt)
        (sub / f"{txt.name}.con").symlink_to(data / f"{txt.name}.con")
    return sub


def run(args: argparse.Namespace) -> dict[str, object]:
    roots = []
    if args.mode == "cluster" and args.spark_dir:
        roots = [int((Path(args.spark_dir) / "worker.pid").read_text())]
    result: dict[str, object] = {"mode": args.mode, "jobs": args.jobs, "cores": args.cores or args.jobs,
                                 "master": args.master, "load_before": os.getloadavg()}
    if args.warmup:
        sub = _subset(args.data, args.warmup)
        try:
            result["warmup"] = run_once(args.mode, sub, args.jobs, args.master, roots)
        finally:
            shutil.rmtree(sub)
    full = run_once(args.mode, args.data, args.jobs, args.master, roots)
    result["full"] = full
    cores = float(args.cores or args.jobs)
    n, work = float(full["documents"]), float(full["work_s"])
    result["docs_per_s_after_startup"] = round(n / work, 2)
    result["docs_per_s_per_core_after_startup"] = round(n / work / cores, 2)
    if args.warmup:
        w = result["warmup"]
        marginal = (n - float(w["documents"])) / (work - float(w["work_s"]))
        result["steady_docs_per_s"] = round(marginal, 2)
        result["steady_docs_per_s_per_core"] = round(marginal / cores, 2)
    busy = float(full["cpu_s_python_workers"]) + (float(full["cpu_s_command"]) if args.mode == "resolve" and
                                                   args.jobs == 1 else 0.0)
    if busy:
        result["docs_per_worker_cpu_s"] = round(n / busy, 2)
    result["load_after"] = os.getloadavg()
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    mk = sub.add_parser("make")
    mk.add_argument("--n", type=int, default=20000)
    mk.add_argument("--out", type=Path, required=True)
    mk.add_argument("--seed", type=int, default=33)
    mk.add_argument("--corpus", type=Path, default=SHARED / "corpora" / "mtsamples")
    rn = sub.add_parser("run")
    rn.add_argument("--data", type=Path, required=True)
    rn.add_argument("--mode", choices=("resolve", "local", "cluster"), required=True)
    rn.add_argument("--jobs", type=int, default=2, help="resolve --jobs N, local[N]")
    rn.add_argument("--master", default=None, help="cluster: spark://HOST:PORT")
    rn.add_argument("--cores", type=int, default=None, help="cores the run had (cluster: the worker's), for per core")
    rn.add_argument("--spark-dir", default=os.environ.get("RULECOREF_SPARK_DIR"),
                    help="cluster: start-spark.sh's folder, to sample the worker's processes")
    rn.add_argument("--warmup", type=int, default=0, help="first run over this many notes: the steady rate")
    rn.add_argument("--log", type=Path, default=None, help="append the JSON line here")
    args = ap.parse_args()
    result = make(args.n, args.out, args.seed, args.corpus) if args.what == "make" else run(args)
    line = json.dumps(result)
    print(line, flush=True)
    if getattr(args, "log", None):
        with open(args.log, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")


if __name__ == "__main__":
    main()
