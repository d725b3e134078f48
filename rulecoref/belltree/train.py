"""Training events for the two link models (seed 000 section 5.2) and model fitting.

Mention-pair: one event per compatible pair (a, m), a < m, labelled by whether the gold chains put
them together. The seed uses all compatible pairs; on long documents (CRAFT: ~1,260 mentions, so
~800,000 pairs each) that is out of reach here, so by default the pairs are the ones the decoder
will score: a within ``window`` sentences of m, or a with m's string or head (the latest 10 such),
or a linked to m by a rule. ``window = 0`` restores all compatible pairs.

Entity-mention: walk the true path of the Bell tree. At each mention the gold partial entities to
its left are the in-focus candidates (the same window and rule candidates as decoding); the link
event to m's true entity is positive, the others negative. Starting events need no separate
example: the start probability is derived from the link probabilities (eq. 5), so a true
"start" contributes its negative link events.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..document import Document
from .features import FeatureExtractor, Lexicons, MentionTable, PartialEntity, RuleView
from .maxent import MaxEntModel, fit

FAR_SAME_STRING = 10


@dataclass
class TrainingDoc:
    """A document, its gold clusters (concept indices) and, for hybrid models, the rule Resolution."""

    doc: Document
    gold: list[list[int]]
    resolution: Any = None


@dataclass(frozen=True)
class TrainSettings:
    kind: str = "mention-pair"
    window: int = 10
    max_members: int = 16
    c: float = 1.0
    min_count: int = 2
    type_check: bool = True


def gold_owner(n: int, gold: Sequence[Sequence[int]]) -> list[int]:
    """Gold entity id per mention (singletons get their own id)."""
    owner = list(range(n, 2 * n))
    for k, chain in enumerate(gold):
        for i in chain:
            owner[i] = k
    return owner


def compatible(tab: MentionTable, a: int, m: int, type_check: bool = True) -> bool:
    """Seed 4: mentions of different entity types never corefer; pronouns fit every type."""
    return not type_check or tab.pron[a] or tab.pron[m] or tab.type[a] == tab.type[m]


def mention_pair_events(fx: FeatureExtractor, owner: Sequence[int], s: TrainSettings) -> Iterator[tuple[list[str], int]]:
    tab = fx.tab
    by_norm: dict[str, list[int]] = {}
    by_head: dict[str, list[int]] = {}
    for m in range(tab.n):
        cands: set[int] = set()
        if s.window > 0:
            a = m - 1
            floor = tab.sent[m] - s.window
            while a >= 0 and tab.sent[a] >= floor:
                cands.add(a)
                a -= 1
            if not tab.pron[m]:
                cands.update(by_norm.get(tab.norm[m], [])[-FAR_SAME_STRING:])
                cands.update(by_head.get(tab.head[m], [])[-FAR_SAME_STRING:])
            cands.update(fx.rules.antecedents[m])
        else:
            cands.update(range(m))
        for a in sorted(cands):
            if compatible(tab, a, m, s.type_check):
                yield fx.pair(a, m), int(owner[a] == owner[m])
        if not tab.pron[m]:
            by_norm.setdefault(tab.norm[m], []).append(m)
            by_head.setdefault(tab.head[m], []).append(m)


def entity_mention_events(fx: FeatureExtractor, owner: Sequence[int], s: TrainSettings) -> Iterator[tuple[list[str], int]]:
    tab = fx.tab
    entities: dict[int, PartialEntity] = {}
    root: dict[int, int] = {}

    def root_of(a: int) -> int:
        return root[owner[a]]

    for m in range(tab.n):
        floor = tab.sent[m] - s.window
        cands = [g for g, e in entities.items() if s.window <= 0 or e.last_sentence >= floor]
        for a in fx.rules.antecedents[m]:
            g = owner[a]
            if g not in cands:
                cands.append(g)
        for g in cands:
            e = entities[g]
            if s.type_check and not tab.pron[m] and e.types and tab.type[m] not in e.types:
                continue
            yield fx.entity(e, m, root_of), int(owner[m] == g)
        g = owner[m]
        if g in entities:
            entities[g] = entities[g].extend(tab, m, s.max_members)
        else:
            entities[g] = PartialEntity.start(tab, m, s.max_members)
            root[g] = m


def extractor(doc: Document, lex: Lexicons, wordnet: Any = None, resolution: Any = None,
              passes: Sequence[tuple[str, Any]] = (), pronoun_types: Sequence[str] = ("pronoun",)) -> FeatureExtractor:
    tab = MentionTable(doc, lex, wordnet, pronoun_types)
    rules = RuleView(resolution, passes, tab.n) if resolution is not None else RuleView.empty(tab.n)
    return FeatureExtractor(tab, rules)


def events_for(td: TrainingDoc, lex: Lexicons, s: TrainSettings, *, wordnet: Any = None,
               passes: Sequence[tuple[str, Any]] = (), pronoun_types: Sequence[str] = ("pronoun",)
               ) -> Iterator[tuple[list[str], int]]:
    fx = extractor(td.doc, lex, wordnet, td.resolution, passes, pronoun_types)
    owner = gold_owner(len(td.doc.concepts), td.gold)
    gen = mention_pair_events if s.kind == "mention-pair" else entity_mention_events
    yield from gen(fx, owner, s)


def train(docs: Sequence[TrainingDoc], lex: Lexicons, s: TrainSettings, *, wordnet: Any = None,
          passes: Sequence[tuple[str, Any]] = (), pronoun_types: Sequence[str] = ("pronoun",),
          progress: Any = None) -> MaxEntModel:
    """Generate events for every document and fit the maxent model."""
    feats: list[list[str]] = []
    labels: list[int] = []
    for td in docs:
        for f, y in events_for(td, lex, s, wordnet=wordnet, passes=passes, pronoun_types=pronoun_types):
            feats.append(f)
            labels.append(y)
        if progress is not None:
            progress(td.doc.name)
    settings = {**asdict(s), "wordnet": wordnet is not None, "rule_passes": [name for name, _ in passes],
                "pronoun_types": sorted(pronoun_types), "documents": len(docs)}
    return fit(feats, labels, s.kind, c=s.c, min_count=s.min_count, settings=settings)


def load_gold(record: Any, *, types: Sequence[str] | None = None, encoding: str = "utf-8") -> tuple[TrainingDoc, list[Any]]:
    """Read one i2b2 record with its gold chains (``record`` from io.layout.find_records).

    Returns the training document and warnings (reading warnings, chain mentions that are not
    concepts). A record without a chains file trains as all singletons, with a warning.
    """
    from ..errors import diagnostic
    from ..io.i2b2 import read_chains, read_document

    read = read_document(record.txt, record.con, name=record.name, types=types, encoding=encoding)
    doc = read.document
    warnings = list(read.warnings)
    gold: list[list[int]] = []
    if record.chains is None:
        warnings.append(diagnostic("RC605", file=str(record.con), severity="warning",
                                   detail=f"no .txt.chains for {record.name}; its concepts train as singletons"))
        return TrainingDoc(doc, gold), warnings
    by_span = doc.by_span()
    chains = read_chains(record.chains, encoding=encoding)
    for spans, line in zip(chains.chains, chains.lines):
        members = []
        for span in spans:
            c = by_span.get(span)
            if c is None:
                warnings.append(diagnostic("RC209", file=str(record.chains), line=line, severity="warning",
                                           mention=f"{span[0]}:{span[1]} {span[2]}:{span[3]}"))
            else:
                members.append(c.index)
        if len(members) > 1:
            gold.append(sorted(members))
    return TrainingDoc(doc, gold), warnings
