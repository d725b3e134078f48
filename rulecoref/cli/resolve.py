"""``rulecoref resolve``: link the concepts of a batch and write .txt.chains files."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ..batch import BatchOptions, Outcome, run_batch
from ..errors import CliError, diagnostic
from ..io.i2b2 import doc_name, write_atomic
from ..io.layout import find_records, input_folders, iter_file_list
from ..io.outdir import LOCK, OutputLock, check_out_dir, make_out_dir
from .common import (
    add_input_options,
    add_rules_option,
    cli_resources,
    load_pipeline,
    positive_int,
    print_diagnostics,
    rules_path,
)

REPORT = "rulecoref-report.json"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "resolve",
        help="link concepts and write .txt.chains files",
        description=(
            "Resolve coreference for every record of DATA (an i2b2 folder with docs/ and concepts/, "
            "a flat folder of NAME.txt + NAME.txt.con, or explicit files) and write OUT/NAME.txt.chains. "
            f"Failed documents are listed in OUT/{REPORT} and make the exit code 1. OUT_DIR is locked "
            f"for the run ({LOCK}): a second run into it stops at once."
        ),
    )
    add_input_options(p)
    p.add_argument("--out", "-o", type=Path, required=True, metavar="OUT_DIR", help="where .txt.chains files go")
    add_rules_option(p)
    p.add_argument("--model", default=None, metavar="JSON", help="override the decoder's model path in the rule file")
    p.add_argument("--jobs", "-j", type=positive_int, default=1, metavar="N",
                   help="documents resolved in parallel, in N worker processes (at most one per document; default 1)")
    p.add_argument("--overwrite", action="store_true",
                   help="delete the .txt.chains files already in OUT_DIR first (other files are kept)")
    p.add_argument("--strict", action="store_true", help="a concept whose text does not match its tokens is an error")
    p.add_argument("--provenance", action="store_true", help="also write OUT/NAME.links.json: every link and who made or removed it")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--quiet", "-q", action="store_true", help="print only errors and the summary")
    p.set_defaults(run=run)


def _prepare_out(out: Path, overwrite: bool) -> None:
    """Refuse to mix with earlier outputs (RC501), or delete them with ``--overwrite``; called
    with the folder locked, so another run cannot write between this check and the batch."""
    stale = sorted(out.glob("*.txt.chains")) if out.is_dir() else []
    if stale and not overwrite:
        raise CliError(diagnostic("RC501", path=str(out), count=len(stale)))
    for f in stale:
        f.unlink()


def parse_types(value: str | None, declared: tuple[str, ...]) -> tuple[str, ...] | None:
    if value is None:
        return declared
    if value.strip().lower() == "auto":
        return None
    return tuple(t.strip().lower() for t in value.split(",") if t.strip())


def run(args: argparse.Namespace) -> int:
    lock = OutputLock(args.out)
    try:
        return _run(args, lock)
    finally:
        lock.release()


def _run(args: argparse.Namespace, lock: OutputLock) -> int:
    inputs = list(args.inputs)
    if args.file_list:
        inputs.extend(iter_file_list(args.file_list))
    if not inputs:
        raise CliError(diagnostic("RC502", detail="no input: give a DATA folder, files, or --file-list"))
    records, problems = find_records(inputs)  # records without text are reported per document below
    orphans = [Outcome(doc_name(d.file or ""), False, diagnostics=[d]) for d in problems if d.code == "RC216"]
    check_out_dir(args.out, input_folders(inputs, records))  # before the start-up: a bad --out costs nothing
    overrides = {"model": args.model} if args.model else {}
    resources = cli_resources(args)
    t0 = time.perf_counter()
    pipeline = load_pipeline(args, resources, **overrides)
    startup = time.perf_counter() - t0
    make_out_dir(args.out)
    lock.acquire()
    _prepare_out(args.out, args.overwrite)
    opts = BatchOptions(out_dir=args.out, strict_text=args.strict, encoding=args.encoding, provenance=args.provenance,
                        types=parse_types(args.types, pipeline.ruleset.types))
    outcomes = run_batch(pipeline, records, opts, jobs=args.jobs)
    if not args.no_progress:
        from tqdm import tqdm

        outcomes = tqdm(outcomes, total=len(records), unit="doc", file=sys.stderr, disable=None, leave=False)
    failed, warnings = list(orphans), []
    totals = {"concepts": 0, "links": 0, "removed": 0, "chains": 0}
    for o in outcomes:
        if o.ok:
            for key in totals:
                totals[key] += getattr(o, key)
            warnings.extend(o.diagnostics)
        else:
            failed.append(o)
    seconds = time.perf_counter() - t0
    if warnings and not args.quiet:
        print_diagnostics(warnings[:50], prefix="warning: ")
        if len(warnings) > 50:
            print(f"warning: ... and {len(warnings) - 50} more (see {args.out / REPORT})", file=sys.stderr)
    for o in failed:
        print_diagnostics(o.diagnostics, prefix=f"error: {o.name}: ")
    total = len(records) + len(orphans)
    ok = total - len(failed)
    report = {
        "rules": str(rules_path(args)),
        "documents": total,
        "resolved": ok,
        "failed": [{"document": o.name, "problems": [d.to_dict() for d in o.diagnostics]} for o in failed],
        "warnings": [d.to_dict() for d in warnings],
        **totals,
        "seconds": round(seconds, 3),
        "startup_seconds": round(startup, 3),
    }
    code = 1 if failed else 0
    try:
        write_atomic(args.out / REPORT, json.dumps(report, indent=1) + "\n")
    except OSError as exc:  # e.g. the disk filled up during the run
        print_diagnostics([diagnostic("RC510", path=str(args.out / REPORT), detail=exc.strerror or str(exc))],
                          prefix="error: ")
        code = 1
    work = seconds - startup
    rate = len(records) / work if work > 0 else 0.0
    print(
        f"rulecoref: {ok}/{total} docs, {totals['concepts']} concepts, {totals['links']} links "
        f"({totals['removed']} filtered), {totals['chains']} chains, {seconds:.2f} s "
        f"(start-up {startup:.2f} s, then {rate:.1f} docs/s)"
        + (f"; {len(failed)} failed, see {args.out / REPORT}" if failed else "")
    )
    return code
