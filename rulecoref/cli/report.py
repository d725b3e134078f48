"""The run both batch commands share (``resolve``, ``spark-resolve``): the lock on the output folder, and the report and summary line that end the run, so the two stay alike."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..errors import Diagnostic, diagnostic
from ..io.i2b2 import write_atomic
from ..io.outdir import OutputLock
from .common import print_diagnostics

REPORT = "rulecoref-report.json"
SHOWN_WARNINGS = 50


def run_locked(args: argparse.Namespace, body: Callable[[argparse.Namespace, OutputLock], int]) -> int:
    """Run ``body``, which takes the lock on ``--out`` once its checks pass; the lock goes however it ends."""
    lock = OutputLock(args.out)
    try:
        return body(args, lock)
    finally:
        lock.release()


def print_warnings(warnings: Sequence[Diagnostic], out: Path, *, quiet: bool) -> None:
    """The first warnings on stderr; all of them are in the report."""
    if not warnings or quiet:
        return
    print_diagnostics(warnings[:SHOWN_WARNINGS], prefix="warning: ")
    if len(warnings) > SHOWN_WARNINGS:
        print(f"warning: ... and {len(warnings) - SHOWN_WARNINGS} more (see {out / REPORT})", file=sys.stderr)


def finish(out: Path, report: dict[str, Any], *, seconds: float, startup: float,
           startup_label: str = "start-up", where: str = "") -> int:
    """Write ``OUT/rulecoref-report.json`` and print the summary line; the exit code is 1 when a
    document or an input failed, or the report could not be written, else 0."""
    report.update(seconds=round(seconds, 3), startup_seconds=round(startup, 3))
    code = 1 if report["failed"] else 0
    try:
        write_atomic(out / REPORT, json.dumps(report, indent=1) + "\n")
    except OSError as exc:  # e.g. the disk filled up during the run
        print_diagnostics([diagnostic("RC510", path=str(out / REPORT), detail=exc.strerror or str(exc))],
                          prefix="error: ")
        code = 1
    n = report["documents"]
    docs_failed = sum(1 for f in report["failed"] if f["document"] is not None)
    inputs_failed = len(report["failed"]) - docs_failed  # inputs that never became a document
    work = seconds - startup
    print(
        f"rulecoref: {report['resolved']}/{n} docs, {report['concepts']} concepts, {report['links']} links "
        f"({report['removed']} filtered), {report['chains']} chains, {seconds:.2f} s "
        f"({startup_label} {startup:.2f} s, then {n / work if work > 0 else 0.0:.1f} docs/s{where})"
        + (f"; {docs_failed} failed, see {out / REPORT}" if docs_failed else "")
        + (f"; {inputs_failed} input problem(s), see {out / REPORT}" if inputs_failed else "")
    )
    return code
