"""Gold and system documents of any format (JSONL, brat) as key/response partitions.

An i2b2 gold folder is scored by ``data.load_i2b2`` (token positions, as the official scorer
does). A gold of JSONL documents with ``chains`` or brat documents with coreference is read by its
format's reader, and mentions are the character spans of the text as given: the system side may
then be a ``resolve`` output of any format (``NAME.jsonl``, brat ``NAME.ann``, or i2b2
``NAME.txt.chains``, whose token positions are read in the gold text's tokenization), and the
mentions rulecoref added (pronouns no input gave) are matched to the gold concepts by where they
are. Every gold concept outside any chain is a singleton on both sides.
"""

from __future__ import annotations

from pathlib import Path

from ..document import Document
from ..errors import Diagnostic, EvaluationError, RulecorefError, diagnostic
from ..io.formats import Format, ReadOptions, find_inputs, inputs_format, read_gold_record, read_record, typed
from ..io.i2b2 import read_chains
from .core import Mention
from .data import DocPartition, LoadResult

Chars = tuple[int, int]


def char_spans(doc: Document) -> list[Chars]:
    """Each concept's characters in the text as given (the document's origin)."""
    origin = doc.origin
    assert origin is not None
    return [origin.char_span(c) for c in doc.concepts]


def load_records(gold: Path, system: Path, fmt: Format, opts: ReadOptions) -> LoadResult:
    """Partitions of every gold record of ``gold`` (in format ``fmt``) against the system output
    at ``system`` (a folder of ``resolve`` outputs, or one JSONL file)."""
    records, problems = find_inputs([gold], fmt.name, opts.encoding)
    result = LoadResult()
    errors: list[Diagnostic] = list(problems)
    responses = _System(system, opts)
    for rec in records:
        try:
            read, chains = read_gold_record(rec, opts)
        except RulecorefError as exc:
            errors.extend(exc.diagnostics)
            continue
        result.warnings.extend(read.warnings)
        doc = read.document
        spans = char_spans(doc)
        gold_chains = [c for c in chains or [] if len(c) > 1]
        types = typed(doc, gold_chains, read.chain_types if read.chain_types is not None and chains is not None
                      and len(read.chain_types) == len(gold_chains) else None)
        key: list[list[Mention]] = [[spans[i] for i in c] for c in gold_chains]
        in_key = {i for c in gold_chains for i in c}
        key += [[spans[i]] for i in range(len(spans)) if i not in in_key]
        key_types = types + [doc.concepts[i].type for i in range(len(spans)) if i not in in_key]
        response = responses.chains(doc, result.warnings, errors)
        in_response = {m for c in response for m in c}
        chain_mentions = sum(len(c) for c in response)
        response += [[s] for s in spans if s not in in_response]
        result.documents.append(DocPartition(doc.name, key, response, key_types, chain_mentions))
    if errors:
        raise EvaluationError(errors)
    return result


class _System:
    """The system side: each document's chains as character spans of the gold text."""

    def __init__(self, path: Path, opts: ReadOptions):
        if not path.exists():
            raise EvaluationError(diagnostic("RC712", what="system folder", path=str(path)))
        self.path = path
        self.i2b2 = path.is_dir() and (any(path.glob("*.txt.chains")) or (path / "chains").is_dir())
        self.records = {}
        if not self.i2b2:
            fmt = inputs_format([path])
            self.opts = ReadOptions(None, encoding=opts.encoding, type_map=opts.type_map,
                                    abbreviations=opts.abbreviations)
            self.records = {r.name: r for r in find_inputs([path], fmt.name, opts.encoding)[0]}

    def chains(self, doc: Document, warnings: list[Diagnostic], errors: list[Diagnostic]) -> list[list[Mention]]:
        if self.i2b2:
            return self._i2b2(doc, warnings, errors)
        rec = self.records.get(doc.name)
        if rec is None:
            warnings.append(diagnostic("RC703", file=str(self.path), severity="warning", doc=doc.name, side="system"))
            return []
        try:
            read = read_record(rec, self.opts, with_chains=True)
        except RulecorefError as exc:
            errors.extend(exc.diagnostics)
            return []
        spans = char_spans(read.document)
        return [[spans[i] for i in c] for c in read.chains or [] if len(c) > 1]

    def _i2b2(self, doc: Document, warnings: list[Diagnostic], errors: list[Diagnostic]) -> list[list[Mention]]:
        """``NAME.txt.chains``: token positions of the gold text, as ``resolve`` tokenized it."""
        folder = self.path / "chains" if (self.path / "chains").is_dir() else self.path
        path = folder / f"{doc.name}.txt.chains"
        if not path.is_file():
            warnings.append(diagnostic("RC703", file=str(path), severity="warning", doc=doc.name, side="system"))
            return []
        origin = doc.origin
        assert origin is not None
        out = []
        found = read_chains(path)
        for spans, line in zip(found.chains, found.lines):
            chain = []
            for l1, t1, l2, t2 in spans:
                try:
                    chain.append((origin.offsets[l1 - 1][t1][0], origin.offsets[l2 - 1][t2][1]))
                except IndexError:
                    errors.append(diagnostic("RC701", file=str(path), line=line, mention=f"{l1}:{t1} {l2}:{t2}",
                                             doc=doc.name))
            if len(chain) > 1:
                out.append(chain)
        return out
