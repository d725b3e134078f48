"""``rulecoref induce``: learn readable ``match`` and ``filter`` rules from gold chains on top of a
base rule file, and write them as a rule file that includes the base (docs/induce.md)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

from ..errors import CliError, diagnostic
from .ablate import rule_file_out
from .common import (
    add_allow_path_option,
    add_format_options,
    add_quiet_options,
    add_types_option,
    cli_resources,
    encoding_name,
    gold_documents,
    parse_types,
    print_diagnostics,
    progress_bar,
)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "induce",
        help="learn match and filter rules from gold chains; write them as a rule file",
        description=(
            "Search the space of match rules (blocking key x required predicates x vetoes x window x types) and "
            "filters on top of a base rule file, choosing greedily by CoNLL F1 on part of GOLD and keeping a rule "
            "only if it also raises the F1 of the documents held back. Writes --out: a rule file that includes "
            "the base and adds the learned passes, each named and described, with examples generated from the "
            "rule itself. See docs/induce.md."
        ),
    )
    p.add_argument("gold", nargs="+", type=Path, metavar="GOLD",
                   help="gold documents with their chains: i2b2 folders, JSONL with chains, brat with coreference")
    add_format_options(p, "GOLD")
    p.add_argument("--out", "-o", type=Path, required=True, metavar="NEW.yaml", help="the learned rule file to write")
    p.add_argument("--base", type=Path, default=None, metavar="R.yaml",
                   help="the rule file to build on (default: the bundled rules/i2b2.yaml)")
    add_allow_path_option(p)
    p.add_argument("--wordnet", default=None, metavar="DIR", help="WordNet 3.0 dict folder")
    add_types_option(p)
    p.add_argument("--encoding", default="utf-8", type=encoding_name, help="input encoding (default utf-8)")
    p.add_argument("--min-precision", type=float, default=0.5, metavar="P",
                   help="a rule's links that join chains must be right at least this often (default 0.5)")
    p.add_argument("--max-rules", type=int, default=12, metavar="N", help="at most N learned passes (default 12)")
    p.add_argument("--holdout", type=float, default=0.33, metavar="SHARE",
                   help="share of GOLD's documents held back to decide whether a rule is kept (default 0.33)")
    p.add_argument("--leave-out", action="append", default=[], metavar="PREDICATE",
                   help="keep a predicate out of the search, e.g. one your readers find hard to check "
                        "(repeatable; docs/rules.md lists them)")
    p.add_argument("--examples", choices=("generated", "none"), default="generated",
                   help="write examples generated from each rule (default), or none")
    p.add_argument("--overwrite", action="store_true", help="replace an existing --out")
    p.add_argument("--json", action="store_true", help="print a JSON summary instead of text")
    add_quiet_options(p)
    p.set_defaults(run=run)


def _check_options(args: argparse.Namespace) -> None:
    if not 0 < args.min_precision <= 1:
        raise CliError(diagnostic("RC577", option=f"--min-precision {args.min_precision}",
                                  detail="expected a share above 0 and at most 1"))
    if not 0 <= args.holdout < 1:
        raise CliError(diagnostic("RC577", option=f"--holdout {args.holdout}", detail="expected a share from 0 to below 1"))
    if not 1 <= args.max_rules <= 100:
        raise CliError(diagnostic("RC577", option=f"--max-rules {args.max_rules}", detail="expected 1 to 100"))
    from ..predicates import PREDICATES

    unknown = [name for name in args.leave_out if name not in PREDICATES]
    if unknown:
        raise CliError(diagnostic("RC577", option=f"--leave-out {unknown[0]}",
                                  detail="no such predicate; known: " + ", ".join(sorted(PREDICATES))))


def run(args: argparse.Namespace) -> int:
    from ..extras import require

    require("eval", "rulecoref induce (scoring)")
    from ..engine import Pipeline
    from ..learn.induce import Settings, induce
    from ..learn.writer import write_learned
    from ..rules.compiler import compile_rules
    from ..rules.files import bundled_rules

    _check_options(args)
    started = time.process_time()
    base_path = args.base or bundled_rules("i2b2")
    base = compile_rules(base_path, allow_paths=args.allow_path)
    sink = rule_file_out(args, base.inputs)
    if base.decoder is not None:
        raise CliError(diagnostic("RC572", path=str(base_path), kind=base.decoder.kind, command="induce"))
    docs, warnings = gold_documents(args, parse_types(args.types, base.types))
    if args.holdout > 0 and len(docs) < 2:
        raise CliError(diagnostic("RC573", count=len(docs), need=2))
    if warnings and not args.quiet:
        print_diagnostics(warnings[:10], prefix="warning: ")
    resources = cli_resources(args)
    pipeline = Pipeline(base, resources, find_mentions="off")  # learns from the gold concepts
    settings = Settings(min_precision=args.min_precision, max_rules=args.max_rules, holdout=args.holdout,
                        patience=Settings.patience if args.holdout > 0 else 1, leave_out=frozenset(args.leave_out))
    with progress_bar(args, None, "induce", unit="step") as progress:
        result = induce(docs, pipeline, settings, progress, progress.stage)
    left = "".join(f" --leave-out {name}" for name in args.leave_out)
    note = (f"Settings: --min-precision {args.min_precision} --max-rules {args.max_rules} --holdout {args.holdout}{left}; "
            f"{result.tried} candidate rules passed the precision and support bars, "
            f"kept: {len(result.chosen)}; refused by the held-back documents: {len(result.rejected)}.")
    if result.warnings and not args.quiet:
        print_diagnostics(result.warnings[:10], prefix="warning: ")
    written = write_learned(result, docs, base_path, base, sink, resources,  # a full disk: RC510 (io/outdir.py)
                            examples=args.examples == "generated", command=_command(), settings_note=note)
    seconds = time.process_time() - started
    if args.json:
        print(json.dumps({**written.to_dict(), "documents": len(docs), "held_back": result.held_names,
                          "candidates": result.tried, "refused": len(result.rejected),
                          "mentions_with_cut_candidate_lists": result.truncated, "cpu_seconds": round(seconds, 1)},
                         indent=1))
    else:
        _print_summary(written, result, seconds)
    return 0


def _command() -> str:
    return "rulecoref " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:] else "rulecoref induce"


def _print_summary(written, result, seconds: float) -> None:
    n = len(written.passes)
    print(f"{written.path}: {n} learned pass{'' if n == 1 else 'es'} ({written.examples} examples"
          + (f", {written.examples_dropped} dropped" if written.examples_dropped else "") + ")")
    for p in written.passes:
        print(f"  {p.name}: precision {100 * p.chosen.stats.new_precision:.0f}%, "
              f"{100 * p.chosen.gain:+.2f} chosen-on / {100 * p.chosen.held_gain:+.2f} held back")
    print(f"CoNLL F1 chosen-on {100 * written.base_f1:.2f} -> {100 * written.f1:.2f}, held back "
          f"{100 * written.held_base_f1:.2f} -> {100 * written.held_f1:.2f} ({len(result.train_names)} + "
          f"{len(result.held_names)} documents, {seconds:.0f} s CPU)")
