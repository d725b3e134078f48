"""``rulecoref resolve``: link the concepts of a batch and write .txt.chains files."""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..batch import BatchOptions, Outcome, run_batch
from ..errors import Diagnostic, OutputError
from ..io.formats import (
    Format,
    abbreviations_for,
    choices_help,
    find_inputs,
    get_format,
    input_formats,
    output_formats,
    output_paths,
)
from ..io.outdir import LOCK
from ..io.typemap import read_type_map
from ..resume import add_resume_option, check_resume, note, nothing_left, plan, say_nothing_left
from ..tally import WarningTally
from .common import (
    add_find_mentions_option,
    add_format_options,
    add_input_options,
    add_parser_option,
    add_quiet_options,
    add_rules_option,
    cli_resources,
    gather_inputs,
    input_format,
    inputs_of,
    jobs_count,
    load_pipeline,
    parse_types,
    print_diagnostics,
    rules_path,
    tracked,
)
from .report import REPORT, batch_folder, finish, interrupted_report


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "resolve",
        help="link concepts and write .txt.chains files",
        description=(
            "Resolve coreference for every record of DATA (an i2b2 folder with docs/ and concepts/, "
            "a flat folder of NAME.txt + NAME.txt.con, or explicit files; "
            + ", ".join(n for n in input_formats() if n != "i2b2") + ", found from the input or named by --input-format) "
            "and write OUT/NAME.txt.chains (or another --format). "
            f"Failed documents are listed in OUT/{REPORT} and make the exit code 1. OUT_DIR is locked "
            f"for the run ({LOCK}): a second run into it stops at once."
        ),
    )
    add_input_options(p)
    p.add_argument("--out", "-o", type=Path, required=True, metavar="OUT_DIR", help="where .txt.chains files go")
    add_rules_option(p)
    add_find_mentions_option(p)
    add_parser_option(p)
    p.add_argument("--model", default=None, metavar="JSON", help="override the decoder's model path in the rule file")
    p.add_argument("--jobs", "-j", type=jobs_count, default=1, metavar="N",
                   help="documents resolved in parallel, in N worker processes (at most one per document and 256; "
                        "default 1)")
    p.add_argument("--overwrite", action="store_true",
                   help="delete the files of --format that earlier rulecoref runs wrote in OUT_DIR first (files "
                        "rulecoref did not write are never replaced or deleted)")
    add_resume_option(p)
    p.add_argument("--strict", action="store_true", help="a concept whose text does not match its tokens is an error")
    p.add_argument("--provenance", action="store_true", help="also write OUT/NAME.links.json: every link and who made or removed it")
    add_format_options(p)
    p.add_argument("--format", choices=output_formats(), default="i2b2",
                   help=f"what to write per document: {choices_help(output_formats())} (docs/formats.md)")
    add_quiet_options(p)
    p.set_defaults(run=run)


def planned_files(records: list, fmt: str, provenance: bool) -> list[str]:
    """Every file a batch may write into OUT, claimed before any is written (io/outdir.py)."""
    names = [p.name for rec in records for p in output_paths(fmt, Path("."), rec.name)]
    if provenance:
        names += [f"{rec.name}.links.json" for rec in records]
    return names + [REPORT] + list(get_format(fmt).finish_names)


def output_names(fmt: str, provenance: bool) -> Any:
    """The names of the files one record's output consists of (what ``--resume`` looks for)."""
    def names(rec: Any) -> list[str]:
        found = [p.name for p in output_paths(fmt, Path("."), rec.name)]
        return found + [f"{rec.name}.links.json"] if provenance else found
    return names


