"""Helpers shared by commands: rule-file options and diagnostic printing."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import CliError, Diagnostic, diagnostic
from ..resources import Resources


def add_rules_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", type=Path, default=None, metavar="YAML",
                   help="rule file (default: the bundled rules/i2b2.yaml)")
    add_allow_path_option(p)
    p.add_argument("--wordnet", default=None, metavar="DIR",
                   help="WordNet 3.0 dict folder (default: $RULECOREF_WORDNET or /usr/share/wordnet)")


def add_allow_path_option(p: argparse.ArgumentParser) -> None:
    """``--allow-path``: the explicit opt-in for rule files that read outside their own folder tree."""
    p.add_argument("--allow-path", action="append", type=Path, default=[], metavar="DIR",
                   help="let rule files also include files and read word lists from DIR (repeatable; by default "
                        "only the rule file's folder tree and the bundled resources/ and rules/; see "
                        "$RULECOREF_ALLOW_PATH and docs/security.md)")


def load_pipeline(args: argparse.Namespace, resources: Resources, rules: Path | None = None, **overrides: Any) -> Any:
    """The Pipeline of ``rules`` (default ``--rules``), compiled with the command's ``--allow-path`` folders."""
    from ..engine import Pipeline
    from ..rules.compiler import compile_rules

    ruleset = compile_rules(rules or rules_path(args), decoder_overrides=overrides or None,
                            allow_paths=getattr(args, "allow_path", ()))
    return Pipeline(ruleset, resources)


def add_input_options(p: argparse.ArgumentParser) -> None:
    """DATA inputs and how to read them, shared by every command that reads a batch."""
    p.add_argument("inputs", nargs="*", metavar="DATA", help="folders or .txt/.txt.con files")
    p.add_argument("--file-list", type=Path, default=None, help="a file listing inputs, one per line")
    p.add_argument("--encoding", default="utf-8", type=encoding_name,
                   help="input encoding (default utf-8; a BOM is accepted)")
    p.add_argument("--types", default=None, metavar="LIST|auto",
                   help="comma-separated concept types the input may use, or 'auto' for any type "
                        "(default: the types the rule file declares)")


def encoding_name(text: str) -> str:
    """An argparse type for ``--encoding``: a codec Python knows, else a usage error (RC511, exit 2)
    before any document is read, rather than the same failure in every document."""
    try:  # a LookupError for unknown codecs and for codecs that are not text (rot13, zlib)
        b"x".decode(text)
    except LookupError:
        raise argparse.ArgumentTypeError(str(diagnostic("RC511", encoding=text))) from None
    except ValueError:  # a real codec that cannot decode this one byte (utf-16)
        pass
    return text


def gather_inputs(args: argparse.Namespace, what: str = "DATA folder") -> list[str | Path]:
    """DATA and the lines of ``--file-list``; none at all is a usage error (RC552)."""
    from ..io.layout import iter_file_list

    inputs: list[str | Path] = list(args.inputs)
    if args.file_list:
        inputs.extend(iter_file_list(args.file_list))
    if not inputs:
        raise CliError(diagnostic("RC552", what=what))
    return inputs


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
