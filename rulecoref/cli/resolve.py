"""``rulecoref resolve``: link the concepts of a batch and write .txt.chains files."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable
from pathlib import Path

from ..batch import BatchOptions, Outcome, run_batch
from ..errors import CliError, Diagnostic, diagnostic
from ..io.formats import (
    INPUT_FORMATS,
    OUTPUT_FORMATS,
    default_abbreviations,
    existing_outputs,
    find_inputs,
    output_paths,
)
from ..io.i2b2 import write_atomic
from ..io.layout import input_folders
from ..io.outdir import LOCK, OutputLock, check_out_dir, make_out_dir
from ..io.typemap import read_type_map
from .common import (
    add_input_options,
    add_rules_option,
    cli_resources,
    gather_inputs,
    load_pipeline,
    positive_int,
    print_diagnostics,
    rules_path,
)
from .report import REPORT, finish, print_warnings, run_locked


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "resolve",
        help="link concepts and write .txt.chains files",
        description=(
            "Resolve coreference for every record of DATA (an i2b2 folder with docs/ and concepts/, "
            "a flat folder of NAME.txt + NAME.txt.con, or explicit files; JSONL or brat with --input-format) "
            "and write OUT/NAME.txt.chains (or another --format). "
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
                   help="delete the output files of --format already in OUT_DIR first (other files are kept)")
    p.add_argument("--strict", action="store_true", help="a concept whose text does not match its tokens is an error")
    p.add_argument("--provenance", action="store_true", help="also write OUT/NAME.links.json: every link and who made or removed it")
    add_format_options(p)
    p.add_argument("--format", choices=OUTPUT_FORMATS, default="i2b2",
                   help="what to write per document: i2b2 NAME.txt.chains (default), conll NAME.conll, "
                        "jsonl NAME.jsonl, brat NAME.txt + NAME.ann (docs/formats.md)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--quiet", "-q", action="store_true", help="print only errors and the summary")
    p.set_defaults(run=run)


def add_format_options(p: argparse.ArgumentParser) -> None:
    """How DATA is read when it is not i2b2: shared by resolve and view."""
    p.add_argument("--input-format", choices=INPUT_FORMATS, default="i2b2",
                   help="DATA's format: i2b2 folders/files (default), jsonl files (one document per line, "
                        "concepts by character offsets) or brat standoff (NAME.txt + NAME.ann)")
    p.add_argument("--type-map", type=Path, default=None, metavar="YAML",
                   help="map the input's entity types to rule types (jsonl, brat; docs/formats.md)")


def _prepare_out(out: Path, overwrite: bool, fmt: str = "i2b2") -> None:
    """Refuse to mix with earlier outputs (RC501), or delete them with ``--overwrite``; called
    with the folder locked, so another run cannot write between this check and the batch."""
    stale = existing_outputs(fmt, out)
    if stale and not overwrite:
        if fmt != "i2b2":
            raise CliError(diagnostic("RC526", path=str(out), count=len(stale), what=f"{fmt} output file(s)"))
        raise CliError(diagnostic("RC501", path=str(out), count=len(stale)))
    for f in stale:
        f.unlink()


def _check_inputs_kept(records: list, out: Path, fmt: str, overwrite: bool) -> None:
    """Refuse (RC522) an output folder where writing or --overwrite would touch an input file
    (brat output writes NAME.txt; a JSONL input may sit in OUT as NAME.jsonl)."""
    inputs = {p.resolve(): p for rec in records for p in (rec.txt, rec.con, rec.chains) if p is not None}
    touched = [p for rec in records for p in output_paths(fmt, out, rec.name)]
    if overwrite:
        touched += existing_outputs(fmt, out)
    for path in touched:
        if path.resolve() in inputs:
            raise CliError(diagnostic("RC522", path=str(path), input=str(inputs[path.resolve()])))


def parse_types(value: str | None, declared: tuple[str, ...]) -> tuple[str, ...] | None:
    if value is None:
        return declared
    if value.strip().lower() == "auto":
        return None
    return tuple(t.strip().lower() for t in value.split(",") if t.strip())


def run(args: argparse.Namespace) -> int:
    return run_locked(args, _run)


def _run(args: argparse.Namespace, lock: OutputLock) -> int:
    inputs = gather_inputs(args)
    # i2b2 records without text are reported per document below; texts without concepts and other
    # formats' strays here
    records, strays = find_inputs(inputs, args.input_format, args.encoding)
    # before the start-up: a bad --out costs nothing
    check_out_dir(args.out, input_folders(inputs if args.input_format == "i2b2" else [], records))
    overrides = {"model": args.model} if args.model else {}
    resources = cli_resources(args)
    t0 = time.perf_counter()
    pipeline = load_pipeline(args, resources, **overrides)
    startup = time.perf_counter() - t0
    type_map = read_type_map(args.type_map) if args.type_map else None
    make_out_dir(args.out)
    lock.acquire()
    _check_inputs_kept(records, args.out, args.format, args.overwrite)
    _prepare_out(args.out, args.overwrite, args.format)
    types = parse_types(args.types, pipeline.ruleset.types)
    opts = BatchOptions(out_dir=args.out, strict_text=args.strict, encoding=args.encoding, provenance=args.provenance,
                        types=types, format=args.format, type_map=type_map,
                        abbreviations=default_abbreviations() if args.input_format != "i2b2" else frozenset())
    outcomes = run_batch(pipeline, records, opts, jobs=args.jobs)
    if not args.no_progress:
        from tqdm import tqdm

        outcomes = tqdm(outcomes, total=len(records), unit="doc", file=sys.stderr, disable=None, leave=False)
    failed, warnings, totals = _tally(outcomes)
    seconds = time.perf_counter() - t0
    print_warnings(warnings, args.out, quiet=args.quiet)
    for o in failed:
        print_diagnostics(o.diagnostics, prefix=f"error: {o.name}: ")
    print_diagnostics(strays, prefix="error: ")
    if args.format == "brat":
        from ..io.brat import annotation_conf

        write_atomic(args.out / "annotation.conf", annotation_conf(types or pipeline.ruleset.types))
    report = {
        "rules": str(rules_path(args)),
        "documents": len(records),
        "resolved": len(records) - len(failed),
        "failed": [{"document": o.name, "problems": [d.to_dict() for d in o.diagnostics]} for o in failed]
        + [{"document": None, "problems": [d.to_dict()]} for d in strays],
        "warnings": [d.to_dict() for d in warnings],
        **totals,
    }
    return finish(args.out, report, seconds=seconds, startup=startup)


def _tally(outcomes: Iterable[Outcome]) -> tuple[list[Outcome], list[Diagnostic], dict[str, int]]:
    """The failed documents, the warnings of the others and their summed counts."""
    failed, warnings = [], []
    totals = {"concepts": 0, "links": 0, "removed": 0, "chains": 0}
    for o in outcomes:
        if o.ok:
            for key in totals:
                totals[key] += getattr(o, key)
            warnings.extend(o.diagnostics)
        else:
            failed.append(o)
    return failed, warnings, totals
