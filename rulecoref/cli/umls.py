"""``rulecoref umls``: load a licensed MRCONSO.RRF into a database once, then check lookups.

    rulecoref umls load META/MRCONSO.RRF --db URL [--lang ENG] [--sab ...] [--exclude-sab ...]
                        [--include-suppressed] [--mrsty META/MRSTY.RRF] [--sorted-index] [--force]
    rulecoref umls lookup "kidney" --db URL [--match sorted] [--json]
    rulecoref umls info --db URL

URL is any SQLAlchemy URL (``postgresql+psycopg://user:pw@host/db``) or a file path (SQLite).
Without ``--db``: ``$RULECOREF_UMLS_DB``, else ``~/.cache/rulecoref/umls.sqlite``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import CliError, diagnostic
from ..extras import require
from ..resources.umls import (
    DB_ENV,
    LoadOptions,
    UmlsLookup,
    default_db_path,
    load_mrconso,
    resolve_url,
    safe_url,
    sqlite_path,
)
from .common import add_quiet_options, show_progress, whole

MAX_SHOWN = 20  # malformed rows printed; the report counts them all


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "umls",
        help="load a UMLS MRCONSO.RRF into a database; look strings up",
        description=(
            "Bring your own licensed UMLS: load its MRCONSO.RRF once, then the 'umls' pass links concepts "
            "whose strings share a CUI. See docs/umls.md."
        ),
    )
    usub = p.add_subparsers(dest="umls_command", metavar="SUBCOMMAND")
    db_help = f"SQLAlchemy URL or SQLite file (default: ${DB_ENV}, else {default_db_path()})"

    load = usub.add_parser("load", help="load MRCONSO.RRF (replaces what the database held, atomically)",
                           description="Load MRCONSO.RRF (plain or .gz) into a database. The load is one "
                                       "transaction: if it fails or is interrupted, the previous data stays.")
    load.add_argument("mrconso", metavar="MRCONSO.RRF", help="the MRCONSO.RRF of a UMLS release (plain or .gz)")
    load.add_argument("--db", default=None, metavar="URL", help=db_help)
    load.add_argument("--lang", action="append", default=None, metavar="LAT",
                      help="languages to keep, e.g. ENG or ENG,SPA (repeatable; default ENG; 'all' keeps every one)")
    load.add_argument("--sab", action="append", default=None, metavar="SAB",
                      help="keep only these source vocabularies, e.g. MSH,SNOMEDCT_US (repeatable)")
    load.add_argument("--exclude-sab", action="append", default=None, metavar="SAB", help="drop these source vocabularies")
    load.add_argument("--include-suppressed", action="store_true",
                      help="keep rows whose SUPPRESS is not N (obsolete or suppressible names); skipped by default")
    load.add_argument("--mrsty", default=None, metavar="MRSTY.RRF", help="also load semantic types (for semantic_types:)")
    load.add_argument("--sorted-index", action="store_true",
                      help="also store and index a word-order-insensitive form (for match: sorted)")
    load.add_argument("--force", action="store_true", help="load even if this file was already loaded with these options")
    load.add_argument("--max-malformed", type=whole(0, 10**12), default=1000, metavar="N",
                      help="stop (and change nothing) after more than N malformed rows (default 1000)")
    load.add_argument("--batch-size", type=whole(1, 10**7), default=20000, metavar="ROWS", help=argparse.SUPPRESS)
    load.add_argument("--json", action="store_true", help="print the load report as JSON")
    add_quiet_options(load)
    load.set_defaults(run=run_load)

    look = usub.add_parser("lookup", help="show the CUIs and stored names a string matches",
                           description="Normalise each TEXT as the umls pass does and list the rows it matches. "
                                       "Exit code 1 when some TEXT matches nothing.")
    look.add_argument("texts", nargs="+", metavar="TEXT", help="strings to look up, e.g. 'renal failure'")
    look.add_argument("--db", default=None, metavar="URL", help=db_help)
    look.add_argument("--match", choices=("exact", "sorted"), default="exact",
                      help="exact normalised string (default), or sorted: word order ignored (needs --sorted-index at load)")
    look.add_argument("--limit", type=whole(1, 100_000), default=20, help="rows shown per text (default 20)")
    look.add_argument("--json", action="store_true", help="print JSON")
    look.set_defaults(run=run_lookup)

    info = usub.add_parser("info", help="what a database holds (source file, options, row count)",
                           description="Print what a loaded UMLS database holds: the MRCONSO file it came from, the "
                                       "load options, the row and CUI counts, and its optional indexes.")
    info.add_argument("--db", default=None, metavar="URL", help=db_help)
    info.set_defaults(run=run_info)

    p.set_defaults(run=lambda args: (p.print_help(), 2)[1])


def _codes(values: list[str] | None) -> tuple[str, ...]:
    """'ENG,SPA' and repeated options -> ('ENG', 'SPA'); codes are upper case in MRCONSO."""
    out: list[str] = []
    for v in values or ():
        out.extend(x.strip().upper() for x in v.split(",") if x.strip())
    return tuple(dict.fromkeys(out))


class _Bar:
    """tqdm bars for the load phases (reading is measured in bytes of the file)."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.bar: Any = None
        self.phase = ""

    def __call__(self, phase: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        from tqdm import tqdm

        if phase != self.phase:
            self.close()
            self.phase = phase
            if phase in ("read", "mrsty"):
                desc = "MRCONSO" if phase == "read" else "MRSTY"
                self.bar = tqdm(total=total, unit="B", unit_scale=True, desc=desc, file=sys.stderr, leave=False)
            else:
                print({"index": "building indexes ...", "commit": "committing ..."}.get(phase, phase), file=sys.stderr)
        if self.bar is not None:
            self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def run_load(args: argparse.Namespace) -> int:
    require("umls", "rulecoref umls")
    langs = _codes(args.lang) or ("ENG",)
    if args.max_malformed < 0 or args.batch_size < 1:
        raise CliError(diagnostic("RC553", option="--max-malformed / --batch-size", detail="must be >= 0 and >= 1"))
    opts = LoadOptions(
        languages=None if "ALL" in langs or "*" in langs else langs,
        include_sabs=_codes(args.sab) or None,
        exclude_sabs=_codes(args.exclude_sab),
        include_suppressed=args.include_suppressed,
        sorted_index=args.sorted_index,
        mrsty=args.mrsty,
        max_malformed=args.max_malformed,
        batch_size=args.batch_size,
        force=args.force,
    )
    url = resolve_url(args.db)
    if url == "sqlite://":
        raise CliError(diagnostic("RC422", url=args.db))
    _check_db_file(url, args)
    bar = _Bar(enabled=show_progress(args))
    try:
        report = load_mrconso(args.mrconso, url, opts, progress=bar)
    finally:
        bar.close()
    for d in report.malformed_rows[:MAX_SHOWN] if not args.quiet else ():
        print(f"warning: {d}", file=sys.stderr)
    if report.malformed > MAX_SHOWN and not args.quiet:
        print(f"warning: ... {report.malformed - MAX_SHOWN} more malformed row(s) (--json lists the first 100)",
              file=sys.stderr)
    if args.json:
        print(json.dumps(report.to_dict(), indent=1))
        return 0
    if report.already_loaded:
        print(f"rulecoref: {args.mrconso} is already loaded in {safe_url(url)} with these options "
              f"({report.kept} rows); nothing to do (--force reloads)")
        return 0
    skipped = {
        "other languages": report.skipped_language, "suppressed": report.skipped_suppressed,
        "excluded sources": report.skipped_sab, "empty after normalising": report.skipped_empty,
        "too long": report.skipped_long, "malformed": report.malformed,
    }
    parts = ", ".join(f"{n} {why}" for why, n in skipped.items() if n)
    print(f"rulecoref: loaded {report.kept} of {report.lines} rows ({report.cuis} CUIs) into {safe_url(url)}"
          + (f" ({parts} skipped)" if parts else "")
          + (f", {report.semantic_types} semantic types" if opts.mrsty else "")
          + f" in {report.seconds:.1f} s ({report.rows_per_second:,.0f} rows/s)")
    return 0


def _check_db_file(url: str, args: argparse.Namespace) -> None:
    """A SQLite ``--db`` is an output: never MRCONSO or MRSTY themselves, never a folder, never
    under a file, in a folder that can be written (RC522, RC558, RC508, RC509, before the load).
    An existing file is the load's to judge: a database is replaced atomically, anything else is RC401."""
    from ..io.outdir import Inputs, OutputFile

    path = sqlite_path(url)
    if path is not None:
        inputs = Inputs([Path(args.mrconso), Path(args.mrsty) if args.mrsty else None])
        OutputFile(path, inputs=inputs, ours=lambda _: True, what="a UMLS database").check()


def run_lookup(args: argparse.Namespace) -> int:
    require("umls", "rulecoref umls")
    url = resolve_url(args.db)
    db = UmlsLookup(url)
    try:
        db.require(args.match)
        results = []
        for text in args.texts:
            rows = db.rows(text, args.match, limit=max(1, args.limit))
            cuis = sorted(db.cuis(text, args.match))
            results.append({"text": text, "cuis": cuis, "rows": rows})
    finally:
        db.close()
    if args.json:
        print(json.dumps(results, indent=1, ensure_ascii=False))
    else:
        from ..resources.umls import normalize, sorted_form

        for r in results:
            key = normalize(r["text"])
            if args.match == "sorted":
                key = sorted_form(key)
            print(f"{r['text']!r} -> {key!r}: " + (", ".join(r["cuis"]) if r["cuis"] else "no CUI"))
            for row in r["rows"]:
                print(f"  {row['cui']}  {row['str']}  ({row['sab']}/{row['tty']}, {row['lat']})")
            if len(r["rows"]) >= args.limit:
                print(f"  ... (--limit {args.limit})")
    return 0 if all(r["cuis"] for r in results) else 1


def run_info(args: argparse.Namespace) -> int:
    require("umls", "rulecoref umls")
    url = resolve_url(args.db)
    db = UmlsLookup(url)
    try:
        meta = {k: v for k, v in db.meta.items() if k != "fingerprint"}
    finally:
        db.close()
    print(f"database: {safe_url(url)}")
    for key in sorted(meta):
        print(f"{key}: {meta[key]}")
    return 0
