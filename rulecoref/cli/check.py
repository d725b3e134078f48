"""``rulecoref check``: validate rule files and run their examples, before running a batch."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..engine import Pipeline
from ..rule_examples import run_examples
from ..rules.compiler import compile_rules
from ..rules.files import bundled_rules
from .common import add_allow_path_option, cli_resources


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="validate rule files and run their inline examples",
                       description="Validate each rule file completely (every problem with file:line) and run "
                                   "the examples of every pass. Exit 0 when all pass, 1 when an example fails, "
                                   "2 when a file is invalid.")
    p.add_argument("rules", nargs="*", type=Path, help="rule files (default: the bundled rules/i2b2.yaml)")
    p.add_argument("--wordnet", default=None, metavar="DIR", help="WordNet 3.0 dict folder")
    p.add_argument("--model", default=None, metavar="JSON", help="override the decoder's model path in the rule file")
    add_allow_path_option(p, network=False)
    p.add_argument("--verbose", "-v", action="store_true", help="list every example, not only failures")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    resources = cli_resources(args, offline=True)  # check never connects to a server (RC421)
    failed = 0
    for path in args.rules or [bundled_rules("i2b2")]:
        rs = compile_rules(path, decoder_overrides={"model": args.model} if args.model else None,
                           allow_paths=args.allow_path)
        # the whole pipeline, as resolve builds it: what resolve would reject at start-up (a missing
        # UMLS database, a missing model) check rejects too
        Pipeline(rs, resources)
        results = run_examples(rs, resources)
        bad = [r for r in results if not r.ok]
        failed += len(bad)
        for r in results if args.verbose else bad:
            print(r.describe())
        decoder = rs.decoder.kind if rs.decoder else "union_find"
        print(f"{path}: {len(rs.passes)} passes ({', '.join(p.name for p in rs.passes) or 'none'}), "
              f"decoder {decoder}, {len(results)} examples, {len(bad)} failed")
    return 1 if failed else 0
