"""brat standoff documents: NAME.txt (the text as it is) beside NAME.ann (annotations by offset).

Read: ``T`` lines are concepts (``T1<TAB>Disease 10 22<TAB>chest pain``), their type mapped by the
type map; coreference is read from equivalence lines (``*<TAB>Coreference T1 T4 T9``, brat's own
form for a symmetric-transitive relation, one line per chain) and from binary relations of a
coreference type (``R1<TAB>Coreference Anaphora:T4 Antecedent:T1``, the BioNLP 2011 coreference
task's form); both are joined into chains. Events, attributes, normalisations and notes are
skipped. A discontinuous span (``10 14;20 25``) is read as the one span covering it (RC237): i2b2
concepts are contiguous. Offsets count characters of the .txt exactly as stored (CRLF included).

Write: the i2b2 text of the document as NAME.txt, concepts as ``T`` lines in text order and each
chain as one equivalence line ``*<TAB>Coreference T1 T3 ...``: a chain is an equivalence class, and
brat draws and edits it as one when annotation.conf declares Coreference symmetric-transitive
(``annotation_conf``, which rulecoref writes beside the files).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..chains import clusters_from_pairs
from ..document import Document
from ..errors import Diagnostic, InputError, diagnostic
from .i2b2 import ReadResult
from .text import document_from_text, document_text
from .typemap import TypeMap

COREFERENCE = "Coreference"  # the relation type the writer uses

_T_RE = re.compile(r"^(T\S*)\t(\S+) (\d+ \d+(?:;\d+ \d+)*)(?:\t(.*))?$")
_R_RE = re.compile(r"^(R\S*)\t(\S+) (\S+?):(\S+) (\S+?):(\S+)\s*$")
_EQUIV_RE = re.compile(r"^(\*\S*)\t(\S+)((?: \S+)+)\s*$")
_SKIPPED = ("E", "A", "M", "N", "#")


def read_text(path: Path, encoding: str = "utf-8") -> str:
    """The text exactly as brat counts it: only a UTF-8 byte-order mark is dropped."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(diagnostic("RC213", file=str(path), detail=exc.strerror or str(exc))) from exc
    codec = "utf-8-sig" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding
    try:
        return raw.decode(codec)
    except UnicodeDecodeError as exc:
        raise InputError(diagnostic("RC206", file=str(path), line=raw.count(b"\n", 0, exc.start) + 1,
                                    encoding=encoding, detail=f"byte {raw[exc.start]:#04x}")) from exc
    except LookupError as exc:
        raise InputError(diagnostic("RC511", encoding=encoding)) from exc


