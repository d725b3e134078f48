"""Turn gold and system files into key/response partitions of each document's mentions.

i2b2 (Track 1C): the mentions are the gold concepts. Chains come from ``.txt.chains`` files and
every concept outside any chain is a singleton entity, on the gold side and on the system side
(singletons are written nowhere). A system chain mention that is no gold concept is "twinless"
(a pronoun rulecoref's mention finder added, issue 30): it is scored when the gold folder has the
text (``docs/``) and the mention's words are the words there; otherwise it is an error naming the
file and line (RC701), as is a system file without a gold record (RC702). A missing system file
means "no chains" and is only a warning (RC703), as in the official scorer.
Mentions are matched on their offsets; one whose text differs from the concept's text at those
offsets is a warning (RC718): the chains may belong to another version of the concept file.

Concepts are read with a light ``.con`` reader (spans and types only: scoring needs no text).
When the gold folder has ``docs/``, the full reader is used instead, so an offset outside the
text is caught before it silently becomes a mention.

CoNLL: the key and response files are matched on the document id; a key document missing from
the response has no response mentions; a response document missing from the key is ignored
(RC716), as the reference scorer does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Diagnostic, EvaluationError, InputError, diagnostic
from ..io.conll import read_conll
from ..io.formats import doc_name
from ..io.i2b2 import Span, parse_concept, read_chains, read_document, read_text_lines
from ..io.layout import is_file
from .core import Mention


@dataclass
class DocPartition:
    """One document's key and response entities (singletons included on both sides).

    ``key_types[i]`` is the type of ``key[i]``: the gold chain type (``coref person`` -> person),
    or the concept type for a gold singleton. Mentions must be hashable and sortable (span tuples).
    """

    name: str
    key: list[list[Mention]]
    response: list[list[Mention]]
    key_types: list[str] | None = None
    response_chain_mentions: int = 0  # mentions in system chains of 2+ (the XML's "size")
    #: response mentions that are no gold concept, with their system chain's type: ``--mode i2b2``
    #: adds each to the key as a singleton of that type (one mention universe, as gold concepts
    #: outside the system chains are response singletons); ``--mode conll`` scores them as the
    #: reference scorer does, in the response only
    twinless: list[tuple[Mention, str]] = field(default_factory=list)


@dataclass
class ConceptSpan:
    """A concept as the scorer needs it: span, type and its line in the .con file (and its text,
    which GAP-style scoring reads for the pronoun's gender)."""

    span: Span
    type: str
    line: int
    text: str = ""


@dataclass
class LoadResult:
    documents: list[DocPartition] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)


def read_concepts(path: str | Path, encoding: str = "utf-8") -> tuple[list[ConceptSpan], list[Diagnostic]]:
    """Spans and types of a ``.txt.con`` file, without the text (the scorer needs only these).

    Malformed lines are errors (RC201) and a repeated span keeps the first line (RC212 warning),
    as in the full reader.
    """
    path = Path(path)
    file = str(path)
    errors: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    out: list[ConceptSpan] = []
    seen: dict[Span, int] = {}
    for lineno, line in enumerate(read_text_lines(path, encoding), 1):
        text = line.strip()
        if not text:
            continue
        parsed = parse_concept(text)
        if parsed is None:
            errors.append(diagnostic("RC201", file=file, line=lineno, detail=f"expected c=\"...\" L:T L:T||t=\"type\", got {text[:80]!r}"))
            continue
        given, span, written_type = parsed
        if (span[2], span[3]) < (span[0], span[1]):
            errors.append(diagnostic("RC211", file=file, line=lineno, detail=f"{span[0]}:{span[1]} {span[2]}:{span[3]}"))
            continue
        if span in seen:
            warnings.append(diagnostic("RC212", file=file, line=lineno, severity="warning",
                                       span=f"{span[0]}:{span[1]} {span[2]}:{span[3]}", first=seen[span]))
            continue
        seen[span] = lineno
        out.append(ConceptSpan(span, written_type.strip().lower(), lineno, given))
    if errors:
        raise InputError(errors)
    return out, warnings


def _span_text(span: Span) -> str:
    return f"{span[0]}:{span[1]} {span[2]}:{span[3]}"


def _chains_dir(root: Path) -> Path:
    return root / "chains" if (root / "chains").is_dir() else root


def _concepts_dir(gold_dir: Path, concepts_dir: Path | None) -> Path:
    if concepts_dir is not None:
        if not concepts_dir.is_dir():
            raise EvaluationError(diagnostic("RC712", what="concepts folder", path=str(concepts_dir)))
        return concepts_dir
    if (gold_dir / "concepts").is_dir():
        return gold_dir / "concepts"
    return gold_dir


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


