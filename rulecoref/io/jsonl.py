"""JSONL documents: one JSON object per line, text plus concepts as character offsets.

The shape NER tools and notebooks produce, and what ``rulecoref resolve --format jsonl`` writes::

    {"id": "note1", "text": "Mr. Smith has MRSA. He ...", "tokenized": false,
     "concepts": [{"start": 0, "end": 9, "type": "person", "text": "Mr. Smith"}, ...],
     "chains": [{"type": "person", "mentions": [0, 2]}]}

``start``/``end`` count characters of ``text`` (end exclusive, as a Python slice). Untokenised text
(the default) is split by ``io/text.py``; ``"tokenized": true`` says the text is i2b2-shaped (one
sentence per line, tokens separated by spaces), which is what the writer emits for an i2b2 document,
so i2b2 -> JSONL -> i2b2 gives the same files. ``chains`` (optional on input) lists concepts by their
position in ``concepts``. A concept may carry an ``id``; the record's other keys are its own data.
A JSONL document is written back as it came (``io/faithful.py``: text, concepts and keys unchanged,
the system's chains by position and id); only a key that looks like a misspelt known one
("tokenised") is a warning.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from ..bounded import Limit, NotRegular, json_loads, lines, lone_surrogate, open_regular
from ..document import Document, GivenConcept, Origin
from ..errors import Diagnostic, InputError, RulecorefError, diagnostic
from .faithful import ADDED_SOURCE, faithful_jsonl
from .formats import Files, Format, ReadOptions, ReadResult, Record, input_files, register_format, typed
from .text import TextDocument, document_from_text, document_text
from .typemap import TypeMap

DOC_KEYS = ("id", "text", "concepts", "tokenized", "chains")
#: A JSONL line (one document) is at most this many bytes and JSON values (docs/security.md).
MAX_LINE_BYTES = 32 * 1024 * 1024
MAX_LINE_VALUES = 2_000_000


@dataclass(frozen=True)
class JsonlEntry:
    """Where one document of a JSONL file is: its name, line and byte offset."""

    name: str
    line: int
    offset: int


def safe_name(doc_id: object) -> str:
    """A record name for an id: output files are NAME.txt.chains and records are matched on the
    name before the first '.', so dots, slashes and spaces become '_' ("note 1.a" -> "note_1_a")."""
    name = re.sub(r"[^\w\-]+", "_", str(doc_id)).strip("_")
    return name or "document"


def scan_jsonl(path: str | Path, encoding: str = "utf-8") -> tuple[list[JsonlEntry], list[Diagnostic]]:
    """One entry per non-blank line, named by its id, without keeping any text in memory.

    A line that is not an object with an id is still an entry (named ``FILE-lineN``), so reading it
    reports the problem as that document's failure. A repeated id is reported (RC233) and skipped.
    """
    path = Path(path)
    entries: list[JsonlEntry] = []
    problems: list[Diagnostic] = []
    first: dict[str, int] = {}
    try:
        fh = open_regular(path)
    except OSError as exc:
        raise InputError(diagnostic("RC213", file=str(path), detail=exc.strerror or str(exc))) from exc
    except NotRegular as exc:
        raise InputError(diagnostic("RC220", file=str(path), path=str(path), kind=exc.kind)) from exc
    with fh:
        for lineno, here, raw in lines(fh, MAX_LINE_BYTES, skip_long=True):
            if raw is None:  # passed over without being held: this line is reported, the others go on
                problems.append(diagnostic("RC247", file=str(path), line=lineno, detail=str(Limit("line", MAX_LINE_BYTES))))
                continue
            if not raw.strip():
                continue
            doc_id = _scanned_id(raw, encoding, lineno == 1)
            if doc_id is None:
                entries.append(JsonlEntry(f"{safe_name(path.stem)}-line{lineno}", lineno, here))
                continue
            name = safe_name(doc_id)
            if name in first:
                problems.append(diagnostic("RC233", file=str(path), line=lineno, doc=str(doc_id), first=first[name]))
                continue
            first[name] = lineno
            entries.append(JsonlEntry(name, lineno, here))
    return entries, problems


def _scanned_id(raw: bytes, encoding: str, first_line: bool) -> str | int | None:
    """The id of a line, or None when the line gives none (reading it later reports why)."""
    try:
        obj = json_loads(_decode(raw, encoding, first_line), max_values=MAX_LINE_VALUES)
    except (ValueError, LookupError, Limit):
        return None
    return line_id(obj)


def line_id(obj: Any) -> str | int | None:
    """A JSONL object's id when it is a usable one (a non-empty string or an integer), else None;
    ``obj`` may also be a line of JSON text."""
    if isinstance(obj, str):
        try:
            obj = json_loads(obj.lstrip("\ufeff"), max_values=MAX_LINE_VALUES)
        except (ValueError, Limit):
            return None
    doc_id = obj.get("id") if isinstance(obj, dict) else None
    if not isinstance(doc_id, (str, int)) or isinstance(doc_id, bool) or not str(doc_id).strip():
        return None
    return doc_id


def _decode(raw: bytes, encoding: str, first_line: bool) -> str:
    codec = encoding
    if first_line and encoding.lower().replace("_", "-") in ("utf-8", "utf8"):
        codec = "utf-8-sig"
    return raw.decode(codec)


def read_jsonl_entry(path: str | Path, entry: JsonlEntry, *, types: Sequence[str] | None = None,
                     type_map: TypeMap | None = None, abbreviations: frozenset[str] = frozenset(),
                     strict_text: bool = False, encoding: str = "utf-8", with_chains: bool = True) -> ReadResult:
    """Read the document on one line of a JSONL file (seeking to it: the file is never loaded whole)."""
    path = Path(path)
    try:
        with open_regular(path) as fh:
            fh.seek(entry.offset)
            raw = fh.readline(MAX_LINE_BYTES + 1)
    except OSError as exc:
        raise InputError(diagnostic("RC213", file=str(path), detail=exc.strerror or str(exc))) from exc
    except NotRegular as exc:
        raise InputError(diagnostic("RC220", file=str(path), path=str(path), kind=exc.kind)) from exc
    if len(raw) > MAX_LINE_BYTES:
        raise InputError(diagnostic("RC247", file=str(path), line=entry.line, detail=str(Limit("line", MAX_LINE_BYTES))))
    try:
        text = _decode(raw, encoding, entry.offset == 0)
    except UnicodeDecodeError as exc:
        raise InputError(diagnostic("RC206", file=str(path), line=entry.line, encoding=encoding,
                                    detail=f"byte {raw[exc.start]:#04x}")) from exc
    except LookupError as exc:
        raise InputError(diagnostic("RC511", encoding=encoding)) from exc
    return parse_jsonl_text(text, file=str(path), line=entry.line, types=types, type_map=type_map,
                            abbreviations=abbreviations, strict_text=strict_text, with_chains=with_chains)


def parse_jsonl_text(text: str, *, file: str, line: int | None, **options: Any) -> ReadResult:
    """One JSONL line's text as a document (``parse_jsonl_object``), parsed within the limits:
    RC230 when it is not JSON, RC247 when it is over a limit."""
    try:
        obj = json_loads(text, max_values=MAX_LINE_VALUES)
    except Limit as exc:
        raise InputError(diagnostic("RC247", file=file, line=line, detail=str(exc))) from exc
    except ValueError as exc:
        raise InputError(diagnostic("RC230", file=file, line=line, detail=str(exc)[:200])) from exc
    return parse_jsonl_object(obj, file=file, line=line, **options)


def parse_jsonl_object(obj: Any, *, file: str = "<jsonl>", line: int | None = 1, types: Sequence[str] | None = None,
                       type_map: TypeMap | None = None, abbreviations: frozenset[str] = frozenset(),
                       strict_text: bool = False, with_chains: bool = True) -> ReadResult:
    """One JSONL document as a Document, its gold chains (if any) and warnings.

    Every problem of the object is reported at once (InputError). Concepts whose type the type map
    drops are left out, and chains through them lose that mention. ``with_chains=False`` ignores
    the chains (resolving a document does not need its gold, nor fail on it).
    """
    type_map = type_map or TypeMap()
    if not isinstance(obj, dict):
        raise InputError(diagnostic("RC230", file=file, line=line, detail=f"the line holds {type(obj).__name__}"))
    check = _ObjectCheck(file, line, type_map, types, strict_text)
    doc_id, text, tokenized, raw_concepts = check.document_fields(obj)
    kept, position = check.concepts(raw_concepts, text)
    raw_chains = obj.get("chains") if with_chains else None
    if raw_chains is not None and not isinstance(raw_chains, list):
        check.bad("chains", "a list of {type, mentions}", raw_chains)
        raw_chains = None
    if check.errors:
        raise InputError(check.errors)
    assert isinstance(text, str)
    warnings = check.warnings
    td = document_from_text(safe_name(doc_id), text, kept, tokenized=tokenized, abbreviations=abbreviations,
                            source=file, lines_of=[line] * len(kept))
    td.document.origin = _origin(obj, text, td, raw_concepts, position)
    for k, first in td.duplicates:
        warnings.append(diagnostic("RC212", file=file, line=line, severity="warning",
                                   span=f"{kept[k][0]}-{kept[k][1]}", first=f"{line} (concept {first})"))
    chains, chain_types = None, None
    if raw_chains is not None:
        chains, chain_types = _chains(raw_chains, position, td.concept_of, len(raw_concepts), file, line)
        for k, ctype in enumerate(chain_types):
            if not check.unicode(f"chains[{k}].type", ctype):
                raise InputError(check.errors)
    return ReadResult(td.document, warnings, chains, chain_types)


def _origin(obj: dict, text: str, td: TextDocument, raw_concepts: list, position: dict[int, int]) -> Origin:
    """The record as given, for outputs that hand it back (``io/faithful.py``): every concept in
    its order, with the span of the Document concept it became (None when the type map dropped it)."""
    concepts = td.document.concepts
    given = []
    for k, c in enumerate(raw_concepts):
        span = concepts[td.concept_of[position[k]]].span if k in position else None
        cid = c.get("id")
        given.append(GivenConcept(c["start"], c["end"], c["type"], cid if _usable_id(cid) else None, span, c))
    return Origin("jsonl", text, td.offsets, given, record=obj)


def _usable_id(value: object) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


class _ObjectCheck:
    """The problems of one JSONL object, collected so that all of them are reported at once."""

    def __init__(self, file: str, line: int | None, type_map: TypeMap, types: Sequence[str] | None,
                 strict_text: bool):
        self.file, self.line, self.type_map, self.strict_text = file, line, type_map, strict_text
        self.allowed = set(types) if types else None
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.ids: dict[str, int] = {}  # concept id -> its first position

    def bad(self, where: str, expected: str, got: object) -> None:
        self.errors.append(diagnostic("RC231", file=self.file, line=self.line, where=where, expected=expected,
                                      got=_show(got)))

    def unicode(self, where: str, value: Any) -> bool:
        """False (and RC245) when a string holds a lone surrogate: no file could be written with it."""
        pos = lone_surrogate(value) if isinstance(value, str) else None
        if pos is None:
            return True
        self.errors.append(diagnostic("RC245", file=self.file, line=self.line, where=where,
                                      char=f"\\u{ord(value[pos]):04x}", pos=pos))
        return False

    def document_fields(self, obj: dict) -> tuple[Any, Any, Any, list]:
        """id, text, tokenized and concepts as given (concepts [] when not a list). Other keys are
        the record's own data (``patient_mrn``), passed through to a JSONL output; only a key that
        looks like a misspelt known one ("tokenised") is a warning (RC232)."""
        unknown = sorted(k for k in set(obj) - set(DOC_KEYS) if get_close_matches(k.lower(), DOC_KEYS, 1, 0.8))
        if unknown:
            self.warnings.append(diagnostic("RC232", file=self.file, line=self.line, severity="warning",
                                            keys=", ".join(unknown), where="the document", known=", ".join(DOC_KEYS)))
        doc_id = obj.get("id")
        if not isinstance(doc_id, (str, int)) or isinstance(doc_id, bool) or not str(doc_id).strip():
            self.bad("id", "a non-empty string", doc_id)
        text = obj.get("text")
        if not isinstance(text, str):
            self.bad("text", "a string", text)
        for where, value in (("id", doc_id), ("text", text)):
            self.unicode(where, value)
        tokenized = obj.get("tokenized", False)
        if not isinstance(tokenized, bool):
            self.bad("tokenized", "true or false", tokenized)
        raw_concepts = obj.get("concepts")
        if not isinstance(raw_concepts, list):
            self.bad("concepts", "a list of {start, end, type}", raw_concepts)
            raw_concepts = []
        return doc_id, text, tokenized, raw_concepts

    def concepts(self, raw_concepts: list, text: Any) -> tuple[list[tuple[int, int, str]], dict[int, int]]:
        """The concepts kept, as (start, end, rule type), and input position -> position among them."""
        kept: list[tuple[int, int, str]] = []
        position: dict[int, int] = {}
        for k, c in enumerate(raw_concepts):
            concept = self._concept(k, c, text)
            if concept is not None:
                position[k] = len(kept)
                kept.append(concept)
        return kept, position

    def _concept(self, k: int, c: object, text: Any) -> tuple[int, int, str] | None:
        """Concept ``k`` as (start, end, rule type); None when it is wrong or the type map drops it."""
        where = f"concepts[{k}]"
        if not isinstance(c, dict):
            self.bad(where, "an object {start, end, type}", c)
            return None
        start, end, ctype = c.get("start"), c.get("end"), c.get("type")
        ok = True
        for key, value in (("start", start), ("end", end)):
            if not isinstance(value, int) or isinstance(value, bool):
                self.bad(f"{where}.{key}", "a character offset (integer)", value)
                ok = False
        if not isinstance(ctype, str) or not ctype.strip():
            self.bad(f"{where}.type", "a type name", ctype)
            ok = False
        elif not self.unicode(f"{where}.type", ctype):
            ok = False
        if not ok:
            return None
        cid = c.get("id")
        if cid is not None and not (_usable_id(cid) and str(cid).strip()):
            self.bad(f"{where}.id", "a string or an integer", cid)
            return None
        if cid is not None:
            first = self.ids.setdefault(str(cid), k)
            if first != k:
                self.warnings.append(diagnostic("RC250", file=self.file, line=self.line, severity="warning",
                                                id=cid, index=k, first=first))
        mapped = self._concept_type(ctype)
        if mapped is None:
            return None
        given = c.get("text")
        if isinstance(given, str) and isinstance(text, str) and 0 <= start < end <= len(text):
            self._check_text(k, given, text[start:end], start, end)
        return start, end, mapped

    def _concept_type(self, ctype: str) -> str | None:
        """The rule type of an input type, or None when it is an error or the type map drops it."""
        if not self.type_map.known(ctype):
            self.errors.append(diagnostic("RC243", file=self.file, line=self.line, type=ctype,
                                          path=self.type_map.path))
            return None
        mapped = self.type_map.map_type(ctype)
        if mapped is not None and self.allowed is not None and mapped not in self.allowed:
            self.errors.append(diagnostic("RC244", file=self.file, line=self.line, type=mapped,
                                          known=", ".join(sorted(self.allowed))))
            return None
        return mapped

    def _check_text(self, k: int, given: str, found: str, start: int, end: int) -> None:
        """A concept's "text", if given, should be the text at its offsets (case and spacing aside): RC235."""
        if " ".join(given.lower().split()) != " ".join(found.lower().split()):
            d = diagnostic("RC235", file=self.file, line=self.line, index=k, given=given[:60], start=start, end=end,
                           found=found[:60], severity="error" if self.strict_text else "warning")
            (self.errors if self.strict_text else self.warnings).append(d)


