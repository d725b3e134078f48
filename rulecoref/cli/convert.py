"""``rulecoref convert``: i2b2 folders <-> CoNLL-2012 files (last column = coreference).

i2b2 -> CoNLL needs the texts (docs/) for the tokens: every chain becomes an entity and every
concept outside the chains a singleton entity, so the reference scorer sees the same partitions as
``rulecoref evaluate``. CoNLL -> i2b2 has no concept types to read: give ``--reference`` (the gold
i2b2 folder of the same texts: types and line numbers come from it, and only chains/ is written)
or every mention gets ``--default-type``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..chains import chain_types
from ..errors import CliError, Diagnostic, InputError, RulecorefError, diagnostic
from ..io.conll import conll_to_document, document_to_conll, format_concepts, read_conll, record_name
from ..io.i2b2 import format_chains, read_chains, read_document, write_atomic
from ..io.layout import records_in_dir
from .common import encoding_name, print_diagnostics

MAX_WARNINGS = 20


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "convert",
        help="convert between i2b2 folders and CoNLL-2012 files",
        description=(
            "i2b2 -> CoNLL: SRC is an i2b2 folder (docs/, concepts/, chains/) and OUT a .conll file. "
            "CoNLL -> i2b2: SRC is a .conll file and OUT a folder (docs/, concepts/, chains/; only chains/ "
            "with --reference). The direction follows SRC (folder or file) unless --to is given."
        ),
    )
    p.add_argument("src", type=Path, metavar="SRC", help="i2b2 folder or CoNLL file")
    p.add_argument("out", type=Path, metavar="OUT", help="CoNLL file or i2b2 folder to write")
    p.add_argument("--to", choices=("conll", "i2b2"), default=None, help="target format (default: from SRC)")
    p.add_argument("--chains", type=Path, default=None, metavar="DIR",
                   help="i2b2 -> CoNLL: take the chains from DIR (e.g. a system output) instead of SRC/chains")
    p.add_argument("--reference", type=Path, default=None, metavar="DIR",
                   help="CoNLL -> i2b2: the i2b2 folder of the same texts; concept types and line numbers come from it")
    p.add_argument("--default-type", default="noun_phrase", metavar="TYPE",
                   help="CoNLL -> i2b2: type of mentions that are not reference concepts (default noun_phrase)")
    p.add_argument("--pronoun-type", default="pronoun", metavar="TYPE",
                   help="CoNLL -> i2b2: the concept type that never decides a chain's type (default pronoun)")
    p.add_argument("--word-column", type=int, default=3, metavar="N",
                   help="CoNLL -> i2b2: 0-based column of the word (default 3, CoNLL-2012); '_' when absent")
    p.add_argument("--encoding", default="utf-8", type=encoding_name, help="input encoding (default utf-8)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    target = args.to or ("conll" if args.src.is_dir() else "i2b2")
    try:
        if target == "conll":
            count, warnings = to_conll(args.src, args.out, chains_dir=args.chains, encoding=args.encoding)
        else:
            count, warnings = to_i2b2(args.src, args.out, reference=args.reference, default_type=args.default_type,
                                      pronoun_type=args.pronoun_type, word_column=args.word_column,
                                      encoding=args.encoding)
    except RulecorefError as exc:
        print_diagnostics(exc.diagnostics, prefix="rulecoref: ")
        return 1
    print_diagnostics(warnings[:MAX_WARNINGS], prefix="warning: ")
    if len(warnings) > MAX_WARNINGS:
        print(f"warning: ... and {len(warnings) - MAX_WARNINGS} more", file=sys.stderr)
    print(f"rulecoref: converted {count} document(s) to {target}: {args.out}")
    return 0


def to_conll(src: Path, out: Path, *, chains_dir: Path | None = None, encoding: str = "utf-8") -> tuple[int, list[Diagnostic]]:
    """Write every record of an i2b2 folder into one CoNLL-2012 file."""
    if not src.is_dir():
        raise CliError(diagnostic("RC712", what="i2b2 folder", path=str(src)))
    if chains_dir is not None and not chains_dir.is_dir():
        raise CliError(diagnostic("RC712", what="chains folder", path=str(chains_dir)))
    records, _ = records_in_dir(src)
    errors: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    parts: list[str] = []
    for rec in records:
        if rec.txt is None:
            errors.append(diagnostic("RC715", file=str(rec.con), doc=rec.name, expected=f"docs/{rec.name}.txt"))
            continue
        read = read_document(rec.txt, rec.con, name=rec.name, encoding=encoding)
        warnings.extend(read.warnings)
        doc = read.document
        if chains_dir is not None:
            base = chains_dir / "chains" if (chains_dir / "chains").is_dir() else chains_dir
            chains_file: Path | None = base / f"{rec.name}.txt.chains"
        else:
            chains_file = rec.chains
        chains: list = []
        if chains_file is not None and chains_file.is_file():
            cs = read_chains(chains_file, encoding=encoding)
            spans = {c.span for c in doc.concepts}
            for chain, line in zip(cs.chains, cs.lines):
                bad = [s for s in chain if s not in spans]
                for s in bad:
                    errors.append(diagnostic("RC704", file=str(chains_file), line=line, doc=rec.name,
                                             mention=f"{s[0]}:{s[1]} {s[2]}:{s[3]}"))
                if not bad:
                    chains.append(chain)
        text, warns = document_to_conll(doc, chains)
        warnings.extend(warns)
        parts.append(text)
    if errors:
        raise InputError(errors)
    write_atomic(out, "".join(parts))
    return len(parts), warnings


def to_i2b2(
    src: Path,
    out: Path,
    *,
    reference: Path | None = None,
    default_type: str = "noun_phrase",
    pronoun_type: str = "pronoun",
    word_column: int = 3,
    encoding: str = "utf-8",
) -> tuple[int, list[Diagnostic]]:
    """Write each CoNLL document as an i2b2 record (chains/ only when a reference folder is given)."""
    if not src.is_file():
        raise CliError(diagnostic("RC712", what="CoNLL file", path=str(src)))
    warnings: list[Diagnostic] = []
    refs = {}
    if reference is not None:
        if not reference.is_dir():
            raise CliError(diagnostic("RC712", what="reference folder", path=str(reference)))
        recs, _ = records_in_dir(reference)
        refs = {r.name: r for r in recs}
    count = 0
    for cdoc in read_conll(src, word_column=word_column, encoding=encoding):
        name = record_name(cdoc.doc_id)
        ref_doc = None
        if reference is not None:
            rec = refs.get(name)
            if rec is None or rec.txt is None:
                raise InputError(diagnostic("RC715", file=str(src), line=cdoc.line, doc=cdoc.doc_id,
                                            expected=f"{reference}/docs/{name}.txt and concepts/{name}.txt.con"))
            read = read_document(rec.txt, rec.con, name=name, encoding=encoding)
            warnings.extend(read.warnings)
            ref_doc = read.document
        doc, chains, warns = conll_to_document(cdoc, name=name, reference=ref_doc, default_type=default_type,
                                               source=str(src))
        warnings.extend(warns)
        types = chain_types(doc, chains, (pronoun_type,))
        write_atomic(out / "chains" / f"{name}.txt.chains", format_chains(doc, chains, types))
        if reference is None:
            write_atomic(out / "docs" / f"{name}.txt", "".join(" ".join(line) + "\n" for line in doc.lines))
            write_atomic(out / "concepts" / f"{name}.txt.con", format_concepts(doc))
        count += 1
    return count, warnings
