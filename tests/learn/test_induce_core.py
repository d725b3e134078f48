"""The pieces under induction: the split by name, the scorer, and the candidate-rule emulation,
which must give exactly the links the engine gives for the same rule written as YAML."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rulecoref.engine import Pipeline
from rulecoref.evaluate import DocPartition, score_partitions
from rulecoref.learn.corpus import gold_doc, load_gold, split_by_name
from rulecoref.learn.induce import BlockSearch
from rulecoref.learn.pairs import PairStore, Training, enumerate_pairs
from rulecoref.learn.score import conll_f1, doc_counts, total
from rulecoref.learn.space import Blocking, MatchRule, Pred, Scope, predicates
from rulecoref.learn.state import LinkState
from rulecoref.learn.writer import flow
from rulecoref.markup import parse_markup
from rulecoref.rules.compiler import compile_rules
from tests.helpers import ROOT, shared_resources, write_rules

from .conftest import head_documents, write_corpus


def test_split_by_name_is_fixed_and_leaves_both_sides_documents():
    names = [f"doc{k}" for k in range(30)]
    kept, back = split_by_name(names, 0.33)
    assert set(back) == set(split_by_name(list(reversed(names)), 0.33)[1]) and len(back) == 10  # names decide
    assert sorted(kept + back) == sorted(names) and not set(kept) & set(back)
    assert len(split_by_name(["a", "b"], 0.9)[0]) == 1  # never all held back
    assert split_by_name(["a", "b"], 0.0) == (["a", "b"], [])
    assert split_by_name(names, 0.33, salt="other")[1] != back


def test_doc_counts_give_the_evaluate_packages_conll_f1():
    key = [[0, 1, 2], [3, 4], [5], [6]]
    responses = [[[0, 1], [2, 3, 4], [5, 6]], [[0, 1, 2, 3, 4, 5, 6]], [[k] for k in range(7)]]
    for response in responses:
        ours = conll_f1(total([doc_counts(key, response), doc_counts(key, key)]))
        theirs = score_partitions([DocPartition("a", key, response), DocPartition("b", key, key)]).conll_f1
        assert ours == pytest.approx(theirs)


def test_gold_doc_gives_singletons_their_own_entity():
    doc, chains = parse_markup("[a x|problem|1] [b|problem] [a x|problem|1] [c|problem]")
    gd = gold_doc(doc, list(chains.values()))
    assert gd.owner[0] == gd.owner[2] and len({gd.owner[1], gd.owner[3], gd.owner[0]}) == 3
    assert sorted(map(sorted, gd.key())) == [[0, 2], [1], [3]]


def test_loading_skips_a_record_without_chains_or_unreadable_with_a_warning(tmp_path: Path):
    folder = write_corpus(tmp_path / "c", dict(list(head_documents(True, 3).items())))
    (folder / "chains" / "doc01.txt.chains").unlink()
    (folder / "concepts" / "doc02.txt.con").write_text('c="x" 9:9 9:9 t=problem\n')
    docs, warnings = load_gold([folder])
    assert [d.name for d in docs] == ["doc00"] and [w.code for w in warnings] == ["RC570", "RC575"]


RULES = [
    MatchRule(Blocking("head"), 0, Scope()),
    MatchRule(Blocking("head"), 1, Scope(), (Pred("words_covered"),)),
    MatchRule(Blocking("words"), 0, Scope(types=frozenset({"problem"})), (), (Pred("number_clash"),)),
    MatchRule(Blocking("type", broad=True), 2, Scope(exclude=frozenset({"test"})), (), (Pred("overlaps"),)),
    MatchRule(Blocking("acronym", "acronym_forms", "backward_then_forward"), 0, Scope(), (Pred("acronym_of"),)),
    # predicates with settings from the grid, as a requirement and as a veto
    MatchRule(Blocking("head"), 0, Scope(), (Pred.of("mention_levels", {"later": ["NOM"]}),),
              (Pred.of("sentences_apart", {"more_than": 1}),)),
]
MARKUP = {
    "e1": "\n".join([
        "[Chronic obstructive pulmonary disease|problem|c] was treated with [the inhaler|treatment|i] .",
        "[COPD|problem|c] improved ; [the inhalers|treatment] were refilled .",
        "[a CT|test|t] showed [two lesions|problem|l] .",
        "[the lesion|problem|l2] grew and [the CT|test|t] was repeated .",
        "[the old lesions|problem|l] were stable .",
    ]),
    "e2": "\n".join([
        "[MRSA|problem|m] grew ; [methicillin-resistant Staphylococcus aureus|problem|m] was cultured .",
        "[the wound|problem|w] and [the deep wound|problem|w] were cleaned .",
        "[the wounds|problem] healed ; [the culture|test|k] and [a culture|test] followed .",
    ]),
}


@pytest.mark.parametrize("rule", RULES, ids=lambda r: f"{r.blocking.label}-w{r.window}")
def test_candidate_rule_links_equal_the_engines_links(tmp_path: Path, rule: MatchRule):
    folder = write_corpus(tmp_path / "c", MARKUP)
    docs, _ = load_gold([folder])
    resources = shared_resources()
    base = compile_rules(ROOT / "rules" / "exact.yaml")
    t = Training(docs, Pipeline(base, resources), set())
    store = PairStore(t, predicates())
    bs = BlockSearch(t, store, LinkState(t, store), enumerate_pairs(t, store, rule.blocking, 60), store.predicates)
    idx = bs.links(rule)
    emulated = {(int(t.doc_of[a]), *sorted((int(a - t.offsets[t.doc_of[a]]), int(c - t.offsets[t.doc_of[a]]))))
                for a, c in zip(bs.bp.ana[idx], bs.bp.cand[idx])}
    entry = "\n".join(f"    {k}: {flow(v)}" for k, v in rule.entry().items() if k != "kind")
    path = write_rules(tmp_path, f"version: 1\npasses:\n  - kind: match\n    name: learned\n{entry}\n")
    pipe = Pipeline(compile_rules(path), resources)
    engine = {(d, *pair) for d, gd in enumerate(docs) for pair in pipe.run_passes(gd.doc).kept}
    assert emulated == engine and engine


def test_state_merges_and_filters_as_the_chains_would(tmp_path: Path):
    folder = write_corpus(tmp_path / "c", MARKUP)
    docs, _ = load_gold([folder])
    t = Training(docs, Pipeline(compile_rules(ROOT / "rules" / "exact.yaml"), shared_resources()), set())
    state = LinkState(t, PairStore(t, predicates()))
    before = state.f1()
    off = int(t.offsets[1])
    ana, cand = np.array([off + 1]), np.array([off + 0])  # the acronym and its long form, one gold entity
    changed = state.merged(ana, cand)
    assert list(changed) == [1] and state.delta(changed)[0] > 0
    state.add_links(ana, cand)
    assert state.f1() > before and state.label[off] == state.label[off + 1]


def test_state_merged_counts_equal_the_chains_of_the_links_added(tmp_path: Path):
    """A candidate's merged counts (chains merged through ``chains.UnionFind``) are the counts of
    the chains rebuilt from every kept link plus the candidate's, for any set of new links."""
    import random

    from rulecoref.chains import clusters_from_pairs

    docs, _ = load_gold([write_corpus(tmp_path / "c", MARKUP)])
    t = Training(docs, Pipeline(compile_rules(ROOT / "rules" / "exact.yaml"), shared_resources()), set())
    state = LinkState(t, PairStore(t, predicates()))
    rng = random.Random(3)
    for _ in range(200):
        d = rng.randrange(len(t.docs))
        off, n = int(t.offsets[d]), len(t.docs[d].doc.concepts)
        links = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(1, 4))]
        ana, cand = np.array([off + a for a, _ in links]), np.array([off + b for _, b in links])
        expected = doc_counts(state.keys[d], clusters_from_pairs(n, state.pairs[d] | set(links)))
        got = state.merged(ana, cand).get(d, state.counts[d])
        assert np.array_equal(got, expected), (d, links)


