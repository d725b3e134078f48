"""``filter_date``: two mentions dated differently are two events, whatever their words say.

Seed 001, "Link filtering": a link is removed when the sentences around its two mentions give
clues that they are different entities; dates are found with regular expressions, and clues are
searched only where the word right before or after a mention is a trigger word ("in", "on", "is",
...). "chest x-ray on 3/12 ... chest x-ray on 3/19": the dates differ, so the two x-rays are not
linked. Two dates conflict only when neither could be the other ("3/12" and "03/12/2010" agree;
see ``predicates.dates_compatible``), and a mention without a date nearby conflicts with nothing.

A filter removes the direct link between two mentions; if other kept links still join them, the
chain builder merges them anyway (the linking passes default to nearest-antecedent links, which
keeps such parallel paths rare).

Most mentions have no date near them, so the filter does not visit the links one by one: it takes
the window texts of the mentions at the first end of a link, all at once (``ClueWindows.texts``),
looks their dates up (cached per text), does the same for the second ends of the links whose first
end has a date (``judged_pairs``), and then judges only the links between two dated mentions, in the
order the links were made.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .predicates import (
    CLUE_WINDOW_PARAMS,
    MAIN_LINKER_KINDS,
    ClueWindows,
    dates_compatible,
    judged_pairs,
    scope_mask,
)

_CACHE_LIMIT = 200_000  # window texts remembered per process; cleared when exceeded


@register("filter_date")
class FilterDate(Pass):
    role = "filter"
    # A filter reads the links the main linker made: its examples run after those passes.
    requires = MAIN_LINKER_KINDS
    params = {
        "dates": Param("regexes", default="resources/lexicons/date_patterns.txt",
                       help="regular expressions that find a date in the words near a mention"),
        **CLUE_WINDOW_PARAMS,
    }

    def setup(self) -> None:
        # one alternation: at a position the first pattern of the list that matches wins, so a
        # list gives full dates before their parts (a year alone last)
        patterns = list(self.p["dates"])
        self.date_rx = re.compile("|".join(f"(?:{rx.pattern})" for rx in patterns), re.IGNORECASE) if patterns else None
        self.triggers = self.lexicon("triggers").words
        self.window = int(self.p["window"])
        self.look_before = self.p["sides"] == "both"
        # window text -> its dates (tuples, which the garbage collector stops tracking)
        self._found: dict[str, tuple[str, ...]] = {}

    def _dates_in(self, text: str) -> tuple[str, ...]:
        hit = self._found.get(text)
        if hit is None:
            if len(self._found) > _CACHE_LIMIT:
                self._found.clear()
            hit = self._found[text] = tuple(m.group(0) for m in self.date_rx.finditer(text))
        return hit

    def dates_near(self, windows: ClueWindows, i: int) -> list[str]:
        """Dates in the trigger windows of concept i, left to right, without overlaps."""
        if self.date_rx is None:
            return []
        found: list[str] = []
        for words in windows(i):
            found.extend(self._dates_in(" ".join(words)))
        return found

    def dated(self, windows: ClueWindows, ids: list[int]) -> dict[int, list[str]]:
        """Of the concepts ``ids``, those with dates near them, with the dates (``dates_near``),
        found from their window texts taken at once and the dates cached per text."""
        # the windows after, then before, the mention, as dates_near reads them
        return {i: [*(da or ()), *(db or ())] for i, da, db in windows.findings(ids, self._found, self._dates_in)}

    def reject(self, doc: Document, ctx: Context) -> Iterator[tuple[tuple[int, int], str]]:
        links = ctx.links
        if self.date_rx is None or not links:
            return
        concepts = doc.concepts
        windows = ClueWindows.shared(ctx.state, doc, self.triggers, self.window, self.look_before)
        # only a link with a date on each side is judged
        pairs, dated = judged_pairs(list(links), scope_mask(doc, self.scope.admits_type, ctx.state),
                                    lambda ids: self.dated(windows, ids))
        for a, b in pairs:
            da, db = dated[a], dated[b]
            if not any(dates_compatible(x, y) for x in da for y in db):
                yield (a, b), f"dates differ: '{da[0]}' near '{concepts[a].text}', '{db[0]}' near '{concepts[b].text}'"
