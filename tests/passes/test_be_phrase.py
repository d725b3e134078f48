"""be_phrase: neighbouring same-type concepts joined by 'is', 'consistent with', ... (seed 001)."""

from __future__ import annotations

import pytest

from tests.helpers import random_spans
from tests.passes.main_support import MAIN, evidence, nested, pipeline, run, together

FILLERS = "resources/lexicons/be_fillers.txt"


@pytest.fixture()
def pipe(tmp_path):
    return pipeline(tmp_path, {"kind": "be_phrase", "applies_to": MAIN, "params": {"fillers": FILLERS}})


def test_be_phrase_seed_example(pipe):
    res = run(pipe, "Resolution of [organism|problem] is [methicillin-resistant Staphylococcus aureus|problem] .")
    assert together(res, "organism", "methicillin-resistant staphylococcus aureus")
    assert evidence(res) == ["be-phrase 'is' in 'is'"]


@pytest.mark.parametrize("between", ["was", "is most likely", ", consistent with", "c/w", "was thought to be",
                                     ", which is also"])
def test_be_phrase_equatives(pipe, between):
    res = run(pipe, f"[the opacity|problem] {between} [a pneumonia|problem] .")
    assert together(res, "the opacity", "a pneumonia")


@pytest.mark.parametrize("between", ["is not", "was followed by", "is due to", "was observed in", "and", "; later"])
def test_be_phrase_not_an_equation(pipe, between):
    res = run(pipe, f"[the rash|problem] {between} [a drug reaction|problem] .")
    assert not together(res, "the rash", "a drug reaction")


def test_be_phrase_needs_same_type(pipe):
    res = run(pipe, "[a CT|test] is [an MRI|treatment] .")
    assert not together(res, "a ct", "an mri")


def test_be_phrase_only_neighbours(pipe):
    res = run(pipe, "[the mass|problem] is [a cyst|problem] near [an abscess|problem] .")
    assert together(res, "the mass", "a cyst")
    assert not together(res, "the mass", "an abscess")


def test_be_phrase_not_across_lines_and_not_too_far(pipe):
    assert not together(run(pipe, "[fever|problem] was\n[pneumonia|problem] ."), "fever", "pneumonia")
    res = run(pipe, "[fever|problem] was , in the end , most likely [pneumonia|problem] .")
    assert not together(res, "fever", "pneumonia")  # 7 tokens between, the default allows 4


def test_be_phrase_outer_phrase_is_the_subject(tmp_path):
    pipe = pipeline(tmp_path, {"kind": "be_phrase"}, types=["noun_phrase"])
    res = nested(pipe, "the culture of the wound is MRSA .",
                 [(0, 4, "noun_phrase"), (3, 4, "noun_phrase"), (6, 6, "noun_phrase")])
    assert together(res, "the culture of the wound", "mrsa")
    assert not together(res, "the wound", "mrsa")


def test_be_phrase_without_fillers_is_the_seed_reading(tmp_path):
    seed = pipeline(tmp_path, {"kind": "be_phrase", "applies_to": MAIN, "params": {"blockers": []}})
    res = run(seed, "[E2F3|problem] was seen in [the retina|problem] .")
    assert together(res, "e2f3", "the retina")  # "contains a be-phrase" is enough for the seed


# --- the fast candidate search proposes exactly what the plain loop over every concept did ----------

def _reference(p, doc):
    """be_phrase's former loop: every candidate, its neighbour, then the be-phrase checks."""
    from bisect import bisect_right

    from rulecoref.passes.predicates import find_phrases

    cands = p.candidates(doc)
    if len(cands) < 2:
        return []
    out = []
    starts = [doc.start_of(c) for c in cands]
    ends = [doc.end_of(c) for c in cands]
    n = len(cands)
    max_gap, same_line, flat = p.p["max_words_between"], p.p["same_line"], doc.flat_tokens
    first_start: dict[int, int] = {}
    for st, en in zip(starts, ends):
        first_start[en] = min(st, first_start.get(en, st))
    for k, a in enumerate(cands):
        if first_start[ends[k]] < starts[k]:
            continue
        nxt = bisect_right(starts, ends[k])
        if nxt >= n:
            continue
        last = bisect_right(starts, starts[nxt]) - 1
        b = cands[max(range(nxt, last + 1), key=lambda m: (ends[m], -m))]
        gap = starts[nxt] - ends[k] - 1
        if gap < 1 or gap > max_gap or (same_line and a.end[0] != b.start[0]):
            continue
        between = flat[ends[k] + 1 : starts[nxt]]
        if not any(t.lower() in p.first_words for t in between):
            continue
        hits = find_phrases(between, p.phrases, p.max_len)
        if not hits:
            continue
        covered = {i for s, e, _ in hits for i in range(s, e)}
        if any(i not in covered and t.lower() in p.blockers for i, t in enumerate(between)):
            continue
        if p.fillers is not None:
            rest = [t for i, t in enumerate(between) if i not in covered]
            filled = {i for s, e, _ in find_phrases(rest, p.fillers) for i in range(s, e)}
            if len(filled) < len(rest):
                continue
        out.append((a.index, b.index, f"be-phrase '{hits[0][2]}' in '{' '.join(between)}'"))
    return out


_WORDS = ["is", "Is", "iS", "IS", "was", "not", "most", "likely", "consistent", "with", "CONSISTENT", ",", "the",
          "rash", "fever", "\u212aNOWN", "known", "as", "thought", "to", "be", "and", ".", "a", "cyst"]


def _random_doc(rng):
    from rulecoref.document import Concept, Document

    lines = [[rng.choice(_WORDS) for _ in range(rng.randint(1, 14))] for _ in range(rng.randint(1, 4))]
    spans = random_spans(rng, lines, rng.randint(0, 18), [0, 0, 0, 1, 2, 4])
    concepts = [Concept(index=k, text="x", type=rng.choice(["problem", "test", "person", "pronoun"]), start=s, end=e)
                for k, (s, e) in enumerate(spans)]
    return Document(name="random", lines=lines, concepts=concepts)


@pytest.mark.parametrize("params", [
    {},
    {"fillers": FILLERS},
    {"fillers": FILLERS, "max_words_between": 1, "same_line": False},
    {"blockers": [], "max_words_between": 7, "same_line": False},
    {"phrases": ["is", "known as", "thought to be", "\u00e9tait"], "blockers": ["not"]},  # not ASCII: lowercased
])
@pytest.mark.parametrize("applies_to", [None, MAIN])
def test_be_phrase_same_links_as_reference(tmp_path, params, applies_to):
    import random

    from rulecoref.passes import Context
    from tests.helpers import single_pass

    p = single_pass("be_phrase", params, applies_to, types=["problem", "test", "person", "pronoun"],
                    tmp_path=tmp_path).passes[0]
    assert (p.first_spellings is None) == ("\u00e9tait" in params.get("phrases", []))
    rng = random.Random(repr(params) + repr(applies_to))
    linked = 0
    for _ in range(300):
        doc = _random_doc(rng)
        got = list(p.propose(doc, Context(doc=doc, links={})))
        assert got == _reference(p, doc)
        linked += len(got)
    assert linked  # the random documents do exercise the links
