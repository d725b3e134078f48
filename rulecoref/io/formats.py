"""The document formats, as a registry: each ``io/<name>.py`` declares its format once.

A format is a ``Format`` subclass in its own module, decorated ``@register_format("<name>")``
(the name must be the module's, as a pass kind's is): what finds its records, reads one, writes
one document's output, and finishes a batch. ``resolve``, ``view``, ``convert``, ``spark-resolve``
and their ``--format`` / ``--input-format`` / ``--from`` / ``--to`` choices read this registry
and nothing else, so a new format is one module (and its section of docs/formats.md).

In (``find`` + ``read``): every input becomes a ``Record`` that a worker process reads on its
own, so a batch streams whatever the format. A format without records (CoNLL: its concept
types must come from a reference) is read by ``convert`` only, through its ``source``.

Out (``write``): one set of files per document, written atomically (``io/outdir.py``), so a
failed document leaves nothing behind and the rest stand; ``finish`` writes the files a batch
needs once (brat's ``annotation.conf``). ``convert`` writes whole documents (``export``), into a
folder or, for a ``one_file`` format, into one file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from ..chains import chain_type
from ..document import Document
from ..errors import CliError, Diagnostic, InputError, RulecorefError, diagnostic
from ..registry import Registry
from .outdir import Inputs, write_all
from .typemap import TypeMap

#: A document's files, (name relative to the output folder, text) in writing order.
Files = list[tuple[str, str]]
#: A document with its chains (concept indices) and their types, as ``convert`` moves it.
Converted = tuple[Document, list[list[int]], list[str]]


@dataclass(frozen=True)
class Record:
    """One document's files. ``txt`` is None when the text is missing (reported, not resolved).

    ``kind`` is the input format: for brat ``con`` is the .ann file; for JSONL ``txt`` and ``con``
    are the .jsonl file and the document is the one on ``line`` (at byte ``offset``).
    """

    name: str
    txt: Path | None
    con: Path
    chains: Path | None = None
    kind: str = "i2b2"
    line: int = 0
    offset: int = 0


@dataclass
class ReadResult:
    """A document plus the warnings met while reading it, and its gold chains where the format
    carries them with the document (JSONL, brat; i2b2 keeps them in a file of their own)."""

    document: Document
    warnings: list[Diagnostic] = field(default_factory=list)
    chains: list[list[int]] | None = None  # concept indices, each chain sorted
    chain_types: list[str] | None = None  # one per chain; None: derive them (chains.chain_types)


@dataclass(frozen=True)
class ReadOptions:
    """How to read documents of any format."""

    types: tuple[str, ...] | None = None  # accepted concept types (after the type map); None: any
    strict_text: bool = False
    encoding: str = "utf-8"
    type_map: TypeMap | None = None
    abbreviations: frozenset[str] = frozenset()  # for tokenising plain text (JSONL, brat)


def parse_types(value: str | Iterable[str] | None, declared: tuple[str, ...]) -> tuple[str, ...] | None:
    """The concept types a reader accepts (``ReadOptions.types``), from ``--types`` or the API's
    ``types=``: omitted, the rule file's ``declared`` types; 'auto', any type (None); else the
    comma-separated list (or a list of names), lower case as every reader lowers a type (a concept
    of another type is that document's error, RC208). The one parser: the commands
    (cli/common.add_types_option) and ``rulecoref.load`` both read the option through it."""
    if value is None:
        return declared
    if isinstance(value, str):
        if value.strip().lower() == "auto":
            return None
        value = value.split(",")
    return tuple(t.strip().lower() for t in value if t.strip())


@dataclass(frozen=True)
class SourceOptions:
    """How ``convert`` reads its SRC (the options that apply to one format only say so)."""

    encoding: str = "utf-8"
    type_map: TypeMap | None = None
    chains: Path | None = None  # records' chains from this folder instead (``--chains``; i2b2)
    reference: Path | None = None  # the i2b2 folder of the same texts (``--reference``; CoNLL)
    default_type: str = "noun_phrase"  # CoNLL: the type of mentions that are no reference concept
    word_column: int = 3  # CoNLL: the column of the word
    pronoun_types: tuple[str, ...] = ("pronoun",)


class Format:
    """One document format. A subclass declares what it can do; the defaults say "cannot"
    (``reads``, ``writes``) or fall back on the simpler method (``export`` on ``write``)."""

    name: ClassVar[str] = ""
    #: What its files are, for ``--help`` ("jsonl: one document per line").
    help: ClassVar[str] = ""
    #: What it reads, for an input option's ``--help``, where it differs from what it writes
    #: (i2b2 reads NAME.txt + NAME.txt.con and writes NAME.txt.chains); empty: ``help``.
    input_help: ClassVar[str] = ""
    #: Order in which ``detect`` is asked (``convert --from``, ``spark-resolve --input-format auto``).
    rank: ClassVar[int] = 50
    #: What ``detect`` looks for in a folder, for the message when no format claims one (RC520).
    marks: ClassVar[tuple[str, ...]] = ()
    #: The files ``write`` makes of one document, by suffix of its name; the first marks this
    #: format's outputs in a folder (``io.outdir.OutputFolder``'s ``exclusive``).
    suffixes: ClassVar[tuple[str, ...]] = ()
    #: The files ``finish`` writes once per batch, beside the documents' files.
    finish_names: ClassVar[tuple[str, ...]] = ()
    #: Reads untokenised text, so it needs the abbreviations that end no sentence.
    plain_text: ClassVar[bool] = False
    #: Its input folders are never an output folder, nor are their ``docs/``, ``concepts/`` ...
    guards_folders: ClassVar[bool] = False
    #: ``convert`` writes all documents into one file (else into a folder).
    one_file: ClassVar[bool] = False
    #: ``convert`` writes the one file only when every document could be read.
    complete_only: ClassVar[bool] = False
    #: ``convert``'s default target from this format.
    convert_to: ClassVar[str] = "i2b2"
    #: The code for a folder holding an earlier run's files of this format (resolve without --overwrite).
    stale_code: ClassVar[str] = "RC526"
    #: Each document is one line of text: Spark's text reader reads such files from any file
    #: system (``rulecoref.spark.read_frame``) and ``parse_line`` reads a line.
    lines: ClassVar[bool] = False

    @property
    def reads(self) -> bool:
        """A batch input (``find`` and ``read``)."""
        return type(self).find is not Format.find

    @property
    def writes(self) -> bool:
        return type(self).write is not Format.write

    def detect(self, path: Path) -> bool:
        """Whether ``path`` (a file, or a folder of such files) holds this format."""
        return False

    def find(self, inputs: Sequence[Path], encoding: str) -> tuple[list[Record], list[Diagnostic]]:
        """Records of folders and files, and the problems that are no record."""
        raise NotImplementedError

    def read(self, record: Record, opts: ReadOptions, with_chains: bool) -> ReadResult:
        """One record as a document; ``with_chains`` also reads its gold chains (concept indices)."""
        raise NotImplementedError

    def read_gold(self, record: Record, opts: ReadOptions) -> tuple[ReadResult, list[list[int]] | None]:
        """One record with its gold chains, None when it has none (learning, evaluation)."""
        read = self.read(record, opts, True)
        return read, read.chains

    def parse_line(self, text: str, *, file: str, opts: ReadOptions) -> ReadResult:
        """One line of a file of this format as a document (``lines`` formats)."""
        raise NotImplementedError

    def source(self, src: Path, opts: SourceOptions) -> Source:
        """``convert``'s reader of SRC: its records, read one by one."""
        if not self.reads:
            raise unknown_format(src, f"{self.name} is written, not read")
        return RecordSource(self, src, opts)

    def system_chains(self, folder: Path, doc: Document, opts: ReadOptions) -> tuple[list[list[int]], list[str]] | None:
        """The chains of ``doc`` in a ``resolve`` output folder (``view --system``), None when
        the folder holds no output of it in this format."""
        return None

    def write(self, doc: Document, chains: Sequence[Sequence[int]], chain_types: Sequence[str]
              ) -> tuple[Files, list[Diagnostic]]:
        """The files of one document's chains (``resolve --format``), and warnings."""
        raise NotImplementedError

    def export(self, doc: Document, chains: Sequence[Sequence[int]], chain_types: Sequence[str], *,
               chains_only: bool = False) -> tuple[Files, list[Diagnostic]]:
        """One whole document (``convert``); ``chains_only``: its text and concepts are another
        folder's (CoNLL with ``--reference``), where the format keeps them apart."""
        return self.write(doc, chains, chain_types)

    def export_names(self, name: str, *, chains_only: bool = False) -> list[str]:
        """The files ``export`` writes of a document, claimed before any is written."""
        return [f"{name}{suffix}" for suffix in self.suffixes]

    def finish(self, types: Iterable[str]) -> Files:
        """The files a batch writes once, after its documents (``types``: the concept types)."""
        return []


#: every format, by name (the modules of ``rulecoref.io`` register themselves when it is first read)
FORMATS: Registry[Format] = Registry("format", package="rulecoref.io", module_named=True)


def register_format(name: str):
    """Class decorator binding a Format subclass to its name (which must equal its module name)."""

    def deco(cls: type[Format]) -> type[Format]:
        cls.name = name
        FORMATS.register(name, cls(), module=cls.__module__)
        return cls

    return deco


def formats() -> list[Format]:
    """Every format, in ``rank`` order (the order of the CLI's choices and of detection)."""
    return sorted(FORMATS.values(), key=lambda f: (f.rank, f.name))


def get_format(name: str) -> Format:
    """The format called ``name`` (a CLI choice, so known); KeyError naming the known ones otherwise."""
    return FORMATS[name]


def unknown_format(path: Path, detail: str) -> CliError:
    """RC520: ``convert`` cannot tell what SRC holds; the hint names the formats ``--from`` takes."""
    return CliError(diagnostic("RC520", path=str(path), detail=detail, formats=", ".join(f.name for f in formats())))


def input_formats() -> list[str]:
    return [f.name for f in formats() if f.reads]


def output_formats() -> list[str]:
    return [f.name for f in formats() if f.writes]


def choices_help(names: Iterable[str], default: str = "i2b2", *, inputs: bool = False) -> str:
    """The formats' own descriptions for ``--help`` ("i2b2 NAME.txt.chains (default), ..."); with
    ``inputs``, what each reads ("i2b2 NAME.txt + NAME.txt.con (default), ...")."""
    def described(f: Format) -> str:
        return (f.input_help or f.help) if inputs else f.help

    return ", ".join(f"{n} {described(get_format(n))}" + (" (default)" if n == default else "") for n in names)


def detect_format(path: Path, candidates: Iterable[Format] | None = None) -> str | None:
    """The first format (by rank) that claims ``path``, or None."""
    return next((f.name for f in (candidates if candidates is not None else formats()) if f.detect(path)), None)


def marks(candidates: Iterable[Format] | None = None) -> list[str]:
    """What the formats look for in a folder, in rank order."""
    return [m for f in (candidates if candidates is not None else formats()) for m in f.marks]


def default_abbreviations(root: Path | None = None) -> frozenset[str]:
    """The bundled ``resources/lexicons/abbreviations.txt`` (words whose "." ends no sentence)."""
    from ..resources import data_root
    from ..resources.lexicon import Lexicon

    return Lexicon.from_file((root or data_root()) / "resources" / "lexicons" / "abbreviations.txt").words


def doc_name(path: str | Path) -> str:
    """Records are matched on the name before the first '.' (as the official scorer does)."""
    return Path(path).name.split(".")[0]


def input_files(path: Path, pattern: str) -> list[Path]:
    """The files of one input of a format found by file name (JSONL, brat): a folder's
    ``pattern`` files, sorted (RC210 when it holds none), or the file itself (RC213 when missing)."""
    files = sorted(path.glob(pattern)) if path.is_dir() else [path]
    if path.is_dir() and not files:
        raise InputError(diagnostic("RC210", path=str(path), hint=f"expected {path}/{pattern}"))
    if not path.exists():
        raise InputError(diagnostic("RC213", file=str(path), detail="no such file or directory"))
    return files


def input_folders(inputs: Iterable[str | Path], records: Iterable[Record]) -> tuple[set[Path], set[Path]]:
    """Folders an output folder must stay out of, resolved: (folders it may not be, folders it may
    not be inside). Every folder holding an input file of a format that guards its folders (i2b2)
    is in the first set; an i2b2 release's ``docs/``, ``concepts/`` and ``chains/`` are in both, so
    nothing is ever written among them (a flat folder's gold ``.txt.chains`` would be deleted by
    ``--overwrite``)."""
    exact: set[Path] = set()
    inside: set[Path] = set()
    for rec in records:
        if not get_format(rec.kind).guards_folders:  # JSONL, brat: checked file by file (RC522)
            continue
        for f in (rec.txt, rec.con, rec.chains):
            if f is not None:
                folder = f.resolve().parent
                exact.add(folder)
                if folder.name in ("docs", "concepts", "chains"):
                    inside.add(folder)
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            exact.add(path.resolve())
            for sub in ("docs", "concepts", "chains"):
                if (path / sub).is_dir():
                    inside.add((path / sub).resolve())
    return exact | inside, inside


def abbreviations_for(fmt: str) -> frozenset[str]:
    """The abbreviations a reader of ``fmt`` tokenises with: the bundled ones for plain text."""
    return default_abbreviations() if get_format(fmt).plain_text else frozenset()


def read_options(fmt: str, **options: Any) -> ReadOptions:
    """ReadOptions for inputs of ``fmt``, with the abbreviations when it reads plain text."""
    return ReadOptions(**options, abbreviations=abbreviations_for(fmt))


def find_inputs(inputs: Iterable[str | Path], input_format: str = "i2b2",
                encoding: str = "utf-8") -> tuple[list[Record], list[Diagnostic]]:
    """Records of DATA in a format, plus problems that are no record (a brat .ann without its
    text, a repeated JSONL id, an i2b2 text without concepts). A repeated name is reported
    (RC233) and its later record skipped."""
    records, problems = get_format(input_format).find([Path(i) for i in inputs], encoding)
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
    return get_format(record.kind).read(record, opts, with_chains)


def read_gold_record(record: Record, opts: ReadOptions) -> tuple[ReadResult, list[list[int]] | None]:
    """One record of any format with its gold chains (concept indices), None when it has none (an
    i2b2 record without a chains file, a JSONL line without ``chains``)."""
    return get_format(record.kind).read_gold(record, opts)


def inputs_format(inputs: Iterable[str | Path], given: str | None = None) -> Format:
    """The format of a command's inputs: ``given`` (``--input-format``), else the one each input
    claims (``detect``, as ``convert --from`` finds it), i2b2 when none does (its reader then says
    what is missing). Inputs of two formats at once are RC251."""
    if given:
        return get_format(given)
    found: dict[str, str] = {}
    for item in inputs:
        name = detect_format(Path(item), [f for f in formats() if f.reads])
        if name is not None:
            found.setdefault(name, str(item))
    if len(found) > 1:
        raise CliError(diagnostic("RC251", found=", ".join(f"{p} ({n})" for n, p in found.items())))
    return get_format(next(iter(found), "i2b2"))


def typed(doc: Document, chains: Sequence[Sequence[int]], types: Sequence[str] | None,
          pronoun_types: Iterable[str] = ("pronoun",)) -> list[str]:
    """Chain types, derived from the mentions (``chains.chain_type``) where the input gave none."""
    given = list(types) if types is not None else [""] * len(chains)
    return [t or chain_type(doc, c, pronoun_types) for c, t in zip(chains, given)]


def output_paths(fmt: str, out_dir: Path, name: str) -> list[Path]:
    """The files one document's output consists of."""
    return [out_dir / f"{name}{suffix}" for suffix in get_format(fmt).suffixes]


def document_files(fmt: str, doc: Document, chains: Sequence[Sequence[int]],
                   chain_types: Sequence[str]) -> tuple[Files, list[Diagnostic]]:
    """The files one document's output consists of, (name, text) in writing order, and warnings
    (CoNLL's crossing mentions)."""
    return get_format(fmt).write(doc, chains, chain_types)


def write_document(fmt: str, out_dir: Path, doc: Document, chains: Sequence[Sequence[int]],
                   chain_types: Sequence[str]) -> list[Diagnostic]:
    """Write one document's chains in ``fmt``: every file of it, or none (OutputError RC510);
    returns warnings."""
    files, warnings = document_files(fmt, doc, chains, chain_types)
    write_all(out_dir, files)
    return warnings


class Source:
    """A ``convert`` SRC in one format: the names of its documents (claimed before any output is
    written), the files it reads (which the output must never touch), and its documents."""

    #: its documents' texts and concepts are another folder's: a format that keeps them apart
    #: writes only the chains (CoNLL with ``--reference``, written as i2b2)
    chains_only: bool = False

    def names(self) -> list[str]:
        raise NotImplementedError

    def inputs(self) -> Inputs:
        raise NotImplementedError

    def documents(self, failed: list[Diagnostic], warnings: list[Diagnostic]) -> Iterator[Converted]:
        """Every document with its chains and their types; one that cannot be read goes to
        ``failed`` and the rest go on."""
        raise NotImplementedError


class RecordSource(Source):
    """SRC of a format with records: found as ``resolve`` finds them, read one by one."""

    def __init__(self, fmt: Format, src: Path, opts: SourceOptions):
        if opts.chains is not None and not opts.chains.is_dir():
            raise CliError(diagnostic("RC521", what="chains folder", path=str(opts.chains)))
        self.fmt, self.src, self.opts = fmt, src, opts
        self._found: tuple[list[Record], list[Diagnostic]] | None = None

    def _records(self) -> tuple[list[Record], list[Diagnostic]]:
        if self._found is None:
            self._found = find_inputs([self.src], self.fmt.name, self.opts.encoding)
        return self._found

    def names(self) -> list[str]:
        try:
            return [rec.name for rec in self._records()[0]]
        except InputError:
            return []  # reported when the documents are read

    def inputs(self) -> Inputs:
        """SRC's files, with the folders of a format that guards them, and ``--chains`` and
        ``--reference`` with all below them."""
        try:
            records = self._records()[0]
        except InputError:
            records = []  # reported when the conversion reads it
        files: list[Path | None] = [self.src] + [f for rec in records for f in (rec.txt, rec.con, rec.chains)]
        exact, inside = input_folders([self.src] if self.fmt.guards_folders and self.src.is_dir() else [], [])
        for extra in (self.opts.chains, self.opts.reference):
            if extra is not None and extra.is_dir():
                exact.add(extra.resolve())
                inside.add(extra.resolve())
        return Inputs(files, (exact, inside))

    def documents(self, failed: list[Diagnostic], warnings: list[Diagnostic]) -> Iterator[Converted]:
        opts = read_options(self.fmt.name, encoding=self.opts.encoding, type_map=self.opts.type_map)
        records, strays = self._records()
        failed.extend(strays)
        base = self.opts.chains
        if base is not None and (base / "chains").is_dir():  # a release layout: its chains/ folder
            base = base / "chains"
        for rec in records:
            if base is not None:
                found = base / f"{rec.name}.txt.chains"
                rec = replace(rec, chains=found if found.is_file() else None)
            try:
                read = read_record(rec, opts, with_chains=True)
            except RulecorefError as exc:
                failed.extend(exc.diagnostics)
                continue
            warnings.extend(read.warnings)
            chains = read.chains or []
            yield read.document, chains, typed(read.document, chains, read.chain_types, self.opts.pronoun_types)
