"""Helpers for the main-linker and filter tests: a pipeline from a few pass entries."""

from __future__ import annotations

from pathlib import Path

from rulecoref.document import Concept, Document
from rulecoref.engine import Pipeline, Resolution
from rulecoref.markup import parse_markup
from tests.helpers import pipeline_from_entries, random_spans

MAIN = {"exclude_types": ["person", "pronoun"]}


def pipeline(tmp_path: Path, *entries: dict, types: list[str] | None = None) -> Pipeline:
    """Passes from dicts with kind (and optional params/applies_to); names are generated."""
    passes = [{"name": f"p{k}-{e['kind'].replace('_', '-')}", **e} for k, e in enumerate(entries)]
    return pipeline_from_entries(tmp_path, passes, types, name="main-test.yaml")


def nested(pipe: Pipeline, text: str, spans: list[tuple[int, int, str]]) -> Resolution:
    """Resolve a one-line document whose concepts may nest (markup cannot): spans are inclusive
    token ranges with a type."""
    tokens = text.split()
    concepts = [Concept(index=k, text=" ".join(tokens[a : b + 1]).lower(), type=t, start=(1, a), end=(1, b))
                for k, (a, b, t) in enumerate(sorted(spans))]
    return pipe.resolve(Document(name="nested", lines=[tokens], concepts=concepts))


def run(pipe: Pipeline, markup: str) -> Resolution:
    doc, _ = parse_markup(markup)
    return pipe.resolve(doc)


def together(res: Resolution, a: str, b: str) -> bool:
    """Whether the first concept with text ``a`` and the last with text ``b`` share a chain."""
    texts = [c.text for c in res.doc.concepts]
    ia = texts.index(a.lower())
    ib = len(texts) - 1 - texts[::-1].index(b.lower())
    owner = res.cluster_of()
    return owner[ia] == owner[ib]


def evidence(res: Resolution) -> list[str]:
    return [l.provenance.evidence for l in res.proposed]


def removals(res: Resolution) -> list[str]:
    return [r.by.evidence for r in res.removed.values()]


def random_doc_and_links(rng, words: list[str], fallback: str, types: list[str]) -> tuple[Document, dict]:
    """A random document for the filters' reference tests: up to 5 lines of ``words`` (one line of
    ``fallback`` if all came out empty), up to 14 concepts (some nested, some crossing a line, types
    drawn from ``types``) and kept links between 40% of the concept pairs, in random order."""
    lines = [[rng.choice(words) for _ in range(rng.randint(0, 12))] for _ in range(rng.randint(1, 5))]
    if not any(lines):
        lines[0] = [fallback]
    spans = random_spans(rng, lines, rng.randint(1, 14), [0, 0, 1, 3])
    concepts = [Concept(index=k, text=f"c{k}", type=rng.choice(types), start=s, end=e)
                for k, (s, e) in enumerate(spans)]
    n = len(concepts)
    pairs = list({(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < 0.4})
    rng.shuffle(pairs)
    return Document(name="random", lines=lines, concepts=concepts), {pair: [] for pair in pairs}


def removals_against_reference(p, rng, make_doc, reference, runs: int = 300) -> int:
    """Run filter pass ``p`` on ``runs`` random documents from ``make_doc(rng)`` (a document and its
    kept links) and assert each time that it removes what ``reference(p, doc, links)`` removes, in
    the same order with the same evidence. Returns how many removals there were, so a test can
    check that its documents exercised the filter at all."""
    from rulecoref.passes import Context

    removed = 0
    for _ in range(runs):
        doc, links = make_doc(rng)
        got = list(p.reject(doc, Context(doc=doc, links=dict(links))))
        assert got == reference(p, doc, list(links))
        removed += len(got)
    return removed
