"""acronym: a word made of a multi-word concept's initials (seed 001)."""

from __future__ import annotations

import pytest

from tests.helpers import random_spans
from tests.passes.main_support import MAIN, evidence, pipeline, run, together


@pytest.fixture()
def pipe(tmp_path):
    return pipeline(tmp_path, {"kind": "acronym", "applies_to": MAIN})


def test_acronym_seed_example(pipe):
    res = run(pipe, "[Methicillin-resistant Staphylococcus aureus|problem] was cultured ; [MRSA|problem] persists .")
    assert together(res, "methicillin-resistant staphylococcus aureus", "mrsa")
    assert evidence(res) == ["'MRSA' = initials 'mrsa' of 'methicillin-resistant staphylococcus aureus'"]


def test_acronym_some_initials_in_order(pipe):
    res = run(pipe, "[chronic obstructive pulmonary disease|problem] ; [COPD|problem] .")
    assert together(res, "chronic obstructive pulmonary disease", "copd")
    res = run(pipe, "[left ventricular hypertrophy|problem] ; [LVH|problem] ; [LH|problem] .")
    assert together(res, "left ventricular hypertrophy", "lh")  # 2 of 3 initials, in order
    assert "some initials in order" in evidence(res)[-1]


def test_acronym_too_few_initials_or_wrong_order(pipe):
    res = run(pipe, "[Methicillin-resistant Staphylococcus aureus|problem] ; [MS|problem] was ruled out .")
    assert not together(res, "methicillin-resistant staphylococcus aureus", "ms")
    res = run(pipe, "[congestive heart failure|problem] and [CAD|problem] .")
    assert not together(res, "congestive heart failure", "cad")
    res = run(pipe, "[congestive heart failure|problem] and [HCF|problem] .")
    assert not together(res, "congestive heart failure", "hcf")


def test_acronym_common_words_and_brackets(pipe):
    res = run(pipe, "[the Department of Health|problem] ; [DH|problem] .")
    assert together(res, "the department of health", "dh")
    res = run(pipe, "[otitis media ( OM )|problem] ; [OM|problem] .")
    assert together(res, "otitis media ( om )", "om")


def test_acronym_must_look_like_one(pipe):
    res = run(pipe, "[magnetic resonance imaging|test] ; [mri|test] .")
    assert not together(res, "magnetic resonance imaging", "mri")  # written in lowercase
    res = run(pipe, "[crystallin proteins|problem] ; [CP49|problem] .")
    assert not together(res, "crystallin proteins", "cp49")  # a name with a number


def test_acronym_lowercase_text(tmp_path):
    pipe = pipeline(tmp_path, {"kind": "acronym", "applies_to": MAIN, "params": {"min_upper": 0}})
    res = run(pipe, "[magnetic resonance imaging|test] ; [mri|test] .")
    assert together(res, "magnetic resonance imaging", "mri")


def test_acronym_plural(pipe):
    res = run(pipe, "[fibroblast growth factors|problem] ; [FGFs|problem] .")
    assert together(res, "fibroblast growth factors", "fgfs")


def test_acronym_word_or_concept(tmp_path):
    text = "[Methicillin-resistant Staphylococcus aureus|problem] ; [MRSA bacteremia|problem] ."
    word = pipeline(tmp_path, {"kind": "acronym", "applies_to": MAIN})
    assert together(run(word, text), "methicillin-resistant staphylococcus aureus", "mrsa bacteremia")
    concept = pipeline(tmp_path, {"kind": "acronym", "applies_to": MAIN, "params": {"match": "concept"}})
    assert not together(run(concept, text), "methicillin-resistant staphylococcus aureus", "mrsa bacteremia")


def test_acronym_same_type_and_not_inside_itself(pipe):
    res = run(pipe, "[coronary artery disease|problem] ; [CAD|test] .")
    assert not together(res, "coronary artery disease", "cad")


def test_acronym_nearest_long_form(pipe):
    res = run(pipe, "[chronic kidney disease|problem] , [chronic kidney disease|problem] ; [CKD|problem] .")
    assert [l.pair for l in res.proposed] == [(1, 2)]


# --- the bulk analysis proposes exactly what the former loop over every concept did -----------------