def read_brat(txt_path: str | Path, ann_path: str | Path, *, name: str | None = None,
              types: Sequence[str] | None = None, type_map: TypeMap | None = None,
              abbreviations: frozenset[str] = frozenset(), strict_text: bool = False,
              encoding: str = "utf-8", with_chains: bool = True) -> ReadResult:
    """One brat document as a Document with its coreference chains; every problem of the .ann
    file is reported at once (InputError)."""
    txt_path, ann_path = Path(txt_path), Path(ann_path)
    type_map = type_map or TypeMap()
    file = str(ann_path)
    text = read_text(txt_path, encoding)
    ann = read_text(ann_path, encoding)
    errors: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    allowed = set(types) if types else None
    concepts: list[tuple[int, int, str]] = []
    lines_of: list[int] = []
    entity: dict[str, int] = {}  # T id -> position in ``concepts``
    ids: set[str] = set()  # every annotation id of the file
    dropped: set[str] = set()  # T ids whose type the type map drops
    relations: list[tuple[int, str, str, list[str]]] = []  # (line, kind, id, referenced ids)
    for lineno, line in enumerate(ann.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        if not line.strip():
            continue
        if line.startswith("T"):
            m = _T_RE.match(line.rstrip("\n"))
            if not m:
                errors.append(diagnostic("RC236", file=file, line=lineno, detail=_clip(line)))
                continue
            tid, ttype, spans_text, given = m.group(1), m.group(2), m.group(3), m.group(4)
            ids.add(tid)
            spans = [tuple(int(x) for x in part.split()) for part in spans_text.split(";")]
            if any(b < a for a, b in spans):
                errors.append(diagnostic("RC236", file=file, line=lineno, detail=f"{tid}: a span ends before it starts"))
                continue
            start, end = min(a for a, _ in spans), max(b for _, b in spans)
            if len(spans) > 1:
                warnings.append(diagnostic("RC237", file=file, line=lineno, severity="warning", id=tid,
                                           spans=spans_text, start=start, end=end))
            if not type_map.known(ttype):
                errors.append(diagnostic("RC243", file=file, line=lineno, type=ttype, path=type_map.path))
                continue
            mapped = type_map.map_type(ttype)
            if mapped is None:
                dropped.add(tid)
                continue
            if allowed is not None and mapped not in allowed:
                errors.append(diagnostic("RC244", file=file, line=lineno, type=mapped, known=", ".join(sorted(allowed))))
                continue
            if given is not None and end <= len(text):
                found = " ".join(text[a:b] for a, b in spans)
                if " ".join(given.split()) != " ".join(found.split()):
                    d = diagnostic("RC235", file=file, line=lineno, index=tid, given=given[:60], start=start, end=end,
                                   found=found[:60], severity="error" if strict_text else "warning")
                    (errors if strict_text else warnings).append(d)
            entity[tid] = len(concepts)
            concepts.append((start, end, mapped))
            lines_of.append(lineno)
        elif line.startswith("R"):
            m = _R_RE.match(line)
            if not m:
                errors.append(diagnostic("RC236", file=file, line=lineno, detail=_clip(line)))
                continue
            ids.add(m.group(1))
            if type_map.is_coreference(m.group(2)):
                relations.append((lineno, "relation", m.group(1), [m.group(4), m.group(6)]))
        elif line.startswith("*"):
            m = _EQUIV_RE.match(line)
            if not m:
                errors.append(diagnostic("RC236", file=file, line=lineno, detail=_clip(line)))
                continue
            if type_map.is_coreference(m.group(2)):
                relations.append((lineno, "equivalence", m.group(2), m.group(3).split()))
        elif line.startswith(_SKIPPED):
            ids.add(line.split("\t", 1)[0].split(" ", 1)[0])
        else:
            errors.append(diagnostic("RC236", file=file, line=lineno, detail=_clip(line)))
    pairs: list[tuple[int, int]] = []
    for lineno, kind, rid, refs in relations:
        members = []
        for ref in refs:
            if ref in entity:
                members.append(entity[ref])
            elif ref in dropped:
                continue
            elif ref in ids:  # an event or another non-concept annotation: not a mention here
                warnings.append(diagnostic("RC238", file=file, line=lineno, severity="warning", what=kind, id=rid,
                                           ref=ref))
            else:
                errors.append(diagnostic("RC238", file=file, line=lineno, what=kind, id=rid, ref=ref))
        pairs.extend(zip(members, members[1:]))
    if errors:
        raise InputError(errors)
    td = document_from_text(name or txt_path.name.split(".")[0], text, concepts, abbreviations=abbreviations,
                            source=file, lines_of=lines_of)
    for k, first in td.duplicates:
        warnings.append(diagnostic("RC212", file=file, line=lines_of[k], severity="warning",
                                   span=f"{concepts[k][0]}-{concepts[k][1]}", first=lines_of[first]))
    chains = None
    if with_chains:
        mapped_pairs = [(td.concept_of[a], td.concept_of[b]) for a, b in pairs]
        chains = [c for c in clusters_from_pairs(len(td.document.concepts), mapped_pairs) if len(c) > 1]
    return ReadResult(td.document, warnings, chains, [""] * len(chains) if chains is not None else None)


def _clip(line: str) -> str:
    return repr(line if len(line) <= 80 else line[:77] + "...")


def format_brat(doc: Document, chains: Iterable[Sequence[int]]) -> tuple[str, str]:
    """(NAME.txt, NAME.ann) for a document and its chains: the i2b2 text, one ``T`` line per
    concept (T1 is concept 0) and one equivalence line per chain of two or more mentions."""
    td = document_text(doc)
    lines = []
    for c in doc.concepts:
        start, end = td.char_span(c)
        lines.append(f"T{c.index + 1}\t{c.type} {start} {end}\t{td.text[start:end]}\n")
    rows = sorted(sorted(members) for members in chains if len(members) > 1)
    for members in rows:
        lines.append(f"*\t{COREFERENCE} " + " ".join(f"T{i + 1}" for i in members) + "\n")
    return td.text + "\n", "".join(lines)


def annotation_conf(types: Iterable[str]) -> str:
    """A brat annotation.conf for rulecoref's output: the concept types as entities, Coreference
    as a symmetric-transitive relation (so brat shows chains as equivalences) and nested or
    overlapping concepts allowed, as i2b2 allows them."""
    entities = "".join(f"{t}\n" for t in sorted(set(types)))
    return ("# brat configuration for rulecoref output (rulecoref/io/brat.py)\n[entities]\n" + entities
            + f"\n[relations]\n{COREFERENCE}\tArg1:<ENTITY>, Arg2:<ENTITY>, <REL-TYPE>:symmetric-transitive\n"
            "<OVERLAP>\tArg1:<ENTITY>, Arg2:<ENTITY>, <OVL-TYPE>:<ANY>\n\n[events]\n\n[attributes]\n")
