"""The ``rulecoref`` command: argument parsing, progress and exit codes (the only place that prints).

Exit codes: 0 success; 1 some documents failed or an evaluation problem; 2 a usage, rule-file or
resource error that stopped the command before it ran; 128 + the signal when interrupted (130
Ctrl-C, 143 SIGTERM, 129 SIGHUP): the lock is released, temporary files removed, and ``resolve``
writes its report first (the documents not resolved are RC559 in it).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import RulecorefError, diagnostic
from .common import interrupts, signal_of

# One module per command (a '-' in a command is a '_' in its module), each with add_parser(subparsers)
# and run(args) -> int.
COMMANDS = ("resolve", "explain", "check", "evaluate", "convert", "view", "umls", "web", "train", "sweep", "spark-resolve",
            "ablate", "induce")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulecoref",
        description="Rule-based (and Bell-tree) coreference resolution for i2b2/VA 2011 clinical notes.",
    )
    parser.add_argument("--version", action="version", version=f"rulecoref {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module_name = f"{__name__}.{name.replace('-', '_')}"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue
            raise
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    with interrupts():
        try:
            return int(args.run(args) or 0)
        except RulecorefError as exc:
            for d in exc.diagnostics:
                print(f"rulecoref: {d}", file=sys.stderr)
            return 2
        except MemoryError:  # anywhere, after the finally blocks ran (lock released, temporary files removed)
            print(f"rulecoref: {diagnostic('RC560', doing=f'running {args.command!r}')}", file=sys.stderr)
            return 2
        except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM, SIGHUP (common.Interrupted): one line, no traceback
            note = getattr(exc, "note", "")
            print("rulecoref: interrupted" + (f" ({note})" if note else ""), file=sys.stderr)
            return 128 + signal_of(exc)


def entry() -> None:
    sys.exit(main())
