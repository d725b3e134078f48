"""``rulecoref view``: write one HTML page per document, and an index, to look at the chains."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import CliError, OutputError, diagnostic
from ..io.formats import find_inputs
from ..io.outdir import OutputFolder
from .common import (
    add_format_options,
    add_quiet_options,
    encoding_name,
    gather_inputs,
    input_format,
    inputs_of,
    print_diagnostics,
    read_options_for,
    tracked,
)

MAX_WARNINGS = 20


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "view",
        help="write HTML pages that show the chains (and the gold diff)",
        description=(
            "Write OUT_DIR/NAME.html for every document of DATA and OUT_DIR/index.html. A page shows the "
            "text with every concept marked and one colour per chain; clicking or hovering a mention shows "
            "its chain, who linked it (from OUT/NAME.links.json, written by resolve --provenance) and which "
            "filter removed a pair. With gold chains in DATA and --system OUT, it shows correct, wrong and "
            "missing links, and the index scores every document. Pages are self-contained (no network). "
            "See docs/viewer.md."
        ),
    )
    p.add_argument("inputs", nargs="*", metavar="DATA", help="folders or files, as for resolve")
    p.add_argument("--file-list", type=Path, default=None, help="a file listing inputs, one per line")
    p.add_argument("--system", type=Path, default=None, metavar="OUT",
                   help="a resolve output folder: NAME.txt.chains (or NAME.jsonl) and NAME.links.json")
    p.add_argument("--out", "-o", type=Path, required=True, metavar="OUT_DIR", help="where the pages go (HTML_DIR)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace the pages an earlier view wrote in OUT_DIR (files rulecoref did not write are kept)")
    add_format_options(p)
    p.add_argument("--encoding", default="utf-8", type=encoding_name,
                   help="input encoding (default utf-8; a BOM is accepted)")
    add_quiet_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..view.build import build_view, planned_pages

    inputs = gather_inputs(args)
    if args.system is not None and not args.system.is_dir():
        raise CliError(diagnostic("RC521", what="system output folder", path=str(args.system)))
    fmt = input_format(args, inputs)
    records, strays = find_inputs(inputs, fmt.name, args.encoding)
    system = sorted(args.system.iterdir()) if args.system is not None else []
    out = OutputFolder(args.out, "view", overwrite=args.overwrite, what="page(s)",
                       inputs=inputs_of(records, inputs, fmt.name, extra=system))
    out.check()
    opts = read_options_for(args, fmt, None)
    with out.open(planned_pages(records)):
        try:
            built = build_view(tracked(args, records, len(records), "view"), opts, out, args.system)
        except OutputError as exc:  # the index page could not be written
            print_diagnostics(exc.diagnostics, prefix="error: ")
            return 1
    if not args.quiet:
        print_diagnostics(built.warnings[:MAX_WARNINGS], prefix="warning: ")
    if len(built.warnings) > MAX_WARNINGS and not args.quiet:
        print(f"warning: ... and {len(built.warnings) - MAX_WARNINGS} more", file=sys.stderr)
    print_diagnostics(built.failed + strays, prefix="error: ")
    print(f"rulecoref: {built.pages}/{len(records)} page(s) in {args.out} (open {args.out / 'index.html'})"
          + (f"; {len(records) - built.pages} document(s) failed" if built.pages < len(records) else ""))
    return 1 if built.pages < len(records) or strays else 0
