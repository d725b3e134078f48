"""brat standoff documents: NAME.txt (the text as it is) beside NAME.ann (annotations by offset).

Read: ``T`` lines are concepts (``T1<TAB>Disease 10 22<TAB>chest pain``), their type mapped by the
type map; coreference is read from equivalence lines (``*<TAB>Coreference T1 T4 T9``, brat's own
form for a symmetric-transitive relation, one line per chain) and from binary relations of a
coreference type (``R1<TAB>Coreference Anaphora:T4 Antecedent:T1``, the BioNLP 2011 coreference
task's form); both are joined into chains. Events, attributes, normalisations and notes are
skipped. A discontinuous span (``10 14;20 25``) is read as the one span covering it (RC237): i2b2
concepts are contiguous. Offsets count characters of the .txt exactly as stored (CRLF included).

Write: a document read from brat or JSONL as it came (``io/faithful.py``: the .txt byte for byte,
the .ann lines as given without their coreference, T ids and labels kept); an i2b2 document as its
i2b2 text in NAME.txt, concepts as ``T`` lines in text order. Each
chain is one equivalence line ``*<TAB>Coreference T1 T3 ...``: a chain is an equivalence class, and
brat draws and edits it as one when annotation.conf declares Coreference symmetric-transitive
(``annotation_conf``, which rulecoref writes beside the files).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..chains import clusters_from_pairs
from ..document import Document, GivenConcept, Origin
from ..errors import Diagnostic, InputError, diagnostic
from .faithful import ADDED_SOURCE, faithful_brat
from .formats import Files, Format, ReadOptions, ReadResult, Record, input_files, register_format
from .i2b2 import read_text
from .text import document_from_text, document_text
from .typemap import TypeMap

COREFERENCE = "Coreference"  # the relation type the writer uses

_T_RE = re.compile(r"^(T\S*)\t(\S+) (\d+ \d+(?:;\d+ \d+)*)(?:\t(.*))?$")
_R_RE = re.compile(r"^(R\S*)\t(\S+) (\S+?):(\S+) (\S+?):(\S+)\s*$")
_EQUIV_RE = re.compile(r"^(\*\S*)\t(\S+)((?: \S+)+)\s*$")
_SKIPPED = ("E", "A", "M", "N", "#")


def read_brat(txt_path: str | Path, ann_path: str | Path, *, name: str | None = None,
              types: Sequence[str] | None = None, type_map: TypeMap | None = None,
              abbreviations: frozenset[str] = frozenset(), strict_text: bool = False,
              encoding: str = "utf-8", with_chains: bool = True) -> ReadResult:
    """One brat document as a Document with its coreference chains; every problem of the .ann
    file is reported at once (InputError)."""
    txt_path, ann_path = Path(txt_path), Path(ann_path)
    text = read_text(txt_path, encoding)
    ann = _AnnReader(str(ann_path), text, type_map or TypeMap(), types, strict_text)
    ann.read(read_text(ann_path, encoding))
    pairs = ann.coreference_pairs()
    if ann.errors:
        raise InputError(ann.errors)
    file, concepts, lines_of, warnings = ann.file, ann.concepts, ann.lines_of, ann.warnings
    td = document_from_text(name or txt_path.name.split(".")[0], text, concepts, abbreviations=abbreviations,
                            source=file, lines_of=lines_of)
    for k, first in td.duplicates:
        warnings.append(diagnostic("RC212", file=file, line=lines_of[k], severity="warning",
                                   span=f"{concepts[k][0]}-{concepts[k][1]}", first=lines_of[first]))
    td.document.origin = Origin("brat", text, td.offsets, [
        GivenConcept(start, end, label, tid, None if k is None else td.document.concepts[td.concept_of[k]].span)
        for tid, label, start, end, k in ann.given], lines=tuple(ann.lines))
    chains = None
    if with_chains:
        mapped_pairs = [(td.concept_of[a], td.concept_of[b]) for a, b in pairs]
        chains = [c for c in clusters_from_pairs(len(td.document.concepts), mapped_pairs) if len(c) > 1]
    return ReadResult(td.document, warnings, chains, [""] * len(chains) if chains is not None else None)


class _AnnReader:
    """One pass over a .ann file, one method per line kind; the coreference lines are resolved
    after it, since they may name annotations defined further down."""

    def __init__(self, file: str, text: str, type_map: TypeMap, types: Sequence[str] | None,
                 strict_text: bool):
        self.file, self.text, self.type_map, self.strict_text = file, text, type_map, strict_text
        self.allowed = set(types) if types else None
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.concepts: list[tuple[int, int, str]] = []
        self.lines_of: list[int] = []
        self.entity: dict[str, int] = {}  # T id -> position in ``concepts``
        self.ids: dict[str, int] = {}  # every annotation id of the file -> its line
        self.dropped: set[str] = set()  # T ids whose type the type map drops
        self.relations: list[tuple[int, str, str, list[str]]] = []  # (line, kind, id, referenced ids)
        #: every T line as given: (id, label, start, end, position in ``concepts`` or None when dropped)
        self.given: list[tuple[str, str, int, int, int | None]] = []
        #: every line as given, and whether it states coreference (an output's chains replace those)
        self.lines: list[tuple[str, bool]] = []

    def read(self, ann: str) -> None:
        for lineno, line in enumerate(ann.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
            if not line.strip():
                continue
            known = len(self.relations)
            if line.startswith("T"):
                self._concept(lineno, line)
            elif line.startswith("R"):
                self._relation(lineno, line)
            elif line.startswith("*"):
                self._equivalence(lineno, line)
            elif line.startswith(_SKIPPED):  # events, attributes, normalisations, notes
                self._new_id(lineno, line.split("\t", 1)[0].split(" ", 1)[0])
            else:
                self._malformed(lineno, line)
            self.lines.append((line, len(self.relations) > known))

    def _new_id(self, lineno: int, aid: str) -> bool:
        """Record an annotation id; a repeated one is RC246 (brat refuses such a file too: which
        of the two would a relation to it mean?)."""
        first = self.ids.get(aid)
        if first is not None:
            self.errors.append(diagnostic("RC246", file=self.file, line=lineno, id=aid, first=first))
            return False
        self.ids[aid] = lineno
        return True

    def _malformed(self, lineno: int, line: str) -> None:
        self.errors.append(diagnostic("RC236", file=self.file, line=lineno, detail=_clip(line)))

    def _concept(self, lineno: int, line: str) -> None:
        """``T1<TAB>Disease 10 22<TAB>chest pain``: a concept over the span covering its pieces."""
        m = _T_RE.match(line)
        if not m:
            self._malformed(lineno, line)
            return
        tid, ttype, spans_text, given = m.group(1), m.group(2), m.group(3), m.group(4)
        if not self._new_id(lineno, tid):
            return
        spans = [tuple(int(x) for x in part.split()) for part in spans_text.split(";")]
        if any(b < a for a, b in spans):
            self.errors.append(diagnostic("RC236", file=self.file, line=lineno,
                                          detail=f"{tid}: a span ends before it starts"))
            return
        start, end = min(a for a, _ in spans), max(b for _, b in spans)
        if len(spans) > 1:
            self.warnings.append(diagnostic("RC237", file=self.file, line=lineno, severity="warning", id=tid,
                                            spans=spans_text, start=start, end=end))
        mapped = self._concept_type(lineno, tid, ttype)
        self.given.append((tid, ttype, start, end, None if mapped is None else len(self.concepts)))
        if mapped is None:
            return
        if given is not None and end <= len(self.text):
            self._check_text(lineno, tid, given, spans, start, end)
        self.entity[tid] = len(self.concepts)
        self.concepts.append((start, end, mapped))
        self.lines_of.append(lineno)

    def _concept_type(self, lineno: int, tid: str, ttype: str) -> str | None:
        """The rule type of a concept, or None when it is an error or the type map drops it."""
        if not self.type_map.known(ttype):
            self.errors.append(diagnostic("RC243", file=self.file, line=lineno, type=ttype, path=self.type_map.path))
            return None
        mapped = self.type_map.map_type(ttype)
        if mapped is None:
            self.dropped.add(tid)
            return None
        if self.allowed is not None and mapped not in self.allowed:
            self.errors.append(diagnostic("RC244", file=self.file, line=lineno, type=mapped,
                                          known=", ".join(sorted(self.allowed))))
            return None
        return mapped

    def _check_text(self, lineno: int, tid: str, given: str, spans: list[tuple[int, ...]], start: int,
                    end: int) -> None:
        """The text a T line quotes should be the text at its offsets (spacing aside): RC235."""
        found = " ".join(self.text[a:b] for a, b in spans)
        if " ".join(given.split()) != " ".join(found.split()):
            d = diagnostic("RC235", file=self.file, line=lineno, index=tid, given=given[:60], start=start, end=end,
                           found=found[:60], severity="error" if self.strict_text else "warning")
            (self.errors if self.strict_text else self.warnings).append(d)

    def _relation(self, lineno: int, line: str) -> None:
        """``R1<TAB>Coreference Anaphora:T4 Antecedent:T1``: a pair when the type means coreference."""
        m = _R_RE.match(line)
        if not m:
            self._malformed(lineno, line)
            return
        if not self._new_id(lineno, m.group(1)):
            return
        if self.type_map.is_coreference(m.group(2)):
            self.relations.append((lineno, "relation", m.group(1), [m.group(4), m.group(6)]))

    def _equivalence(self, lineno: int, line: str) -> None:
        """``*<TAB>Coreference T1 T4 T9``: one chain when the type means coreference."""
        m = _EQUIV_RE.match(line)
        if not m:
            self._malformed(lineno, line)
            return
        if self.type_map.is_coreference(m.group(2)):
            self.relations.append((lineno, "equivalence", m.group(2), m.group(3).split()))

    def coreference_pairs(self) -> list[tuple[int, int]]:
        """Linked concept positions, one pair per neighbouring concept of each relation. A reference
        to a dropped concept is left out, to another annotation (an event) is a warning (RC238: not a
        mention here), and to no annotation at all is an error (RC238)."""
        pairs: list[tuple[int, int]] = []
        for lineno, kind, rid, refs in self.relations:
            members = []
            for ref in refs:
                if ref in self.entity:
                    members.append(self.entity[ref])
                elif ref in self.dropped:
                    continue
                elif ref in self.ids:
                    self.warnings.append(diagnostic("RC238", file=self.file, line=lineno, severity="warning",
                                                    what=kind, id=rid, ref=ref))
                else:
                    self.errors.append(diagnostic("RC238", file=self.file, line=lineno, what=kind, id=rid, ref=ref))
            pairs.extend(zip(members, members[1:]))
        return pairs


def _clip(line: str) -> str:
    return repr(line if len(line) <= 80 else line[:77] + "...")


def format_brat(doc: Document, chains: Iterable[Sequence[int]]) -> tuple[str, str]:
    """(NAME.txt, NAME.ann) for a document and its chains. A document read from text with offsets
    (brat, JSONL) is given back as it came (``io/faithful.py``); an i2b2 document as its i2b2
    text, one ``T`` line per concept (T1 is concept 0; an added mention with an AnnotatorNotes
    line) and one equivalence line per chain of two or more mentions."""
    chains = list(chains)
    if doc.origin is not None:
        return faithful_brat(doc, chains, [""] * len(chains))
    td = document_text(doc)
    lines = []
    notes = 0
    for c in doc.concepts:
        start, end = td.char_span(c)
        lines.append(f"T{c.index + 1}\t{c.type} {start} {end}\t{td.text[start:end]}\n")
        if c.added:
            notes += 1
            lines.append(f"#{notes}\tAnnotatorNotes T{c.index + 1}\tsource: {ADDED_SOURCE}\n")
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


@register_format("brat")
class Brat(Format):
    """brat standoff folders; ``annotation.conf`` is written once beside a batch's files, so the
    folder opens in brat as it is."""

    help = "NAME.txt + NAME.ann"
    rank = 20
    marks = ("*.ann",)
    suffixes = (".ann", ".txt")  # the .ann first: it marks the folder's brat outputs, a .txt may be anyone's
    finish_names = ("annotation.conf",)
    plain_text = True

    def detect(self, path: Path) -> bool:
        if path.is_dir():
            return any(path.glob("*.ann"))
        return path.name.endswith(".ann")

    def find(self, inputs: Sequence[Path], encoding: str) -> tuple[list[Record], list[Diagnostic]]:
        records: list[Record] = []
        problems: list[Diagnostic] = []
        for path in inputs:
            for f in input_files(path, "*.ann"):
                base = f.with_suffix("") if f.suffix in (".ann", ".txt") else f
                txt, ann = base.with_suffix(".txt"), base.with_suffix(".ann")
                if not txt.is_file() or not ann.is_file():
                    missing, have = ("text file " + txt.name, ann) if not txt.is_file() else ("annotation file " + ann.name, txt)
                    problems.append(diagnostic("RC239", file=str(have), missing=missing, path=str(have)))
                    continue
                records.append(Record(base.name.split(".")[0], txt, ann, kind="brat"))
        return records, problems

    def read(self, record: Record, opts: ReadOptions, with_chains: bool) -> ReadResult:
        assert record.txt is not None
        return read_brat(record.txt, record.con, name=record.name, types=opts.types, type_map=opts.type_map,
                         abbreviations=opts.abbreviations, strict_text=opts.strict_text, encoding=opts.encoding,
                         with_chains=with_chains)

    def write(self, doc: Document, chains: Sequence[Sequence[int]], chain_types: Sequence[str]
              ) -> tuple[Files, list[Diagnostic]]:
        txt, ann = format_brat(doc, chains)
        return [(f"{doc.name}.txt", txt), (f"{doc.name}.ann", valid_labels(ann))], []  # the text first

    def finish(self, types: Iterable[str]) -> Files:
        return [("annotation.conf", annotation_conf(brat_label(t) for t in types))]


_T_TYPE = re.compile(r"^(T[^\t]*\t)(.+?)( \d+ \d+(?:;\d+ \d+)*\t)", re.MULTILINE)


def brat_label(type_: str) -> str:
    """A concept type as a brat label: no whitespace (brat and rulecoref's reader split the
    ``T`` line at spaces), so "chest finding" is written chest_finding; other types are kept."""
    return "_".join(type_.split()) or "_"


def valid_labels(ann: str) -> str:
    """An ``.ann`` text whose ``T`` lines carry brat labels (``brat_label``): a type with a space
    was once written as it was, and the file could not be read back (RC236)."""
    return _T_TYPE.sub(lambda m: m.group(1) + brat_label(m.group(2)) + m.group(3), ann)
