"""head_synonym: every meaning-bearing word of one concept matches the other (seed 001)."""

from __future__ import annotations

import pytest

from tests.passes.main_support import MAIN, evidence, nested, pipeline, run, together

# the settings of rules/i2b2.yaml; the seed's reading is the kind's defaults
I2B2 = {"min_prefix": 3, "max_ending": 3, "synonym_senses": 1, "keep_digits": True, "head_match": True,
        "covered": "later"}


@pytest.fixture()
def seed(tmp_path):
    return pipeline(tmp_path, {"kind": "head_synonym", "applies_to": MAIN})


@pytest.fixture()
def i2b2(tmp_path):
    return pipeline(tmp_path, {"kind": "head_synonym", "applies_to": MAIN, "params": I2B2})


@pytest.mark.parametrize("name", ["seed", "i2b2"])
def test_head_synonym_seed_examples(name, request):
    pipe = request.getfixturevalue(name)
    res = run(pipe, "an [abscess|problem] was drained ; [abscesses|problem] recurred .")
    assert together(res, "abscess", "abscesses")
    assert evidence(res) == ["all words of 'abscess' match 'abscesses': abscess~abscesses (prefix 'absces')"]
    res = run(pipe, "[Recurrent soft tissue abscess in the gluteal region|problem] ; [tissue abscesses|problem] .")
    assert together(res, "recurrent soft tissue abscess in the gluteal region", "tissue abscesses")


def test_head_synonym_wordnet_synonyms(i2b2):
    res = run(i2b2, "a [tumor|problem] was seen ; the [neoplasm|problem] was resected .")
    assert together(res, "tumor", "neoplasm")
    assert "wordnet synonyms" in evidence(res)[0]


def test_head_synonym_rare_senses_are_not_synonyms(i2b2):
    # blood.n.02 (lineage) lists "line"; only the most frequent sense counts by default
    res = run(i2b2, "[blood cultures|test] grew nothing ; [line cultures|test] were sent .")
    assert not together(res, "blood cultures", "line cultures")


def test_head_synonym_different_heads(seed, i2b2):
    text = "[chest pain|problem] and [back pain|problem] ."
    assert not together(run(seed, text), "chest pain", "back pain")
    assert not together(run(i2b2, text), "chest pain", "back pain")


def test_head_synonym_digits(seed, i2b2):
    text = "[type 1 diabetes|problem] in the mother , [type 2 diabetes|problem] in the patient ."
    assert together(run(seed, text), "type 1 diabetes", "type 2 diabetes")  # the seed strips digits
    assert not together(run(i2b2, text), "type 1 diabetes", "type 2 diabetes")


def test_head_synonym_adjectives_are_dropped_but_nouns_kept(i2b2):
    res = run(i2b2, "an [abscess|problem] ; the [chronic painful abscess|problem] drained .")
    assert together(res, "abscess", "chronic painful abscess")  # adjective-only words are dropped
    res = run(i2b2, "[a cold|problem] and [a fever|problem] .")
    assert not together(res, "a cold", "a fever")


def test_head_synonym_later_mention_must_be_covered(seed, i2b2):
    text = "[mice|problem] were used ; [mutant mice|problem] died ."
    assert together(run(seed, text), "mice", "mutant mice")
    assert not together(run(i2b2, text), "mice", "mutant mice")  # the later one says more


def test_head_synonym_head_must_match(seed, i2b2):
    text = "[the volume of the neurons|problem] grew ; [neurons|problem] died ."
    assert together(run(seed, text), "the volume of the neurons", "neurons")
    assert not together(run(i2b2, text), "the volume of the neurons", "neurons")


def test_head_synonym_prefix_guards(seed, i2b2):
    text = "[actin|problem] and [activation|problem] ."
    assert together(run(seed, text), "actin", "activation")  # 4 of 5 letters: the seed's 80%
    assert not together(run(i2b2, text), "actin", "activation")  # "vation" is no ending
    text = "[hepatitis b|problem] and [hepatitis bacteria|problem] ."
    assert together(run(seed, text), "hepatitis b", "hepatitis bacteria")  # "b" is 80% of "b"
    assert not together(run(i2b2, text), "hepatitis b", "hepatitis bacteria")


