"""Read and write CoNLL-2011/2012 coreference files (the reference scorer's input format).

The reader follows the reference scorer v8.01 (``shared/scorer-cases/conll/README.md``):
  * a document runs from ``#begin document <id>`` to ``#end document``; the id is everything after
    ``begin document `` (trailing spaces included), so ``(wsj_0001); part 000`` is one id;
  * each non-blank line is one token and only its LAST whitespace-separated field is read: the other
    columns vary between files (5 TAB-separated columns, or 2 space-separated ones);
  * the coreference field holds ``(N)`` (one-token mention), ``(N`` (opens) and ``N)`` (closes the
    most recent open mention of N), with or without ``|`` between them (``(1(3`` is two opens).
    Like the Perl code, one line is read as: all ``(N)`` first, then the opens, then the closes;
  * mentions are (first token, last token) over the whole document, blank lines not counted.

Entities keep the order in which their ids first appear, mentions the order in which they are
completed; the scorer's duplicate rule ("the first one wins") depends on that order, so it is kept.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..chains import chain_types
from ..document import Concept, Document
from ..errors import CliError, Diagnostic, InputError, RulecorefError, diagnostic
from .formats import Converted, Files, Format, Source, SourceOptions, register_format
from .i2b2 import Span, read_document, read_text_lines
from .outdir import Inputs

Mention = tuple[int, int]  # (first token, last token), inclusive, counted over the document

_BEGIN_RE = re.compile(r"^#\s*begin document (.*)$")
_END_RE = re.compile(r"^#\s*end document")
_DOUBLE_RE = re.compile(r"\(\d+\+\d+\)")
_SINGLE_RE = re.compile(r"\((\d+)\)")
_OPEN_RE = re.compile(r"\((\d+)")
_CLOSE_RE = re.compile(r"(\d+)\)")
_REST_RE = re.compile(r"^[\s|_\-]*$")
_ID_RE = re.compile(r"^\((.*)\);\s*(?:part (\d+))?\s*$")  # "(name); part 000"


@dataclass
class ConllDocument:
    """One ``#begin document`` block: tokens (as sentences) and the entities of its last column.

    ``entities`` maps the file's entity id to its mentions; ``tokens`` holds the word column when
    the file has one (CoNLL-2012: the 4th column), else ``_``.
    """

    doc_id: str
    sentences: list[list[str]] = field(default_factory=list)
    entities: dict[int, list[Mention]] = field(default_factory=dict)
    line: int = 0  # line of the #begin document in the source file

    @property
    def n_tokens(self) -> int:
        return sum(len(s) for s in self.sentences)

    def clusters(self) -> list[list[Mention]]:
        """Entities as lists of mentions, in file order (singletons included)."""
        return [list(ms) for ms in self.entities.values() if ms]


def parse_coref_field(value: str) -> tuple[list[int], list[int], list[int]]:
    """Split a coreference field into (one-token ids, opened ids, closed ids), each left to right.

    >>> parse_coref_field("(1|(2)|3)")
    ([2], [1], [3])
    """
    if value in ("-", "_"):
        return [], [], []
    rest = _DOUBLE_RE.sub("", value)  # "(1+2)" double antecedents are discarded, as the scorer does
    singles = [int(m) for m in _SINGLE_RE.findall(rest)]
    rest = _SINGLE_RE.sub("", rest)
    opens = [int(m) for m in _OPEN_RE.findall(rest)]
    rest = _OPEN_RE.sub("", rest)
    closes = [int(m) for m in _CLOSE_RE.findall(rest)]
    rest = _CLOSE_RE.sub("", rest)
    if not _REST_RE.match(rest):
        raise ValueError(f"unreadable coreference field {value!r}")
    return singles, opens, closes


def read_conll(path: str | Path, *, word_column: int = 3, encoding: str = "utf-8") -> list[ConllDocument]:
    """Read every document of a CoNLL file; all problems are reported at once (InputError).

    Args:
        word_column: 0-based column holding the word, used only when a line has more than
            ``word_column + 1`` fields (the last field is always the coreference column).
    """
    path = Path(path)
    reader = _ConllReader(str(path), word_column)
    for lineno, raw in enumerate(read_text_lines(path, encoding), 1):
        reader.line(lineno, raw)
    if reader.doc is not None:
        reader.problem("RC707", reader.doc.line, detail=f"document {reader.doc.doc_id!r} has no #end document")
        reader.finish()
    if reader.errors:
        raise InputError(reader.errors)
    return reader.docs


class _ConllReader:
    """One pass over a CoNLL file's lines: the open document, its open mentions, the problems."""

    def __init__(self, file: str, word_column: int):
        self.file, self.word_column = file, word_column
        self.docs: list[ConllDocument] = []
        self.errors: list[Diagnostic] = []
        self.seen: dict[str, int] = {}
        self.doc: ConllDocument | None = None
        self.open_stack: dict[int, list[tuple[int, int]]] = {}
        self.sentence: list[str] = []
        self.token = 0

    def problem(self, code: str, line: int, **fields: object) -> None:
        self.errors.append(diagnostic(code, file=self.file, line=line, **fields))

    def line(self, lineno: int, raw: str) -> None:
        begin = _BEGIN_RE.match(raw)
        if begin:
            if self.doc is not None:
                self.problem("RC707", lineno, detail="#begin document inside an open document")
                self.finish()
            self.doc = ConllDocument(begin.group(1), line=lineno)
            self.open_stack, self.sentence, self.token = {}, [], 0
        elif _END_RE.match(raw):
            if self.doc is None:
                self.problem("RC707", lineno, detail="#end document without #begin document")
            else:
                self.finish()
        elif not raw.split():
            if self.doc is not None and self.sentence:
                self.doc.sentences.append(self.sentence)
                self.sentence = []
        elif self.doc is None:
            if not raw.lstrip().startswith("#"):  # a comment between documents is fine
                self.problem("RC707", lineno, detail="token line outside a document")
        else:
            self.token_line(lineno, raw.split(), self.doc)

    def token_line(self, lineno: int, fields: list[str], doc: ConllDocument) -> None:
        self.sentence.append(fields[self.word_column] if len(fields) > self.word_column + 1 else "_")
        token = self.token
        self.token += 1
        try:
            singles, opens, closes = parse_coref_field(fields[-1])
        except ValueError as exc:
            self.problem("RC707", lineno, detail=str(exc))
            return
        for ent in singles:
            doc.entities.setdefault(ent, []).append((token, token))
        for ent in opens:
            doc.entities.setdefault(ent, [])
            self.open_stack.setdefault(ent, []).append((token, lineno))
        for ent in closes:
            stack = self.open_stack.get(ent)
            if not stack:
                self.problem("RC708", lineno, entity=ent, detail="closed without being opened")
                continue
            start, _ = stack.pop()
            doc.entities.setdefault(ent, []).append((start, token))

    def finish(self) -> None:
        doc = self.doc
        assert doc is not None
        if self.sentence:
            doc.sentences.append(self.sentence)
        self.sentence = []
        for ent, stack in self.open_stack.items():
            for start, at in stack:
                self.problem("RC708", at, entity=ent, detail=f"opened at token {start} and never closed")
        if doc.doc_id in self.seen:
            self.problem("RC709", doc.line, doc=doc.doc_id, first=self.seen[doc.doc_id])
        else:
            self.seen[doc.doc_id] = doc.line
            self.docs.append(doc)
        self.doc = None


