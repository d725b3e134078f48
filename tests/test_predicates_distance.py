"""The predicates of distance and of what each mention is on its own (issue 24, round 2): what each
holds for and what it does not, on tiny documents. A filter asks about (later, earlier), a match
rule about (mention, candidate); "later" is the mention further into the text, so both orders give
one answer."""

from __future__ import annotations

from tests.test_predicates import ask

LINES = "\n".join(["[The report|test] came .", "Nothing else .", "Nothing else .", "Nothing else .",
                   "[the report|test] came again ."])


def both_orders(markup: str, name: str, i: int, j: int, **params) -> str | None:
    """The predicate's answer, which must not depend on which mention is asked first."""
    one, other = ask(markup, name, i, j, **params), ask(markup, name, j, i, **params)
    assert one == other
    return one


def test_predicates_sentences_apart():
    assert both_orders(LINES, "sentences_apart", 1, 0, more_than=3) == "4 sentences apart (more than 3)"
    assert both_orders(LINES, "sentences_apart", 1, 0, more_than=4) is None  # exactly 4 is not more than 4
    assert ask(LINES, "sentences_apart", 1, 0) is not None  # the default is 3
    assert ask("[a|test] and [b|test] .", "sentences_apart", 1, 0, more_than=0) is None  # one sentence


def test_predicates_mentions_apart():
    text = "[a|test] [b|test] [c|test] [d|test] [e|test] ."
    assert both_orders(text, "mentions_apart", 4, 0, more_than=2) == "3 mentions between them (more than 2)"
    assert ask(text, "mentions_apart", 4, 0, more_than=3) is None
    assert ask(text, "mentions_apart", 1, 0, more_than=0) is None  # neighbours: none between


def test_predicates_repeats_another():
    text = "[membrane|test] ; [the plasma membrane|test] ; [membrane|test] ."
    said = both_orders(text, "repeats_another", 2, 1)
    assert said == "'membrane' repeats 'membrane' word for word"
    # the repeated words are the candidate's own: nothing else is repeated
    assert ask(text, "repeats_another", 2, 0) is None
    # nothing before the later mention writes its words
    assert ask("[the plasma membrane|test] ; [membrane|test] .", "repeats_another", 1, 0) is None
    # the words repeated come after the later mention: not a repeat
    assert ask("[the plasma membrane|test] ; [membrane|test] ; [membrane|test] .", "repeats_another", 1, 0) is None


def test_predicates_frequent_head():
    text = "[cells|test] ; [the cells|test] ; [mutant cells|test] ; [a mouse|test] ; [cells|test] ."
    assert ask(text, "frequent_head", 4, 2, at_least=4) == "4 mentions of the document have the head 'cells'"
    assert ask(text, "frequent_head", 2, 4, at_least=4) is not None  # the later one's head, either order
    assert ask(text, "frequent_head", 4, 2, at_least=5) is None
    assert ask(text, "frequent_head", 3, 0, at_least=2) is None  # 'mouse' is the later one: one mention


def test_predicates_later_adds_modifier():
    text = "[salt|test] ; [iodised salt|test] ."
    assert both_orders(text, "later_adds_modifier", 1, 0) == "'iodised salt' adds 'iodised'"
    assert ask("[iodised salt|test] ; [the salt|test] .", "later_adds_modifier", 1, 0) is None  # the later one drops it


def test_predicates_mention_levels():
    text = "[Anna Berg|person] met [the doctor|person] ; [she|pronoun] left ."
    assert both_orders(text, "mention_levels", 1, 0, earlier=["NAM"], later=["NOM"]) == "a NAM mention, then a NOM one"
    assert ask(text, "mention_levels", 1, 0, earlier=["NOM"], later=["NAM"]) is None
    assert ask(text, "mention_levels", 2, 0, later=["PRO"]) is not None  # any earlier level
    assert ask(text, "mention_levels", 1, 0, later=["PRO"]) is None


def test_predicates_begins_with():
    text = "[the report|test] ; [a report|test] ."
    assert both_orders(text, "begins_with", 1, 0) == "'a report' begins with 'a'"
    assert ask(text, "begins_with", 1, 0, mention="earlier") is None
    assert ask(text, "begins_with", 1, 0, mention="earlier", words=["the"]) == "'the report' begins with 'the'"
    assert ask(text, "begins_with", 1, 0, mention="either", words=["the"]) is not None
    assert ask("[the report|test] ; [the report|test] .", "begins_with", 1, 0) is None
