"""``rulecoref convert``: documents and chains from one format to another.

Formats: i2b2 folders, CoNLL-2012 files (last column = coreference), JSONL files (one document per
line) and brat standoff folders (NAME.txt + NAME.ann); every pair converts (docs/formats.md).

Every pair goes one way: the source format's reader (``Format.source``: its records, or CoNLL's
documents) hands over documents with their chains, and the target format writes each whole
(``Format.export``), into a folder or one file (``io/formats.py``). i2b2 -> CoNLL needs the texts
(docs/) for the tokens: every chain becomes an entity and every concept outside the chains a
singleton entity, so the reference scorer sees the same partitions as ``rulecoref evaluate``. CoNLL
has no concept types to read: give ``--reference`` (the gold i2b2 folder of the same texts: types
and line numbers come from it, and as i2b2 only chains/ is written) or every mention gets
``--default-type``. JSONL and brat text is tokenised as ``resolve`` does it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from ..errors import CliError, Diagnostic, InputError, OutputError, RulecorefError, diagnostic
from ..io.formats import Format, Source, SourceOptions, detect_format, formats, get_format, marks, unknown_format
from ..io.outdir import OutputFile, OutputFolder
from ..io.typemap import read_type_map
from .common import add_quiet_options, encoding_name, print_diagnostics, progress_bar, whole

MAX_WARNINGS = 20


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "convert",
        help="convert documents and chains between " + ", ".join(f.name for f in formats()),
        description=(
            "Convert SRC to OUT, between the formats of docs/formats.md; "
            + ", ".join(f.name for f in formats() if f.one_file) + " write OUT as one file, the others as a folder. "
            "--from follows SRC (" + ", ".join(f"{' or '.join(f.marks)} -> {f.name}" for f in formats() if f.marks)
            + ") and --to defaults to " + ", ".join(f"{f.convert_to} from {f.name}" for f in formats()
                                                    if f.convert_to != "i2b2") + ", else i2b2. "
            "A document that cannot be read is reported and the others are written (exit 1); "
            "a " + "/".join(f.name for f in formats() if f.complete_only) + " file is written only when every "
            "document could be read. OUT is never an input "
            "and never replaces a file that rulecoref did not write (exit 2, nothing written)."
        ),
    )
    p.add_argument("src", type=Path, metavar="SRC", help="a folder or file of one of the formats (--from)")
    p.add_argument("out", type=Path, metavar="OUT", help="the folder, or the file of a one-file format, to write (--to)")
    p.add_argument("--from", dest="source", choices=[f.name for f in formats()], default=None,
                   help="source format (default: from SRC)")
    p.add_argument("--to", choices=[f.name for f in formats() if f.writes], default=None,
                   help="target format (default: " + ", ".join(
                       f"{f.convert_to} from {f.name}" for f in formats() if f.convert_to != "i2b2") + ", else i2b2)")
    p.add_argument("--chains", type=Path, default=None, metavar="DIR",
                   help="i2b2 source: take the chains from DIR (e.g. a system output) instead of SRC/chains")
    p.add_argument("--reference", type=Path, default=None, metavar="DIR",
                   help="CoNLL -> i2b2: the i2b2 folder of the same texts; concept types and line numbers come from it")
    p.add_argument("--default-type", default="noun_phrase", metavar="TYPE",
                   help="CoNLL source: type of mentions that are not reference concepts (default noun_phrase)")
    p.add_argument("--pronoun-type", default="pronoun", metavar="TYPE",
                   help="the concept type that never decides a chain's type (default pronoun)")
    p.add_argument("--word-column", type=whole(0, 1000), default=3, metavar="N",
                   help="CoNLL source: 0-based column of the word (default 3, CoNLL-2012); '_' when absent")
    p.add_argument("--type-map", type=Path, default=None, metavar="YAML",
                   help="JSONL and brat sources: map their entity types to rule types (docs/formats.md)")
    p.add_argument("--encoding", default="utf-8", type=encoding_name, help="input encoding (default utf-8)")
    p.add_argument("--overwrite", action="store_true",
                   help="replace an existing OUT file, or the files an earlier convert wrote in the OUT folder "
                        "(files rulecoref did not write are never replaced)")
    add_quiet_options(p)
    p.set_defaults(run=run)


def source_format(src: Path) -> str:
    """The format of SRC from what it holds, the formats asked in rank order (RC520 when none tells)."""
    if not src.exists():
        raise CliError(diagnostic("RC521", what="source", path=str(src)))
    found = detect_format(src)
    if found is None:
        shown = marks()
        raise unknown_format(src, "no " + (", ".join(shown[:-1]) + " or " + shown[-1] if len(shown) > 1 else "".join(shown))
                             + " in it")
    return found


def run(args: argparse.Namespace) -> int:
    try:
        source = get_format(args.source or source_format(args.src))
        target = get_format(args.to or source.convert_to)
        src = source.source(args.src, SourceOptions(
            encoding=args.encoding, type_map=read_type_map(args.type_map) if args.type_map else None,
            chains=args.chains, reference=args.reference, default_type=args.default_type,
            word_column=args.word_column, pronoun_types=(args.pronoun_type,)))
        sink = output_of(args, src, target)
        with progress_bar(args, len(src.names()), "convert") as bar:
            count, warnings, failed = convert(src, target, sink, bar)
    except CliError as exc:
        if exc.code != "RC510":  # SRC or OUT unusable, checked before anything is written: exit 2, as everywhere
            raise
        print_diagnostics(exc.diagnostics, prefix="rulecoref: ")
        return 1
    except RulecorefError as exc:
        print_diagnostics(exc.diagnostics, prefix="rulecoref: ")
        return 1
    if not args.quiet:
        print_diagnostics(warnings[:MAX_WARNINGS], prefix="warning: ")
    if len(warnings) > MAX_WARNINGS and not args.quiet:
        print(f"warning: ... and {len(warnings) - MAX_WARNINGS} more", file=sys.stderr)
    print_diagnostics(failed, prefix="error: ")
    print(f"rulecoref: converted {count} document(s) to {target.name}: {args.out}"
          + (f"; {len({d.file for d in failed})} input(s) failed" if failed else ""))
    return 1 if failed else 0


def output_of(args: argparse.Namespace, src: Source, target: Format) -> OutputFile | OutputFolder:
    """OUT, checked before anything is read: one file (CoNLL, JSONL) or a folder (i2b2, brat),
    never an input of the conversion (SRC's files, ``--chains``, ``--reference``)."""
    inputs = src.inputs()
    if args.out.resolve() == args.src.resolve():
        raise OutputError(diagnostic("RC522", path=str(args.out), input=str(args.src)))
    if target.one_file:
        return OutputFile(args.out, overwrite=args.overwrite, inputs=inputs, what=f"one {target.name} file").check()
    return OutputFolder(args.out, f"convert:{target.name}", overwrite=args.overwrite, inputs=inputs,
                        replaceable=target.finish_names, what=f"{target.name} file(s)").check()


def convert(src: Source, target: Format, sink: OutputFile | OutputFolder, progress: Callable[[], object] = lambda: None
            ) -> tuple[int, list[Diagnostic], list[Diagnostic]]:
    """Any source to any target: (documents written, warnings, problems of documents not written);
    ``progress`` is called after each document."""
    failed: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    parts: list[str] = []
    types: set[str] = set()
    count = 0
    if isinstance(sink, OutputFolder):
        sink.open([n for name in src.names() for n in target.export_names(name, chains_only=src.chains_only)]
                  + list(target.finish_names))
    try:
        for doc, chains, ctypes in src.documents(failed, warnings):
            progress()
            files, warns = target.export(doc, chains, ctypes, chains_only=src.chains_only)
            warnings.extend(warns)
            if isinstance(sink, OutputFile):
                parts.extend(text for _, text in files)
            else:
                try:
                    sink.write_set(files)
                except OutputError as exc:  # a full disk, a file rulecoref did not write: this document only
                    failed.extend(exc.diagnostics)
                    continue
                types.update(c.type for c in doc.concepts)
            count += 1
        if isinstance(sink, OutputFile):
            if target.complete_only and failed:
                raise InputError(failed)
            sink.write("".join(parts))
        else:
            for name, text in target.finish(types):
                sink.write(name, text)
    finally:
        if isinstance(sink, OutputFolder):
            sink.close()
    return count, warnings, failed