def coref_column(n_tokens: int, clusters: Iterable[Sequence[Mention]]) -> tuple[list[str], list[tuple[int, Mention, Mention]]]:
    """The last column for every token, plus the mention pairs that CoNLL cannot express.

    Opens are written outermost first and closes innermost first, so nested mentions survive the
    round trip. Two mentions of ONE entity that cross (a: 1-5, b: 3-8) cannot: the reader closes
    the most recent open of an id. Those pairs are returned (entity, a, b) so the caller can warn.
    """
    opens: list[list[tuple[int, int]]] = [[] for _ in range(n_tokens)]  # (-(end), entity)
    closes: list[list[tuple[int, int]]] = [[] for _ in range(n_tokens)]  # (-(start), entity)
    singles: list[list[int]] = [[] for _ in range(n_tokens)]
    crossing: list[tuple[int, Mention, Mention]] = []
    for ent, mentions in enumerate(clusters):
        spans = sorted(set(mentions))
        for i, (s1, e1) in enumerate(spans):
            for s2, e2 in spans[i + 1 :]:
                if s2 > e1:
                    break
                if s1 < s2 <= e1 < e2:
                    crossing.append((ent, (s1, e1), (s2, e2)))
            if s1 == e1:
                singles[s1].append(ent)
            else:
                opens[s1].append((-e1, ent))
                closes[e1].append((-s1, ent))
    column = []
    for t in range(n_tokens):
        parts = [f"({ent}" for _, ent in sorted(opens[t])]
        parts += [f"({ent})" for ent in singles[t]]
        parts += [f"{ent})" for _, ent in sorted(closes[t], reverse=True)]
        column.append("|".join(parts) if parts else "-")
    return column, crossing


