"""Distance and what each mention is on its own: sentences and mentions apart, repeats, frequent
heads, added modifiers, mention levels, first words and grammatical roles."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..params import Param
from ..phrases import apart_phrase, begins_phrase, between_phrase, frequent_phrase, levels_phrase
from ..syntax import ROLE_NAMES
from .registry import mention_text as _text
from .registry import predicate

if TYPE_CHECKING:
    from ..mentions import MentionTable


# What a filter (or a veto) needs to tell a linking pass's right links from its wrong ones: how far
# apart two mentions are, and properties of one of them. A filter asks about (later, earlier) and a
# match rule about (mention, candidate), which ``direction: backward_then_forward`` may reverse, so
# "later" here is the mention further into the text (concepts are numbered in text order).
_LEVELS = ("NAM", "NOM", "PRO")


def _later_earlier(i: int, j: int) -> tuple[int, int]:
    return (i, j) if i > j else (j, i)


@predicate("sentences_apart", attributes=("line",),
           params={"more_than": Param("int", default=3, minimum=0, help="how many sentences (lines) apart is too far")},
           help="the two mentions are more than N sentences (lines) apart: in a filter, a window for links that some "
                "other rule made ('[the study]' ... 40 sentences later ... '[the behavioral studies]')",
           role="conflicts", phrase=apart_phrase,
           grid=tuple({"more_than": n} for n in (1, 3, 10, 30)))
def sentences_apart(t: MentionTable, i: int, j: int, more_than: int = 3) -> str | None:
    d = abs(t["line"][i] - t["line"][j])
    return f"{d} sentences apart (more than {more_than})" if d > more_than else None


@predicate("mentions_apart", attributes=("start",),
           params={"more_than": Param("int", default=10, minimum=0, help="how many mentions between them is too many")},
           help="more than N other mentions stand between the two: a distance that follows how much the text says in "
                "between, where sentences are long or short",
           role="conflicts", phrase=between_phrase,
           grid=tuple({"more_than": n} for n in (5, 20, 50, 100)))
def mentions_apart(t: MentionTable, i: int, j: int, more_than: int = 10) -> str | None:
    d = abs(i - j) - 1
    return f"{d} mentions between them (more than {more_than})" if d > more_than else None


def _first_with_words(t: MentionTable) -> dict[str, int]:
    """Each text_norm of the document and the first mention that writes it."""
    first: dict[str, int] = {}
    for k, words in enumerate(t["text_norm"]):
        first.setdefault(words, k)
    return first


@predicate("repeats_another", attributes=("text_norm", "start"),
           help="the later mention repeats the words of a mention before it other than the earlier one, whose words "
                "differ: in '[membrane] ... [the plasma membrane] ... [membrane]' the second 'membrane' is the first "
                "one again, not the plasma membrane",
           role="conflicts",
           phrase=("repeats-another", "the later one repeats word for word an earlier mention other than this one"))
def repeats_another(t: MentionTable, i: int, j: int) -> str | None:
    later, earlier = _later_earlier(i, j)
    words = t["text_norm"][later]
    if not words or words == t["text_norm"][earlier]:
        return None
    first = t.document_value("first_with_words", _first_with_words)[words]
    if first >= later:
        return None
    return f"'{_text(t, later)}' repeats '{_text(t, first)}' word for word"


def _head_counts(t: MentionTable) -> dict[str, int]:
    counts: dict[str, int] = {}
    for h in t["head_word"]:
        counts[h] = counts.get(h, 0) + 1
    return counts


@predicate("frequent_head", attributes=("head_word", "start"),
           params={"at_least": Param("int", default=10, minimum=2, help="how many mentions of the document share it")},
           help="the later mention's head word is the head of at least N mentions of the document: a word that many "
                "mentions share ('cells', 'mice', 'pain') often names many things",
           role="conflicts", phrase=frequent_phrase,
           grid=tuple({"at_least": n} for n in (5, 10, 20)))
def frequent_head(t: MentionTable, i: int, j: int, at_least: int = 10) -> str | None:
    later, _ = _later_earlier(i, j)
    head = t["head_word"][later]
    n = t.document_value("head_counts", _head_counts).get(head, 0)
    return f"{n} mentions of the document have the head '{head}'" if n >= at_least else None


def _modifiers(t: MentionTable, k: int) -> frozenset[str]:
    """The words before the head, determiners and punctuation left out: 'the left lower lobe' -> {left, lower}."""
    determiners = t.settings.words.determiners.words
    return frozenset(w for w in t["lower"][k][: t["head_index"][k]] if w[:1].isalnum() and w not in determiners)


@predicate("later_adds_modifier", attributes=("lower", "head_index", "start"),
           help="the later mention has a word before its head that the earlier one lacks: 'the salt' / 'iodised salt'; "
                "a later mention rarely adds a modifier to the same thing, it often names a kind or a part of it",
           role="conflicts", phrase=("later-adds-modifier", "the later one adds a word before its head"))
def later_adds_modifier(t: MentionTable, i: int, j: int) -> str | None:
    later, earlier = _later_earlier(i, j)
    added = _modifiers(t, later) - _modifiers(t, earlier)
    return f"'{_text(t, later)}' adds '{' '.join(sorted(added))}'" if added else None


@predicate("mention_levels", attributes=("mention_level", "start"),
           params={"earlier": Param("str_list", default=[], allowed=_LEVELS,
                                    help="the earlier mention's levels (NAM a name, NOM a description, PRO a pronoun; "
                                         "empty: any)"),
                   "later": Param("str_list", default=[], allowed=_LEVELS, help="the later mention's levels (empty: any)")},
           help="the earlier and the later mention have these mention levels: {earlier: [NAM], later: [NOM]} holds for "
                "a name followed by a description ('Anna Berg' ... 'the doctor'), {later: [PRO]} for a later pronoun",
           role="either", phrase=levels_phrase,
           grid=({"earlier": ["NAM"], "later": ["NOM"]}, {"earlier": ["NOM"], "later": ["NAM"]},
                 {"earlier": ["NAM"], "later": ["NAM"]}, {"earlier": ["NOM"], "later": ["NOM"]},
                 {"later": ["PRO"]}, {"earlier": ["PRO"]}, {"later": ["NAM"]}, {"later": ["NOM"]}))
def mention_levels(t: MentionTable, i: int, j: int, earlier: list[str] | tuple[str, ...] = (),
                   later: list[str] | tuple[str, ...] = ()) -> str | None:
    b, a = _later_earlier(i, j)
    la, lb = t["mention_level"][a], t["mention_level"][b]
    if (earlier and la not in earlier) or (later and lb not in later):
        return None
    return f"a {la} mention, then a {lb} one"


@predicate("begins_with", attributes=("lower", "start"),
           params={"words": Param("str_list", default=["a", "an"], help="the first words that count"),
                   "mention": Param("choice", default="later", allowed=("later", "earlier", "either"),
                                    help="which mention must begin with one")},
           help="the later (or earlier, or either) mention begins with one of these words: with 'a' and 'an', a later "
                "mention that introduces something new ('the report' ... 'a report')",
           role="either", phrase=begins_phrase,
           grid=({"mention": "later"}, {"mention": "earlier"}))
def begins_with(t: MentionTable, i: int, j: int, words: list[str] | tuple[str, ...] = ("a", "an"),
                mention: str = "later") -> str | None:
    later, earlier = _later_earlier(i, j)
    which = {"later": (later,), "earlier": (earlier,), "either": (later, earlier)}[mention]
    for k in which:
        first = t["lower"][k][0] if t["lower"][k] else ""
        if first in words:
            return f"'{_text(t, k)}' begins with '{first}'"
    return None


@predicate("same_role", attributes=("grammatical_role",), needs_value="grammatical_role",
           params={"roles": Param("str_list", default=["subject"], allowed=ROLE_NAMES,
                                  help="the grammatical roles that count")},
           help="with a parse (--parser): both mentions have one of these grammatical roles, the same one; syntactic "
                "parallelism, 'Ann hired Bo and [she] left' -> the subject 'Ann' (never holds without a parse)",
           role="either")
def same_role(t: MentionTable, i: int, j: int, roles: list[str] | tuple[str, ...] = ("subject",)) -> str | None:
    ri, rj = t["grammatical_role"][i], t["grammatical_role"][j]
    return f"both {ri}s" if ri is not None and ri == rj and ri in roles else None