def run(args: argparse.Namespace) -> int:
    check_resume(args)
    inputs = gather_inputs(args)
    # i2b2 records without text are reported per document below; texts without concepts and other
    # formats' strays here
    fmt = input_format(args, inputs)
    records, strays = find_inputs(inputs, fmt.name, args.encoding)
    # before the start-up: a bad --out costs nothing
    out = batch_folder(args, args.format, inputs_of(records, inputs, fmt.name)).check()
    overrides = {"model": args.model} if args.model else {}
    t0 = time.perf_counter()
    pipeline = load_pipeline(args, cli_resources(args), **overrides)
    startup = time.perf_counter() - t0
    type_map = read_type_map(args.type_map) if args.type_map else None
    out.resume = args.resume
    with out.open(planned_files(records, args.format, args.provenance)):
        done = plan(out, records, output_names(args.format, args.provenance))
        if nothing_left(out, done, REPORT) and not strays:
            return say_nothing_left(done, out, REPORT)
        records = done.todo
        types = parse_types(args.types, pipeline.ruleset.types)
        opts = BatchOptions(out_dir=args.out, strict_text=args.strict, encoding=args.encoding,
                            provenance=args.provenance, types=types, format=args.format, type_map=type_map,
                            abbreviations=abbreviations_for(fmt.name))
        tally, stopped = _run(pipeline, records, opts, args)
        # after an interrupt, a document whose files a worker wrote before its outcome arrived is
        # resolved (its files are complete: earlier runs' were refused or deleted at the start)
        unfinished = [rec.name for rec in records[tally.seen:] if stopped is not None and not all(
            p.exists() for p in output_paths(args.format, args.out, rec.name))]
        if stopped is None:
            strays += finish_files(out, get_format(args.format), types or pipeline.ruleset.types)
        tally.warnings.print(args.out / REPORT, quiet=args.quiet)
        for o in tally.failed:
            print_diagnostics(o.diagnostics, prefix=f"error: {o.name}: ")
        print_diagnostics(strays, prefix="error: ")
        report = {
            "rules": str(rules_path(args)),
            "documents": len(records),
            "resolved": len(records) - len(tally.failed) - len(unfinished),
            "failed": [{"document": o.name, "problems": [d.to_dict() for d in o.diagnostics]} for o in tally.failed]
            + [{"document": None, "problems": [d.to_dict()]} for d in strays],
            "warnings": tally.warnings.to_dict(),
            **tally.totals,
        }
        note(report, done)
        if stopped is not None:
            interrupted_report(report, stopped, unfinished)
        return finish(out, report, seconds=time.perf_counter() - t0, startup=startup, interrupted=stopped)


def _run(pipeline: Any, records: list, opts: BatchOptions, args: argparse.Namespace
         ) -> tuple[_Tally, BaseException | None]:
    """Resolve ``records`` with a progress bar; an interrupt (Ctrl-C, SIGTERM) stops the workers
    first and is returned, so that the report is written."""
    batch = run_batch(pipeline, records, opts, jobs=args.jobs)
    outcomes: Iterable[Outcome] = tracked(args, batch, len(records), "resolve")
    tally = _Tally()
    try:
        for o in outcomes:
            tally.add(o)
    except KeyboardInterrupt as exc:
        return tally, exc
    finally:
        batch.close()
    return tally, None


def finish_files(out: Any, fmt: Format, types: Iterable[str]) -> list[Diagnostic]:
    """The files the format writes once beside the documents (brat's annotation.conf); a failure
    (a full disk) is the run's problem (RC510)."""
    try:
        for name, text in fmt.finish(types):
            out.write(name, text)
    except OutputError as exc:
        return exc.diagnostics
    return []


class _Tally:
    """The failed documents, the warnings of the others and their summed counts, as outcomes come."""

    def __init__(self) -> None:
        self.failed: list[Outcome] = []
        self.warnings = WarningTally()
        self.totals = {"concepts": 0, "links": 0, "removed": 0, "chains": 0}
        self.seen = 0

    def add(self, o: Outcome) -> None:
        self.seen += 1
        if o.ok:
            for key in self.totals:
                self.totals[key] += getattr(o, key)
            self.warnings.add(o.diagnostics)
        else:
            self.failed.append(o)