def format_conll(doc_id: str, sentences: Sequence[Sequence[str]], clusters: Sequence[Sequence[Mention]]) -> tuple[str, list[tuple[int, Mention, Mention]]]:
    """One document in CoNLL-2012 layout: ``name part index word coref`` (TAB-separated).

    ``doc_id`` is written after ``#begin document ``; the name column is the id's part inside
    ``(...)`` when it has one. Empty sentences are skipped (CoNLL cannot hold an empty sentence).
    """
    n_tokens = sum(len(s) for s in sentences)
    column, crossing = coref_column(n_tokens, clusters)
    m = _ID_RE.match(doc_id)
    name, part = (m.group(1), str(int(m.group(2) or 0))) if m else (doc_id.strip() or "-", "0")
    name = "_".join(name.split()) or "-"
    out = [f"#begin document {doc_id}\n"]
    t = 0
    for sent in sentences:
        if not sent:
            continue
        for i, word in enumerate(sent):
            out.append(f"{name}\t{part}\t{i}\t{word}\t{column[t]}\n")
            t += 1
        out.append("\n")
    out.append("#end document\n")
    return "".join(out), crossing


def conll_doc_id(name: str, part: int = 0) -> str:
    """The CoNLL-2012 id of an i2b2 record: ``(NAME); part 000``."""
    return f"({name}); part {part:03d}"


def record_name(doc_id: str) -> str:
    """An i2b2 record name for a CoNLL id: ``(NAME); part 000`` -> NAME, other parts -> NAME_partNNN.

    Characters that cannot appear in a file name (``/``, spaces) become ``_``.
    """
    m = _ID_RE.match(doc_id)
    if m:
        name, part = m.group(1), int(m.group(2) or 0)
        base = name if part == 0 else f"{name}_part{part:03d}"
    else:
        base = doc_id.strip()
    base = re.sub(r"[\s/\\:.()]+", "_", base).strip("_")
    return base or "document"


# -- i2b2 <-> CoNLL ------------------------------------------------------------------------------
def document_to_conll(doc: Document, chains: Sequence[Sequence[Span]], *, part: int = 0) -> tuple[str, list[Diagnostic]]:
    """One i2b2 record as a CoNLL-2012 document: every chain is an entity and every concept outside
    the chains a singleton entity (the i2b2 scorer's convention, which CoNLL writes explicitly).

    Each .txt line becomes a sentence; blank lines disappear (CoNLL has no empty sentence), which
    leaves the flat token index unchanged. Chain mentions must be concepts of ``doc``.
    """
    by_span = {c.span: c for c in doc.concepts}
    clusters: list[list[Mention]] = []
    in_chain: set[Span] = set()
    for spans in chains:
        clusters.append([(doc.start_of(by_span[s]), doc.end_of(by_span[s])) for s in spans])
        in_chain.update(spans)
    clusters.extend([(doc.start_of(c), doc.end_of(c))] for c in doc.concepts if c.span not in in_chain)
    text, crossing = format_conll(conll_doc_id(doc.name, part), doc.lines, clusters)
    warnings = [
        diagnostic("RC713", file=doc.source or None, severity="warning", a=_pos_text(doc, a), b=_pos_text(doc, b))
        for _, a, b in crossing
    ]
    return text, warnings


