"""exact_match: the fast grouping proposes exactly what the plain per-concept loop proposes.

The pass works on whole concept lists at once (cached evidence per token sequence, C-level maps);
these tests compare it, on random documents and every parameter combination, with the
straightforward loop it replaced, link for link and in order.
"""

from __future__ import annotations

import random

import pytest

from rulecoref.document import Concept, Document
from rulecoref.passes import Context
from rulecoref.passes.predicates import normalise
from tests.helpers import random_spans, single_pass

VOCAB = ["the", "The", "a", "chest", "Chest", "pain", "PAIN", ",", ".", "--", "x", "of", "an", "CT", "ct"]
TYPES = ["problem", "test", "person", "pronoun"]


def random_doc(rng: random.Random, n_lines: int = 4, width: int = 12, n_concepts: int = 25) -> Document:
    """Random tokens, and random (possibly nested, possibly line-crossing) concept spans."""
    lines = [[rng.choice(VOCAB) for _ in range(rng.randint(1, width))] for _ in range(n_lines)]
    concepts = [Concept(index=k, text="x", type=rng.choice(TYPES), start=s, end=e)
                for k, (s, e) in enumerate(random_spans(rng, lines, n_concepts, [0, 0, 1, 1, 2, 3]))]
    doc = Document(name="random", lines=lines, concepts=concepts)
    doc.concepts = [Concept(index=c.index, text=" ".join(doc.tokens(c)).lower(), type=c.type, start=c.start,
                            end=c.end) for c in concepts]
    return doc


def reference(p, doc: Document) -> list[tuple[int, int, str]]:
    """The loop the pass replaced: candidates in text order, groups by (type, normalised text)."""
    out = []
    groups: dict[tuple[str, str], list[int]] = {}
    for c in p.candidates(doc):
        key = normalise(doc.concept_tokens[c.index], p.ignore)
        if len(key) < p.p["min_chars"]:
            continue
        group = groups.setdefault((c.type if p.scope.same_type else "", key), [])
        if group:
            earlier = group if p.p["antecedents"] == "all" else group[-1:]
            for e in earlier:
                out.append((e, c.index, f"same text {key!r}"))
        group.append(c.index)
    return out


@pytest.mark.parametrize("antecedents", ["nearest", "all"])
@pytest.mark.parametrize("min_chars", [0, 1, 6])
@pytest.mark.parametrize("applies_to", [None, {"exclude_types": ["pronoun"]}, {"same_type": False},
                                        {"exclude_types": ["person", "pronoun"], "same_type": False}])
def test_exact_match_same_links_as_reference(tmp_path, antecedents, min_chars, applies_to):
    params = {"antecedents": antecedents, "min_chars": min_chars, "ignore_words": ["the", "a", "an"]}
    p = single_pass("exact_match", params, applies_to, types=TYPES, tmp_path=tmp_path).passes[0]
    rng = random.Random(f"{antecedents}{min_chars}{applies_to}")
    for _ in range(60):
        doc = random_doc(rng)
        assert list(p.propose(doc, Context(doc=doc, links={}))) == reference(p, doc)
        # a second run is served from the caches and must not differ either
        assert list(p.propose(doc, Context(doc=doc, links={}))) == reference(p, doc)


def test_exact_match_across_numbering_restarts(tmp_path, monkeypatch):
    # past its limit the process-wide mention numbering starts afresh; the pass's cache follows
    from rulecoref import mentions

    monkeypatch.setattr(mentions, "TABLE", mentions.MentionTable(limit=5))
    p = single_pass("exact_match", types=TYPES, tmp_path=tmp_path).passes[0]
    rng = random.Random(7)
    for _ in range(20):
        doc = random_doc(rng)
        assert list(p.propose(doc, Context(doc=doc, links={}))) == reference(p, doc)
        assert len(mentions.TABLE) <= 5 + len(doc.concepts)
    assert mentions.TABLE.generation > 0