def test_head_synonym_same_type_only(i2b2):
    res = run(i2b2, "[a culture|test] grew ; [culture|treatment] given .")
    assert not together(res, "a culture", "culture")


def test_head_synonym_nested_mentions_never_link(tmp_path):
    pipe = pipeline(tmp_path, {"kind": "head_synonym"}, types=["noun_phrase"])
    res = nested(pipe, "the cell cells grew .", [(0, 2, "noun_phrase"), (1, 1, "noun_phrase")])
    assert not together(res, "the cell cells", "cell")


def test_head_synonym_links_nearest_antecedent_only(i2b2):
    res = run(i2b2, "[an abscess|problem] , [an abscess|problem] and [abscesses|problem] .")
    pairs = sorted(l.pair for l in res.proposed)
    assert pairs == [(0, 1), (1, 2)]


def test_head_synonym_all_antecedents(tmp_path):
    pipe = pipeline(tmp_path, {"kind": "head_synonym", "applies_to": MAIN, "params": {"antecedents": "all"}})
    res = run(pipe, "[an abscess|problem] , [an abscess|problem] and [abscesses|problem] .")
    assert sorted(l.pair for l in res.proposed) == [(0, 1), (0, 2), (1, 2)]


def test_head_synonym_skips_pairs_linked_before(tmp_path):
    pipe = pipeline(tmp_path, {"kind": "exact_match", "applies_to": MAIN},
                    {"kind": "head_synonym", "applies_to": MAIN, "params": I2B2})
    res = run(pipe, "[chest pain|problem] ; [chest pain|problem] .")
    assert [l.provenance.kind for l in res.proposed] == ["exact_match"]


# -- the fast paths against the definition ------------------------------------------------------
# The pass indexes words and heads per process and per document; these tests compare it with a
# plain reading of the rule (every earlier mention, nearest first, every word pair compared
# afresh) on random documents, for every combination of the matching parameters.

import itertools  # noqa: E402
import random  # noqa: E402

from rulecoref.document import Concept, Document  # noqa: E402
from rulecoref.passes import Context  # noqa: E402
from rulecoref.passes import head_synonym as head_synonym_module  # noqa: E402
from rulecoref.passes.head_synonym import WordMatches  # noqa: E402

VOCAB = ("abscess abscesses tumor tumors neoplasm neoplasms cell cells cellular actin activation the a of in "
         "painful chronic type 1 2 pax6 pax7 b bacteria blood line mice mutant mouse gene genes expression "
         "expressed which ( ) exam examination large left rat rats ratio pain pains").split()


def _reference(p, doc: Document, linked) -> list[tuple[int, int, str]]:
    """head_synonym by its definition: all earlier mentions of the group, nearest first."""
    match = p.word_match
    either, nearest = p.p["covered"] == "either", p.p["antecedents"] == "nearest"
    info = {}
    groups: dict[str, list[int]] = {}
    for c in p.candidates(doc):
        toks = list(doc.concept_tokens[c.index])
        words = frozenset(p.condition(toks))
        if words:
            info[c.index] = (words, p.head(toks) if p.head_match else None)
            groups.setdefault(c.type if p.scope.same_type else "", []).append(c.index)

    def covers(wa, wb):
        return all(any(match(w, u) for u in wb) for w in wa)

    def evidence(a, b):
        wa, wb = info[a][0], info[b][0]
        ta, tb = doc.concepts[a].text, doc.concepts[b].text
        if not covers(wa, wb) or (covers(wb, wa) and len(wb) < len(wa)):
            ta, tb, wa, wb = tb, ta, wb, wa
        parts = [p.why(w, min((u for u in wb if match(w, u)), key=lambda u: (u != w, u))) for w in sorted(wa)]
        return f"all words of '{ta}' match '{tb}': " + ", ".join(parts)

    start, end = doc.concept_starts, doc.concept_ends
    out = []
    for group in groups.values():
        for k, i in enumerate(group):
            wi, hi = info[i]
            if p.head_match and hi is None:
                continue
            for j in reversed(group[:k]):
                wj, hj = info[j]
                if start[i] <= end[j] and start[j] <= end[i]:
                    continue
                if p.head_match and (hj is None or not match(hi, hj)):
                    continue
                if covers(wi, wj) or (either and covers(wj, wi)):
                    if (j, i) not in linked:
                        out.append((j, i, evidence(j, i)))
                    if nearest:
                        break
    return out


