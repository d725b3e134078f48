"""``rulecoref sweep``: CoNLL F1 as a function of the start penalty alpha (seed 000, Figure 2)."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from ..errors import CliError, diagnostic
from ..io.formats import find_inputs
from ..io.layout import find_records
from .common import (
    add_allow_path_option,
    add_format_options,
    add_quiet_options,
    add_types_option,
    cli_resources,
    input_format,
    load_pipeline,
    parse_types,
    print_diagnostics,
    read_options_for,
    tracked,
    whole,
)

#: Most start penalties one sweep decodes (each value decodes every document again).
MAX_ALPHAS = 1000
#: The smallest log alpha: the decoder's ``alpha`` is at least 1e-9 (``belltree.decoder``).
MIN_LOG_ALPHA = math.log(1e-9)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sweep",
        help="CoNLL F1 per start penalty alpha of the Bell-tree decoder",
        description=(
            "Decode GOLD_DIR with a belltree rule file for each start penalty alpha (eq. 6) and print the CoNLL F1 "
            "(mean of MUC, B3 and CEAF-e F1) per value, as in Figure 2 of Luo et al. 2004. The rule passes run "
            "once per document; only the search is repeated."
        ),
    )
    p.add_argument("inputs", nargs="+", metavar="GOLD_DIR",
                   help="gold documents with their chains: i2b2 folders, JSONL with chains, brat")
    p.add_argument("--rules", type=Path, default=None, metavar="YAML|NAME",
                   help="rule file with a belltree decoder (default: the bundled rules/belltree.yaml)")
    add_allow_path_option(p)
    p.add_argument("--model", default=None, metavar="JSON", help="override the decoder's model path")
    p.add_argument("--log-alphas", default="-2.5:0:0.25", metavar="START:STOP:STEP|LIST",
                   help="natural-log start penalties, a range START:STOP:STEP or a comma list (default -2.5:0:0.25)")
    p.add_argument("--beam", type=whole(1, 10_000), default=None, help="override the rule file's beam (1 to 10000)")
    p.add_argument("--window", type=whole(0, 10_000), default=None,
                   help="override the rule file's window (sentences back; 0 = all)")
    add_types_option(p)
    p.add_argument("--wordnet", default=None, metavar="DIR",
                   help="WordNet 3.0 dict folder (default: $RULECOREF_WORDNET or /usr/share/wordnet)")
    p.add_argument("--json", action="store_true", help="print one JSON line per alpha instead of a table")
    add_quiet_options(p)
    add_format_options(p, "GOLD_DIR")
    p.set_defaults(run=run)


def parse_log_alphas(text: str) -> list[float]:
    """START:STOP:STEP or a comma list of natural-log start penalties: finite, from ln(1e-9) to 0,
    at most MAX_ALPHAS of them, at least one (RC553 otherwise)."""
    def bad(detail: str) -> CliError:
        return CliError(diagnostic("RC553", option=f"--log-alphas {text[:60]!r}", detail=detail))

    try:
        if ":" in text:
            start, stop, step = (float(x) for x in text.split(":"))
            if not all(math.isfinite(v) for v in (start, stop, step)):
                raise bad("START, STOP and STEP must be finite numbers")
            if step <= 0:
                raise bad("step must be positive")
            span = (stop - start) / step
            count = math.floor(span + 1e-9) + 1 if math.isfinite(span) else MAX_ALPHAS + 1
            if count > MAX_ALPHAS:
                raise bad(f"the range has {count:,} values; at most {MAX_ALPHAS} (each decodes every document)")
            values = [round(start + i * step, 6) for i in range(max(0, count))]
        else:
            values = [float(x) for x in text.split(",") if x.strip()]
    except ValueError as exc:
        raise bad(str(exc)) from exc
    if not values:
        raise bad("no value: give START:STOP:STEP with START <= STOP, or a comma list")
    if len(values) > MAX_ALPHAS:
        raise bad(f"{len(values):,} values; at most {MAX_ALPHAS}")
    for la in values:
        if not math.isfinite(la) or not MIN_LOG_ALPHA <= la <= 0:
            raise bad(f"log alpha {la} is not a finite number from {MIN_LOG_ALPHA:.2f} (alpha 1e-9) to 0 (alpha 1)")
    return values


def run(args: argparse.Namespace) -> int:
    from ..belltree.decoder import BellTreeDecoder
    from ..belltree.experiment import score
    from ..belltree.train import load_gold
    from ..rules.files import bundled_rules

    log_alphas = parse_log_alphas(args.log_alphas)
    overrides = {"model": args.model} if args.model else {}
    resources = cli_resources(args)
    pipeline = load_pipeline(args, resources, args.rules or bundled_rules("belltree"), **overrides)
    decoder = pipeline.decoder
    if not isinstance(decoder, BellTreeDecoder):
        raise CliError(diagnostic("RC556", kind=getattr(decoder, "kind", "union_find")))
    changes = {k: v for k, v in (("beam", args.beam), ("window", args.window)) if v is not None}
    types = parse_types(args.types, pipeline.ruleset.types)
    started = time.perf_counter()
    fmt = input_format(args, args.inputs)
    records, problems = find_records(args.inputs) if fmt.name == "i2b2" else find_inputs(args.inputs, fmt.name)
    opts = read_options_for(args, fmt, types)
    docs, golds, resolutions, warnings = [], [], [], list(problems)
    for rec in tracked(args, records, len(records), "passes"):
        if rec.txt is None:
            continue
        td, w = load_gold(rec, opts=opts)
        warnings.extend(w)
        docs.append(td.doc)
        golds.append(td.gold)
        resolutions.append(pipeline.run_passes(td.doc))
    if not docs:
        raise CliError(diagnostic("RC557", inputs=", ".join(map(str, args.inputs))))
    if not args.quiet:
        print_diagnostics(warnings[:10], prefix="warning: ")
    if not args.json:
        print(f"{'log_alpha':>9} {'alpha':>7} {'conll_f1':>8} {'muc':>6} {'b3':>6} {'ceafe':>6} {'seconds':>7}")
    best = (-1.0, 0.0)
    for la in log_alphas:
        dec = decoder.with_settings(alpha=math.exp(la), **changes)
        t0 = time.perf_counter()
        preds = [dec.decode(d, r) for d, r in tracked(args, zip(docs, resolutions), len(docs), f"log alpha {la:g}")]
        secs = time.perf_counter() - t0
        rep = score(docs, golds, preds)
        best = max(best, (rep.conll_f1, la))
        f = {k: rep.metrics[k].f1 for k in ("muc", "bcub", "ceafe")}
        if args.json:
            print(json.dumps({"log_alpha": la, "alpha": math.exp(la), "conll_f1": rep.conll_f1, **f,
                              "documents": len(docs), "seconds": round(secs, 2)}))
        else:
            print(f"{la:9.2f} {math.exp(la):7.4f} {100 * rep.conll_f1:8.2f} {100 * f['muc']:6.2f} "
                  f"{100 * f['bcub']:6.2f} {100 * f['ceafe']:6.2f} {secs:7.1f}", flush=True)
    # the summary: on stdout under the table, on stderr beside --json's lines (they stay JSON)
    print(f"rulecoref: {len(log_alphas)} start penalties on {len(docs)}/{len(records)} docs, best CoNLL F1 "
          f"{100 * best[0]:.2f} at log alpha {best[1]:g}, {time.perf_counter() - started:.1f} s",
          file=sys.stderr if args.json else sys.stdout)
    return 0
