"""``rulecoref ablate``: what each pass of a rule file adds on gold documents, and (``--search``) a
greedy search over pass order, dropped passes and numeric parameters that writes the winning file."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import CliError, InputError, diagnostic
from .common import (
    add_format_options,
    add_quiet_options,
    add_rules_option,
    add_types_option,
    cli_resources,
    encoding_name,
    gold_documents,
    inputs_of,
    parse_types,
    print_diagnostics,
    progress_bar,
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
    add_format_options(p, "GOLD")
    add_rules_option(p)
    add_types_option(p)
    p.add_argument("--encoding", default="utf-8", type=encoding_name, help="input encoding (default utf-8)")
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
    add_quiet_options(p)
    p.set_defaults(run=run)


def rule_file_out(args: argparse.Namespace, reads: Iterable[Path]) -> Any:
    """``--out``, checked before any work as every output is (``io/outdir.py``): never GOLD's files
    or a file the rule set reads (``RuleSet.inputs``: includes, word lists, model, UMLS file;
    RC522), nor under GOLD's docs/, concepts/ or chains/ (RC505); an existing file is replaced
    only with ``--overwrite`` (RC513)."""
    from ..io.layout import find_records
    from ..io.outdir import OutputFile

    try:
        records = find_records(args.gold)[0]
    except InputError:
        records = []  # reported when the gold is read
    return OutputFile(args.out, overwrite=args.overwrite, inputs=inputs_of(records, args.gold, extra=list(reads)),
                      what="a rule file").check()


def check_search_options(args: argparse.Namespace) -> None:
    """The settings of ``--search``, checked before any work (RC577, exit 2): a share held back in
    [0, 1), at most 100 changes, a gain of 0 to 100 points (a negative one kept changes that lower
    F1), all finite; ``--out`` only with ``--search`` and ``--search`` only with ``--out``."""
    if args.search and args.out is None:
        raise CliError(diagnostic("RC577", option="--search", detail="needs --out NEW.yaml, the file to write"))
    if args.out is not None and not args.search:
        raise CliError(diagnostic("RC577", option="--out", detail="only --search writes a rule file; add --search"))
    if not 0 <= args.holdout < 1:  # nan and inf too
        raise CliError(diagnostic("RC577", option=f"--holdout {args.holdout}", detail="expected a share from 0 to below 1"))
    if not 0 <= args.max_changes <= 100:
        raise CliError(diagnostic("RC577", option=f"--max-changes {args.max_changes}", detail="expected 0 to 100"))
    if not 0 <= args.min_gain <= 100:
        raise CliError(diagnostic("RC577", option=f"--min-gain {args.min_gain}",
                                  detail="expected a finite number of points from 0 to 100"))


def run(args: argparse.Namespace) -> int:
    from ..extras import require

    require("eval", "rulecoref ablate (scoring)")
    from ..learn.ablate import ablate, format_ablation
    from ..rules.compiler import compile_rules

    check_search_options(args)
    path = rules_path(args)
    ruleset = compile_rules(path, allow_paths=args.allow_path)
    sink = rule_file_out(args, ruleset.inputs) if args.search else None
    if ruleset.decoder is not None:
        raise CliError(diagnostic("RC572", path=str(path), kind=ruleset.decoder.kind, command="ablate"))
    docs, warnings = gold_documents(args, parse_types(args.types, ruleset.types))
    if warnings and not args.quiet:
        print_diagnostics(warnings[:10], prefix="warning: ")
    resources = cli_resources(args)
    if args.search:
        return run_search(args, path, ruleset, docs, resources, sink)
    steps = len(docs) * (1 + len(ruleset.passes))
    with progress_bar(args, steps, "ablate", unit="step") as progress:
        report = ablate(docs, ruleset, resources, progress)
    if args.json:
        print(json.dumps(report.to_dict(), indent=1))
    else:
        print(format_ablation(report), end="")
    return 0


def run_search(args: argparse.Namespace, path: Path, ruleset, docs, resources, sink) -> int:
    from ..learn.search import search_rules

    with progress_bar(args, None, "search", unit="step") as progress:
        result = search_rules(path, ruleset, docs, resources, max_changes=args.max_changes,
                              min_gain=args.min_gain / 100, holdout=args.holdout, progress=progress,
                              allow_paths=args.allow_path)
    result.write(sink)  # a full disk is RC510 naming the file (io/outdir.py)
    for folder in result.needs_allow(args.out):
        print(f"note: {args.out} reads files in {folder}: run it with --allow-path {folder}", file=sys.stderr)
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
