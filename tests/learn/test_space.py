"""The learner's search space comes from the registries: every attribute and predicate declares
what ``rulecoref induce`` may do with it (learn/space.py, learn/naming.py keep no names)."""

from __future__ import annotations

import pytest

from rulecoref.attributes import ATTRIBUTES, AttributeSpec, BlockingKey
from rulecoref.learn import naming, space
from rulecoref.learn.space import Blocking, Pred
from rulecoref.predicates import PREDICATES, ROLES, predicate

#: the search space as learn/space.py and learn/naming.py wrote it by hand before the registries
#: declared it (issue 34): what they derive keeps every entry, and the keys keep their order (which
#: decides between equally good rules, so ``induce`` writes the same file)
BLOCKINGS_BEFORE = (
    ("text_norm", None), ("head", None), ("head_base", None), ("head_word", None), ("head_family", "head"),
    ("clinical_head_keys", None), ("acronym", "acronym_forms"), ("name_keys", None), ("surname", None),
    ("name_words", None), ("capitalised", None), ("words", None), ("head", "words"), ("words", "head"), ("drug", None),
    ("pronoun", None), ("line", None), ("thing_key", None), ("gender", None), ("number", None), ("type", None),
    ("mention_level", None), ("is_pronoun", None), ("person", None), ("subject_position", None),
    ("pronoun_role", None), ("head_class", None),
)
BROAD_BEFORE = {"thing_key", "gender", "number", "type", "mention_level", "is_pronoun", "person", "subject_position",
                "pronoun_role", "head_class"}
LINKING_BEFORE = {"head_matches", "words_covered", "acronym_of", "names_match", "same_drug", "thing_antecedent",
                  "clinical_head_matches", "clinical_words_covered"}
CONFLICTS_BEFORE = {"overlaps", "gender_clash", "number_clash", "dates_conflict", "clues_conflict", "adjective_only",
                    "negation_differs", "negated_apart", "history_differs", "new_event", "generic_mention",
                    "degree_clash", "site_clash", "family_differs", "sentences_apart", "mentions_apart",
                    "repeats_another", "frequent_head", "later_adds_modifier"}
GRID_BEFORE = {
    "sentences_apart": tuple({"more_than": n} for n in (1, 3, 10, 30)),
    "mentions_apart": tuple({"more_than": n} for n in (5, 20, 50, 100)),
    "frequent_head": tuple({"at_least": n} for n in (5, 10, 20)),
    "mention_levels": ({"earlier": ["NAM"], "later": ["NOM"]}, {"earlier": ["NOM"], "later": ["NAM"]},
                       {"earlier": ["NAM"], "later": ["NAM"]}, {"earlier": ["NOM"], "later": ["NOM"]},
                       {"later": ["PRO"]}, {"earlier": ["PRO"]}, {"later": ["NAM"]}, {"later": ["NOM"]}),
    "begins_with": ({"mention": "later"}, {"mention": "earlier"}),
}
#: a sample of the phrases: keys (by label), fixed predicate phrases, and phrases of settings
PHRASES_BEFORE = {
    "acronym/acronym_forms": ("acronym", "an acronym and a long form whose initials give it"),
    "surname": ("same-surname", "the same surname"),
    "line": ("same-sentence", "one sentence"),
    "head_matches": ("heads-match", "their heads match"),
    "generic_mention": ("generic", "one names a kind, not one thing ('any')"),
    "sentences_apart(more_than=1)": ("more-than-1-sentence-apart", "they are more than 1 sentence apart"),
    "mentions_apart(more_than=20)": ("more-than-20-mentions-apart", "more than 20 mentions stand between them"),
    "frequent_head(at_least=5)": ("head-of-5-mentions", "the later one's head word heads 5 or more mentions of the document"),
    "mention_levels(earlier=['NAM'], later=['NOM'])": ("name-then-description", "a name comes first and a description later"),
    "mention_levels(later=['PRO'])": ("later-pronoun", "the later one is a pronoun"),
    "begins_with(mention=earlier)": ("earlier-begins-with-a-an", "the earlier one begins with 'a' or 'an'"),
    "hypothetical_mention": ("hypothetical-mention", "hypothetical mention holds"),
}


