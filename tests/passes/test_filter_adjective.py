"""filter_adjective: a mention that is only an adjective links to nothing (seed 001)."""

from __future__ import annotations

import pytest

from tests.helpers import random_spans
from tests.passes.main_support import MAIN, pipeline, removals, run, together


@pytest.fixture()
def pipe(tmp_path):
    return pipeline(tmp_path, {"kind": "exact_match", "applies_to": MAIN, "params": {"ignore_words": ["a", "the"]}},
                    {"kind": "filter_adjective", "applies_to": MAIN})


def test_filter_adjective_removes_adjective_mentions(pipe):
    res = run(pipe, "she was [febrile|problem] on admission and remained [febrile|problem] .")
    assert not together(res, "febrile", "febrile")
    assert removals(res) == ["'febrile' is an adjective with no noun (WordNet)"]


def test_filter_adjective_keeps_nouns(pipe):
    res = run(pipe, "she has [a cold|problem] ; the [cold|problem] resolved .")
    assert together(res, "a cold", "cold")
    res = run(pipe, "[painful swelling|problem] ; [painful swelling|problem] .")
    assert together(res, "painful swelling", "painful swelling")


def test_filter_adjective_unknown_words_are_kept(pipe):
    res = run(pipe, "[MRSA|problem] ; [MRSA|problem] .")
    assert together(res, "mrsa", "mrsa")


def test_filter_adjective_removes_every_link_of_the_mention(tmp_path):
    pipe = pipeline(tmp_path, {"kind": "exact_match", "applies_to": MAIN},
                    {"kind": "be_phrase", "applies_to": MAIN},
                    {"kind": "filter_adjective", "applies_to": MAIN})
    res = run(pipe, "[the patient 's state|problem] is [febrile|problem] ; [febrile|problem] again .")
    assert not together(res, "the patient 's state", "febrile")
    assert len(res.removed) == 2


# --- the bulk judgement removes exactly the links the former link-by-link loop removed --------------

def _reference(p, doc, links):
    concepts = doc.concepts
    checked = {t for t in doc.types if p.scope.admits_type(t)}
    out, verdict = [], {}
    for a, b in links:
        for i in (a, b):
            if i not in verdict:
                verdict[i] = concepts[i].type in checked and p.adjectival(doc.concept_tokens[i])
            if verdict[i]:
                out.append(((a, b), f"'{concepts[i].text}' is an adjective with no noun (WordNet)"))
                break
    return out


_WORDS = ["febrile", "Febrile", "afebrile", "very", "painful", "the", "cold", "pain", "mrsa", ".", "-", "well-known",
          "chronic", "hypertensive", "and", "3", "of", "a"]


@pytest.mark.parametrize("applies_to", [None, {"exclude_types": ["person", "pronoun"]}])
def test_filter_adjective_same_removals_as_reference(tmp_path, applies_to):
    import random

    from rulecoref.document import Concept, Document
    from rulecoref.passes import Context
    from tests.helpers import single_pass

    p = single_pass("filter_adjective", None, applies_to, types=["problem", "test", "person", "pronoun"],
                    tmp_path=tmp_path).passes[0]
    rng = random.Random(repr(applies_to))
    removed = 0
    for _ in range(300):
        lines = [[rng.choice(_WORDS) for _ in range(rng.randint(1, 8))] for _ in range(rng.randint(1, 3))]
        spans = random_spans(rng, lines, rng.randint(1, 10), [0, 0, 1, 2])
        concepts = [Concept(index=k, text=f"c{k}", type=rng.choice(["problem", "test", "person", "pronoun"]),
                            start=s, end=e) for k, (s, e) in enumerate(spans)]
        doc = Document(name="random", lines=lines, concepts=concepts)
        n = len(concepts)
        pairs = list({(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < 0.4})
        rng.shuffle(pairs)
        got = list(p.reject(doc, Context(doc=doc, links={pair: [] for pair in pairs})))
        assert got == _reference(p, doc, pairs)
        removed += len(got)
    assert removed
