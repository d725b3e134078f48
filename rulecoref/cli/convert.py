"""``rulecoref convert``: documents and chains from one format to another.

Formats: i2b2 folders, CoNLL-2012 files (last column = coreference), JSONL files (one document per
line) and brat standoff folders (NAME.txt + NAME.ann); every pair converts (docs/formats.md).

i2b2 -> CoNLL needs the texts (docs/) for the tokens: every chain becomes an entity and every
concept outside the chains a singleton entity, so the reference scorer sees the same partitions as
``rulecoref evaluate``. CoNLL -> i2b2 has no concept types to read: give ``--reference`` (the gold
i2b2 folder of the same texts: types and line numbers come from it, and only chains/ is written)
or every mention gets ``--default-type``. JSONL and brat text is tokenised as ``resolve`` does it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from ..chains import chain_types
from ..document import Document
from ..errors import CliError, Diagnostic, InputError, OutputError, RulecorefError, diagnostic
from ..io.brat import annotation_conf, format_brat
from ..io.conll import conll_to_document, document_to_conll, format_concepts, read_conll, record_name
from ..io.formats import ReadOptions, default_abbreviations, find_inputs, read_record, typed
from ..io.i2b2 import format_chains, read_chains, read_document
from ..io.jsonl import format_jsonl
from ..io.layout import input_folders, records_in_dir
from ..io.outdir import Inputs, OutputFile, OutputFolder
from ..io.typemap import read_type_map
from .common import encoding_name, print_diagnostics, whole

MAX_WARNINGS = 20
FORMATS = ("i2b2", "conll", "jsonl", "brat")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "convert",
        help="convert documents and chains between i2b2, CoNLL-2012, JSONL and brat",
        description=(
            "Convert SRC to OUT. i2b2: a folder (docs/, concepts/, chains/); CoNLL: one .conll file; JSONL: "
            "one .jsonl file (a folder of them as SRC); brat: a folder of NAME.txt + NAME.ann. --from follows "
            "SRC (a folder with concepts/ or *.con is i2b2, with *.ann brat, with *.jsonl JSONL; a .jsonl file "
            "JSONL, another file CoNLL) and --to defaults to conll from i2b2 and to i2b2 otherwise. "
            "A document that cannot be read is reported and the others are written (exit 1); "
            "a CoNLL output file is written only when every document could be read. OUT is never an input "
            "and never replaces a file that rulecoref did not write."
        ),
    )
    p.add_argument("src", type=Path, metavar="SRC", help="i2b2 folder, CoNLL file, JSONL file or folder, brat folder")
    p.add_argument("out", type=Path, metavar="OUT", help="i2b2 folder, CoNLL file, JSONL file or brat folder to write")
    p.add_argument("--from", dest="source", choices=FORMATS, default=None, help="source format (default: from SRC)")
    p.add_argument("--to", choices=FORMATS, default=None, help="target format (default: conll from i2b2, else i2b2)")
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
    p.set_defaults(run=run)


def source_format(src: Path) -> str:
    """The format of SRC from what it holds (RC520 when nothing tells)."""
    if src.is_file():
        return "jsonl" if src.suffix == ".jsonl" else "conll"
    if not src.is_dir():
        raise CliError(diagnostic("RC521", what="source", path=str(src)))
    if (src / "concepts").is_dir() or any(src.glob("*.con")):
        return "i2b2"
    if any(src.glob("*.ann")):
        return "brat"
    if any(src.glob("*.jsonl")):
        return "jsonl"
    raise CliError(diagnostic("RC520", path=str(src), detail="no concepts/, *.con, *.ann or *.jsonl in it"))


def run(args: argparse.Namespace) -> int:
    try:
        source = args.source or source_format(args.src)
        target = args.to or ("conll" if source == "i2b2" else "i2b2")
        sink = output_of(args, source, target)
        if source == "i2b2" and target == "conll":
            count, warnings = to_conll(args.src, sink, chains_dir=args.chains, encoding=args.encoding)
            failed: list[Diagnostic] = []
        elif source == "conll" and target == "i2b2":
            with sink:
                count, warnings = to_i2b2(args.src, sink, reference=args.reference, default_type=args.default_type,
                                          pronoun_type=args.pronoun_type, word_column=args.word_column,
                                          encoding=args.encoding)
            failed = []
        else:
            count, warnings, failed = convert(args, source, target, sink)
    except RulecorefError as exc:
        print_diagnostics(exc.diagnostics, prefix="rulecoref: ")
        return 1
    print_diagnostics(warnings[:MAX_WARNINGS], prefix="warning: ")
    if len(warnings) > MAX_WARNINGS:
        print(f"warning: ... and {len(warnings) - MAX_WARNINGS} more", file=sys.stderr)
    print_diagnostics(failed, prefix="error: ")
    print(f"rulecoref: converted {count} document(s) to {target}: {args.out}"
          + (f"; {len({d.file for d in failed})} input(s) failed" if failed else ""))
    return 1 if failed else 0


def output_of(args: argparse.Namespace, source: str, target: str) -> OutputFile | OutputFolder:
    """OUT, checked before anything is read: one file (CoNLL, JSONL) or a folder (i2b2, brat),
    never an input of the conversion (SRC, ``--chains``, ``--reference``)."""
    inputs = source_inputs(args, source)
    if args.out.resolve() == args.src.resolve():
        raise OutputError(diagnostic("RC522", path=str(args.out), input=str(args.src)))
    if target in ("conll", "jsonl"):
        return OutputFile(args.out, overwrite=args.overwrite, inputs=inputs, what=f"one {target} file").check()
    return OutputFolder(args.out, f"convert:{target}", overwrite=args.overwrite, inputs=inputs,
                        replaceable=("annotation.conf",), what=f"{target} file(s)").check()


def source_inputs(args: argparse.Namespace, source: str) -> Inputs:
    """The files and folders a conversion reads, which its output must never touch: SRC's files
    (and an i2b2 SRC's folders), and the ``--chains`` and ``--reference`` folders with all below them."""
    files: list[Path | None] = [args.src]
    folders: list[Path] = []
    if args.src.is_dir() and source in ("i2b2", "brat", "jsonl"):
        try:
            records, _ = find_inputs([args.src], source, args.encoding)
        except InputError:
            records = []  # reported when the conversion reads it
        files += [f for rec in records for f in (rec.txt, rec.con, rec.chains)]
        if source == "i2b2":  # JSONL and brat folders are checked file by file (RC522), as resolve checks them
            folders.append(args.src)
    exact, inside = input_folders(folders, [])
    for extra in (args.chains, args.reference):
        if extra is not None and extra.is_dir():
            exact.add(extra.resolve())
            inside.add(extra.resolve())
    return Inputs(files, (exact, inside))


Converted = tuple[Document, list[list[int]], list[str]]


def documents(args: argparse.Namespace, source: str, failed: list[Diagnostic],
              warnings: list[Diagnostic]) -> Iterator[Converted]:
    """Every document of SRC with its chains (concept indices) and their types; a document that
    cannot be read goes to ``failed`` and the rest go on."""
    pronouns = (args.pronoun_type,)
    if source == "conll":
        refs = {}
        if args.reference is not None:
            if not args.reference.is_dir():
                raise CliError(diagnostic("RC712", what="reference folder", path=str(args.reference)))
            refs = {r.name: r for r in records_in_dir(args.reference)[0]}
        for cdoc in read_conll(args.src, word_column=args.word_column, encoding=args.encoding):
            name = record_name(cdoc.doc_id)
            try:
                ref_doc = None
                if args.reference is not None:
                    rec = refs.get(name)
                    if rec is None or rec.txt is None:
                        raise InputError(diagnostic("RC715", file=str(args.src), line=cdoc.line, doc=cdoc.doc_id,
                                                    expected=f"{args.reference}/docs/{name}.txt"))
                    read = read_document(rec.txt, rec.con, name=name, encoding=args.encoding)
                    warnings.extend(read.warnings)
                    ref_doc = read.document
                doc, chains, warns = conll_to_document(cdoc, name=name, reference=ref_doc,
                                                       default_type=args.default_type, source=str(args.src))
            except RulecorefError as exc:
                failed.extend(exc.diagnostics)
                continue
            warnings.extend(warns)
            yield doc, chains, chain_types(doc, chains, pronouns)
        return
    opts = ReadOptions(encoding=args.encoding, type_map=read_type_map(args.type_map) if args.type_map else None,
                       abbreviations=default_abbreviations() if source != "i2b2" else frozenset())
    records, strays = find_inputs([args.src], source, args.encoding)
    failed.extend(strays)
    for rec in records:
        if args.chains is not None and source == "i2b2":
            base = args.chains / "chains" if (args.chains / "chains").is_dir() else args.chains
            found = base / f"{rec.name}.txt.chains"
            rec = type(rec)(rec.name, rec.txt, rec.con, found if found.is_file() else None)
        try:
            read = read_record(rec, opts, with_chains=True)
        except RulecorefError as exc:
            failed.extend(exc.diagnostics)
            continue
        warnings.extend(read.warnings)
        chains = read.chains or []
        yield read.document, chains, typed(read.document, chains, read.chain_types, pronouns)


def convert(args: argparse.Namespace, source: str, target: str,
            sink: OutputFile | OutputFolder) -> tuple[int, list[Diagnostic], list[Diagnostic]]:
    """Any source to any target: (documents written, warnings, problems of documents not written)."""
    failed: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    parts: list[str] = []
    types: set[str] = set()
    count = 0
    if isinstance(sink, OutputFolder):
        names = [n for name in source_names(args, source) for n, _ in _folder_files(target, None, [], [], name)]
        sink.open(names + (["annotation.conf"] if target == "brat" else []))
    try:
        for doc, chains, ctypes in documents(args, source, failed, warnings):
            if target == "conll":
                text, warns = document_to_conll(doc, [[doc.concepts[i].span for i in c] for c in chains])
                warnings.extend(warns)
                parts.append(text)
            elif target == "jsonl":
                parts.append(format_jsonl(doc, chains, ctypes))
            else:
                assert isinstance(sink, OutputFolder)
                try:
                    sink.write_set(_folder_files(target, doc, chains, ctypes))
                except OutputError as exc:  # a full disk, a file rulecoref did not write: this document only
                    failed.extend(exc.diagnostics)
                    continue
                types.update(c.type for c in doc.concepts)
            count += 1
        if isinstance(sink, OutputFile):
            if target == "conll" and failed:
                raise InputError(failed)
            sink.write("".join(parts))
        elif target == "brat":
            sink.write("annotation.conf", annotation_conf(types))
    finally:
        if isinstance(sink, OutputFolder):
            sink.close()
    return count, warnings, failed


def _folder_files(target: str, doc: Document | None, chains: list[list[int]], ctypes: list[str],
                  name: str = "") -> list[tuple[str, str]]:
    """The files of one document in an i2b2 or brat folder (only their names without ``doc``)."""
    name = doc.name if doc is not None else name
    if target == "brat":
        txt, ann = format_brat(doc, chains) if doc is not None else ("", "")
        return [(f"{name}.txt", txt), (f"{name}.ann", ann)]
    if doc is None:
        return [(f"docs/{name}.txt", ""), (f"concepts/{name}.txt.con", ""), (f"chains/{name}.txt.chains", "")]
    return [(f"docs/{name}.txt", "".join(" ".join(line) + "\n" for line in doc.lines)),
            (f"concepts/{name}.txt.con", format_concepts(doc)),
            (f"chains/{name}.txt.chains", format_chains(doc, chains, ctypes))]


def source_names(args: argparse.Namespace, source: str) -> list[str]:
    """The names of SRC's documents, so that every file of OUT is claimed before one is written."""
    try:
        if source == "conll":
            return [record_name(c.doc_id) for c in read_conll(args.src, word_column=args.word_column,
                                                              encoding=args.encoding)]
        return [rec.name for rec in find_inputs([args.src], source, args.encoding)[0]]
    except RulecorefError:
        return []  # reported when the documents are read


def to_conll(src: Path, out: OutputFile, *, chains_dir: Path | None = None,
             encoding: str = "utf-8") -> tuple[int, list[Diagnostic]]:
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
    out.write("".join(parts))
    return len(parts), warnings


def to_i2b2(
    src: Path,
    out: OutputFolder,
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
    cdocs = read_conll(src, word_column=word_column, encoding=encoding)
    out.open([n for c in cdocs for n, _ in _folder_files("i2b2", None, [], [], record_name(c.doc_id))[
        2 if reference is not None else 0:]])
    count = 0
    for cdoc in cdocs:
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
        files = _folder_files("i2b2", doc, chains, types)
        out.write_set(files if reference is None else files[2:])
        count += 1
    return count, warnings
