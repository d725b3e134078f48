"""``rulecoref explain``: why two mentions were (or were not) linked, from the links' provenance."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..document import Document
from ..errors import CliError, diagnostic
from ..io.i2b2 import read_document
from ..io.layout import find_records
from .common import add_find_mentions_option, add_rules_option, cli_resources, load_pipeline

if TYPE_CHECKING:
    from ..engine import Pipeline

_POS = re.compile(r"^(\d{1,9}):(\d{1,9})(?:\s+(\d{1,9}):(\d{1,9}))?$")  # longer numbers name no token


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "explain",
        help="say why two mentions were (not) linked",
        description="Resolve one document and explain a pair of mentions: which passes proposed a link, which "
                    "filter removed it, and the chain of links that joined them. A mention is given as "
                    "'L:T' (its start), 'L:T L:T' (its span) or its text (first occurrence; 'text#2' for the second). "
                    "With one mention, every link touching it is listed.",
    )
    p.add_argument("data", metavar="DATA", help="folder or .txt/.txt.con file holding the document")
    p.add_argument("--doc", default=None, metavar="NAME", help="record name when DATA holds several")
    p.add_argument("mentions", nargs="+", metavar="MENTION",
                   help="one or two mentions: 'L:T', 'L:T L:T' or their text ('text#2': the second occurrence)")
    add_rules_option(p)
    add_find_mentions_option(p)
    p.add_argument("--model", default=None, metavar="JSON", help="override the decoder's model path in the rule file")
    p.add_argument("--types", default="auto", metavar="LIST|auto",
                   help="comma-separated concept types the input may use, or 'auto' for any type (default: auto)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run)


def find_mention(doc: Document, spec: str) -> int:
    m = _POS.match(spec.strip())
    for c in doc.concepts:
        if m and ((c.start == (int(m[1]), int(m[2])) and m[3] is None)
                  or (m[3] is not None and c.span == (int(m[1]), int(m[2]), int(m[3]), int(m[4])))):
            return c.index
    if not m:
        text, _, nth = spec.partition("#")
        hits = [c.index for c in doc.concepts if c.text == " ".join(text.lower().split())]
        k = int(nth) - 1 if nth.isdigit() else 0
        if 0 <= k < len(hits):
            return hits[k]
    raise CliError(diagnostic("RC554", spec=spec if len(spec) <= 60 else spec[:40] + f"... ({len(spec)} characters)", doc=doc.name))


def run(args: argparse.Namespace) -> int:
    records, _ = find_records([args.data])
    if args.doc:
        records = [r for r in records if r.name == args.doc]
    if len(records) != 1 or records[0].txt is None:
        names = ", ".join(r.name for r in records[:10])
        raise CliError(diagnostic("RC555", names=names or "none"))
    rec = records[0]
    overrides = {"model": args.model} if args.model else {}
    pipe = load_pipeline(args, cli_resources(args), **overrides)
    types = None if args.types == "auto" else tuple(t.strip() for t in args.types.split(","))
    res = pipe.resolve(read_document(rec.txt, rec.con, name=rec.name, types=types).document)
    doc = res.doc  # the mentions the finder added can be asked about too
    idx = [find_mention(doc, s) for s in args.mentions[:2]]
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
    why = res.explain(*idx)
    why["vetoed_by"] = vetoes(pipe, res, *idx)
    if args.json:
        print(json.dumps(why, indent=1))
    else:
        _print(why)
    return 0


def vetoes(pipe: Pipeline, res: Any, a: int, b: int) -> list[dict[str, str]]:
    """The ``veto:`` predicates of the rule file's ``match`` rules that hold for the pair: why a rule
    whose scope admits both mentions did not link them ("no [masses]" under two exam headings)."""
    from ..predicates import PREDICATES

    later, earlier = (a, b) if res.doc.concepts[a].start > res.doc.concepts[b].start else (b, a)
    types = res.table["type"]
    out = []
    for p in pipe.passes:
        rule = p.config.rule
        if "veto" not in rule or not p.scope.allows_types(types[earlier], types[later]):
            continue
        for name, params in rule["veto"]:
            evidence = PREDICATES[name].bind(params)(res.table, later, earlier)
            if evidence is not None:
                out.append({"pass": p.name, "veto": name, "evidence": str(evidence)})
    return out


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
    for v in why.get("vetoed_by", ()):
        print(f"  vetoed in {v['pass']} by {v['veto']}: {v['evidence']}")
    if len(why["path"]) > 1 or (why["path"] and not why["proposed_by"]):
        print("  joined through:")
        for step in why["path"]:
            by = "; ".join(f"{b['pass']}: {b['evidence']}" for b in step["by"])
            print(f"    {step['from']} -> {step['to']}  ({by})")
