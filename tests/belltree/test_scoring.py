"""Link scorers: the mention-pair scorer's weight sums equal the model over the feature strings,
and hypotheses share entity objects (so an entity is scored once per mention)."""

from __future__ import annotations

import dataclasses
import zlib

import pytest

from rulecoref.belltree.features import ATTRIBUTES, extractor
from rulecoref.belltree.maxent import MaxEntModel
from rulecoref.belltree.scoring import EntityMentionScorer, MentionPairScorer, PairScores
from rulecoref.engine import Pipeline
from rulecoref.markup import parse_markup
from rulecoref.rules.compiler import compile_rules
from tests.helpers import ROOT, shared_resources

#: pronouns and names, repeated strings and heads, an acronym, an apposition, same-sentence
#: neighbours, and pairs whose sentence and token distances fall in the log buckets (> 4, > 256)
LINES = [
    "[Mr. John Smith|person] , [the patient|person] , reports [chest pain|problem] .",
    "[He|pronoun] had [chronic obstructive pulmonary disease|problem] ( [COPD|problem] ) .",
    "[His chest pain|problem] was treated with [aspirin|treatment] ; [himself|pronoun] .",
    *["filler words here for distance and more of them ." for _ in range(40)],
    "[Mrs. Smith|person] said [she|pronoun] saw [the pain|problem] and [COPD|problem] .",
    "[Smith|person] took [aspirin|treatment] and [the aspirin|treatment] for [pain|problem] .",
    "[it|pronoun] helped and [he|pronoun] said [chest pain|problem] improved .",
]


def hybrid_view(markup: str):
    """The document's extractor with the rule passes of rules/hybrid.yaml run (hybrid features)."""
    ruleset = dataclasses.replace(compile_rules(ROOT / "rules" / "hybrid.yaml"), decoder=None)
    pipeline = Pipeline(ruleset, shared_resources())
    doc, _ = parse_markup(markup)
    res = pipeline.run_passes(doc)
    res.table.build(list(ATTRIBUTES))
    return extractor(res.table, res, [(p.name, p.scope) for p in ruleset.passes])


def weight(feature: str) -> float:
    """An arbitrary, reproducible weight per feature string, so a missing or misnamed one shows."""
    return (zlib.crc32(feature.encode()) % 2001 - 1000) / 400


@pytest.fixture(scope="module")
def fx():
    return hybrid_view("\n".join(LINES))


def test_scoring_pair_weights_equal_the_model_over_the_feature_strings(fx):
    n = fx.tab.n
    pairs = [(a, m) for m in range(n) for a in range(m)]
    model = MaxEntModel("mention-pair", {f: weight(f) for a, m in pairs for f in fx.pair(a, m)}, -0.3)
    scores = PairScores(model, fx)
    kinds = set()
    for a, m in pairs:
        assert scores.prob(a, m) == pytest.approx(model.prob(fx.pair(a, m)), abs=1e-12), (a, m, fx.pair(a, m))
        kinds.update(f.split("=")[0] for f in fx.pair(a, m))
    # the document exercises what the tables and memos stand for
    assert {"exact", "hm", "acro", "appos", "btw", "pp", "ah", "refl|sd", "samepron|sd", "r:exact-string"} <= kinds
    assert {"sd=b6", "td=b9"} & {f for a, m in pairs for f in fx.pair(a, m)}


def test_scoring_features_unknown_to_the_model_count_zero(fx):
    model = MaxEntModel("mention-pair", {"exact": 2.0, "sd=0": -1.0}, 0.5)
    scores = PairScores(model, fx)
    for m in range(fx.tab.n):
        for a in range(m):
            assert scores.prob(a, m) == pytest.approx(model.prob(fx.pair(a, m)), abs=1e-12)


def test_scoring_hypotheses_share_started_and_extended_entities(fx):
    scorer = MentionPairScorer(MaxEntModel("mention-pair", {}, 0.0), fx)
    e0, e1 = scorer.new_entity(0), scorer.new_entity(1)
    assert scorer.new_entity(1) is e1 and e0 is not e1
    two = scorer.extend(e0, 2)
    assert scorer.extend(e0, 2) is two  # a second hypothesis adding 2 to the same entity object
    assert scorer.extend(e1, 2) is not two and two.size == 2 and two.last == 2
    assert scorer.extend(two, 3) is not scorer.extend(e0, 3)  # other entity, other member set


def test_scoring_an_entity_object_is_scored_once_per_mention(fx):
    calls = []

    class Counting(EntityMentionScorer):
        def entity_prob(self, e, m, root_of):
            calls.append((e.root, m))
            return super().entity_prob(e, m, root_of)

    scorer = Counting(MaxEntModel("entity-mention", {"exact": 1.0}, -1.0), fx)
    a, b = scorer.new_entity(0), scorer.new_entity(1)
    first = scorer.link_probs(2, [a, b], lambda i: i)
    again = scorer.link_probs(2, [b, a], lambda i: i)
    assert calls == [(0, 2), (1, 2)] and again == first[::-1]
    scorer.link_probs(3, [a], lambda i: i)
    assert calls[-1] == (0, 3)


def test_scoring_entity_rule_features_take_the_members_strongest_decision(fx):
    r = fx.rules
    m, a = next((m, a) for m in range(fx.tab.n) for a in r.touched[m] if "L" in r.decisions.get((a, m), {}).values())
    linked = next(name for name, v in r.decisions[(a, m)].items() if v == "L")
    scorer = EntityMentionScorer(MaxEntModel("entity-mention", {}, 0.0), fx)
    e = scorer.new_entity(a)
    owner = {a: a}
    inside = fx.entity(e, m, lambda i: owner.get(i, -1))
    outside = fx.entity(e, m, lambda i: -1)  # a hypothesis where a is not in the entity
    assert f"r:{linked}=L" in inside and f"r:{linked}=L" not in outside
    base = r.undecided(fx.tab.type[a], fx.tab.type[m])
    assert [f for f in outside if f.startswith("r:")] == base


def test_scoring_distance_tables_sum_once_per_bucket_and_stay_bounded():
    from rulecoref.belltree.scoring import _ByDistance

    names = []
    table = _ByDistance({"td=b3": 0.5, "td=b13": 1.5}, lambda d: names.append(d) or ("td=" + d,))
    assert [table[n] for n in (5, 6, 7, 8)] == [0.5, 0.5, 0.5, 0.0]
    assert table[5000] == table[8000] == 1.5  # both in the 4096-8191 bucket
    assert names == ["b3", "b4", "b13"]  # each bucket's names made once
    assert 5000 not in table and 7 in table  # far distances are not kept one by one
