"""The engine's candidate search for keyed rules (rulecoref/candidates.py): blocking keys, nearest
first or all, window, direction, and the scope's type rules."""

from __future__ import annotations

from rulecoref.candidates import SearchSpec, TypeScope, key_values, search
from tests.helpers import mention_table

ANY = TypeScope(same_type=False)
SAME = TypeScope()


def said(i: int, j: int) -> str:
    return f"{j}->{i}"


def links(markup: str, spec: SearchSpec, scope: TypeScope = SAME, *names: str) -> list[tuple[int, int]]:
    table = mention_table(markup, "type", "line", *spec.keys, *names)
    return [(j, i) for j, i, _ in search(table, scope, spec)]


def always(t, i, j):
    return said(i, j)


def test_candidates_key_values():
    assert key_values(None) == () and key_values("") == () and key_values(False) == ()
    assert key_values(frozenset()) == frozenset() and list(key_values(("a", "b"))) == ["a", "b"]
    assert key_values("abc") == ("abc",) and key_values(3) == (3,)


def test_candidates_nearest_first_and_only_sharing_a_key():
    text = "[pain|problem] [rash|problem] [pain|problem] [pain|problem]"
    assert links(text, SearchSpec(("text_norm",), always)) == [(0, 2), (2, 3)]
    assert links(text, SearchSpec(("text_norm",), always, antecedent="all")) == [(0, 2), (2, 3), (0, 3)]


def test_candidates_nearest_is_the_nearest_that_passes():
    text = "[pain|problem] [pain|problem] [pain|problem]"
    asked: list[tuple[int, int]] = []

    def not_next_door(t, i, j):
        asked.append((i, j))
        return said(i, j) if i - j > 1 else None

    assert links(text, SearchSpec(("text_norm",), not_next_door)) == [(0, 2)]
    assert asked == [(1, 0), (2, 1), (2, 0)]  # nearest first, each pair asked about once


def test_candidates_window_in_sentences():
    text = "[pain|problem] .\nx .\nx .\n[pain|problem] .\n[pain|problem]"
    spec = SearchSpec(("text_norm",), always, antecedent="all", window=1)
    assert links(text, spec) == [(1, 2)]  # lines 1 and 4 are three sentences apart
    assert links(text, SearchSpec(("text_norm",), always, antecedent="all", window=4)) == [(0, 1), (1, 2), (0, 2)]


def test_candidates_backward_then_forward():
    # an acronym written before its expansion: no earlier candidate, so the nearest later one
    text = "[CAD|problem] ; [coronary artery disease|problem] ; [coronary artery disease|problem]"
    spec = SearchSpec(("acronym",), always, direction="backward_then_forward", antecedent_keys=("acronym_forms",))
    table = mention_table(text, "type", "line", "acronym", "acronym_forms")
    assert [(j, i) for j, i, _ in search(table, SAME, spec)] == [(1, 0)]
    backward = SearchSpec(spec.keys, always, antecedent_keys=spec.antecedent_keys)
    assert [(j, i) for j, i, _ in search(table, SAME, backward)] == []


def test_candidates_forward_stops_past_the_window():
    text = "[CAD|problem] .\nx .\nx .\n[coronary artery disease|problem]"
    for window, found in ((1, []), (3, [(1, 0)])):
        spec = SearchSpec(("acronym",), always, direction="backward_then_forward", window=window,
                          antecedent_keys=("acronym_forms",))
        table = mention_table(text, "type", "line", "acronym", "acronym_forms")
        assert [(j, i) for j, i, _ in search(table, SAME, spec)] == found


def test_candidates_scope_types_and_same_type():
    text = "[cold|problem] [cold|treatment] [cold|person] [cold|problem] [cold|pronoun]"
    # by mention, nearest candidate first; a pronoun links with any type
    assert links(text, SearchSpec(("text_norm",), always, antecedent="all")) == [(0, 3), (3, 4), (2, 4), (1, 4), (0, 4)]
    # same_type false: any two admitted mentions
    assert len(links(text, SearchSpec(("text_norm",), always, antecedent="all"), ANY)) == 10
    # types: only the admitted mentions take part, as mentions and as candidates
    only = TypeScope(types=frozenset({"problem", "treatment"}), same_type=False)
    assert links(text, SearchSpec(("text_norm",), always, antecedent="all"), only) == [(0, 1), (1, 3), (0, 3)]
    excluded = TypeScope(exclude=frozenset({"pronoun", "person"}))
    assert links(text, SearchSpec(("text_norm",), always, antecedent="all"), excluded) == [(0, 3)]