def _pos_text(doc: Document, mention: Mention) -> str:
    pos = _Positions(doc)
    (l1, t1), (l2, t2) = pos(mention[0]), pos(mention[1])
    return f"{l1}:{t1} {l2}:{t2}"


class _Positions:
    """(line, token) of a flat token index. A blank line shares its offset with the next line;
    ``bisect_right`` picks the later, non-blank one."""

    def __init__(self, doc: Document):
        self.offsets = [doc.flat((line, 0)) for line in range(1, doc.n_lines + 1)]

    def __call__(self, flat: int) -> tuple[int, int]:
        line = bisect_right(self.offsets, flat)
        return line, flat - self.offsets[line - 1]


def conll_to_document(
    cdoc: ConllDocument,
    *,
    name: str | None = None,
    reference: Document | None = None,
    default_type: str = "noun_phrase",
    source: str = "",
) -> tuple[Document, list[list[int]], list[Diagnostic]]:
    """A CoNLL document as an i2b2 record: (Document with concepts, chains as concept indices, warnings).

    Without ``reference`` each sentence becomes a line, every mention a concept of
    ``default_type`` (CoNLL carries no types) whose text is its lowercased tokens. With a reference
    record (the gold i2b2 files of the same text), positions are mapped through the reference's
    flat token index, so line numbers survive blank lines, and concepts and their types come from
    the reference; a mention that is not a reference concept is added with ``default_type`` and
    reported (RC714). Entities of one mention are concepts only: i2b2 writes no singleton chains.
    """
    name = name or record_name(cdoc.doc_id)
    warnings: list[Diagnostic] = []
    if reference is not None:
        if reference.n_lines and len(reference.flat_tokens) != cdoc.n_tokens:
            raise InputError(diagnostic("RC717", file=source or None, line=cdoc.line, doc=cdoc.doc_id,
                                        got=cdoc.n_tokens, expected=len(reference.flat_tokens), path=reference.source))
        lines = reference.lines
        concepts = list(reference.concepts)
    else:
        lines = [list(s) for s in cdoc.sentences]
        concepts = []
    probe = Document(name, lines, [], source=reference.source if reference is not None else "")
    position = _Positions(probe)
    by_span: dict[Span, int] = {c.span: i for i, c in enumerate(concepts)}
    clusters: list[list[int]] = []
    extra: list[tuple[Span, str]] = []
    for mentions in cdoc.clusters():
        members = []
        for start, end in mentions:
            (l1, t1), (l2, t2) = position(start), position(end)
            span = (l1, t1, l2, t2)
            if span not in by_span:
                if reference is not None:
                    warnings.append(diagnostic("RC714", file=source or None, line=cdoc.line, severity="warning",
                                               mention=f"{l1}:{t1} {l2}:{t2}", doc=cdoc.doc_id, path=reference.source))
                by_span[span] = len(concepts) + len(extra)
                text = " ".join(probe.flat_tokens[start : end + 1]).lower()
                extra.append((span, text))
            members.append(by_span[span])
        clusters.append(members)
    # Concepts are indexed in text order, as the i2b2 reader does; renumber the clusters to match.
    raw = [(c.span, c.text, c.type) for c in concepts] + [(sp, text, default_type) for sp, text in extra]
    order = sorted(range(len(raw)), key=lambda i: raw[i][0])
    new_index = {old: new for new, old in enumerate(order)}
    final = [
        Concept(index=new, text=raw[old][1], type=raw[old][2], start=(raw[old][0][0], raw[old][0][1]),
                end=(raw[old][0][2], raw[old][0][3]))
        for new, old in enumerate(order)
    ]
    doc = Document(name, lines, final, source=probe.source)
    chains = [sorted(new_index[i] for i in members) for members in clusters if len(set(members)) > 1]
    return doc, chains, warnings


