"""Helpers shared by commands: rule-file options and diagnostic printing."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from ..errors import Diagnostic


def add_rules_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", type=Path, default=None, metavar="YAML",
                   help="rule file (default: the bundled rules/i2b2.yaml)")
    p.add_argument("--wordnet", default=None, metavar="DIR",
                   help="WordNet 3.0 dict folder (default: $RULECOREF_WORDNET or /usr/share/wordnet)")


def rules_path(args: argparse.Namespace) -> Path:
    from ..rules.compiler import bundled_rules

    return args.rules if args.rules is not None else bundled_rules("i2b2")


def print_diagnostics(diags: Iterable[Diagnostic], *, prefix: str = "") -> None:
    for d in diags:
        print(f"{prefix}{d}", file=sys.stderr)
