"""How a learned rule says, in words, a predicate whose settings change what it says.

``rulecoref induce`` names a learned rule and describes it from phrases (``learn/naming.py``). A
predicate declares its phrase where it is registered (``@predicate(..., phrase=...)``): a fixed
(name part, phrase) pair, or one of these functions of its settings, so "more than 3 sentences
apart" and "more than 1 sentence apart" come out right. They live here, below the predicates, as
plain functions of the settings (no table, no document); ``listed`` is the one way both modules
join words ("a, b or c").
"""

from __future__ import annotations

from typing import Any


def listed(names: list[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c' (``last``: the word before the last one)."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {last} {names[-1]}"


def _noun(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


def apart_phrase(s: dict[str, Any]) -> tuple[str, str]:
    """``sentences_apart``: 'more-than-3-sentences-apart'."""
    n, unit = s["more_than"], _noun(s["more_than"], "sentence")
    return f"more-than-{n}-{unit}-apart", f"they are more than {n} {unit} apart"


def between_phrase(s: dict[str, Any]) -> tuple[str, str]:
    """``mentions_apart``: 'more than 20 mentions stand between them'."""
    n, unit = s["more_than"], _noun(s["more_than"], "mention")
    return f"more-than-{n}-{unit}-apart", f"more than {n} {unit} stand between them"


def frequent_phrase(s: dict[str, Any]) -> tuple[str, str]:
    """``frequent_head``: 'head-of-10-mentions'."""
    n = s["at_least"]
    return f"head-of-{n}-mentions", f"the later one's head word heads {n} or more mentions of the document"


#: mention levels in words: (name part, phrase)
LEVEL_WORDS = {"NAM": ("name", "a name"), "NOM": ("description", "a description"), "PRO": ("pronoun", "a pronoun")}


def _levels(levels: Any) -> tuple[str, str]:
    levels = list(levels or ())
    return "-or-".join(LEVEL_WORDS[x][0] for x in levels), listed([LEVEL_WORDS[x][1] for x in levels], "or")


def levels_phrase(s: dict[str, Any]) -> tuple[str, str]:
    """``mention_levels``: 'name-then-description', 'the later one is a pronoun'."""
    early, late = s.get("earlier"), s.get("later")
    if early and late:
        return (f"{_levels(early)[0]}-then-{_levels(late)[0]}",
                f"{_levels(early)[1]} comes first and {_levels(late)[1]} later")
    if late:
        return f"later-{_levels(late)[0]}", f"the later one is {_levels(late)[1]}"
    if early:
        return f"earlier-{_levels(early)[0]}", f"the earlier one is {_levels(early)[1]}"
    return "any-levels", "any mention levels"


def begins_phrase(s: dict[str, Any]) -> tuple[str, str]:
    """``begins_with``: "the later one begins with 'a' or 'an'"."""
    words = list(s.get("words") or ["a", "an"])
    which = s.get("mention", "later")
    quoted = listed([f"'{w}'" for w in words], "or")
    who = {"later": "the later one", "earlier": "the earlier one", "either": "either"}[which]
    return f"{which}-begins-with-{'-'.join(words)}", f"{who} begins with {quoted}"
