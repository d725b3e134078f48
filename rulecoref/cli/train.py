"""``rulecoref train``: fit a Bell-tree link model (Luo et al. 2004) on gold chains, save it as JSON."""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

from ..errors import CliError, diagnostic
from ..io.layout import find_records, iter_file_list
from .common import add_allow_path_option, cli_resources, encoding_name, print_diagnostics


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "train",
        help="train a Bell-tree maxent link model from gold chains",
        description=(
            "Train the mention-pair (eq. 9) or entity-mention (eq. 8) model of Luo et al. 2004 on every record of "
            "GOLD_DIR (i2b2 layout: docs/, concepts/, chains/; any concept types) and write it as JSON. "
            "With --rules, the rule passes of that file run first and their decisions become features (hybrid model); "
            "decode it with the same rule file."
        ),
    )
    p.add_argument("inputs", nargs="*", metavar="GOLD_DIR", help="i2b2 folders (or .txt/.con files) with gold chains")
    p.add_argument("--model", type=Path, required=True, metavar="JSON", help="where to write the model")
    p.add_argument("--kind", choices=("mention-pair", "entity-mention"), default="mention-pair",
                   help="link model (default mention-pair, the seed's better one)")
    p.add_argument("--rules", type=Path, default=None, metavar="YAML",
                   help="rule file whose passes feed hybrid features (e.g. rules/hybrid.yaml); its decoder is not used")
    add_allow_path_option(p)
    p.add_argument("--wordnet", default=None, metavar="DIR", help="WordNet 3.0 dict folder (head word classes)")
    p.add_argument("--no-wordnet", action="store_true", help="do not use WordNet even if it is available")
    p.add_argument("--types", default="auto", metavar="LIST|auto",
                   help="comma-separated concept types the input may use, or 'auto' (default) for any type")
    p.add_argument("--file-list", type=Path, default=None, help="a file listing inputs, one per line")
    p.add_argument("--window", type=int, default=10,
                   help="sentences back for training pairs/entities, as at decoding (0 = all compatible pairs; default 10)")
    p.add_argument("--max-members", type=int, default=16,
                   help="members compared per entity (entity-mention features; default 16)")
    p.add_argument("--c", type=float, default=1.0,
                   help="inverse L2 regularisation strength of the logistic regression (default 1.0)")
    p.add_argument("--min-count", type=int, default=2, help="drop features seen in fewer events (default 2)")
    p.add_argument("--no-type-check", action="store_true", help="also train on pairs of different non-pronoun types")
    p.add_argument("--encoding", default="utf-8", type=encoding_name, help="input encoding (default utf-8; a BOM is accepted)")
    p.add_argument("--quiet", "-q", action="store_true", help="print only errors and the summary")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..belltree.features import Lexicons, optional_wordnet
    from ..belltree.train import TrainSettings, load_gold, train

    inputs = list(args.inputs)
    if args.file_list:
        inputs.extend(iter_file_list(args.file_list))
    if not inputs:
        raise CliError(diagnostic("RC502", detail="no input: give a GOLD_DIR with docs/, concepts/ and chains/"))
    t0 = time.perf_counter()
    resources = cli_resources(args)
    types = None if args.types.strip().lower() == "auto" else tuple(t.strip().lower() for t in args.types.split(",") if t.strip())
    passes: list = []
    pronoun_types: tuple[str, ...] = ("pronoun",)
    pipeline = None
    if args.rules is not None:
        from ..engine import Pipeline
        from ..rules.compiler import compile_rules

        ruleset = dataclasses.replace(compile_rules(args.rules, allow_paths=args.allow_path), decoder=None)  # the model to train may not exist yet
        pipeline = Pipeline(ruleset, resources)
        passes = [(cfg.name, cfg.scope) for cfg in ruleset.passes]
        pronoun_types = tuple(sorted(ruleset.pronoun_types)) or ("pronoun",)
    records, problems = find_records(inputs)
    docs, warnings = [], list(problems)
    for rec in records:
        if rec.txt is None:
            continue
        td, w = load_gold(rec, types=types, encoding=args.encoding)
        warnings.extend(w)
        if pipeline is not None:
            td.resolution = pipeline.run_passes(td.doc)
        docs.append(td)
    if not docs:
        raise CliError(diagnostic("RC605", detail=f"no readable documents in {', '.join(map(str, inputs))}"))
    if not any(td.gold for td in docs):
        raise CliError(diagnostic("RC605", detail="no gold chains found (expected GOLD_DIR/chains/NAME.txt.chains)"))
    if warnings and not args.quiet:
        print_diagnostics(warnings[:20], prefix="warning: ")
        if len(warnings) > 20:
            print(f"warning: ... and {len(warnings) - 20} more", file=sys.stderr)
    settings = TrainSettings(kind=args.kind, window=args.window, max_members=args.max_members, c=args.c,
                             min_count=args.min_count, type_check=not args.no_type_check)
    wordnet = None if args.no_wordnet else optional_wordnet(resources)
    lex = Lexicons.load(resources)
    try:
        model = train(docs, lex, settings, wordnet=wordnet, passes=passes, pronoun_types=pronoun_types)
    except ValueError as exc:
        raise CliError(diagnostic("RC605", detail=str(exc))) from exc
    model.settings["rules"] = str(args.rules) if args.rules else None
    model.save(args.model)
    st = model.stats
    print(f"rulecoref: {args.kind} model from {len(docs)} docs: {st['events']} events ({st['positive']} linked), "
          f"{st['features']} features{', hybrid (' + str(len(passes)) + ' rule passes)' if passes else ''}"
          f"{', WordNet' if wordnet is not None else ''} -> {args.model} ({time.perf_counter() - t0:.1f} s)")
    return 0
