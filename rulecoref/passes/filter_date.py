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
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .predicates import CLUE_WINDOW_PARAMS, MAIN_LINKER_KINDS, ClueWindows, dates_compatible

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
        self._found: dict[str, list[str]] = {}  # window text -> its dates

    def _dates_in(self, text: str) -> list[str]:
        hit = self._found.get(text)
        if hit is None:
            if len(self._found) > _CACHE_LIMIT:
                self._found.clear()
            hit = self._found[text] = [m.group(0) for m in self.date_rx.finditer(text)]
        return hit

    def dates_near(self, windows: ClueWindows, i: int) -> list[str]:
        """Dates in the trigger windows of concept i, left to right, without overlaps."""
        if self.date_rx is None:
            return []
        found: list[str] = []
        for words in windows(i):
            found.extend(self._dates_in(" ".join(words)))
        return found

    def reject(self, doc: Document, ctx: Context) -> Iterator[tuple[tuple[int, int], str]]:
        concepts = doc.concepts
        cache: dict[int, list[str]] = {}
        windows = ClueWindows.shared(ctx.state, doc, self.triggers, self.window, self.look_before)
        checked = {t for t in doc.types if self.scope.admits_type(t)}
        for a, b in list(ctx.links):
            if concepts[a].type not in checked or concepts[b].type not in checked:
                continue
            da = cache[a] if a in cache else cache.setdefault(a, self.dates_near(windows, a))
            if not da:
                continue
            db = cache[b] if b in cache else cache.setdefault(b, self.dates_near(windows, b))
            if db and not any(dates_compatible(x, y) for x in da for y in db):
                yield (a, b), f"dates differ: '{da[0]}' near '{concepts[a].text}', '{db[0]}' near '{concepts[b].text}'"