def _reference(p, doc):
    """acronym's former propose: analyse each candidate, then match every long form with every
    acronym sharing its first letter, sort the matches of each acronym mention."""
    from rulecoref.passes.predicates import acronym_letters, acronym_matches, initials

    prm = p.p

    def content(tokens):
        return [t for t in tokens if t.lower() not in p.common and any(ch.isalnum() for ch in t)]

    def analyse(tokens):
        words = content(tokens)
        acros = []
        if prm["match"] == "word" or len(words) == 1:
            for tok in words:
                letters = acronym_letters(tok, prm["min_upper"])
                if letters and len(letters) >= prm["min_letters"]:
                    acros.append((letters, tok))
        head = tokens
        for k, t in enumerate(tokens):
            if k and t in "([{":
                head = tokens[:k]
                break
        long_form = content(head)
        init = None
        if prm["min_words"] <= len(long_form) <= prm["max_words"]:
            init = initials(long_form)
            if len(init) < prm["min_letters"]:
                init = None
        return acros, init

    same_type = p.scope.same_type
    acros, long_forms = {}, []
    for c in p.candidates(doc):
        words, init = analyse(tuple(doc.tokens(c)))
        for letters, tok in words:
            acros.setdefault(letters, []).append((c.index, tok, c.type if same_type else ""))
        if init is not None:
            long_forms.append((c, init))
    found = {}
    for c, init in long_forms:
        for letters in [a for a in acros if a[0] == init[0]]:
            if not acronym_matches(letters, init, subsequence=prm["subsequence"], min_coverage=prm["min_coverage"],
                                   min_letters=prm["min_letters"]):
                continue
            how = "initials" if letters == init else "some initials in order"
            for j, tok, jkey in acros[letters]:
                if j == c.index or jkey != (c.type if same_type else ""):
                    continue
                if doc.start_of(j) <= doc.end_of(c) and doc.start_of(c) <= doc.end_of(j):
                    continue
                found.setdefault(j, []).append((c.index, f"'{tok}' = {how} '{init}' of '{c.text}'"))
    out = []
    for j in sorted(found):
        forms = sorted(found[j])
        if prm["antecedents"] == "nearest":
            earlier = [f for f in forms if f[0] < j]
            forms = [earlier[-1]] if earlier else forms[:1]
        seen = set()
        for i, said in forms:
            if i not in seen:
                seen.add(i)
                out.append((i, j, said))
    return out


_UNITS = ["Methicillin-resistant Staphylococcus aureus", "MRSA", "the MRSA", "MSA", "MS", "ms", "mrsa", "of", "the",
          "chronic obstructive pulmonary disease", "COPD", "CPD", "(", ")", "CTs", "computed tomography", "Ct", "C-P",
          "and", "otitis media ( OM )", "OM", "om", "the computed tomography scan"]


@pytest.mark.parametrize("params", [
    {}, {"match": "concept"}, {"min_upper": 0}, {"min_upper": 0, "match": "concept", "antecedents": "all"},
    {"subsequence": False}, {"min_coverage": 1.0, "antecedents": "all"}, {"min_words": 3, "max_words": 3},
    {"min_letters": 3, "min_coverage": 0.0}, {"common_words": []},
])
@pytest.mark.parametrize("applies_to", [None, MAIN, {"same_type": False}])
def test_acronym_same_links_as_reference(tmp_path, params, applies_to):
    import random

    from rulecoref.document import Concept, Document
    from rulecoref.passes import Context
    from tests.helpers import single_pass

    p = single_pass("acronym", params, applies_to, types=["problem", "test", "person", "pronoun"],
                    tmp_path=tmp_path).passes[0]
    rng = random.Random(repr(params) + repr(applies_to))
    linked = 0
    for _ in range(200):
        lines, spans = [], set()
        for ln in range(1, rng.randint(2, 4)):
            line: list[str] = []
            for _ in range(rng.randint(1, 6)):
                unit = rng.choice(_UNITS).split()
                if rng.random() < 0.7:  # most units are mentions, some nested in a longer one
                    spans.add(((ln, len(line)), (ln, len(line) + len(unit) - 1)))
                line.extend(unit)
            lines.append(line)
        concepts = [Concept(index=k, text=f"c{k}", type=rng.choice(["problem", "problem", "test", "person", "pronoun"]),
                            start=s, end=e)
                    for k, (s, e) in enumerate(random_spans(rng, lines, rng.randint(0, 6), [0, 1, 2, 3, 5], spans))]
        doc = Document(name="random", lines=lines, concepts=concepts)
        for _ in range(2):  # the second time from the caches
            got = list(p.propose(doc, Context(doc=doc, links={})))
            assert got == _reference(p, doc)
        linked += len(got)
    assert linked