def test_a_predicate_that_raises_is_left_out_not_fatal(tmp_path: Path, monkeypatch):
    from rulecoref.predicates import PREDICATES, PredicateSpec

    def broken(t, i, j):
        raise KeyError("no such column")

    monkeypatch.setitem(PREDICATES, "broken_for_test", PredicateSpec("broken_for_test", broken, ("type",)))
    folder = write_corpus(tmp_path / "c", MARKUP)
    docs, _ = load_gold([folder])
    t = Training(docs, Pipeline(compile_rules(ROOT / "rules" / "exact.yaml"), shared_resources()), set())
    store = PairStore(t, [Pred("broken_for_test"), Pred("overlaps")])
    enumerate_pairs(t, store, Blocking("type", broad=True), 60)
    assert not store.column(Pred("broken_for_test")).any() and "KeyError" in store.broken[Pred("broken_for_test")]
    assert len(store.column(Pred("overlaps"))) == len(store)


def test_induce_leaves_out_a_predicate_that_raises_with_a_warning_rc579(tmp_path: Path, monkeypatch):
    """The search goes on without the broken predicate and says so once, naming it and the error."""
    from rulecoref.learn.induce import Settings, induce
    from rulecoref.predicates import PREDICATES, PredicateSpec

    def broken(t, i, j):
        raise KeyError("no such column")

    monkeypatch.setitem(PREDICATES, "broken_for_test", PredicateSpec("broken_for_test", broken, ("type",)))
    docs, _ = load_gold([write_corpus(tmp_path / "c", MARKUP)])
    result = induce(docs, Pipeline(compile_rules(ROOT / "rules" / "exact.yaml"), shared_resources()), Settings(holdout=0))
    (w,) = [w for w in result.warnings if w.code == "RC579"]
    assert "broken_for_test" in w.message and "KeyError" in w.message and w.severity == "warning"
