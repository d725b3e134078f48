"""The document formats in and out, chosen by name: one place that knows them all.

In (``--input-format``): i2b2 (``io/i2b2.py``, ``io/layout.py``), JSONL (``io/jsonl.py``) and brat
standoff (``io/brat.py``); each becomes a ``Record`` that a worker process reads on its own
(``read_record``), so a batch streams whatever the format. CoNLL-2012 comes in only through
``rulecoref convert``, which needs a reference for its concept types.

Out (``--format``): one set of files per document, written atomically, so a failed document
leaves nothing behind and the rest stand: i2b2 ``NAME.txt.chains``, CoNLL-2012 ``NAME.conll``,
JSONL ``NAME.jsonl`` (one line; ``cat OUT/*.jsonl`` joins them), brat ``NAME.txt`` + ``NAME.ann``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..chains import chain_type
from ..document import Document
from ..errors import Diagnostic, InputError, diagnostic
from .brat import format_brat, read_brat
from .conll import document_to_conll
from .i2b2 import ReadResult, format_chains, read_chains, read_document
from .jsonl import JsonlEntry, format_jsonl, read_jsonl_entry, scan_jsonl
from .layout import Record, find_records
from .outdir import write_all
from .typemap import TypeMap

INPUT_FORMATS = ("i2b2", "jsonl", "brat")
OUTPUT_FORMATS = ("i2b2", "conll", "jsonl", "brat")
#: the files a document's output consists of, per format (brat's .txt is checked through its .ann)
SUFFIXES = {"i2b2": (".txt.chains",), "conll": (".conll",), "jsonl": (".jsonl",), "brat": (".ann", ".txt")}


@dataclass(frozen=True)
class ReadOptions:
    """How to read documents of any format."""

    types: tuple[str, ...] | None = None  # accepted concept types (after the type map); None: any
    strict_text: bool = False
    encoding: str = "utf-8"
    type_map: TypeMap | None = None
    abbreviations: frozenset[str] = frozenset()  # for tokenising plain text (JSONL, brat)


def default_abbreviations(root: Path | None = None) -> frozenset[str]:
    """The bundled ``resources/lexicons/abbreviations.txt`` (words whose "." ends no sentence)."""
    from ..resources import data_root
    from ..resources.lexicon import Lexicon

    return Lexicon.from_file((root or data_root()) / "resources" / "lexicons" / "abbreviations.txt").words


def find_inputs(inputs: Iterable[str | Path], input_format: str = "i2b2",
                encoding: str = "utf-8") -> tuple[list[Record], list[Diagnostic]]:
    """Records of DATA in a format, plus problems that are no record (a brat .ann without its
    text, a repeated JSONL id, an i2b2 text without concepts). i2b2 records without text are
    records, reported when read."""
    if input_format == "i2b2":
        records, problems = find_records(inputs)
        return records, [d for d in problems if d.code == "RC216"]  # a text without concepts is no record
    records: list[Record] = []
    problems: list[Diagnostic] = []
    for item in inputs:
        path = Path(item)
        if input_format == "jsonl":
            files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
        else:
            files = sorted(path.glob("*.ann")) if path.is_dir() else [path]
        if path.is_dir() and not files:
            raise InputError(diagnostic("RC210", path=str(path), hint=f"expected {path}/*.{'jsonl' if input_format == 'jsonl' else 'ann'}"))
        if not path.exists():
            raise InputError(diagnostic("RC213", file=str(path), detail="no such file or directory"))
        for f in files:
            if input_format == "jsonl":
                entries, probs = scan_jsonl(f, encoding)
                problems.extend(probs)
                records.extend(Record(e.name, f, f, kind="jsonl", line=e.line, offset=e.offset) for e in entries)
            else:
                base = f.with_suffix("") if f.suffix in (".ann", ".txt") else f
                txt, ann = base.with_suffix(".txt"), base.with_suffix(".ann")
                if not txt.is_file() or not ann.is_file():
                    missing, have = ("text file " + txt.name, ann) if not txt.is_file() else ("annotation file " + ann.name, txt)
                    problems.append(diagnostic("RC239", file=str(have), missing=missing, path=str(have)))
                    continue
                records.append(Record(base.name.split(".")[0], txt, ann, kind="brat"))
    seen: dict[str, Record] = {}
    unique = []
    for rec in records:
        if rec.name in seen:
            first = seen[rec.name]
            problems.append(diagnostic("RC233", file=str(rec.con), line=rec.line or None, doc=rec.name,
                                       first=f"{first.line} of {first.con}" if first.line else str(first.con)))
            continue
        seen[rec.name] = rec
        unique.append(rec)
    return unique, problems


def read_record(record: Record, opts: ReadOptions, *, with_chains: bool = False) -> ReadResult:
    """Read one record of any format; ``with_chains`` also reads its gold chains (as concept indices)."""
    if record.kind == "jsonl":
        assert record.txt is not None
        return read_jsonl_entry(record.txt, JsonlEntry(record.name, record.line, record.offset), types=opts.types,
                                type_map=opts.type_map, abbreviations=opts.abbreviations,
                                strict_text=opts.strict_text, encoding=opts.encoding, with_chains=with_chains)
    if record.kind == "brat":
        assert record.txt is not None
        return read_brat(record.txt, record.con, name=record.name, types=opts.types, type_map=opts.type_map,
                         abbreviations=opts.abbreviations, strict_text=opts.strict_text, encoding=opts.encoding,
                         with_chains=with_chains)
    if record.txt is None:
        raise InputError(diagnostic("RC204", file=str(record.con), path=str(record.con), expected=record.con.name[:-4]))
    read = read_document(record.txt, record.con, name=record.name, types=opts.types, strict_text=opts.strict_text,
                         encoding=opts.encoding)
    if with_chains and record.chains is not None:
        read.chains, read.chain_types = chains_by_index(read.document, record.chains, opts.encoding)
    return read


def chains_by_index(doc: Document, path: Path, encoding: str = "utf-8") -> tuple[list[list[int]], list[str]]:
    """An i2b2 .txt.chains file as concept indices of ``doc``; a mention that is no concept is an error."""
    cs = read_chains(path, encoding=encoding)
    index = {c.span: c.index for c in doc.concepts}
    errors = []
    chains, types = [], []
    for spans, ctype, line in zip(cs.chains, cs.types, cs.lines):
        members = []
        for s in spans:
            if s not in index:
                errors.append(diagnostic("RC209", file=str(path), line=line, mention=f"{s[0]}:{s[1]} {s[2]}:{s[3]}"))
            else:
                members.append(index[s])
        if len(set(members)) > 1:
            chains.append(sorted(set(members)))
            types.append(ctype)
    if errors:
        raise InputError(errors)
    return chains, types


def typed(doc: Document, chains: Sequence[Sequence[int]], types: Sequence[str] | None,
          pronoun_types: Iterable[str] = ("pronoun",)) -> list[str]:
    """Chain types, derived from the mentions (``chains.chain_type``) where the input gave none."""
    given = list(types) if types is not None else [""] * len(chains)
    return [t or chain_type(doc, c, pronoun_types) for c, t in zip(chains, given)]


def output_paths(fmt: str, out_dir: Path, name: str) -> list[Path]:
    """The files one document's output consists of."""
    return [out_dir / f"{name}{suffix}" for suffix in SUFFIXES[fmt]]


