"""``syntax.Parse``: heads of spans, roles through conjuncts and appositions, depth (issue 35)."""

from __future__ import annotations

import pytest

from rulecoref.syntax import Parse

# "When Bo left , Cy Ode and Ann sang ."
WHEN = Parse(heads=(2, 2, 8, 8, 5, 8, 5, 5, 8, 8), deps=("advmod", "nsubj", "advcl", "punct", "compound", "nsubj",
                                                      "cc", "conj", "ROOT", "punct"), tags=("",) * 10)


def test_syntax_head_of_a_span():
    assert WHEN.head_of(4, 5) == 5  # "Cy [Ode]"
    assert WHEN.head_of(8, 8) == 8  # the root is its own head


def test_syntax_role_climbs_conjuncts():
    assert [WHEN.role(k) for k in (1, 5, 7, 8, 0)] == ["subject", "subject", "subject", "root", "other"]


def test_syntax_depth_is_prominence():
    assert WHEN.depth(5) == 1 and WHEN.depth(7) == 1 and WHEN.depth(4) == 1  # main subjects, a conjunct, a compound
    assert WHEN.depth(1) == 2  # the subordinate clause's subject lies deeper


def test_syntax_parse_checks_its_shape():
    with pytest.raises(ValueError):
        Parse(heads=(0, 5), deps=("ROOT", "dep"), tags=("", ""))
    with pytest.raises(ValueError):
        Parse(heads=(0,), deps=("ROOT", "dep"), tags=("",))


def _parse(arcs: str) -> Parse:
    """A one-line parse from ``label:head`` arcs."""
    pairs = [a.rsplit(":", 1) for a in arcs.split()]
    return Parse(tuple(int(h) for _, h in pairs), tuple(d for d, _ in pairs), ("",) * len(pairs))


@pytest.mark.parametrize("sentence, arcs, pronoun, subject", [
    # "Yasmeen goes to Farah and confronts her": the conjunct shares the subject
    ("Yasmeen goes to Farah and confronts her .", "nsubj:1 ROOT:1 prep:1 pobj:2 cc:1 conj:1 dobj:5 punct:1", 6, {0}),
    # "Stone met Faulkner , introducing him": a participle shares it too
    ("Stone met Faulkner , introducing him .", "nsubj:1 ROOT:1 dobj:1 punct:1 advcl:1 dobj:4 punct:1", 5, {0}),
    # "Ross asked Bo to call him": an open complement is controlled by its head's object
    ("Ross asked Bo to call him .", "nsubj:1 ROOT:1 dobj:1 aux:4 xcomp:1 dobj:4 punct:1", 5, {2}),
    # "Joe threatens to throw him": without an object, by its head's subject
    ("Joe threatens to throw him .", "nsubj:1 ROOT:1 aux:3 xcomp:1 dobj:3 punct:1", 4, {0}),
    # "Ann and Bo saw him": every conjunct of the subject
    ("Ann and Bo saw him .", "nsubj:3 cc:0 conj:0 ROOT:3 dobj:3 punct:3", 4, {0, 2}),
    # "Cy said that Bo hit him": the own clause's subject only
    ("Cy said that Bo hit him .", "nsubj:1 ROOT:1 mark:4 nsubj:4 ccomp:1 dobj:4 punct:1", 5, {3}),
    # a subject or a possessive pronoun is bound by nothing here
    ("Cy said that he left .", "nsubj:1 ROOT:1 mark:4 nsubj:4 ccomp:1 punct:1", 3, set()),
    ("Cy met his wife .", "nsubj:1 ROOT:1 poss:3 dobj:1 punct:1", 2, set()),
    # a clause that states no subject and shares none: no subject known
    ("To see him was a joy .", "aux:1 csubj:3 dobj:1 ROOT:3 det:5 attr:3 punct:3", 2, set()),
])
def test_syntax_local_subject_is_binding_principle_b(sentence, arcs, pronoun, subject):
    assert len(sentence.split()) == len(arcs.split())
    assert WHEN.local_subject(1) == frozenset()  # a subject: not bound
    assert _parse(arcs).local_subject(pronoun) == frozenset(subject)


def test_syntax_dependents_and_joined():
    assert WHEN.dependents[8] == (2, 3, 5, 9) and WHEN.dependents[5] == (4, 6, 7)
    assert WHEN.joined(5) == frozenset({5, 7}) and WHEN.joined(1) == frozenset({1})


def test_syntax_ancestors_joins_and_clause_of():
    assert list(WHEN.ancestors(1)) == [2, 8] and list(WHEN.ancestors(8)) == []
    assert WHEN.joins(7) == 5 and WHEN.joins(1) == 1
    assert WHEN.clause_of(7) == 8 and WHEN.clause_of(1) == 2  # "Ann" is a subject of "sang", "Bo" of "left"


def test_syntax_quoted_by_is_the_speaker_before_the_quotation():
    # "Foultz said that Krueger `` gives it , and she sings" -- the quotation opens at 4
    p = _parse("nsubj:1 ROOT:1 mark:5 nsubj:5 punct:5 ccomp:1 dobj:5 punct:5 cc:5 nsubj:10 conj:5")
    assert p.quoted_by(9, 4) == frozenset({0})  # Foultz says it; Krueger stands before the mark but her verb after
    assert p.quoted_by(9, 0) == frozenset()  # a quotation that opens the sentence: nobody before it
