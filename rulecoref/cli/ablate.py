"""``rulecoref ablate``: what each pass of a rule file adds on gold documents, and (``--search``) a
greedy search over pass order, dropped passes and numeric parameters that writes the winning file."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import CliError, InputError, diagnostic
from .common import (
    add_format_options,
    add_rules_option,
    cli_resources,
    encoding_name,
    gold_documents,
    inputs_of,
    print_diagnostics,
    rules_path,
)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ablate",
        help="per pass: links, link precision, links only it found, CoNLL F1 without it",
        description=(
            "Resolve the gold documents of GOLD with a rule file and report, for every pass, the links it made, "
            "their precision against the gold chains, the gold links no other pass found, and the CoNLL F1 of "
            "the file without that pass. With --search, try moving, dropping and re-parameterising passes "
            "greedily against the CoNLL F1 on GOLD and write the best file to --out (docs/induce.md)."
        ),
    )
    p.add_argument("gold", nargs="+", type=Path, metavar="GOLD",
                   help="gold documents with their chains: i2b2 folders, JSONL with chains, brat with coreference")
    add_rules_option(p)
    p.add_argument("--types", default=None, metavar="LIST|auto",
                   help="concept types the input may use, or 'auto' for any (default: the rule file's)")
    p.add_argument("--encoding", default="utf-8", type=encoding_name, help="input encoding (default utf-8)")
    add_format_options(p, "GOLD")
    p.add_argument("--json", action="store_true", help="print JSON (a top-level \"passes\" list) instead of a table")
    p.add_argument("--search", action="store_true",
                   help="search pass order, drops and numeric parameters; write the winning file to --out")
    p.add_argument("--out", "-o", type=Path, default=None, metavar="NEW.yaml", help="with --search: the rule file to write")
    p.add_argument("--overwrite", action="store_true", help="with --search: replace an existing --out")
    p.add_argument("--max-changes", type=int, default=8, metavar="N",
                   help="with --search: at most N changes, each the best single change of its round (default 8)")
    p.add_argument("--min-gain", type=float, default=0.05, metavar="POINTS",
                   help="with --search: a change must raise CoNLL F1 by at least this many points (default 0.05)")
    p.add_argument("--holdout", type=float, default=0.33, metavar="SHARE",
                   help="with --search: share of GOLD's documents held back; a change is kept only if it also "
                        "raises their CoNLL F1 (default 0.33; 0: choose on all of GOLD)")
    add_progress_options(p)
    p.set_defaults(run=run)


def add_progress_options(p: argparse.ArgumentParser) -> None:
    """``--no-progress`` and ``--quiet``, as ``resolve`` has them (no bar either when stderr is no terminal)."""
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar or warnings")


def no_bar(args: argparse.Namespace) -> bool:
    return bool(args.quiet or args.no_progress)


class Bar:
    """A progress bar on stderr: ``bar(n)`` advances it, ``bar.stage(name, total)`` starts a stage."""

    def __init__(self, t=None):
        self.t = t

    def __call__(self, n: int) -> None:
        if self.t is not None:
            self.t.update(n)

    def stage(self, name: str, total: int | None) -> None:
        if self.t is not None:
            self.t.reset(total=total)
            self.t.set_description(name)


@contextmanager
def bar(steps: int | None, what: str, off: bool) -> Iterator[Bar]:
    """A tqdm progress bar on stderr: none when ``off`` (--quiet, --no-progress) or when stderr is
    not a terminal (tqdm's ``disable=None``, as ``resolve`` does), so logs get no bar lines."""
    if off or not sys.stderr.isatty():
        yield Bar()
        return
    from tqdm import tqdm

    with tqdm(total=steps, desc=what, unit="step", file=sys.stderr, dynamic_ncols=True, disable=None) as t:
        yield Bar(t)


def parse_types(text: str | None, declared: tuple[str, ...]) -> tuple[str, ...] | None:
    """``--types``: None (the rule file's), 'auto' (any type: None) or a comma list."""
    if text is None:
        return declared
    if text.strip().lower() == "auto":
        return None
    return tuple(t.strip().lower() for t in text.split(",") if t.strip())


def rule_file_out(args: argparse.Namespace, reads: Path) -> Any:
    """``--out``, checked before any work as every output is (``io/outdir.py``): never GOLD's files
    or the rule file read (RC522), nor under GOLD's docs/, concepts/ or chains/ (RC505); an
    existing file is replaced only with ``--overwrite`` (RC513)."""
    from ..io.layout import find_records
    from ..io.outdir import OutputFile

    try:
        records = find_records(args.gold)[0]
    except InputError:
        records = []  # reported when the gold is read
    return OutputFile(args.out, overwrite=args.overwrite, inputs=inputs_of(records, args.gold, extra=[reads]),
                      what="a rule file").check()


def run(args: argparse.Namespace) -> int:
    from ..extras import require

    require("eval", "rulecoref ablate (scoring)")
    from ..learn.ablate import ablate, format_ablation
    from ..rules.compiler import compile_rules

    if args.search and args.out is None:
        raise CliError(diagnostic("RC577", option="--search", detail="needs --out NEW.yaml, the file to write"))
    path = rules_path(args)
    sink = rule_file_out(args, path) if args.search else None
    ruleset = compile_rules(path, allow_paths=args.allow_path)
    if ruleset.decoder is not None:
        raise CliError(diagnostic("RC572", path=str(path), kind=ruleset.decoder.kind, command="ablate"))
    docs, warnings = gold_documents(args, parse_types(args.types, ruleset.types))
    if warnings and not args.quiet:
        print_diagnostics(warnings[:10], prefix="warning: ")
    resources = cli_resources(args)
    if args.search:
        return run_search(args, path, ruleset, docs, resources, sink)
    steps = len(docs) * (1 + len(ruleset.passes))
    with bar(steps, "ablate", no_bar(args)) as progress:
        report = ablate(docs, ruleset, resources, progress)
    if args.json:
        print(json.dumps(report.to_dict(), indent=1))
    else:
        print(format_ablation(report), end="")
    return 0


def run_search(args: argparse.Namespace, path: Path, ruleset, docs, resources, sink) -> int:
    from ..learn.search import search_rules

    with bar(None, "search", no_bar(args)) as progress:
        result = search_rules(path, ruleset, docs, resources, max_changes=args.max_changes,
                              min_gain=args.min_gain / 100, holdout=args.holdout, progress=progress,
                              allow_paths=args.allow_path)
    result.write(sink)  # a full disk is RC510 naming the file (io/outdir.py)
    summary = result.to_dict()
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        held = len(result.held_names)
        print(f"{path}: CoNLL F1 {100 * result.start_f1:.2f} on {len(docs) - held} documents chosen on, "
              f"{100 * result.held_start_f1:.2f} on {held} held back; {result.tried} configurations run")
        for ch in result.changes:
            print(f"  {ch.describe()}: {100 * ch.gain:+.2f} chosen-on, {100 * ch.held_gain:+.2f} held back")
        print(f"{args.out}: CoNLL F1 {100 * result.final_f1:.2f} chosen-on, {100 * result.held_final_f1:.2f} "
              f"held back ({len(result.changes)} changes)")
    if not result.changes:
        print("no change raised the F1; the file written is the original with a note", file=sys.stderr)
    return 0
