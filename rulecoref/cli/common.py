"""Helpers shared by commands: rule-file options and diagnostic printing."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from ..errors import Diagnostic
from ..resources import Resources


def add_rules_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", type=Path, default=None, metavar="YAML",
                   help="rule file (default: the bundled rules/i2b2.yaml)")
    p.add_argument("--wordnet", default=None, metavar="DIR",
                   help="WordNet 3.0 dict folder (default: $RULECOREF_WORDNET or /usr/share/wordnet)")


def add_input_options(p: argparse.ArgumentParser) -> None:
    """DATA inputs and how to read them, shared by every command that reads a batch."""
    p.add_argument("inputs", nargs="*", metavar="DATA", help="folders or .txt/.txt.con files")
    p.add_argument("--file-list", type=Path, default=None, help="a file listing inputs, one per line")
    p.add_argument("--encoding", default="utf-8", help="input encoding (default utf-8; a BOM is accepted)")
    p.add_argument("--types", default=None, metavar="LIST|auto",
                   help="comma-separated concept types the input may use, or 'auto' for any type "
                        "(default: the types the rule file declares)")


def positive_int(text: str) -> int:
    """An argparse type for counts such as ``--jobs``: a whole number of at least 1 (else a usage error, exit 2)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {value}")
    return value


def cli_resources(args: argparse.Namespace) -> Resources:
    """The resources of a command: WordNet from ``--wordnet``."""
    return Resources(wordnet_path=args.wordnet)


def rules_path(args: argparse.Namespace) -> Path:
    from ..rules.compiler import bundled_rules

    return args.rules if args.rules is not None else bundled_rules("i2b2")


def print_diagnostics(diags: Iterable[Diagnostic], *, prefix: str = "") -> None:
    for d in diags:
        print(f"{prefix}{d}", file=sys.stderr)