@register_format("conll")
class Conll(Format):
    """CoNLL-2012 files (the reference scorer's input). Written per document by ``resolve`` and
    as one file by ``convert``; read by ``convert`` only, since CoNLL carries no concept types
    (they come from ``--reference`` or are ``--default-type``)."""

    help = "NAME.conll"
    rank = 90  # any other file: the formats before it claim theirs by name
    suffixes = (".conll",)
    one_file = True
    complete_only = True  # a scorer input that lacks documents would be scored as if they had no chains

    def detect(self, path: Path) -> bool:
        return path.is_file()

    def source(self, src: Path, opts: SourceOptions) -> Source:
        return ConllSource(src, opts)

    def write(self, doc: Document, chains: Sequence[Sequence[int]], chain_types: Sequence[str]
              ) -> tuple[Files, list[Diagnostic]]:
        text, warnings = document_to_conll(doc, [[doc.concepts[i].span for i in c] for c in chains if len(c) > 1])
        return [(f"{doc.name}.conll", text)], warnings


class ConllSource(Source):
    """A CoNLL file as documents: with ``--reference`` (the i2b2 folder of the same texts) the
    concepts, their types and the lines come from it, and only the chains are new."""

    def __init__(self, src: Path, opts: SourceOptions):
        if not src.is_file():
            raise CliError(diagnostic("RC521", what="CoNLL file", path=str(src)))
        if opts.reference is not None and not opts.reference.is_dir():  # before OUT is made
            raise CliError(diagnostic("RC521", what="reference folder", path=str(opts.reference)))
        self.src, self.opts = src, opts
        self.chains_only = opts.reference is not None
        self._docs: list[ConllDocument] | None = None

    def _read(self) -> list[ConllDocument]:
        """The file's documents, parsed once for ``names`` and ``documents`` (a file that fails is
        read again by ``documents``, which reports it)."""
        if self._docs is None:
            self._docs = read_conll(self.src, word_column=self.opts.word_column, encoding=self.opts.encoding)
        return self._docs

    def names(self) -> list[str]:
        try:
            return [record_name(c.doc_id) for c in self._read()]
        except RulecorefError:
            return []  # reported when the documents are read

    def inputs(self) -> Inputs:
        folders = {p.resolve() for p in (self.opts.chains, self.opts.reference) if p is not None and p.is_dir()}
        return Inputs([self.src], (set(folders), set(folders)))

    def documents(self, failed: list[Diagnostic], warnings: list[Diagnostic]) -> Iterator[Converted]:
        from .layout import records_in_dir

        opts, refs = self.opts, {}
        if opts.reference is not None:
            refs = {r.name: r for r in records_in_dir(opts.reference)[0]}
        for cdoc in self._read():
            name = record_name(cdoc.doc_id)
            try:
                ref_doc = None
                if opts.reference is not None:
                    rec = refs.get(name)
                    if rec is None or rec.txt is None:
                        raise InputError(diagnostic("RC715", file=str(self.src), line=cdoc.line, doc=cdoc.doc_id,
                                                    expected=f"{opts.reference}/docs/{name}.txt and concepts/{name}.txt.con"))
                    read = read_document(rec.txt, rec.con, name=name, encoding=opts.encoding)
                    warnings.extend(read.warnings)
                    ref_doc = read.document
                doc, chains, warns = conll_to_document(cdoc, name=name, reference=ref_doc,
                                                       default_type=opts.default_type, source=str(self.src))
            except RulecorefError as exc:
                failed.extend(exc.diagnostics)
                continue
            warnings.extend(warns)
            yield doc, chains, chain_types(doc, chains, opts.pronoun_types)
