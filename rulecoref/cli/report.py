"""What both batch commands share (``resolve``, ``spark-resolve``): their output folder, and the
report and summary line that end a run (or an interrupted run), so the two stay alike."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from typing import Any

from ..errors import OutputError, diagnostic
from ..io.formats import get_format
from ..io.outdir import Inputs, OutputFolder
from .common import Interrupted, print_diagnostics, signal_of

REPORT = "rulecoref-report.json"


def batch_folder(args: argparse.Namespace, fmt: str, inputs: Inputs) -> OutputFolder:
    """``--out`` of resolve and spark-resolve: the group of the output format; every file of that
    format in the folder must be a rulecoref run's (chains of another origin are never mixed with
    the run's); a folder an older rulecoref wrote is known by its report."""
    form = get_format(fmt)
    return OutputFolder(args.out, f"resolve:{fmt}", overwrite=args.overwrite, inputs=inputs,
                        exclusive=form.suffixes[:1], replaceable=(REPORT, *form.finish_names), adopt=REPORT,
                        stale_code=form.stale_code, what=f"{fmt} output file(s)")


def interrupted_report(report: dict[str, Any], exc: BaseException, left: Iterable[str]) -> None:
    """Add to ``report`` the signal that stopped the run and the documents it did not resolve (RC559)."""
    import signal

    name = signal.Signals(signal_of(exc)).name
    report["interrupted"] = name
    report["failed"] += [{"document": doc, "problems": [diagnostic("RC559", signal=name).to_dict()]} for doc in left]


def finish(out: OutputFolder, report: dict[str, Any], *, seconds: float, startup: float,
           startup_label: str = "start-up", where: str = "", interrupted: BaseException | None = None) -> int:
    """Write ``OUT/rulecoref-report.json`` and print the summary line; the exit code is 1 when a
    document or an input failed, or the report could not be written, else 0. After an interrupt
    the report is written and the interrupt goes on (``main`` prints one line and exits 128 + N)."""
    report.update(seconds=round(seconds, 3), startup_seconds=round(startup, 3))
    code = 1 if report["failed"] else 0
    try:
        out.write(REPORT, json.dumps(report, indent=1) + "\n")
    except OutputError as exc:  # e.g. the disk filled up during the run
        print_diagnostics(exc.diagnostics, prefix="error: ")
        code = 1
    if interrupted is not None:
        of = "" if report["documents"] is None else f"/{report['documents']}"  # Spark's own rows: no count
        note = f"{report['resolved']}{of} documents done, see {out.path / REPORT}"
        if isinstance(interrupted, Interrupted):
            interrupted.note = note
            raise interrupted
        stop = Interrupted(signal_of(interrupted))
        stop.note = note
        raise stop from interrupted
    n = report["documents"]
    docs_failed = sum(1 for f in report["failed"] if f["document"] is not None)
    inputs_failed = len(report["failed"]) - docs_failed  # inputs that never became a document
    work = seconds - startup
    skipped = report.get("skipped", 0)  # --resume: done by an earlier run
    ran = n - skipped
    print(
        f"rulecoref: {report['resolved']}/{n} docs, {report['concepts']} concepts, {report['links']} links "
        f"({report['removed']} filtered), {report['chains']} chains, {seconds:.2f} s "
        f"({startup_label} {startup:.2f} s, then {ran / work if work > 0 else 0.0:.1f} docs/s{where})"
        + (f"; {skipped} skipped, done by an earlier run" if skipped else "")
        + (f"; {docs_failed} failed, see {out.path / REPORT}" if docs_failed else "")
        + (f"; {inputs_failed} input problem(s), see {out.path / REPORT}" if inputs_failed else "")
    )
    return code
