"""Interrupts and dying parents (issue 22): workers never outlive their parent, SIGTERM and SIGHUP
end a run as Ctrl-C does (lock released, report written, one line, exit 128 + N), and Ctrl-C shows
no worker traceback. Every test runs real processes; documents are made slow by patching
``batch.resolve_record`` in the child, so the tests need no corpus."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from rulecoref.io.outdir import LOCK
from tests.helpers import ROOT

EXAMPLES = ROOT / "resources" / "examples"
EXACT = str(ROOT / "rules" / "exact.yaml")
linux = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")


def alive(pid: int) -> bool:
    """Running (a zombie whose parent is gone counts as dead: it runs nothing and holds no pipe)."""
    try:
        state = Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def gone_within(pids: list[int], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not any(alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


def _start(script: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(script)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, **kw)


@linux
@pytest.mark.parametrize("pdeathsig", [False, True])
def test_signals_workers_die_with_a_killed_parent(pdeathsig: bool) -> None:
    """``kill -9`` of the parent: a worker waiting for its next item sees its pipe end (every
    parent end of a pipe was closed in it), and a busy one gets SIGTERM from the kernel."""
    proc = _start(f"""
        import multiprocessing, os, signal, sys, time
        from rulecoref import pool
        if not {pdeathsig}:
            pool._die_with_parent = lambda: None  # only the closed pipes tell the idle workers
        def work(x):
            time.sleep(60 if {pdeathsig} and x else 0.01)
            return x
        items = list(range(8))
        g = pool.parallel_map(work, items, 2, lambda x: None)
        next(g)
        time.sleep(0.3)
        print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    out, _ = proc.communicate(timeout=30)
    pids = [int(p) for p in out.split()]
    assert proc.returncode == -signal.SIGKILL and len(pids) == 2
    assert gone_within(pids, 5), [p for p in pids if alive(p)]


SLOW_RESOLVE = """
    import sys, time
    from rulecoref import batch
    real = batch.resolve_record
    def slow(*args, **kw):
        time.sleep(1.0)
        return real(*args, **kw)
    batch.resolve_record = slow
    from rulecoref.cli import main, resolve
    add = resolve._Tally.add
    def tallied(self, outcome):  # tells the test that the run holds a result of its own
        add(self, outcome)
        print("tallied", flush=True)
    resolve._Tally.add = tallied
    sys.exit(main(sys.argv[1:]))
"""


def _resolve_and_signal(tmp_path: Path, sig: int, *, group: bool) -> tuple[int, str, Path, list[int]]:
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(SLOW_RESOLVE), "resolve", str(EXAMPLES), "--rules", EXACT,
                             "--out", str(out), "--jobs", "2", "--no-progress"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stdout is not None and proc.stdout.readline() == "tallied\n"  # one document done, others at work
    workers = [int(p) for p in Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()]
    if group:
        os.killpg(proc.pid, sig)  # Ctrl-C in a terminal signals the whole process group
    else:
        os.kill(proc.pid, sig)
    _, err = proc.communicate(timeout=30)
    return proc.returncode, err, out, workers


@linux
def test_signals_sigterm_ends_a_run_as_ctrl_c_does(tmp_path: Path) -> None:
    code, err, out, workers = _resolve_and_signal(tmp_path, signal.SIGTERM, group=False)
    assert code == 143, err
    assert err.strip().count("\n") == 0 and err.startswith("rulecoref: interrupted (") and "Traceback" not in err
    assert not (out / LOCK).exists()  # a later run is not stopped by a stale lock
    report = json.loads((out / "rulecoref-report.json").read_text())
    assert report["interrupted"] == "SIGTERM" and report["documents"] == 4
    not_done = [f["document"] for f in report["failed"] if f["problems"][0]["code"] == "RC559"]
    assert 0 < len(not_done) < 4 and report["resolved"] == 4 - len(not_done)
    assert {p.name for p in out.glob("*.txt.chains")} == {f"{d}.txt.chains" for d in  # the report is the files
                                                          {"clinical-ex1", "clinical-ex2", "clinical-ex3",
                                                           "clinical-ex4"} - set(not_done)}
    assert not list(out.glob(".*.tmp")) and gone_within(workers, 5)


@linux
@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), pytest.param(signal.SIGHUP, 129, marks=pytest.mark.slow)])
def test_signals_ctrl_c_to_the_group_and_sighup_show_one_line(tmp_path: Path, sig: int, code: int) -> None:
    """Ctrl-C reaches the workers too: they ignore it (the parent stops them), so no worker prints
    a traceback (38-60 lines before)."""
    got, err, out, workers = _resolve_and_signal(tmp_path, sig, group=True)
    assert got == code and err.strip().count("\n") == 0 and "Traceback" not in err, err
    assert not (out / LOCK).exists() and gone_within(workers, 5)
    assert json.loads((out / "rulecoref-report.json").read_text())["interrupted"] == signal.Signals(sig).name
