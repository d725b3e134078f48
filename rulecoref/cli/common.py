"""Helpers shared by commands: rule-file options, checked numbers, inputs, interrupts and printing."""

from __future__ import annotations

import argparse
import contextlib
import math
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from ..errors import CliError, Diagnostic, argument_message, diagnostic
from ..io.formats import parse_types as parse_types  # the commands' one --types parser
from ..resources import Resources

T = TypeVar("T")

#: Most worker processes a command starts (``--jobs``): beyond it a large batch would fork itself
#: out of memory (every worker holds a pipeline, about 200 MB).
MAX_JOBS = 256


def add_rules_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", type=Path, default=None, metavar="YAML|NAME",
                   help="rule file, or a bundled rule set by name (i2b2, odie, i2b2-umls, ...; default: i2b2)")
    add_allow_path_option(p)
    p.add_argument("--wordnet", default=None, metavar="DIR",
                   help="WordNet 3.0 dict folder (default: $RULECOREF_WORDNET or /usr/share/wordnet)")


def add_parser_option(p: argparse.ArgumentParser) -> None:
    """``--parser``: a spaCy pipeline whose dependency parse gives grammatical roles (docs/parser.md)."""
    p.add_argument("--parser", default=None, metavar="MODEL",
                   help="parse every document with this installed spaCy pipeline (package name or folder, e.g. "
                        "en_core_web_sm): grammatical roles for the pronoun rules; overrides the rule file's "
                        "attributes.syntax.parser, '' turns it off (docs/parser.md)")


def add_allow_path_option(p: argparse.ArgumentParser, *, network: bool = True) -> None:
    """``--allow-path``: the explicit opt-in for rule files that read outside their own folder tree;
    with ``network``, ``--allow-network`` too (``check`` has none: it never connects)."""
    p.add_argument("--allow-path", action="append", type=Path, default=[], metavar="DIR",
                   help="let rule files also include files and read word lists from DIR (repeatable; by default "
                        "only the rule file's folder tree and the bundled resources/ and rules/; see "
                        "$RULECOREF_ALLOW_PATH and docs/security.md)")
    if network:
        p.add_argument("--allow-network", action="store_true",
                       help="let the rule file name a database server (attributes: umls: db: postgresql://...); "
                            "by default only $RULECOREF_UMLS_DB may name one (docs/security.md)")


def add_find_mentions_option(p: argparse.ArgumentParser) -> None:
    """``--find-mentions``: whether the mention finder adds the pronouns NER leaves out (rulecoref/finder.py)."""
    p.add_argument("--find-mentions", choices=("auto", "on", "off"), default=None,
                   help="add the pronouns an NER tool leaves out (he, his, which, a 'this' standing alone): auto "
                        "in documents with no pronoun concept, on always, off never (default: the rule file's "
                        "mentions.find, auto in the bundled rules; docs/rules.md, 'Finding mentions')")


def load_pipeline(args: argparse.Namespace, resources: Resources, rules: Path | None = None, **overrides: Any) -> Any:
    """The Pipeline of ``rules`` (default ``--rules``), compiled with the command's ``--allow-path``
    folders, its mention finder as ``--find-mentions`` says (where the command has it)."""
    from ..engine import Pipeline
    from ..rules.compiler import compile_rules

    ruleset = compile_rules(rules or rules_path(args), decoder_overrides=overrides or None,
                            allow_paths=getattr(args, "allow_path", ()))
    return Pipeline(ruleset, resources, parser=getattr(args, "parser", None),
                    find_mentions=getattr(args, "find_mentions", None))


def add_input_options(p: argparse.ArgumentParser) -> None:
    """DATA inputs and how to read them, shared by every command that reads a batch."""
    p.add_argument("inputs", nargs="*", metavar="DATA", help="folders or .txt/.txt.con files")
    p.add_argument("--file-list", type=Path, default=None, help="a file listing inputs, one per line")
    p.add_argument("--encoding", default="utf-8", type=encoding_name,
                   help="input encoding (default utf-8; a BOM is accepted)")
    add_types_option(p)


# -- the flag vocabulary every document command shares: one declaration, one meaning ------------------
TYPES_HELP = ("comma-separated concept types the input may use, or 'auto' for any type "
              "(default: the types the rule file declares)")