def _read_side(path: Path, concept_type: dict[Span, str], name: str, side: str, bad_code: str, encoding: str,
               errors: list[Diagnostic], warnings: list[Diagnostic],
               concept_text: dict[Span, str] | None = None,
               lines: list[list[str]] | None = None) -> list[tuple[list[Span], str]]:
    """Chains (spans, type) of one side's file; a chain naming a non-concept is reported
    (``bad_code``) and left out, a missing file is a warning (RC703) and means no chains, and a
    mention whose text is not the concept's (case and spacing aside) is a warning (RC718).

    ``lines``: the document's tokens, given for the system side: a mention that is no concept but
    whose words are the text's words at its offsets is twinless, and kept."""
    if not is_file(path):
        warnings.append(diagnostic("RC703", file=str(path), severity="warning", doc=name, side=side))
        return []
    out = []
    chains = read_chains(path, encoding=encoding)
    for spans, ctype, line in zip(chains.chains, chains.types, chains.lines):
        bad = [s for s in spans if s not in concept_type and not _in_text(s, chains.texts.get(s, ""), lines)]
        for s in bad:
            errors.append(diagnostic(bad_code, file=str(path), line=line, mention=_span_text(s), doc=name))
        for s in spans:
            given, expected = chains.texts.get(s, ""), (concept_text or {}).get(s)
            if expected is not None and not _same_text(given, expected):
                warnings.append(diagnostic("RC718", file=str(path), line=line, severity="warning", side=side,
                                           mention=_span_text(s), given=given[:80], expected=expected[:80]))
        if not bad:
            out.append((list(spans), ctype))
    return out


def _in_text(span: Span, given: str, lines: list[list[str]] | None) -> bool:
    """The mention's words are the text's words at its offsets (a twinless mention, not a slip)."""
    (l1, t1, l2, t2) = span
    if lines is None or not (1 <= l1 <= l2 <= len(lines)) or t1 >= len(lines[l1 - 1]) or t2 >= len(lines[l2 - 1]):
        return False
    if l1 == l2:
        words = lines[l1 - 1][t1:t2 + 1]
    else:
        words = [*lines[l1 - 1][t1:], *(w for row in lines[l1:l2 - 1] for w in row), *lines[l2 - 1][:t2 + 1]]
    return bool(words) and _same_text(given, " ".join(words))


def load_i2b2(
    gold_dir: str | Path,
    system_dir: str | Path,
    *,
    concepts_dir: str | Path | None = None,
    encoding: str = "utf-8",
    progress: Callable[[int, int], object] | None = None,
) -> LoadResult:
    """Read gold concepts + gold chains + system chains into partitions, one per gold record.

    Args:
        gold_dir: i2b2 layout (``concepts/``, ``chains/``, optional ``docs/``); the chains may
            also sit directly in it, with the concepts given by ``concepts_dir``.
        system_dir: ``NAME.txt.chains`` files, flat or in a ``chains/`` subfolder.
        concepts_dir: where the ``.txt.con`` files are when not in ``gold_dir/concepts``
            (the official scorer takes the gold chains, system chains and concepts separately).
        progress: called with (documents read, documents in all) after each gold record, for a
            progress bar on a corpus of thousands.
    """
    gold_dir, system_dir = Path(gold_dir), Path(system_dir)
    for what, path in (("gold folder", gold_dir), ("system folder", system_dir)):
        if not path.is_dir():
            raise EvaluationError(diagnostic("RC712", what=what, path=str(path)))
    con_dir = _concepts_dir(gold_dir, Path(concepts_dir) if concepts_dir is not None else None)
    con_files = sorted(con_dir.glob("*.con"))
    if not con_files:
        raise EvaluationError(diagnostic("RC705", path=str(con_dir)))
    docs_dir = next((d for d in (gold_dir / "docs", con_dir.parent / "docs") if d.is_dir()), None)
    gold_chains_dir = _chains_dir(gold_dir)
    sys_chains_dir = _chains_dir(system_dir)

    result = LoadResult()
    errors: list[Diagnostic] = []
    names: dict[str, Path] = {}
    for con in con_files:
        name = doc_name(con)
        if name in names:  # NAME.txt.con and NAME.v2.txt.con: one would hide the other
            errors.append(diagnostic("RC719", file=str(con), doc=name, first=str(names[name])))
            continue
        names[name] = con
        txt = docs_dir / con.name[: -len(".con")] if docs_dir is not None else None
        concepts, lines = _gold_concepts(con, txt, name, encoding, result.warnings)
        result.documents.append(_partition(name, concepts, gold_chains_dir, sys_chains_dir, encoding, errors,
                                           result.warnings, lines))
        if progress is not None:
            progress(len(names), len(con_files))

    for f in sorted(sys_chains_dir.glob("*.chains")):
        if doc_name(f) not in names:
            errors.append(diagnostic("RC702", file=str(f), path=str(f), expected=f"{con_dir / (doc_name(f) + '.txt.con')}"))
    if errors:
        raise EvaluationError(errors)
    return result


def _gold_concepts(con: Path, txt: Path | None, name: str, encoding: str,
                   warnings: list[Diagnostic]) -> tuple[list[ConceptSpan], list[list[str]] | None]:
    """A record's concepts, and its tokens when it has a text (read with it, so the text's checks apply)."""
    if txt is not None and is_file(txt):
        read = read_document(txt, con, name=name, encoding=encoding)
        warnings.extend(read.warnings)
        return [ConceptSpan(c.span, c.type, c.source_line, c.text) for c in read.document.concepts], read.document.lines
    concepts, warns = read_concepts(con, encoding)
    warnings.extend(warns)
    return concepts, None


