"""Clues beside a mention (seed 001, "Link filtering"): dates, places and descriptions near it, and
whether it is an adjective that names no thing. The filters compare them (``dates_conflict``,
``clues_conflict``, ``adjective_only``).
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import TYPE_CHECKING

from ..resources.lexicon import Lexicon
from ..words import CLAUSE_END, find_phrases
from .registry import EMPTY, LEX, attribute, setting, settings_group

if TYPE_CHECKING:
    from .registry import Table


# fmt: off
@settings_group("clues", help="clues beside a mention (the UHD system's link filtering)")
class Clues:
    triggers: Lexicon = setting("wordlist", default=LEX + "filter_triggers.txt",
                                help="clues are searched only after/before one of these words ('in', 'on', 'is')")
    window: int = setting("int", default=4, minimum=1, help="words searched after (before) the trigger word")
    sides: str = setting("choice", default="both", allowed=("both", "after"),
                         help="search after a following trigger and before a preceding one (the UHD system), or only after")
    dates: tuple[re.Pattern, ...] = setting("regexes", default=LEX + "date_patterns.txt",
                                            help="regular expressions that find a date")
    locations: Lexicon = setting("wordlist", default=LEX + "location_keywords.txt", help="words that place a mention")
    modifiers: Lexicon = setting("wordlist", default=LEX + "modifier_keywords.txt", help="words that describe one occurrence")
    # fmt: on

    @cached_property
    def date_rx(self) -> re.Pattern | None:
        """The date patterns as one expression (None: there are none)."""
        return re.compile("|".join(f"(?:{rx.pattern})" for rx in self.dates), re.IGNORECASE) if self.dates else None


def trigger_windows(before: list[str], after: list[str], triggers: frozenset[str], window: int,
                    look_before: bool) -> list[list[str]]:
    """Seed 001's clue windows: when the word right after a mention is a trigger ("in", "on", ...),
    the ``window`` words after it; when the word right before is one, the ``window`` words before
    it. A window stops at a clause end. "[pain] in the left leg ." -> [["the", "left", "leg"]]."""
    out = []
    if after and after[0].lower() in triggers:
        words = []
        for tok in after[1: 1 + window]:
            if tok in CLAUSE_END:
                break
            words.append(tok)
        out.append(words)
    if look_before and before and before[-1].lower() in triggers:
        words = []
        for tok in reversed(before[max(0, len(before) - 1 - window): -1]):
            if tok in CLAUSE_END:
                break
            words.append(tok)
        out.append(words[::-1])
    return [w for w in out if w]


@attribute("clue_windows", depends=("start", "end"), help="the words the UHD system's filters search for clues: after a trigger word that "
                                "follows the mention, before one that precedes it ('[pain] in the left leg' -> the left leg)",
           blocking=())
def _clue_windows(t: Table) -> list[tuple[tuple[str, ...], ...]]:
    s, doc = t.settings.clues, t.doc
    w, triggers = s.window, s.triggers.words
    look_before = s.sides == "both"
    is_trigger = t.per_token("trigger", lambda tok: tok.lower() in triggers)
    flat, lines = doc.flat_tokens, doc.line_offsets  # lines[k]: the flat index of line k's first token
    out: list[tuple[tuple[str, ...], ...]] = []
    for c, start, end in zip(doc.concepts, t["start"], t["end"]):  # most have no trigger word beside them
        first, last = lines[c.start[0]], lines[c.end[0] + 1]  # the mention's lines, within which windows stay
        after = end + 1 < last and is_trigger[flat[end + 1]]
        before = look_before and start > first and is_trigger[flat[start - 1]]
        if not (after or before):
            out.append(())
            continue
        windows = trigger_windows(flat[max(first, start - w - 1): start], flat[end + 1: min(last, end + w + 2)],
                                  triggers, w, look_before)
        out.append(tuple(map(tuple, windows)))  # tuples of strings: nothing for the garbage collector
    return out


@attribute("dates", depends=("clue_windows",), help="dates in the clue windows: '[x-ray] on 3/12' -> ('3/12',)",
           blocking=())
def _dates(t: Table) -> list[tuple[str, ...]]:
    rx = t.settings.clues.date_rx
    if rx is None:
        return [()] * t.n
    seen: dict[tuple[tuple[str, ...], ...], tuple[str, ...]] = {(): ()}  # nested mentions share their windows
    out = []
    for ws in t["clue_windows"]:
        found = seen.get(ws)
        if found is None:
            found = seen[ws] = tuple(m.group(0) for words in ws for m in rx.finditer(" ".join(words)))
        out.append(found)
    return out


def _keywords(t: Table, phrases: frozenset[tuple[str, ...]]) -> list[frozenset[str]]:
    """The listed ``phrases`` in each mention's clue windows."""
    longest = max(map(len, phrases), default=0)
    first_words = frozenset(p[0] for p in phrases)

    def keywords(words: tuple[str, ...]) -> frozenset[str]:
        if first_words.isdisjoint(map(str.lower, words)):
            return EMPTY  # most windows hold no keyword at all
        found = {h[2] for h in find_phrases(words, phrases, longest)}
        # "lungs" and "lung" are one place: a listed plural counts as its listed singular
        return frozenset(k[:-1] if k.endswith("s") and (k[:-1],) in phrases else k for k in found)

    seen: dict[tuple[str, ...], frozenset[str]] = {}  # nested mentions share their windows
    out = []
    for ws in t["clue_windows"]:
        found = EMPTY
        for words in ws:  # none for most mentions
            if words not in seen:
                seen[words] = keywords(words)
            if seen[words]:
                found = found | seen[words] if found else seen[words]
        out.append(found)
    return out


@attribute("locations", depends=("clue_windows",), help="location words in the clue windows: 'in the left leg' -> {left, leg}",
           blocking=())
def _locations(t: Table) -> list[frozenset[str]]:
    return _keywords(t, t.settings.clues.locations.phrases)


@attribute("modifiers", depends=("clue_windows",), help="descriptive words in the clue windows: 'is new' -> {new}",
           blocking=())
def _modifiers(t: Table) -> list[frozenset[str]]:
    return _keywords(t, t.settings.clues.modifiers.phrases)


@attribute("adjective_only", of_words=True, depends=("lower",), needs=("wordnet",),
           help="an adjective with no noun ('febrile', 'very painful'): every word known to WordNet, none a noun, "
                "one an adjective; unknown words ('mrsa') might be names and keep a mention", blocking=())
def _adjective_only(t: Table) -> list[bool]:
    classes = t.per_token("adjective_class", t.settings.words.word_class).__getitem__
    out = []
    for low in t["lower"]:
        adjective = False
        for word in low:  # a noun decides: the words after it need no look-up
            kind = classes(word)
            if kind == "noun":
                adjective = False
                break
            adjective = adjective or kind == "adj"
        out.append(adjective)
    return out
