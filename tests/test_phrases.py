"""rulecoref/phrases.py: a predicate's settings in the words of a learned rule's name and description."""

from __future__ import annotations

from rulecoref.phrases import apart_phrase, begins_phrase, between_phrase, frequent_phrase, levels_phrase, listed


def test_phrases_listed_joins_with_the_last_word() -> None:
    assert [listed(["a"]), listed(["a", "b"]), listed(["a", "b", "c"], "or")] == ["a", "a and b", "a, b or c"]


def test_phrases_count_words_agree_with_their_number() -> None:
    assert apart_phrase({"more_than": 1}) == ("more-than-1-sentence-apart", "they are more than 1 sentence apart")
    assert apart_phrase({"more_than": 3})[0] == "more-than-3-sentences-apart"
    assert between_phrase({"more_than": 1})[1] == "more than 1 mention stand between them"
    assert frequent_phrase({"at_least": 5})[0] == "head-of-5-mentions"


def test_phrases_mention_levels_and_first_words() -> None:
    assert levels_phrase({"earlier": ["NAM"], "later": ["NOM", "PRO"]}) == (
        "name-then-description-or-pronoun", "a name comes first and a description or a pronoun later")
    assert levels_phrase({}) == ("any-levels", "any mention levels")
    assert begins_phrase({"words": ["another"], "mention": "either"}) == (
        "either-begins-with-another", "either begins with 'another'")