def _partition(name: str, concepts: list[ConceptSpan], gold_chains_dir: Path, sys_chains_dir: Path, encoding: str,
               errors: list[Diagnostic], warnings: list[Diagnostic],
               lines: list[list[str]] | None = None) -> DocPartition:
    """One record's key and response entities: its chains, then every concept outside them alone;
    a system mention that is no concept (found in ``lines``) is twinless."""
    concept_type = {c.span: c.type for c in concepts}
    concept_text = {c.span: c.text for c in concepts}
    gold = _read_side(gold_chains_dir / f"{name}.txt.chains", concept_type, name, "gold", "RC704", encoding, errors,
                      warnings, concept_text)
    key: list[list[Mention]] = [list(spans) for spans, _ in gold]
    key_types = [ctype for _, ctype in gold]
    in_gold = {s for spans, _ in gold for s in spans}
    for c in concepts:
        if c.span not in in_gold:
            key.append([c.span])
            key_types.append(c.type)
    system = _read_side(sys_chains_dir / f"{name}.txt.chains", concept_type, name, "system", "RC701", encoding,
                        errors, warnings, concept_text, lines)
    response: list[list[Mention]] = [list(spans) for spans, _ in system]
    in_sys = {s for spans, _ in system for s in spans}
    chain_mentions = sum(len(spans) for spans, _ in system if len(spans) > 1)
    response.extend([c.span] for c in concepts if c.span not in in_sys)
    twinless = [(s, ctype) for spans, ctype in system for s in spans if s not in concept_type]
    return DocPartition(name, key, response, key_types, chain_mentions, twinless)


def load_conll(key_path: str | Path, response_path: str | Path) -> LoadResult:
    """Key and response CoNLL files -> partitions matched by document id (key order)."""
    key_docs = read_conll(key_path)
    resp_docs = {d.doc_id: d for d in read_conll(response_path)}
    result = LoadResult()
    key_ids = set()
    for kd in key_docs:
        key_ids.add(kd.doc_id)
        rd = resp_docs.get(kd.doc_id)
        response: list[list[Mention]] = rd.clusters() if rd is not None else []  # type: ignore[assignment]
        chain_mentions = sum(len(e) for e in response if len(e) > 1)
        result.documents.append(DocPartition(kd.doc_id, kd.clusters(), response, None, chain_mentions))  # type: ignore[arg-type]
    for doc_id, rd in resp_docs.items():
        if doc_id not in key_ids:
            result.warnings.append(diagnostic("RC716", file=str(response_path), line=rd.line, severity="warning", doc=doc_id))
    return result


def restrict(doc: DocPartition, universe: set[Mention]) -> DocPartition:
    """The document seen through one mention subset: entities cut down to it, empty ones dropped."""
    key, types = [], []
    for i, entity in enumerate(doc.key):
        kept = [m for m in entity if m in universe]
        if kept:
            key.append(kept)
            types.append(doc.key_types[i] if doc.key_types else "")
    response = [kept for entity in doc.response if (kept := [m for m in entity if m in universe])]
    chain_mentions = sum(len(e) for e in response if len(e) > 1)
    return DocPartition(doc.name, key, response, types if doc.key_types else None, chain_mentions)


def twinless_in_key(doc: DocPartition) -> DocPartition:
    """The document with each twinless system mention added to the key as a singleton of its
    system chain's type: one mention universe for the i2b2 formulas. The key then says the found
    mention is no concept and refers to nothing else, so every system link to it is a wrong link."""
    if not doc.twinless:
        return doc
    in_key = {m for entity in doc.key for m in entity}
    extra = [(m, t) for m, t in doc.twinless if m not in in_key]
    key = [*doc.key, *([m] for m, _ in extra)]
    types = [*doc.key_types, *(t for _, t in extra)] if doc.key_types is not None else None
    return DocPartition(doc.name, key, doc.response, types, doc.response_chain_mentions, doc.twinless)


def type_universes(doc: DocPartition) -> dict[str, set[Mention]]:
    """Mentions of each gold type: the mentions of the gold chains of that type plus the gold
    singletons whose concept has that type. Pronouns in a person chain belong to ``person``."""
    out: dict[str, set[Mention]] = {}
    for entity, t in zip(doc.key, doc.key_types or ()):
        out.setdefault(t, set()).update(entity)
    return out


def mention_sets_differ(docs: Sequence[DocPartition]) -> str | None:
    """A description of the first document whose key and response mention sets differ, or None."""
    for d in docs:
        k = {m for e in d.key for m in e}
        r = {m for e in d.response for m in e}
        if k != r:
            return f"document {d.name!r}: {len(r - k)} response mention(s) not in the key, {len(k - r)} key mention(s) not in the response"
    return None