QUIET_HELP = "print only errors and the summary (no warnings, no progress bar)"
NO_PROGRESS_HELP = "no progress bar (none is drawn either when stderr is not a terminal)"


def add_types_option(p: argparse.ArgumentParser) -> None:
    """``--types``: which concept types the input may use; read by ``io.formats.parse_types``."""
    p.add_argument("--types", default=None, metavar="LIST|auto", help=TYPES_HELP)


def add_quiet_options(p: argparse.ArgumentParser) -> None:
    """``--quiet`` and ``--no-progress``, with one meaning in every command (``show_progress``)."""
    p.add_argument("--quiet", "-q", action="store_true", help=QUIET_HELP)
    p.add_argument("--no-progress", action="store_true", help=NO_PROGRESS_HELP)


def show_progress(args: argparse.Namespace) -> bool:
    """A progress bar is drawn unless ``--quiet`` or ``--no-progress``, and only on a terminal, so
    logs and pipes get no bar lines."""
    return not (getattr(args, "quiet", False) or getattr(args, "no_progress", False)) and sys.stderr.isatty()


class Bar:
    """A progress bar on stderr, or nothing: ``bar(n)`` advances it, ``bar.stage(name, total)``
    starts a stage of a command that works in several (induce: candidates, then rounds)."""

    def __init__(self, t: Any = None):
        self.t = t

    def __call__(self, n: int = 1) -> None:
        if self.t is not None:
            self.t.update(n)

    def stage(self, name: str, total: int | None) -> None:
        if self.t is not None:
            self.t.reset(total=total)
            self.t.set_description(name)

    def at(self, done: int, total: int | None) -> None:
        """``done`` of ``total``: the callback of a library loop that knows its total only once it
        has listed its inputs (``evaluate``'s gold documents)."""
        if self.t is not None:
            if total != self.t.total:
                self.t.total = total
            self.t.update(done - self.t.n)


@contextlib.contextmanager
def progress_bar(args: argparse.Namespace, total: int | None, desc: str, *, unit: str = "doc") -> Iterator[Bar]:
    """A tqdm bar on stderr while a command works through documents or rows; none when
    ``show_progress`` says so. It is removed when done: the command's summary line stays."""
    if not show_progress(args):
        yield Bar()
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True, leave=False) as t:
        yield Bar(t)


def tracked(args: argparse.Namespace, items: Iterable[T], total: int | None, desc: str, *,
            unit: str = "doc") -> Iterator[T]:
    """``items``, advancing a progress bar (``progress_bar``) by one for each."""
    with progress_bar(args, total, desc, unit=unit) as bar:
        for item in items:
            yield item
            bar()


def add_format_options(p: argparse.ArgumentParser, what: str = "DATA") -> None:
    """How the inputs are read: their format (found from them when not given) and a type map."""
    from ..io.formats import choices_help, input_formats

    p.add_argument("--input-format", choices=input_formats(), default=None,
                   help=f"{what}'s format: {choices_help(input_formats(), default='', inputs=True)} (docs/formats.md); "
                        "default: found from the input, as convert finds it")
    p.add_argument("--type-map", type=Path, default=None, metavar="YAML",
                   help="map the input's entity types to rule types (jsonl, brat; docs/formats.md)")


def input_format(args: argparse.Namespace, inputs: Iterable[str | Path]) -> Any:
    """The ``Format`` a command reads its inputs with: ``--input-format``, else found from them."""
    from ..io.formats import inputs_format

    return inputs_format(inputs, getattr(args, "input_format", None))


def read_options_for(args: argparse.Namespace, fmt: Any, types: tuple[str, ...] | None, **more: Any) -> Any:
    """ReadOptions for inputs of ``fmt``: the command's ``--encoding``, ``--type-map`` and types."""
    from ..io.formats import read_options
    from ..io.typemap import read_type_map

    type_map = read_type_map(args.type_map) if getattr(args, "type_map", None) else None
    return read_options(fmt.name, types=types, encoding=getattr(args, "encoding", "utf-8"), type_map=type_map, **more)


def gold_documents(args: argparse.Namespace, types: tuple[str, ...] | None) -> Any:
    """``args.gold`` read with its gold chains in any format (``learn.corpus.load_gold``)."""
    from ..io.typemap import read_type_map
    from ..learn.corpus import load_gold

    return load_gold(args.gold, types, args.encoding, fmt=input_format(args, args.gold),
                     type_map=read_type_map(args.type_map) if getattr(args, "type_map", None) else None)


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


