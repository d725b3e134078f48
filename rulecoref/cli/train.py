"""``rulecoref train``: fit a Bell-tree link model (Luo et al. 2004) on gold chains, save it as JSON."""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path
from typing import Any

from ..errors import CliError, diagnostic
from ..io.formats import find_inputs
from ..io.layout import find_records
from ..io.outdir import OutputFile
from .common import (
    add_allow_path_option,
    add_format_options,
    add_quiet_options,
    add_types_option,
    cli_resources,
    encoding_name,
    gather_inputs,
    input_format,
    inputs_of,
    jobs_count,
    number,
    parse_types,
    print_diagnostics,
    progress_bar,
    read_options_for,
    whole,
)


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
    p.add_argument("inputs", nargs="*", metavar="GOLD_DIR",
                   help="gold documents with their chains: i2b2 folders (or .txt/.con files), JSONL with chains, brat")
    p.add_argument("--model", type=Path, required=True, metavar="JSON",
                   help="where to write the model (an existing file is replaced only when it is a rulecoref model)")
    p.add_argument("--kind", choices=("mention-pair", "entity-mention"), default="mention-pair",
                   help="link model (default mention-pair, the better one in Luo et al. 2004)")
    p.add_argument("--rules", type=Path, default=None, metavar="YAML|NAME",
                   help="rule file whose passes feed hybrid features (e.g. rules/hybrid.yaml); its decoder is not used "
                        "(default: rules/belltree.yaml, no passes; its attributes: settings apply either way)")
    add_allow_path_option(p)
    p.add_argument("--wordnet", default=None, metavar="DIR",
                   help="WordNet 3.0 dict folder (default: $RULECOREF_WORDNET or /usr/share/wordnet)")
    p.add_argument("--jobs", "-j", type=jobs_count, default=1, metavar="N",
                   help="documents read and turned into events in parallel, in N worker processes (default 1)")
    add_types_option(p)
    p.add_argument("--file-list", type=Path, default=None, help="a file listing inputs, one per line")
    p.add_argument("--window", type=whole(0, 10_000), default=10,
                   help="sentences back for training pairs/entities, as at decoding (0 = all compatible pairs; default 10)")
    p.add_argument("--max-members", type=whole(0, 10_000), default=16,
                   help="members compared per entity (entity-mention features; default 16)")
    p.add_argument("--c", type=number(0.0, 1e12, above=True), default=1.0,
                   help="inverse L2 regularisation strength of the logistic regression (default 1.0)")
    p.add_argument("--min-count", type=whole(0, 10**9), default=2, help="drop features seen in fewer events (default 2)")
    p.add_argument("--no-type-check", action="store_true", help="also train on pairs of different non-pronoun types")
    p.add_argument("--encoding", default="utf-8", type=encoding_name, help="input encoding (default utf-8; a BOM is accepted)")
    add_quiet_options(p)
    add_format_options(p, "GOLD_DIR")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..belltree.maxent import is_model_file
    from ..belltree.train import TrainSettings, train
    from ..engine import Pipeline
    from ..rules.compiler import compile_rules
    from ..rules.files import bundled_rules

    inputs = gather_inputs(args, "GOLD_DIR with docs/, concepts/ and chains/")
    fmt = input_format(args, inputs)
    records, problems = find_records(inputs) if fmt.name == "i2b2" else find_inputs(inputs, fmt.name, args.encoding)
    sink = OutputFile(args.model, inputs=inputs_of(records, inputs, fmt.name), ours=is_model_file,
                      what="a rulecoref model").check()
    t0 = time.perf_counter()
    # the model to train may not exist yet: the rule file's decoder is not built
    ruleset = dataclasses.replace(compile_rules(args.rules or bundled_rules("belltree"), allow_paths=args.allow_path),
                                  decoder=None)
    pipeline = Pipeline(ruleset, cli_resources(args))
    hybrid = args.rules is not None and bool(ruleset.passes)
    types = parse_types(args.types, ruleset.types)
    if not records:
        raise CliError(diagnostic("RC605", detail=f"no readable documents in {', '.join(map(str, inputs))}"))
    settings = TrainSettings(kind=args.kind, window=args.window, max_members=args.max_members, c=args.c,
                             min_count=args.min_count, type_check=not args.no_type_check)
    warnings = list(problems)
    try:
        with progress_bar(args, len(records), "events") as bar:
            def seen(d: Any) -> None:
                warnings.extend(d.diagnostics if d.ok else [])
                bar()
                if bar.t is not None and bar.t.n == len(records):  # every document read: the fit follows
                    bar.stage("fitting", None)

            model, failed = train(pipeline, records, settings, hybrid=hybrid, jobs=args.jobs, types=types,
                                  encoding=args.encoding, on_document=seen, opts=read_options_for(args, fmt, types))
    except ValueError as exc:
        raise CliError(diagnostic("RC605", detail=str(exc))) from exc
    if warnings and not args.quiet:
        print_diagnostics(warnings[:20], prefix="warning: ")
        if len(warnings) > 20:
            print(f"warning: ... and {len(warnings) - 20} more", file=sys.stderr)
    for d in failed:
        print_diagnostics(d.diagnostics, prefix=f"error: {d.name}: ")
    model.settings["rules"] = str(args.rules) if args.rules else None
    sink.write(model.to_json())
    st = model.stats
    print(f"rulecoref: {args.kind} model from {len(records) - len(failed)}/{len(records)} docs: {st['events']} events "
          f"({st['positive']} linked), {st['features']} features"
          f"{', hybrid (' + str(len(ruleset.passes)) + ' rule passes)' if hybrid else ''} -> {args.model} "
          f"({time.perf_counter() - t0:.1f} s)" + (f"; {len(failed)} failed" if failed else ""))
    return 1 if failed else 0
