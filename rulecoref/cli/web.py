"""``rulecoref web``: show (``--dry-run``) or fetch the words the optional web provider asks about.

``--dry-run`` lists exactly the words that ``rulecoref resolve`` would send with the rule file's
``people_roles`` settings (whether or not ``web.enabled`` is true), how many documents each comes
from, and how many candidate words the privacy gate refused locally, by reason (the refused words
themselves are never printed: they may be names). Nothing is sent.

Without ``--dry-run`` the command fills the provider's SQLite cache: it asks once about every word
not cached yet and prints each verdict. It needs ``web.enabled: true`` in the rule file. A later
``resolve`` then answers from the cache, and with ``web.cache_only: true`` it never sends anything.
Exit codes: 0 done; 1 some documents could not be read or some requests failed; 2 a usage problem.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from ..engine import Pipeline
from ..errors import CliError, RulecorefError, diagnostic
from ..io.i2b2 import read_document
from ..io.layout import find_records
from .common import (
    add_find_mentions_option,
    add_input_options,
    add_quiet_options,
    add_rules_option,
    cli_resources,
    gather_inputs,
    load_pipeline,
    parse_types,
    print_diagnostics,
    rules_path,
    tracked,
)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "web",
        help="list (--dry-run) or fetch the words the optional web provider would ask about",
        description=(
            "Find the words the people linker's optional web provider would send for DATA (only "
            "lowercase generic role words pass the privacy gate). --dry-run lists them and sends "
            "nothing; without it, every word not yet cached is asked once and its verdict cached "
            "(needs web.enabled: true in the rule file). See docs/web-provider.md."
        ),
    )
    add_input_options(p)
    add_rules_option(p)
    add_find_mentions_option(p)
    p.add_argument("--dry-run", action="store_true", help="only list what would be sent; send nothing")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    add_quiet_options(p)
    p.set_defaults(run=run)


def plan(pipeline: Pipeline, records, *, types, encoding: str):
    """Per people_roles pass: word -> documents, refusal counts by reason, and read failures."""
    roles = [p for p in pipeline.passes if p.kind == "people_roles"]
    words: dict[str, set[str]] = {}
    refused: Counter[str] = Counter()
    failed = []
    for rec in records:
        if rec.txt is None:
            failed.append((rec.name, [diagnostic("RC204", file=str(rec.con), path=str(rec.con), expected=rec.con.name[:-4])]))
            continue
        try:
            doc = read_document(rec.txt, rec.con, name=rec.name, types=types, encoding=encoding).document
        except RulecorefError as exc:
            failed.append((rec.name, exc.diagnostics))
            continue
        table = pipeline.table(pipeline.finder.complete(doc)[0])  # the mentions resolve sees, found ones too
        for p in roles:
            asks, why = p.web_candidates(table, p.local_facts(table))
            refused.update(why)
            for _, word in asks:
                words.setdefault(word, set()).add(rec.name)
    return roles, words, refused, failed


def run(args: argparse.Namespace) -> int:
    inputs = gather_inputs(args)
    pipeline = load_pipeline(args, cli_resources(args, offline=args.dry_run))  # --dry-run sends nothing
    roles = [p for p in pipeline.passes if p.kind == "people_roles"]
    if not roles:
        raise CliError(diagnostic("RC562", file=str(pipeline.ruleset.path)))
    if not args.dry_run and not any(p.provider is not None for p in roles):
        raise CliError(diagnostic("RC563", file=str(rules_path(args))))
    records, _ = find_records(inputs)
    roles, words, refused, failed = plan(pipeline, tracked(args, records, len(records), "web"), types=parse_types(args.types, pipeline.ruleset.types),
                                         encoding=args.encoding)
    settings = roles[0].web_settings
    for name, diags in failed:
        print_diagnostics(diags, prefix=f"error: {name}: ")
    if args.dry_run:
        return _dry_run(args, settings, words, refused, failed, len(records))
    provider = next(p.provider for p in roles if p.provider is not None)
    provider.log_failures = False  # printed once, below
    verdicts = [provider.lookup(w) for w in sorted(words)]
    out = {
        "url": settings.url,
        "cache": str(settings.cache_path()),
        "words": [{"word": v.word, "staff": v.staff, "source": v.source, "keywords": list(v.found)} for v in verdicts],
        "sent": len(provider.sent),
        "failures": [d.to_dict() for d in provider.failures],
    }
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        for v in verdicts:
            verdict = {True: "staff", False: "not staff", None: "unknown"}[v.staff]
            print(f"{v.word}\t{verdict}\t{v.source}" + (f"\t{', '.join(v.found)}" if v.found else ""))
        print(f"rulecoref: {len(verdicts)} word(s), {len(provider.sent)} sent, {len(provider.failures)} failure(s); "
              f"cache {settings.cache_path()}", file=sys.stderr)
    print_diagnostics(provider.failures, prefix="warning: ")
    return 1 if failed or provider.failures else 0


def _dry_run(args, settings, words: dict[str, set[str]], refused: Counter[str], failed, n_records: int) -> int:
    cached: set[str] = set()
    path = settings.cache_path()
    if settings.url and path.is_file():
        from ..resources.web import WebCache

        try:
            cache = WebCache(path)
            cached = {w for w, _ in cache.words(settings.url)} & set(words)
            cache.close()
        except Exception:  # an unreadable cache only means nothing counts as cached
            cached = set()
    out = {
        "dry_run": True,
        "enabled": settings.enabled,
        "url": settings.url,
        "documents": n_records,
        "would_send": sorted(w for w in words if w not in cached),
        "cached": sorted(cached),
        "documents_per_word": {w: len(d) for w, d in sorted(words.items())},
        "refused_by_reason": dict(sorted(refused.items())),
        "unreadable_documents": [name for name, _ in failed],
    }
    if args.json:
        print(json.dumps(out, indent=1))
        return 1 if failed else 0
    state = "enabled" if settings.enabled else "disabled (web.enabled: false)"
    print(f"# web provider {state}; url template: {settings.url or '(none)'}")
    print(f"# {len(out['would_send'])} word(s) would be sent, once each; {len(cached)} answered from the cache")
    for w in out["would_send"]:
        print(f"{w}\t{len(words[w])} document(s)")
    for w in out["cached"]:
        print(f"{w}\t{len(words[w])} document(s)\tcached")
    reasons = ", ".join(f"{r} {n}" for r, n in out["refused_by_reason"].items()) or "none"
    print(f"# refused locally (never sent): {reasons}")
    return 1 if failed else 0
