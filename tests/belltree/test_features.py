"""Table 1 features and hybrid rule features on hand-written documents."""

from __future__ import annotations

from rulecoref.belltree.features import FeatureExtractor, MentionView, PartialEntity, RuleView, q
from rulecoref.candidates import TypeScope
from rulecoref.document import Link, Provenance, Removal
from rulecoref.markup import parse_markup
from tests.belltree.support import table_of, view


def extractor(markup: str, resolution=None, passes=()) -> FeatureExtractor:
    tab = view(markup)
    rules = RuleView(resolution, passes, tab.n) if resolution is not None else None
    return FeatureExtractor(tab, rules)


def test_features_quantise_small_exact_then_log_buckets():
    assert [q(n) for n in (0, 4, 5, 7, 8, 100)] == ["0", "4", "b3", "b3", "b4", "b7"]


def test_features_lexical_exact_substring_acronym():
    fx = extractor("[chronic obstructive pulmonary disease|problem] ( [COPD|problem] ) ; [the disease|problem] ; "
                   "[chronic obstructive pulmonary disease|problem] .")
    assert "acro" in fx.pair(0, 1)
    assert "appos" in fx.pair(0, 1)
    f = fx.pair(0, 3)
    assert "exact" in f and "hm" in f and "ed=0" in f
    assert "rsub" not in f and "exact" not in fx.pair(0, 2)
    assert "hm" in fx.pair(0, 2)  # head of "the disease" is "disease"


def test_features_head_is_last_word_before_preposition():
    fx = extractor("[the size of the striatum|problem] grew .")
    assert fx.tab.head[0] == "size"


def test_features_pronoun_attributes_and_conjunctions():
    fx = extractor("[Mr. Smith|person] said [he|pronoun] hurt [himself|pronoun] .")
    t = fx.tab
    assert t.pron[1] and t.gender[1] == "m" and t.number[1] == "s" and t.refl[2]
    assert t.gender[0] == "m"  # "Mr." marks a masculine person mention
    assert t.level[0] == "NAM"
    f = fx.pair(1, 2)
    assert "refl|sd=0" in f and "pp=he|himself" in f
    assert "exact" not in fx.pair(0, 1)  # lexical features only for non-pronoun pairs


def test_features_nested_mentions_are_flagged():
    doc, _ = parse_markup("[iodine deficiency|problem] .")
    from rulecoref.document import Concept, Document

    inner = Concept(index=1, text="iodine", type="problem", start=(1, 0), end=(1, 0))
    outer = doc.concepts[0]
    doc = Document("d", doc.lines, [outer, inner])
    fx = FeatureExtractor(MentionView(table_of(doc)))
    assert "nested" in fx.pair(0, 1)


class _Res:
    def __init__(self, proposed, removed):
        self.proposed = proposed
        self.removed = removed
        self.kept = {l.pair: [l] for l in proposed if l.pair not in removed}


def test_features_hybrid_rule_decisions():
    prov = Provenance("strings", "exact_match")
    links = [Link(0, 2, prov), Link(1, 2, prov)]
    removed = {(1, 2): Removal((1, 2), Provenance("no-test", "link_filter"))}
    passes = [("strings", TypeScope(exclude=frozenset({"pronoun"}))), ("no-test", TypeScope())]
    fx = extractor("[fever|problem] [fever|problem] [fever|problem] [it|pronoun]", _Res(links, removed), passes)
    assert {"r:strings=L", "r:no-test=N", "rc=same|lv=NOMNOM"} <= set(fx.pair(0, 2))
    assert {"r:strings=R", "r:no-test=F"} <= set(fx.pair(1, 2))
    assert {"r:strings=N", "rc=diff|lv=NOMNOM"} <= set(fx.pair(0, 1))
    assert "r:strings=X" in fx.pair(2, 3)  # the scope excludes pronouns: n.a.
    assert fx.rules.antecedents[2] == [0]


def test_features_entity_features_propagate_gender():
    fx = extractor("[Mr. Smith|person] met [Mrs. Jones|person] . [Smith|person] said [she|pronoun] left .")
    t = fx.tab
    e = PartialEntity.start(t, 0, 16).extend(t, 2, 16)
    f = fx.entity(e, 3, lambda a: 0 if a in (0, 2) else a)
    assert "gclash|PRO" in f  # "she" against an entity known to be male
    assert "exact" in fx.entity(PartialEntity.start(t, 0, 16), 2, lambda a: a) or "rsub" in fx.entity(
        PartialEntity.start(t, 0, 16), 2, lambda a: a)
    assert e.canonical == 0  # the longest NAME mention