def whole(minimum: int | None = None, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type for a whole number in [minimum, maximum]: anything else is a usage error
    (RC553, exit 2) before any work."""
    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            value = None
        if value is None or (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(argument_message(
                "RC553", detail=f"expected a whole number{_range(minimum, maximum)}, got {_shown(text)}"))
        return value
    return parse


def number(minimum: float | None = None, maximum: float | None = None, *, above: bool = False) -> Callable[[str], float]:
    """An argparse type for a finite number in [minimum, maximum] (``above``: greater than minimum);
    ``nan`` and ``inf`` are usage errors (RC553, exit 2)."""
    def parse(text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            value = math.nan
        low_ok = minimum is None or (value > minimum if above else value >= minimum)
        if not math.isfinite(value) or not low_ok or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(argument_message(
                "RC553", detail=f"expected a finite number{_range(minimum, maximum, above)}, got {_shown(text)}"))
        return value
    return parse


def _range(minimum: float | None, maximum: float | None, above: bool = False) -> str:
    if minimum is not None and maximum is not None:
        return f" from {minimum} to {maximum}" if not above else f" above {minimum} and at most {maximum}"
    if minimum is not None:
        return f" {'above' if above else 'of at least'} {minimum}"
    return f" of at most {maximum}" if maximum is not None else ""


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 40 else f"a value of {len(text)} characters"


#: ``--jobs``: worker processes, at least 1 and at most MAX_JOBS
jobs_count = whole(1, MAX_JOBS)


class Interrupted(KeyboardInterrupt):
    """SIGINT, SIGTERM or SIGHUP arrived: the command stops as it does on Ctrl-C (its ``finally``
    blocks release the lock, remove temporary files and write what the run did)."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.note = ""  # set by the command: what it did before it stopped


def signal_of(exc: BaseException) -> int:
    return exc.signum if isinstance(exc, Interrupted) else int(signal.SIGINT)


@contextlib.contextmanager
def interrupts() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP raise Interrupted in the main thread; a second signal while the
    command cleans up is ignored, so the cleanup finishes. The handlers of before are restored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    seen: list[int] = []

    def handler(signum: int, frame: Any) -> None:
        if seen:
            return
        seen.append(signum)
        raise Interrupted(signum)

    names = [n for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)]
    before = {n: signal.signal(getattr(signal, n), handler) for n in names}
    try:
        yield
    finally:
        for n, old in before.items():
            signal.signal(getattr(signal, n), old)


def inputs_of(records: Iterable[Any], inputs: Iterable[str | Path] = (), fmt: str | None = "i2b2", *,
              extra: Iterable[Path | None] = ()) -> Any:
    """What a command's outputs must never touch: the records' files, and the folders of the
    inputs when their format guards them (i2b2: ``io.formats.input_folders``)."""
    from ..io.formats import get_format, input_folders
    from ..io.outdir import Inputs

    records = list(records)
    files = [f for rec in records for f in (rec.txt, rec.con, rec.chains)] + list(extra)
    guarded = fmt is not None and get_format(fmt).guards_folders
    return Inputs(files, input_folders(inputs if guarded else [], records))


def cli_resources(args: argparse.Namespace, *, offline: bool = False) -> Resources:
    """The resources of a command: WordNet from ``--wordnet``; database servers as
    ``--allow-network`` says (``offline``: none at all, for ``check`` and ``web --dry-run``)."""
    network = "none" if offline else "allow" if getattr(args, "allow_network", False) else "env"
    return Resources(wordnet_path=args.wordnet, network=network)


def rules_path(args: argparse.Namespace) -> Path:
    """``--rules``: a rule file, or a bundled rule set by name ("i2b2-umls") from any folder."""
    from ..resources import named_file
    from ..rules.files import bundled_rules

    return named_file(args.rules, "rules", ".yaml") if args.rules is not None else bundled_rules("i2b2")


def print_diagnostics(diags: Iterable[Diagnostic], *, prefix: str = "") -> None:
    for d in diags:
        print(f"{prefix}{d}", file=sys.stderr)
