"""``filter_modifier``: two mentions placed or described differently are two things.

Seed 001, "Link filtering": besides dates, the clues that two linked mentions are different
entities are locations and descriptive modifiers that are not part of the mentions, found by
keyword lists, and searched only where the word right before or after a mention is a trigger word
("in", "on", "is", ...). "pain in the left leg ... pain in the right arm": the locations differ,
the link goes. Each keyword list is one category (``locations``, ``modifiers``); the clues of one
category conflict when both mentions have some and neither set contains the other, so "in the
left leg" and "in the leg" agree while "in the left leg" and "in the right leg" do not.

Most mentions have no keyword near them, so the filter does not visit the links one by one: it
takes the window texts of the mentions at the first end of a link, all at once
(``ClueWindows.texts``), looks their keywords up (cached per text), does the same for the second
ends of the links whose first end has some (``judged_pairs``), and then judges only the links
between two mentions with keywords, in the order the links were made.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import zip_longest

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .predicates import (
    CLUE_WINDOW_PARAMS,
    MAIN_LINKER_KINDS,
    ClueWindows,
    clues_conflict,
    find_phrases,
    judged_pairs,
    scope_mask,
)

_CACHE_LIMIT = 200_000  # window texts remembered per process; cleared when exceeded


@register("filter_modifier")
class FilterModifier(Pass):
    role = "filter"
    # A filter reads the links the main linker made: its examples run after those passes.
    requires = MAIN_LINKER_KINDS
    params = {
        "locations": Param("wordlist", default="resources/lexicons/location_keywords.txt",
                           help="words that place a mention (left, chest, ...)"),
        "modifiers": Param("wordlist", default="resources/lexicons/modifier_keywords.txt",
                           help="words that describe one occurrence (new, previous, repeat, ...)"),
        **CLUE_WINDOW_PARAMS,
    }

    def setup(self) -> None:
        self.categories = []
        for name in ("locations", "modifiers"):
            lex = self.lexicon(name)
            if len(lex):
                self.categories.append((name, lex.phrases, max(len(p) for p in lex.phrases)))
        self.triggers = self.lexicon("triggers").words
        self.window = int(self.p["window"])
        self.look_before = self.p["sides"] == "both"
        self._none = [frozenset() for _ in self.categories]
        self._by_text: dict[str, tuple[tuple[str, ...], ...]] = {}  # window text -> its keywords

    def clues(self, clue_windows: ClueWindows, i: int) -> list[frozenset[str]]:
        """Per category, the keywords in the trigger windows of concept i."""
        windows = clue_windows(i)
        if not windows:
            return self._none
        return self._window_clues(windows)

    def _window_clues(self, windows: list[list[str]]) -> list[frozenset[str]]:
        out = []
        for _, phrases, longest in self.categories:
            if longest == 1:  # single words only: a set lookup per word
                found = {t for w in windows for t in map(str.lower, w) if (t,) in phrases}
            else:
                found = {h[2] for w in windows for h in find_phrases(w, phrases, longest)}
            # "lungs" and "lung" are one place: a listed plural counts as its listed singular
            out.append(frozenset(k[:-1] if k.endswith("s") and (k[:-1],) in phrases else k for k in found))
        return out

    def text_clues(self, text: str) -> tuple[tuple[str, ...], ...]:
        """Per category, the keywords of one window text (words joined by spaces), sorted; () when
        there are none in any category. Cached per text."""
        hit = self._by_text.get(text)
        if hit is None:
            if len(self._by_text) > _CACHE_LIMIT:
                self._by_text.clear()
            found = self._window_clues([text.split(" ")])
            hit = self._by_text[text] = tuple(tuple(sorted(f)) for f in found) if any(found) else ()
        return hit

    def clued(self, windows: ClueWindows, ids: list[int]) -> dict[int, list[frozenset[str]]]:
        """Of the concepts ``ids``, those with keywords near them, with the keywords per category
        (``clues``), found from their window texts taken at once and the keywords cached per text."""
        # a mention's clues: those of its window after it and of its window before it
        return {i: [frozenset(x) | frozenset(y) for x, y in zip_longest(ca or (), cb or (), fillvalue=())]
                for i, ca, cb in windows.findings(ids, self._by_text, self.text_clues)}

    def reject(self, doc: Document, ctx: Context) -> Iterator[tuple[tuple[int, int], str]]:
        links = ctx.links
        if not links or not self.categories:
            return
        concepts = doc.concepts
        windows = ClueWindows.shared(ctx.state, doc, self.triggers, self.window, self.look_before)
        # only a link with keywords on each side is judged
        pairs, clued = judged_pairs(list(links), scope_mask(doc, self.scope.admits_type, ctx.state),
                                    lambda ids: self.clued(windows, ids))
        for a, b in pairs:
            ca, cb = clued[a], clued[b]
            for (name, _, _), xa, xb in zip(self.categories, ca, cb):
                if clues_conflict(xa, xb):
                    yield (a, b), (f"{name} differ: {', '.join(sorted(xa))} near '{concepts[a].text}' vs "
                                   f"{', '.join(sorted(xb))} near '{concepts[b].text}'")
                    break