def _chains(raw: list, position: dict[int, int], concept_of: list[int], n: int, file: str,
            line: int | None) -> tuple[list[list[int]], list[str]]:
    """Chains as Document concept indices; a mention in two chains or out of range is an error."""
    errors: list[Diagnostic] = []
    chains: list[list[int]] = []
    types: list[str] = []
    owner: dict[int, int] = {}
    for k, chain in enumerate(raw):
        members = chain.get("mentions") if isinstance(chain, dict) else None
        ctype = chain.get("type") if isinstance(chain, dict) else None
        if not isinstance(members, list) or not all(isinstance(m, int) and not isinstance(m, bool) for m in members):
            errors.append(diagnostic("RC231", file=file, line=line, where=f"chains[{k}]",
                                     expected="{\"type\": ..., \"mentions\": [concept positions]}", got=_show(chain)))
            continue
        if ctype is not None and not (isinstance(ctype, str) and ctype.strip()):
            errors.append(diagnostic("RC231", file=file, line=line, where=f"chains[{k}].type", expected="a type name",
                                     got=_show(ctype)))
            continue
        out: set[int] = set()
        for m in members:
            if not 0 <= m < n:
                errors.append(diagnostic("RC234", file=file, line=line, chain=k,
                                         detail=f"mention {m} is not a concept position (there are {n})"))
                continue
            if m not in position:
                continue  # a concept the type map dropped
            i = concept_of[position[m]]
            if i in owner and owner[i] != k:
                errors.append(diagnostic("RC234", file=file, line=line, chain=k,
                                         detail=f"mention {m} is already in chain {owner[i]}"))
                continue
            owner[i] = k
            out.add(i)
        if len(out) > 1:
            chains.append(sorted(out))
            types.append(ctype.strip().lower() if isinstance(ctype, str) else "")
    if errors:
        raise InputError(errors)
    return chains, types


