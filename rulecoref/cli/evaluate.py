"""``rulecoref evaluate``: score system chains against gold chains (MUC, B3, CEAF, BLANC, links)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import Diagnostic, RulecorefError
from .common import (
    add_format_options,
    add_quiet_options,
    encoding_name,
    print_diagnostics,
    progress_bar,
    read_options_for,
)

#: scoring modes (``rulecoref.evaluate.MODES``, which needs the ``eval`` extra to import)
MODES = ("conll", "i2b2")

#: the errors that mean GOLD or SYSTEM is no input at all: not found, no documents, no such mode
NOTHING_TO_SCORE = frozenset({"RC705", "RC711", "RC712"})

PER_CODE = 3  # warnings printed per code; the rest are counted (all of them are in --json)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "evaluate",
        help="score system chains against gold chains",
        description=(
            "Score SYSTEM (a folder of NAME.txt.chains, flat or in chains/) against GOLD (an i2b2 folder "
            "with concepts/ and chains/), or resolve's output of JSONL or brat documents (NAME.jsonl, NAME.ann "
            "or NAME.txt.chains) against the gold JSONL (its chains) or brat (its coreference), mentions "
            "matched by their characters. Every concept outside any chain is a singleton on both sides. "
            "Two CoNLL-2012 files (key, response) can be scored instead. Exit 0 on success, 1 when the "
            "data cannot be scored, 2 when GOLD or SYSTEM is missing or holds no documents. See docs/evaluation.md."
        ),
    )
    p.add_argument("gold", type=Path, metavar="GOLD",
                   help="i2b2 gold folder, JSONL with chains, brat with coreference, or a CoNLL key file")
    p.add_argument("system", type=Path, metavar="SYSTEM",
                   help="resolve's output folder (.txt.chains, .jsonl or brat), or a CoNLL response file")
    p.add_argument("--mode", choices=MODES, default="conll",
                   help="conll: reference scorer v8.01 definitions, summed over documents (default); "
                        "i2b2: the official i2b2/VA 2011 scorer (pooled corpus, entity-weighted B3, 3 decimals)")
    p.add_argument("--by-type", action="store_true", help="also score each gold chain type separately")
    p.add_argument("--gap", action="store_true",
                   help="GAP-style score instead: P/R/F1 of 'pronoun and name corefer' over every (pronoun, "
                        "non-pronoun concept) pair of each document, overall and by the pronoun's gender "
                        "(Webster et al. 2018's scorer; docs/evaluation.md)")
    p.add_argument("--concepts", type=Path, default=None, metavar="DIR",
                   help="folder of gold .txt.con files when they are not in GOLD/concepts")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--encoding", default="utf-8", type=encoding_name, help="input encoding (default utf-8)")
    add_quiet_options(p)
    add_format_options(p, "GOLD")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..evaluate import format_table, score_conll_files, score_dirs, score_records

    if args.gap:
        return run_gap(args)
    try:
        fmt = gold_format(args)
        if fmt is not None:
            report = score_records(args.gold, args.system, fmt, read_options_for(args, fmt, None), mode=args.mode,
                                   by_type=args.by_type)
        elif args.gold.is_file():
            report = score_conll_files(args.gold, args.system, mode=args.mode)
        else:
            with progress_bar(args, None, "evaluate") as bar:
                report = score_dirs(args.gold, args.system, mode=args.mode, by_type=args.by_type,
                                    concepts_dir=args.concepts, encoding=args.encoding, progress=bar.at)
    except RulecorefError as exc:
        return _failed(exc)
    if args.by_type and args.gold.is_file():
        print("warning: CoNLL files carry no types; --by-type is ignored", file=sys.stderr)
    if report.warnings and not args.quiet:
        print_warnings(report.warnings)
    if args.json:
        print(json.dumps(report.to_dict(), indent=1))
    else:
        print(format_table(report), end="")
    return 0


def gold_format(args: argparse.Namespace) -> Any:
    """The format of GOLD when it is one read by records with character offsets (JSONL, brat),
    named by --input-format or found from it; None for an i2b2 folder or a CoNLL key file."""
    from ..io.formats import detect_format, formats, get_format

    name = args.input_format or detect_format(args.gold, [f for f in formats() if f.reads])
    if args.input_format is None and name == "i2b2" and args.gold.is_file():
        return None  # a .txt file is no i2b2 gold: a CoNLL key
    return None if name in (None, "i2b2") else get_format(name)


def run_gap(args: argparse.Namespace) -> int:
    """``--gap``: GAP's scorecard from the chains of an i2b2 folder pair."""
    from ..evaluate.gap import format_gap, score_gap

    try:  # a CoNLL file (no folder) is RC712: GAP pairs need the i2b2 concepts
        report = score_gap(args.gold, args.system, concepts_dir=args.concepts, encoding=args.encoding)
    except RulecorefError as exc:
        return _failed(exc)
    if report.warnings and not args.quiet:
        print_warnings(report.warnings)
    print(json.dumps(report.to_dict(), indent=1) if args.json else format_gap(report), end="\n" if args.json else "")
    return 0


def _failed(exc: RulecorefError) -> int:
    """Exit 2 when there was nothing to score (a missing folder or file, no documents, an unknown
    mode), as every command exits on an input it cannot use; 1 when the data met could not be scored."""
    if set(exc.codes) & NOTHING_TO_SCORE:
        raise exc
    print_diagnostics(exc.diagnostics, prefix="rulecoref: ")
    return 1


def print_warnings(warnings: list[Diagnostic]) -> None:
    """A few warnings of each code, then how many more there are (an empty system folder gives
    one RC703 per document)."""
    by_code: dict[str, list[Diagnostic]] = {}
    for w in warnings:
        by_code.setdefault(w.code, []).append(w)
    for code, group in by_code.items():
        print_diagnostics(group[:PER_CODE], prefix="warning: ")
        if len(group) > PER_CODE:
            print(f"warning: ... and {len(group) - PER_CODE} more [{code}] (all are in --json output)", file=sys.stderr)
