"""Read .txt / .txt.con / .txt.chains and write .txt.chains (``shared/i2b2-format.md``).

The parser is strict where a silent guess would lose data (a bad offset, a malformed line) and
tolerant where the release files vary harmlessly (CRLF, a UTF-8 BOM, trailing blank lines). Every
problem becomes a Diagnostic naming the file and line; warnings are returned, errors raised.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..bounded import Limit, NotRegular, read_bytes
from ..document import Concept, Document
from ..errors import Diagnostic, InputError, diagnostic
from .formats import Files, Format, ReadOptions, ReadResult, Record, doc_name, register_format
from .layout import find_records

#: Largest input file read (a note, a concept or chains file, a brat or CoNLL file): a document is
#: read whole, and the largest clinical notes are under a megabyte.
MAX_INPUT_BYTES = 256 * 1024 * 1024

_CONCEPT_RE = re.compile(r'^c="(?P<text>.*)" (?P<l1>\d+):(?P<t1>\d+) (?P<l2>\d+):(?P<t2>\d+)\|\|t="(?P<type>[^"]*)"$')
_MENTION_RE = re.compile(r'^c="(?P<text>.*)" (?P<l1>\d+):(?P<t1>\d+) (?P<l2>\d+):(?P<t2>\d+)$')
_CHAIN_TYPE_RE = re.compile(r'^t="(?:coref )?(?P<type>[^"]*)"$')

Span = tuple[int, int, int, int]


def read_text(path: str | Path, encoding: str = "utf-8") -> str:
    """A file's text exactly as written, only a UTF-8 byte-order mark dropped (brat counts
    offsets in it). Undecodable bytes raise RC206 naming the line they are on, so a user can find them."""
    path = Path(path)
    try:
        raw = read_bytes(path, MAX_INPUT_BYTES)
    except OSError as exc:
        raise InputError(diagnostic("RC213", file=str(path), detail=exc.strerror or str(exc))) from exc
    except NotRegular as exc:
        raise InputError(diagnostic("RC220", file=str(path), path=str(path), kind=exc.kind)) from exc
    except Limit as exc:
        raise InputError(diagnostic("RC219", file=str(path), path=str(path), limit=f"{exc.limit:,}")) from exc
    codec = "utf-8-sig" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding
    try:
        return raw.decode(codec)
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(
            diagnostic("RC206", file=str(path), line=line, encoding=encoding, detail=f"byte {raw[exc.start]:#04x}")
        ) from exc
    except LookupError as exc:
        raise InputError(diagnostic("RC511", encoding=encoding)) from exc


def read_text_lines(path: str | Path, encoding: str = "utf-8") -> list[str]:
    """A file's text as lines: CRLF normalised, trailing blank lines dropped. A file with newlines
    breaks lines at them only: a lone CR inside a line is whitespace of that line (it once split the
    line, and the concept file was blamed, RC203); a file without any newline (old Mac) breaks at CR."""
    text = read_text(path, encoding)
    lines = text.replace("\r\n", "\n").split("\n") if "\n" in text else text.split("\r")
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def parse_mention(text: str) -> tuple[str, Span] | None:
    """Parse ``c="..." L:T L:T``; the text is whatever lies between the first and last quote."""
    m = _MENTION_RE.match(text.strip())
    if not m:
        return None
    return m["text"], (int(m["l1"]), int(m["t1"]), int(m["l2"]), int(m["t2"]))


def parse_concept(line: str) -> tuple[str, Span, str] | None:
    """Parse a concept line ``c="..." L:T L:T||t="type"``: (text, span, type as written), None when
    malformed. The one reader of concept lines (documents, the scorer's light reader, the viewer)."""
    m = _CONCEPT_RE.match(line.strip())
    if not m:
        return None
    return m["text"], (int(m["l1"]), int(m["t1"]), int(m["l2"]), int(m["t2"])), m["type"]


def _check_span(span: Span, lines: list[list[str]], file: str, line: int) -> Diagnostic | None:
    l1, t1, l2, t2 = span
    n = len(lines)
    for ln, tk in ((l1, t1), (l2, t2)):
        if not 1 <= ln <= n:
            return diagnostic("RC202", file=file, line=line, offset=f"{ln}:{tk}", detail=f"the text has {n} lines")
        width = len(lines[ln - 1])
        if not 0 <= tk < width:
            return diagnostic(
                "RC202", file=file, line=line, offset=f"{ln}:{tk}", detail=f"line {ln} has {width} tokens"
            )
    if (l2, t2) < (l1, t1):
        return diagnostic("RC211", file=file, line=line, detail=f"{l1}:{t1} {l2}:{t2}")
    return None


def _span_tokens(lines: list[list[str]], span: Span) -> tuple[str, ...]:
    l1, t1, l2, t2 = span
    if l1 == l2:
        return tuple(lines[l1 - 1][t1 : t2 + 1])
    out = list(lines[l1 - 1][t1:])
    for ln in range(l1 + 1, l2):
        out.extend(lines[ln - 1])
    out.extend(lines[l2 - 1][: t2 + 1])
    return tuple(out)


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _concept_lines(con_lines: list[str], lines: list[list[str]], cfile: str, allowed: set[str] | None,
                   strict_text: bool) -> tuple[list[tuple[Span, str, str, int, list[str]]], list[Diagnostic],
                                               list[Diagnostic]]:
    """Each concept line checked against the text: (span, text, type, line, tokens) of the good
    ones, the errors (RC201 malformed, span outside the text, RC208 unknown type; RC203 text
    mismatch when strict) and the warnings (RC212 repeated span, RC203)."""
    errors: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    seen: dict[Span, int] = {}
    raw: list[tuple[Span, str, str, int, list[str]]] = []
    for lineno, line in enumerate(con_lines, 1):
        if not line.strip():
            continue
        parsed = parse_concept(line)
        if parsed is None:
            errors.append(diagnostic("RC201", file=cfile, line=lineno, detail=f"expected c=\"...\" L:T L:T||t=\"type\", got {line.strip()[:80]!r}"))
            continue
        given, span, written_type = parsed
        problem = _check_span(span, lines, cfile, lineno)
        if problem:
            errors.append(problem)
            continue
        ctype = written_type.strip().lower()
        if allowed is not None and ctype not in allowed:
            errors.append(diagnostic("RC208", file=cfile, line=lineno, type=ctype, known=", ".join(sorted(allowed))))
            continue
        if span in seen:
            warnings.append(diagnostic("RC212", file=cfile, line=lineno, severity="warning", span=f"{span[0]}:{span[1]} {span[2]}:{span[3]}", first=seen[span]))
            continue
        seen[span] = lineno
        found = _span_tokens(lines, span)
        if _norm(given) != _norm(" ".join(found)):
            d = diagnostic("RC203", file=cfile, line=lineno, given=given, found=" ".join(found),
                           severity="error" if strict_text else "warning")
            (errors if strict_text else warnings).append(d)
        raw.append((span, given, ctype, lineno, found))
    return raw, errors, warnings


def read_document(
    txt_path: str | Path,
    con_path: str | Path,
    *,
    name: str | None = None,
    types: Sequence[str] | None = None,
    strict_text: bool = False,
    encoding: str = "utf-8",
) -> ReadResult:
    """Read one record. Raises InputError with every error in the concept file at once.

    Args:
        types: the declared concept types; a concept of another type is an error (RC208).
        strict_text: make a concept whose text does not match its tokens an error, not a warning.
    """
    txt_path, con_path = Path(txt_path), Path(con_path)
    name = name or doc_name(txt_path)
    text_lines = read_text_lines(txt_path, encoding)
    if not any(line.strip() for line in text_lines):
        raise InputError(diagnostic("RC205", file=str(txt_path)))
    lines = [line.split() for line in text_lines]
    con_lines = read_text_lines(con_path, encoding)
    raw, errors, warnings = _concept_lines(con_lines, lines, str(con_path), set(types) if types else None, strict_text)
    if not con_lines:
        warnings.append(diagnostic("RC205", file=str(con_path), severity="warning",
                                    hint="no concepts: nothing to link"))
    if errors:
        raise InputError(errors)
    raw.sort(key=lambda r: r[0])
    concepts = [
        Concept(index=i, text=given, type=ctype, start=(s[0], s[1]), end=(s[2], s[3]), source_line=ln)
        for i, (s, given, ctype, ln, _) in enumerate(raw)
    ]
    return ReadResult(Document(name=name, lines=lines, concepts=concepts, source=str(txt_path)), warnings)


@dataclass
class ChainSet:
    """Chains as read from a .txt.chains file: spans per chain, the chain type, source lines."""

    chains: list[list[Span]]
    types: list[str]
    lines: list[int]
    texts: dict[Span, str] = field(default_factory=dict)


def read_chains(path: str | Path, *, encoding: str = "utf-8") -> ChainSet:
    """Parse a .txt.chains file; malformed lines and a mention in two chains are errors."""
    path = Path(path)
    file = str(path)
    out = ChainSet([], [], [])
    errors: list[Diagnostic] = []
    owner: dict[Span, int] = {}
    for lineno, line in enumerate(read_text_lines(path, encoding), 1):
        if not line.strip():
            continue
        parts = line.strip().split("||")
        tm = _CHAIN_TYPE_RE.match(parts[-1].strip()) if len(parts) >= 2 else None
        if not tm:
            errors.append(diagnostic("RC207", file=file, line=lineno, detail="the last field must be t=\"coref <type>\""))
            continue
        spans: list[Span] = []
        bad = False
        for part in parts[:-1]:
            parsed = parse_mention(part)
            if parsed is None:
                errors.append(diagnostic("RC207", file=file, line=lineno, detail=f"bad mention {part.strip()[:60]!r}"))
                bad = True
                break
            text, span = parsed
            if span in owner:
                errors.append(diagnostic("RC214", file=file, line=lineno, mention=part.strip(), first=owner[span]))
                bad = True
                break
            owner[span] = lineno
            out.texts[span] = text
            spans.append(span)
        if bad:
            continue
        out.chains.append(spans)
        out.types.append(tm["type"].strip().lower())
        out.lines.append(lineno)
    if errors:
        raise InputError(errors)
    return out


def _members(doc: Document, chains: ChainSet, path: str | Path, severity: str) -> tuple[list[list[int]], list[Diagnostic]]:
    """Each chain as concept indices of ``doc``; a mention that is no concept of it is left out
    with an RC209 of ``severity``."""
    by_span = doc.by_span()
    problems: list[Diagnostic] = []
    members: list[list[int]] = []
    for spans, line in zip(chains.chains, chains.lines):
        found = []
        for span in spans:
            c = by_span.get(span)
            if c is None:
                problems.append(diagnostic("RC209", file=str(path), line=line, severity=severity,
                                           mention=f"{span[0]}:{span[1]} {span[2]}:{span[3]}"))
            else:
                found.append(c.index)
        members.append(found)
    return members, problems


def chain_members(doc: Document, path: str | Path, *, encoding: str = "utf-8") -> tuple[list[list[int]], list[Diagnostic]]:
    """A gold chain file as concept indices of ``doc``, chain by chain; a chain mention that is no
    concept of ``doc`` is left out with a warning (RC209), since gold files are often cut from a
    larger annotation."""
    return _members(doc, read_chains(path, encoding=encoding), path, "warning")


def format_chains(doc: Document, clusters: Iterable[Sequence[int]], chain_types: Sequence[str]) -> str:
    """i2b2 chain lines: mentions in text order, chains ordered by their first mention."""
    rows = []
    concepts = doc.concepts
    for cluster, ctype in zip(clusters, chain_types):
        if len(cluster) < 2:
            continue
        members = sorted(cluster)
        rows.append((members[0], "||".join([concepts[i].i2b2() for i in members]) + f'||t="coref {ctype}"'))
    rows.sort()
    return "".join(text + "\n" for _, text in rows)


def format_concepts(doc: Document) -> str:
    """A .txt.con file: one ``c="text" L:T L:T||t="type"`` line per concept, in text order."""
    return "".join(f'{c.i2b2()}||t="{c.type}"\n' for c in doc.concepts)


def chains_by_index(doc: Document, path: Path, encoding: str = "utf-8") -> tuple[list[list[int]], list[str]]:
    """An i2b2 .txt.chains file as concept indices of ``doc``; a mention that is no concept is an error."""
    cs = read_chains(path, encoding=encoding)
    members, errors = _members(doc, cs, path, "error")
    if errors:
        raise InputError(errors)
    kept = [(sorted(set(m)), ctype) for m, ctype in zip(members, cs.types) if len(set(m)) > 1]
    return [m for m, _ in kept], [ctype for _, ctype in kept]


#: convert's files of one record: the i2b2 release layout (``io/layout.py``)
_RELEASE = ("docs/{}.txt", "concepts/{}.txt.con", "chains/{}.txt.chains")


@register_format("i2b2")
class I2b2(Format):
    """The i2b2/VA 2011 files: ``docs/NAME.txt`` + ``concepts/NAME.txt.con`` (+ ``chains/``)
    in, ``NAME.txt.chains`` out (a whole release layout from ``convert``)."""

    help = "NAME.txt.chains"
    input_help = "NAME.txt + NAME.txt.con (flat, or in docs/ and concepts/)"
    rank = 10
    marks = ("concepts/", "*.con")
    suffixes = (".txt.chains",)
    guards_folders = True  # a flat folder's gold .txt.chains must never be an output's
    convert_to = "conll"
    stale_code = "RC501"

    def detect(self, path: Path) -> bool:
        if path.is_dir():
            return (path / "concepts").is_dir() or any(path.glob("*.con"))
        return path.name.endswith((".con", ".txt"))

    def find(self, inputs: Sequence[Path], encoding: str) -> tuple[list[Record], list[Diagnostic]]:
        records, problems = find_records(inputs)
        return records, [d for d in problems if d.code == "RC216"]  # a concept file without text: when read

    def read(self, record: Record, opts: ReadOptions, with_chains: bool) -> ReadResult:
        if record.txt is None:
            raise InputError(diagnostic("RC204", file=str(record.con), path=str(record.con), expected=record.con.name[:-4]))
        read = read_document(record.txt, record.con, name=record.name, types=opts.types,
                             strict_text=opts.strict_text, encoding=opts.encoding)
        if with_chains and record.chains is not None:
            read.chains, read.chain_types = chains_by_index(read.document, record.chains, opts.encoding)
        return read

    def read_gold(self, record: Record, opts: ReadOptions) -> tuple[ReadResult, list[list[int]] | None]:
        """A chain mention that is no concept is a warning (RC209): gold files are often cut from a
        larger annotation."""
        if record.txt is None:
            raise InputError(diagnostic("RC204", file=str(record.con), path=str(record.con), expected=record.con.name[:-4]))
        read = read_document(record.txt, record.con, name=record.name, types=opts.types, strict_text=opts.strict_text,
                             encoding=opts.encoding)
        if record.chains is None:
            return read, None
        members, missing = chain_members(read.document, record.chains, encoding=opts.encoding)
        read.warnings.extend(missing)
        return read, members

    def system_chains(self, folder: Path, doc: Document, opts: ReadOptions) -> tuple[list[list[int]], list[str]] | None:
        for path in (folder / f"{doc.name}.txt.chains", folder / "chains" / f"{doc.name}.txt.chains"):
            if path.is_file():
                return chains_by_index(doc, path, opts.encoding)
        return None

    def write(self, doc: Document, chains: Sequence[Sequence[int]], chain_types: Sequence[str]
              ) -> tuple[Files, list[Diagnostic]]:
        return [(f"{doc.name}.txt.chains", format_chains(doc, chains, chain_types))], []

    def export(self, doc: Document, chains: Sequence[Sequence[int]], chain_types: Sequence[str], *,
               chains_only: bool = False) -> tuple[Files, list[Diagnostic]]:
        texts = ["".join(" ".join(line) + "\n" for line in doc.lines), format_concepts(doc),
                 format_chains(doc, chains, chain_types)]
        files = list(zip(self.export_names(doc.name), texts))
        return (files[2:] if chains_only else files), []

    def export_names(self, name: str, *, chains_only: bool = False) -> list[str]:
        return [p.format(name) for p in _RELEASE[2 if chains_only else 0:]]
