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
