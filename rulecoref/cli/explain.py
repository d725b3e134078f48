"""``rulecoref explain``: why two mentions were (or were not) linked, from the links' provenance."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from ..document import Document
from ..errors import CliError, diagnostic
from ..io.formats import Record, find_inputs, read_record
from ..why import explain_pair
from .common import (
    add_find_mentions_option,
    add_format_options,
    add_parser_option,
    add_quiet_options,
    add_rules_option,
    add_types_option,
    cli_resources,
    input_format,
    load_pipeline,
    parse_types,
    print_diagnostics,
    read_options_for,
)

_POS = re.compile(r"^(\d{1,9}):(\d{1,9})(?:\s+(\d{1,9}):(\d{1,9}))?$")  # longer numbers name no token


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "explain",
        help="say why two mentions were (not) linked, pass by pass",
        description="Resolve one document and explain a pair of mentions: every pass of the rule file in order "
                    "with its verdict (linked, not in scope, not a candidate, outside the window, a requirement "
                    "false, a veto, removed by a filter) and the reason, then whether the chains joined them "
                    "(and through which links). A mention is given as "
                    "'L:T' (its start), 'L:T L:T' (its span) or its text (first occurrence; 'text#2' for the second). "
                    "With one mention, every link touching it is listed.",
    )
    p.add_argument("data", metavar="DATA", help="folder or file holding the document (i2b2, jsonl, brat)")
    p.add_argument("--doc", default=None, metavar="NAME", help="record name when DATA holds several")
    p.add_argument("mentions", nargs="+", metavar="MENTION",
                   help="one or two mentions: 'L:T', 'L:T L:T' or their text ('text#2': the second occurrence)")
    add_rules_option(p)
    add_find_mentions_option(p)
    add_parser_option(p)
    p.add_argument("--model", default=None, metavar="JSON", help="override the decoder's model path in the rule file")
    add_types_option(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    add_quiet_options(p)
    add_format_options(p)
    p.set_defaults(run=run)


def find_mention(doc: Document, spec: str) -> int:
    """The concept a MENTION names: 'L:T' (its start), 'L:T L:T' (its span), its text (the first
    occurrence) or 'text#N' (the Nth, from 1). A text that is some concept's own text whole ('c#')
    is that concept, '#' and all; any other '#N' must be a whole number in range."""
    m = _POS.match(spec.strip())
    if m:
        for c in doc.concepts:
            if (c.start == (int(m[1]), int(m[2])) and m[3] is None) or (
                    m[3] is not None and c.span == (int(m[1]), int(m[2]), int(m[3]), int(m[4]))):
                return c.index
        raise CliError(diagnostic("RC554", spec=_shown(spec), doc=doc.name))
    text, nth = " ".join(spec.lower().split()), 1
    if text not in {c.text for c in doc.concepts} and "#" in text:
        text, _, number = text.rpartition("#")
        text = text.strip()
        if not (number.isascii() and number.strip().isdigit() and int(number) >= 1):
            raise CliError(diagnostic("RC540", spec=_shown(spec), nth=_shown(number)))
        nth = int(number)
    hits = [c.index for c in doc.concepts if c.text == text]
    if not hits:
        raise CliError(diagnostic("RC554", spec=_shown(spec), doc=doc.name))
    if nth > len(hits):
        raise CliError(diagnostic("RC543", spec=_shown(spec), doc=doc.name, count=len(hits), text=text))
    return hits[nth - 1]


def _shown(text: str) -> str:
    return text if len(text) <= 60 else text[:40] + f"... ({len(text)} characters)"


def pick_record(data: str, name: str | None, fmt: str = "i2b2") -> Record:
    """The one document of DATA that ``--doc`` names (or DATA's only one); otherwise a usage error
    that says what was looked for and what DATA holds."""
    records, _ = find_inputs([data], fmt)
    records = [r for r in records if r.txt is not None]
    names = ", ".join(r.name for r in records[:10]) + (f", ... ({len(records)} in all)" if len(records) > 10 else "")
    if name is not None:
        chosen = [r for r in records if r.name == name]
        if not chosen:
            raise CliError(diagnostic("RC542", name=_shown(name), data=data, names=names or "none"))
        return chosen[0]
    if len(records) != 1:
        raise CliError(diagnostic("RC555", names=names or "none"))
    return records[0]


def run(args: argparse.Namespace) -> int:
    if len(args.mentions) > 2:
        raise CliError(diagnostic("RC541", count=len(args.mentions),
                                  specs=", ".join(repr(_shown(m)) for m in args.mentions[:5])))
    fmt = input_format(args, [args.data])
    rec = pick_record(args.data, args.doc, fmt.name)
    overrides = {"model": args.model} if args.model else {}
    pipe = load_pipeline(args, cli_resources(args), **overrides)
    read = read_record(rec, read_options_for(args, fmt, parse_types(args.types, pipe.ruleset.types)))
    if not args.quiet:
        print_diagnostics(read.warnings, prefix="warning: ")
    res = pipe.resolve(read.document)
    doc = res.doc  # with the mentions rulecoref added, if any
    idx = [find_mention(doc, s) for s in args.mentions]
    if len(idx) == 1:
        i = idx[0]
        rows = [res.explain(l.a, l.b) for l in res.proposed if i in l.pair]
        rows += [res.explain(*pair) for pair in res.removed if i in pair and pair not in {l.pair for l in res.proposed}]
        if args.json:
            print(json.dumps(rows, indent=1))
        else:
            print(f"{doc.concepts[i].i2b2()} ({doc.concepts[i].type}): {len(rows)} link(s)")
            for row in rows:
                _print(row)
        return 0
    why = explain_pair(pipe, res, *idx)
    if args.json:
        print(json.dumps(why, indent=1))
    else:
        _print_passes(why)
    return 0


def _print_passes(why: dict) -> None:
    """The pair, then every pass's verdict and reason in rule-file order, the decoder's last."""
    print(f"{why['a']}  <->  {why['b']}")
    print(f"  same chain: {'yes' if why['same_chain'] else 'no'} (decoder {why['decoder']})")
    width = max((len(row["pass"]) for row in why["passes"]), default=0)
    for row in why["passes"]:
        print(f"  {row['pass']:<{width}}  {row['verdict'].replace('_', ' ')}: {row['reason']}")


def _print(why: dict) -> None:
    print(f"{why['a']}  <->  {why['b']}")
    print(f"  same chain: {'yes' if why['same_chain'] else 'no'} (decoder {why['decoder']})")
    for p in why["proposed_by"]:
        print(f"  linked by {p['pass']} [{p['kind']}] ({Path(p['rule_file']).name}:{p['rule_line']}): {p['evidence']}")
    if not why["proposed_by"]:
        print("  no pass linked this pair directly")
    if why["removed_by"]:
        r = why["removed_by"]
        print(f"  removed by {r['pass']} [{r['kind']}] ({Path(r['rule_file']).name}:{r['rule_line']}): {r['evidence']}")
    if len(why["path"]) > 1 or (why["path"] and not why["proposed_by"]):
        print("  joined through:")
        for step in why["path"]:
            by = "; ".join(f"{b['pass']}: {b['evidence']}" for b in step["by"])
            print(f"    {step['from']} -> {step['to']}  ({by})")