def _show(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def format_jsonl(doc: Document, chains: Iterable[Sequence[int]], chain_types: Sequence[str]) -> str:
    """One document as one JSONL line (with its newline). A document read from text with offsets
    (JSONL, brat) is given back as it came, with the chains added (``io/faithful.py``); an i2b2
    document as its i2b2 text, concepts by character offsets into it, and the chains of two or
    more mentions by concept position."""
    if doc.origin is not None:
        return faithful_jsonl(doc, chains, chain_types)
    td = document_text(doc)
    concepts = []
    for c in doc.concepts:
        start, end = td.char_span(c)
        concepts.append({"start": start, "end": end, "type": c.type, "text": td.text[start:end]}
                        | ({"source": ADDED_SOURCE} if c.added else {}))
    out_chains = [{"type": t, "mentions": sorted(members)} for members, t in zip(chains, chain_types)
                  if len(members) > 1]
    out_chains.sort(key=lambda ch: ch["mentions"][0])
    obj = {"id": doc.name, "text": td.text, "tokenized": True, "concepts": concepts, "chains": out_chains}
    return json.dumps(obj, ensure_ascii=False) + "\n"


@register_format("jsonl")
class Jsonl(Format):
    """One document per line (docs/formats.md, "JSONL"); every line is read in the worker that
    resolves it, and Spark can read the lines of files on any file system (``parse_line``)."""

    help = "NAME.jsonl (one line each)"
    input_help = "*.jsonl files, one document per line"
    rank = 30
    marks = ("*.jsonl",)
    suffixes = (".jsonl",)
    plain_text = True
    one_file = True
    lines = True

    def detect(self, path: Path) -> bool:
        if path.is_dir():
            return any(path.glob("*.jsonl"))
        return path.name.lower().endswith(".jsonl")

    def find(self, inputs: Sequence[Path], encoding: str) -> tuple[list[Record], list[Diagnostic]]:
        records: list[Record] = []
        problems: list[Diagnostic] = []
        for path in inputs:
            for f in input_files(path, "*.jsonl"):
                entries, probs = scan_jsonl(f, encoding)
                problems.extend(probs)
                records.extend(Record(e.name, f, f, kind="jsonl", line=e.line, offset=e.offset) for e in entries)
        return records, problems

    def read(self, record: Record, opts: ReadOptions, with_chains: bool) -> ReadResult:
        assert record.txt is not None
        return read_jsonl_entry(record.txt, JsonlEntry(record.name, record.line, record.offset), types=opts.types,
                                type_map=opts.type_map, abbreviations=opts.abbreviations,
                                strict_text=opts.strict_text, encoding=opts.encoding, with_chains=with_chains)

    def parse_line(self, text: str, *, file: str, opts: ReadOptions) -> ReadResult:
        """One line's text (a BOM dropped) as a document, as ``read`` reads it."""
        return parse_jsonl_text(text.lstrip("\ufeff"), file=file, line=None, types=opts.types, type_map=opts.type_map,
                                abbreviations=opts.abbreviations, strict_text=opts.strict_text, with_chains=False)

    def system_chains(self, folder: Path, doc: Document, opts: ReadOptions) -> tuple[list[list[int]], list[str]] | None:
        """Chains of a ``resolve --format jsonl`` file, matched to ``doc``'s concepts by position."""
        path = folder / f"{doc.name}.jsonl"
        if not path.is_file():
            return None
        read = read_jsonl_entry(path, JsonlEntry(doc.name, 1, 0), encoding=opts.encoding,
                                abbreviations=opts.abbreviations, type_map=opts.type_map)
        other = read.document.concepts
        index = {c.span: c.index for c in doc.concepts}
        given = {g.span for g in read.document.origin.concepts if (g.raw or {}).get("source") != ADDED_SOURCE} \
            if read.document.origin is not None else {c.span for c in other}
        if any(c.span not in index for c in other if c.span in given):
            raise RulecorefError(diagnostic("RC525", file=str(path), doc=doc.name,
                                            detail="its concepts are not this document's (another text or tokenisation)"))
        # the mentions rulecoref added are no concept of ``doc``: its chains go without them
        chains = [m for m in ([index[other[i].span] for i in c if other[i].span in index] for c in read.chains or [])
                  if len(m) > 1]
        chains = [sorted(m) for m in chains]
        return chains, typed(doc, chains, read.chain_types)

    def write(self, doc: Document, chains: Sequence[Sequence[int]], chain_types: Sequence[str]
              ) -> tuple[Files, list[Diagnostic]]:
        return [(f"{doc.name}.jsonl", format_jsonl(doc, chains, chain_types))], []