def test_candidates_several_keys_block_by_key_and_value():
    # a candidate shares any one of the keys; one sharing two is asked about once
    text = "[chest pain|problem] [pain|problem] [rash|problem] [Chest pain|problem]"
    assert links(text, SearchSpec(("text_norm", "head"), always, antecedent="all")) == [(0, 1), (1, 3), (0, 3)]
    # values of different keys never meet: MRSA's acronym "mrsa" is not the text "mrsa" of a lowercase mention
    spec = SearchSpec(("acronym", "text_norm"), always, antecedent="all")
    assert links("[MRSA|problem] [mrsa|problem] [MRSA|problem]", spec) == [(0, 1), (1, 2), (0, 2)]
    assert links("[MRSA bacteria|problem] [mrsa|problem] [MRSA|problem]", spec) == [(1, 2)]


def test_candidates_set_valued_keys_give_each_candidate_once():
    # the three share a head family of three values: each pair is still asked about once
    text = "[tumor|problem] [neoplasm|problem] [tumors|problem]"
    asked: list[tuple[int, int]] = []

    def count(t, i, j):
        asked.append((i, j))
        return said(i, j)

    assert links(text, SearchSpec(("head_family",), count, antecedent="all")) == [(0, 1), (1, 2), (0, 2)]
    assert sorted(asked) == [(1, 0), (2, 0), (2, 1)]


def test_candidates_mentions_without_a_key_take_no_part():
    text = "[his|problem] [his|problem] [pain|problem]"
    assert links(text, SearchSpec(("head",), always, antecedent="all")) == []


def test_candidates_antecedent_keys_block_the_candidates_by_another_attribute():
    # the mention's head family against each earlier mention's head: "neoplasm" finds "tumor", not "abscess"
    text = "[a tumor|problem] [an abscess|problem] [the neoplasm|problem] [abscesses|problem]"
    spec = SearchSpec(("head_family",), always, antecedent="all", antecedent_keys=("head",))
    table = mention_table(text, "type", "line", "head_family", "head")
    assert [(j, i) for j, i, _ in search(table, SAME, spec)] == [(0, 2), (1, 3)]


def test_candidates_walk_ends_at_the_window_edge():
    """Issue 26: the walk back stops at the first candidate outside the window (every earlier one is
    further still); it used to read on through all of them, quadratic in a long note's repeats."""
    text = "\n".join(["[pain|problem] ."] * 200 + ["x .", "[pain|problem] ."])
    asked: list[tuple[int, int]] = []

    def never(t, i, j):
        asked.append((i, j))
        return None

    class CountedReads(list):
        reads = 0

        def __getitem__(self, k):
            CountedReads.reads += 1
            return super().__getitem__(k)

    table = mention_table(text, "type", "line", "text_norm")
    table["line"] = CountedReads(table["line"])
    list(search(table, SAME, SearchSpec(("text_norm",), never, window=1)))
    # each mention is asked about its one neighbour within a sentence; the last (two lines on) about none
    assert len(asked) == 199 and all(i - j == 1 for i, j in asked)
    assert CountedReads.reads < 4 * 201  # a few line reads per mention, not one per earlier mention (20,000)


def test_candidates_nearest_stops_at_the_first_hit():
    text = " ".join(["[pain|problem]"] * 30)
    asked: list[tuple[int, int]] = []

    def count(t, i, j):
        asked.append((i, j))
        return said(i, j)

    assert len(links(text, SearchSpec(("text_norm",), count))) == 29
    assert len(asked) == 29  # one candidate each: the nearest passes


def test_candidates_postings_are_built_once_per_key_and_document():
    from rulecoref.candidates import postings

    table = mention_table("[pain|problem] [pain|treatment] [rash|problem] [pain|pronoun]", "type", "line", "text_norm")
    first = postings(table, "text_norm")
    assert first == {"pain": (0, 1, 3), "rash": (2,)}  # every mention, whatever a rule's scope
    list(search(table, SAME, SearchSpec(("text_norm",), always)))
    list(search(table, ANY, SearchSpec(("text_norm",), always, antecedent="all")))
    assert postings(table, "text_norm") is first


def test_candidates_postings_by_another_key_keep_only_looked_up_values():
    """``acronym`` against ``acronym_forms``: a long form's postings hold only the acronyms some
    mention writes; where no mention is an acronym the long forms' acronyms are not worked out."""
    from rulecoref.candidates import postings

    text = "[Methicillin-resistant Staphylococcus aureus|problem] [chronic renal failure|problem] [MRSA|problem]"
    table = mention_table(text, "type", "line", "acronym")
    assert postings(table, "acronym_forms", "acronym") == {"mrsa": (0,)}  # 'crf' is looked up by nobody
    bare = mention_table(text.replace("[MRSA|problem]", "MRSA"), "type", "line", "acronym")
    assert postings(bare, "acronym_forms", "acronym") == {} and "acronym_forms" not in bare


def test_candidates_a_test_given_to_the_search_replaces_the_specs():
    """The engine hands the search its planned test for the document (plan.py)."""
    table = mention_table("[pain|problem] [pain|problem]", "type", "line", "text_norm")
    spec = SearchSpec(("text_norm",), lambda t, i, j: None)
    assert list(search(table, SAME, spec)) == []
    assert [(j, i) for j, i, _ in search(table, SAME, spec, always)] == [(0, 1)]