def test_space_every_attribute_says_whether_induce_may_block_on_it() -> None:
    """``blocking=()`` says "no key for the learner"; leaving it out is refused here."""
    assert [name for name, spec in ATTRIBUTES.items() if spec.blocking is None] == []
    assert all(isinstance(d, BlockingKey) for spec in ATTRIBUTES.values() for d in spec.blocking or ())
    orders = [d.order for spec in ATTRIBUTES.values() for d in spec.blocking or ()]
    assert len(orders) == len(set(orders)), "two keys with one order: which is tried first would be an accident"


def test_space_every_predicate_has_a_role_and_a_grid_it_takes() -> None:
    assert [name for name, spec in PREDICATES.items() if spec.role not in ROLES] == []
    assert [name for name, spec in PREDICATES.items() if any(set(s) - set(spec.params) for s in spec.grid)] == []


def _with_role(role: str) -> set[str]:
    return {name for name in PREDICATES if space.role(name) == role}


def test_space_key_attributes_exist() -> None:
    for b in space.declared_blockings():
        assert b.key in ATTRIBUTES and (b.antecedent_key is None or b.antecedent_key in ATTRIBUTES), b.label


def test_space_tables_keep_what_was_written_by_hand() -> None:
    blockings = space.declared_blockings()
    derived = [(b.key, b.antecedent_key) for b in blockings]
    positions = [derived.index(b) for b in BLOCKINGS_BEFORE]
    assert positions == sorted(positions)  # every old key, in the old order
    assert {b.key for b in blockings if b.broad} >= BROAD_BEFORE
    assert BROAD_BEFORE.isdisjoint(b.key for b in blockings if not b.broad)
    assert next(b for b in blockings if b.key == "line").windows == (0,)
    assert next(b for b in blockings if b.key == "acronym").direction == "backward_then_forward"
    assert _with_role("links") >= LINKING_BEFORE and _with_role("conflicts") >= CONFLICTS_BEFORE
    assert _with_role("skip") == {"same_type"}
    assert {name: PREDICATES[name].grid for name in GRID_BEFORE} == GRID_BEFORE
    keys = {b.label: b for b in blockings}
    preds = {str(p): p for p in space.predicates(umls=True)}
    for label, phrase in PHRASES_BEFORE.items():
        got = naming.key_phrase(keys[label]) if label in keys else naming.predicate_phrase(preds[label])
        assert got == phrase, label


def test_space_a_new_key_and_predicate_reach_the_search(monkeypatch) -> None:
    """One declaration is all a new key or predicate needs: the learner's tables follow."""
    key = BlockingKey(order=15, phrase=("same-colour", "one colour"), broad=True)
    monkeypatch.setitem(ATTRIBUTES, "colour_for_test", AttributeSpec("colour_for_test", lambda t: [], (), (), "a colour",
                                                                     blocking=(key,)))
    found = space.blockings()
    assert found[1] == Blocking("colour_for_test", broad=True)  # order 15: after text_norm (10), before head (20)
    assert naming.key_phrase(found[1]) == ("same-colour", "one colour")

    def paler(t, i, j):
        return None

    predicate("paler_for_test", attributes=("type",), help="paler", role="links",
              phrase=("paler", "one is paler"))(paler)
    try:
        assert Pred("paler_for_test") in space.predicates()
        assert naming.predicate_phrase("paler_for_test") == ("paler", "one is paler")
        assert space.may_require(Pred("paler_for_test")) and not space.may_veto(Pred("paler_for_test"))
    finally:
        del PREDICATES["paler_for_test"]


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"role": "links_maybe"}, "role 'links_maybe' is not one of links, conflicts, either, skip"),
    ({"role": "conflicts", "grid": ({"more_than": 3},)}, "its grid sets more_than, which it does not take"),
])
def test_space_predicate_refuses_a_bad_role_or_grid(kwargs: dict, error: str) -> None:
    with pytest.raises(ValueError, match=error.replace("(", r"\(")):
        predicate("bad_for_test", attributes=("type",), help="bad", **kwargs)
    assert "bad_for_test" not in PREDICATES
