"""relative_pronoun: 'which'/'that' right after a concept refers to it (seed 001)."""

from __future__ import annotations

import pytest

from tests.helpers import random_spans
from tests.passes.main_support import evidence, nested, pipeline, run, together


@pytest.fixture()
def pipe(tmp_path):
    return pipeline(tmp_path, {"kind": "relative_pronoun"})


def test_relative_pronoun_seed_example(pipe):
    res = run(pipe, "deep wound culture showed [MRSA|problem] [which|pronoun] is sensitive to vancomycin .")
    assert together(res, "mrsa", "which")
    assert evidence(res) == ["'which' right after 'mrsa'"]


def test_relative_pronoun_comma_is_not_a_word(pipe):
    res = run(pipe, "started [vancomycin|treatment] , [which|pronoun] was continued .")
    assert together(res, "vancomycin", "which")


def test_relative_pronoun_one_word_between(pipe):
    res = run(pipe, "a [CT scan|test] today [that|pronoun] showed nothing .")
    assert together(res, "ct scan", "that")


def test_relative_pronoun_two_words_between_is_too_far(pipe):
    res = run(pipe, "[MRSA|problem] grew again yesterday [which|pronoun] is bad .")
    assert not together(res, "mrsa", "which")


def test_relative_pronoun_max_words_param(tmp_path):
    pipe = pipeline(tmp_path, {"kind": "relative_pronoun", "params": {"max_words_between": 2}})
    res = run(pipe, "[MRSA|problem] grew again [which|pronoun] is bad .")
    assert together(res, "mrsa", "which")


def test_relative_pronoun_other_pronouns_are_not_linked(pipe):
    res = run(pipe, "[the rash|problem] [it|pronoun] spread .")
    assert not together(res, "the rash", "it")


def test_relative_pronoun_not_across_lines(pipe):
    res = run(pipe, "culture grew [MRSA|problem]\n[That|pronoun] is why we called .")
    assert not together(res, "mrsa", "that")


def test_relative_pronoun_prefers_whole_phrase_and_skips_pronouns(tmp_path):
    pipe = pipeline(tmp_path, {"kind": "relative_pronoun"}, types=["noun_phrase", "pronoun"])
    res = nested(pipe, "we saw the culture of the wound which grew .",
                 [(2, 6, "noun_phrase"), (5, 6, "noun_phrase"), (7, 7, "pronoun")])
    assert together(res, "the culture of the wound", "which")
    assert not together(res, "the wound", "which")
    res = run(pipe, "[the wound|noun_phrase] and [it|pronoun] [which|pronoun] grew .")
    assert not together(res, "it", "which")


def test_relative_pronoun_type_free_schemes(tmp_path):
    # ODIE types pronouns by their referent: "which" is an 'other' concept there.
    types = ["disease_or_syndrome", "other"]
    strict = pipeline(tmp_path, {"kind": "relative_pronoun"}, types=types)
    text = "[pneumonia|disease_or_syndrome] [which|other] resolved ."
    assert not together(run(strict, text), "pneumonia", "which")
    loose = pipeline(tmp_path, {"kind": "relative_pronoun", "applies_to": {"same_type": False},
                                "params": {"require_pronoun_type": False}}, types=types)
    assert together(run(loose, text), "pneumonia", "which")


# --- the pronoun-first search proposes exactly what the former loop over every concept did ----------

def _reference(p, doc):
    concepts = doc.concepts
    pron_types = p.scope.pronoun_types
    flat = doc.flat_tokens
    by_end: dict[int, list[int]] = {}
    for other in concepts:
        by_end.setdefault(doc.end_of(other), []).append(other.index)
    out = []
    for c in concepts:
        if c.text not in p.pronouns or (p.p["require_pronoun_type"] and c.type not in pron_types):
            continue
        if not p.scope.admits(c):
            continue
        start = doc.start_of(c)
        line_start = doc.flat((c.start[0], 0))
        words, pos, found = 0, start - 1, None
        while pos >= line_start and words <= p.max_between:
            for k in by_end.get(pos, ()):
                cand = concepts[k]
                if k == c.index or cand.type in pron_types or cand.text in p.pronouns:
                    continue
                if found is None or doc.start_of(cand) < doc.start_of(concepts[found]):
                    found = k
            if found is not None:
                break
            if any(ch.isalnum() for ch in flat[pos]):
                words += 1
            pos -= 1
        if found is not None:
            between = doc.between(concepts[found], c)
            out.append((found, c.index, f"'{c.text}' right after '{concepts[found].text}'" + (
                f" ({' '.join(between)} between)" if between else "")))
    return out


@pytest.mark.parametrize("params", [{}, {"max_words_between": 0}, {"max_words_between": 3},
                                    {"require_pronoun_type": False}, {"pronouns": ["which", "that", "who"]}])
@pytest.mark.parametrize("applies_to", [None, {"exclude_types": ["person"]}, {"types": ["problem", "pronoun"]}])
def test_relative_pronoun_same_links_as_reference(tmp_path, params, applies_to):
    import random

    from rulecoref.document import Concept, Document
    from rulecoref.passes import Context
    from tests.helpers import single_pass

    p = single_pass("relative_pronoun", params, applies_to, types=["problem", "test", "person", "pronoun"],
                    tmp_path=tmp_path).passes[0]
    rng = random.Random(repr(params) + repr(applies_to))
    words = ["which", "that", "who", "MRSA", "grew", ",", "the", "wound", "culture", "of", ".", "is"]
    linked = 0
    for _ in range(300):
        lines = [[rng.choice(words) for _ in range(rng.randint(1, 10))] for _ in range(rng.randint(1, 3))]
        concepts = []
        for k, (s, e) in enumerate(random_spans(rng, lines, rng.randint(1, 12), [0, 0, 0, 1, 3])):
            tokens = [w for ln in range(s[0], e[0] + 1) for w in lines[ln - 1]]  # text need not match the span
            text = rng.choice([lines[s[0] - 1][s[1]].lower(), " ".join(tokens[:2]).lower()])
            concepts.append(Concept(index=k, text=text, type=rng.choice(["problem", "test", "person", "pronoun"]),
                                    start=s, end=e))
        doc = Document(name="random", lines=lines, concepts=concepts)
        got = list(p.propose(doc, Context(doc=doc, links={})))
        assert got == _reference(p, doc)
        linked += len(got)
    assert linked