def document_files(fmt: str, doc: Document, chains: Sequence[Sequence[int]],
                   chain_types: Sequence[str]) -> tuple[list[tuple[str, str]], list[Diagnostic]]:
    """The files one document's output consists of, (name, text) in writing order, and warnings
    (CoNLL's crossing mentions)."""
    if fmt == "i2b2":
        return [(f"{doc.name}.txt.chains", format_chains(doc, chains, chain_types))], []
    if fmt == "conll":
        text, warnings = document_to_conll(doc, [[doc.concepts[i].span for i in c] for c in chains if len(c) > 1])
        return [(f"{doc.name}.conll", text)], warnings
    if fmt == "jsonl":
        return [(f"{doc.name}.jsonl", format_jsonl(doc, chains, chain_types))], []
    if fmt == "brat":
        txt, ann = format_brat(doc, chains)
        return [(f"{doc.name}.txt", txt), (f"{doc.name}.ann", ann)], []  # the text first: an .ann never lacks it
    raise ValueError(f"unknown output format {fmt!r}")


def write_document(fmt: str, out_dir: Path, doc: Document, chains: Sequence[Sequence[int]],
                   chain_types: Sequence[str]) -> list[Diagnostic]:
    """Write one document's chains in ``fmt``: every file of it, or none (OutputError RC510);
    returns warnings."""
    files, warnings = document_files(fmt, doc, chains, chain_types)
    write_all(out_dir, files)
    return warnings
