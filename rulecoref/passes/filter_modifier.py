"""``filter_modifier``: two mentions placed or described differently are two things.

Seed 001, "Link filtering": besides dates, the clues that two linked mentions are different
entities are locations and descriptive modifiers that are not part of the mentions, found by
keyword lists, and searched only where the word right before or after a mention is a trigger word
("in", "on", "is", ...). "pain in the left leg ... pain in the right arm": the locations differ,
the link goes. Each keyword list is one category (``locations``, ``modifiers``); the clues of one
category conflict when both mentions have some and neither set contains the other, so "in the
left leg" and "in the leg" agree while "in the left leg" and "in the right leg" do not.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .predicates import CLUE_WINDOW_PARAMS, MAIN_LINKER_KINDS, ClueWindows, clues_conflict, find_phrases


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

    def clues(self, clue_windows: ClueWindows, i: int) -> list[frozenset[str]]:
        """Per category, the keywords in the trigger windows of concept i."""
        windows = clue_windows(i)
        if not windows:
            return self._none
        out = []
        for _, phrases, longest in self.categories:
            if longest == 1:  # single words only: a set lookup per word
                found = {t for w in windows for t in map(str.lower, w) if (t,) in phrases}
            else:
                found = {h[2] for w in windows for h in find_phrases(w, phrases, longest)}
            # "lungs" and "lung" are one place: a listed plural counts as its listed singular
            out.append(frozenset(k[:-1] if k.endswith("s") and (k[:-1],) in phrases else k for k in found))
        return out

    def reject(self, doc: Document, ctx: Context) -> Iterator[tuple[tuple[int, int], str]]:
        concepts = doc.concepts
        cache: dict[int, list[frozenset[str]]] = {}
        windows = ClueWindows.shared(ctx.state, doc, self.triggers, self.window, self.look_before)
        checked = {t for t in doc.types if self.scope.admits_type(t)}
        for a, b in list(ctx.links):
            if concepts[a].type not in checked or concepts[b].type not in checked:
                continue
            ca = cache[a] if a in cache else cache.setdefault(a, self.clues(windows, a))
            if not any(ca):
                continue
            cb = cache[b] if b in cache else cache.setdefault(b, self.clues(windows, b))
            for (name, _, _), xa, xb in zip(self.categories, ca, cb):
                if clues_conflict(xa, xb):
                    yield (a, b), (f"{name} differ: {', '.join(sorted(xa))} near '{concepts[a].text}' vs "
                                   f"{', '.join(sorted(xb))} near '{concepts[b].text}'")
                    break