def _random_doc(rng: random.Random, n: int) -> tuple[Document, dict]:
    lines = [[rng.choice(VOCAB) for _ in range(rng.randint(3, 12))] for _ in range(rng.randint(1, 4))]
    spans = set()
    for _ in range(n):
        line = rng.randrange(len(lines))
        a = rng.randrange(len(lines[line]))
        b = min(len(lines[line]) - 1, a + rng.choice((0, 0, 1, 1, 2, 3, 5)))
        spans.add((line + 1, a, b, rng.choice(("problem", "problem", "test"))))
    concepts = [Concept(index=k, text=" ".join(lines[ln - 1][a : b + 1]).lower(), type=t, start=(ln, a), end=(ln, b))
                for k, (ln, a, b, t) in enumerate(sorted(spans))]
    # links of earlier passes, now and then two of them with one later mention
    pairs = [(a, b) for a in range(len(concepts)) for b in range(a + 1, len(concepts))]
    linked = {pair: [] for pair in rng.sample(pairs, min(len(pairs), rng.randint(0, 4)))}
    for a, b in list(linked):
        if a and rng.random() < 0.5:
            linked[(rng.randrange(a), b)] = []
    return Document(name="random", lines=lines, concepts=concepts), linked


COMBOS = list(itertools.product((False, True), ("either", "later"), ("nearest", "all"), (False, True)))


@pytest.mark.parametrize(("head_match", "covered", "antecedents", "guarded"), COMBOS)
def test_head_synonym_matches_its_definition(tmp_path, head_match, covered, antecedents, guarded):
    params = {"head_match": head_match, "covered": covered, "antecedents": antecedents}
    if guarded:
        params.update({"min_prefix": 3, "max_ending": 3, "synonym_senses": 1, "keep_digits": True})
    pipe = pipeline(tmp_path, {"kind": "head_synonym", "params": params}, types=["problem", "test"])
    p = pipe.passes[0]
    rng = random.Random(f"{head_match}{covered}{antecedents}{guarded}")
    for _ in range(40):
        doc, linked = _random_doc(rng, rng.randint(2, 25))
        got = [(j, i, ev() if callable(ev) else ev) for j, i, ev in p.propose(doc, Context(doc=doc, links=linked))]
        assert got == _reference(p, doc, linked), [c.text for c in doc.concepts]


@pytest.mark.parametrize("mixed", [False, True])
def test_head_synonym_across_cache_clears(tmp_path, monkeypatch, mixed):
    # a long batch clears the per-process caches between documents; evidence read later still holds
    monkeypatch.setattr(head_synonym_module, "_CACHE_LIMIT", 10)
    entry = {"kind": "head_synonym", "params": I2B2}
    if mixed:
        entry["applies_to"] = {"same_type": False}
    p = pipeline(tmp_path, entry, types=["problem", "test"]).passes[0]
    rng = random.Random(7)
    pending = []
    for _ in range(30):
        doc, linked = _random_doc(rng, rng.randint(2, 25))
        got = list(p.propose(doc, Context(doc=doc, links=linked)))
        pending.append((got, _reference(p, doc, linked)))
        assert len(p._analysis) <= 10 + 25
    for got, want in pending:
        assert [(j, i, ev() if callable(ev) else ev) for j, i, ev in got] == want


@pytest.mark.parametrize(("ratio", "min_prefix", "max_ending"), [(0.8, 1, 0), (0.8, 3, 3), (0.5, 2, 1), (1.0, 1, 2)])
def test_word_relation_is_the_pairwise_rule(tmp_path, ratio, min_prefix, max_ending):
    params = {"prefix_ratio": ratio, "min_prefix": min_prefix, "max_ending": max_ending, "keep_digits": True}
    p = pipeline(tmp_path, {"kind": "head_synonym", "params": params}).passes[0]
    words = sorted({w for t in VOCAB for w in p.condition([t])} | {"ab", "abs", "abcg5", "abcg8", "tumour", "growth"})
    rel = WordMatches(ratio, min_prefix, max_ending, p._synonyms)
    for w in random.Random(ratio).sample(words, len(words)):  # the order words arrive in is free
        rel.add(w)
    for u in words:
        assert set(rel.matches[u]) == {v for v in words if p.word_match(u, v)}, u
