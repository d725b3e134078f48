"""``who_pronoun``: "who" refers to the person mention before it.

Seed 001, "Other pronouns": "any pronoun type mention that is the word 'who' is linked to the
previous person type mention that is not any type of pronoun": "[her daughter|person] , [who|pronoun]
lives nearby ,". ``max_tokens_between`` can bound the distance (-1, the default, does not, as in the seed).
A rule file without pronoun types (ODIE: a pronoun carries its referent's type) takes the word
itself for the pronoun mention.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator

from ..document import Document
from ..params import Param
from . import Context, Pass, register
from .people import facts, single_pronouns


@register("who_pronoun")
class WhoPronoun(Pass):
    requires = ("people_roles",)
    attributes = ("pronoun", "start", "end")
    params = {
        "words": Param("wordlist", default=["who"], help="the relative pronouns this rule is for"),
        "max_tokens_between": Param("int", default=-1, minimum=-1, help="-1: any distance"),
    }

    def setup(self) -> None:
        self.words = self.lexicon("words").words

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        f, t = facts(ctx.state), ctx.table
        start, end = t["start"], t["end"]
        person_starts = [start[i] for i in f.persons]
        limit = self.p["max_tokens_between"]
        for p, _ in single_pronouns(t, self.words):
            if self.scope.pronoun_types and t["type"][p] not in self.scope.pronoun_types:
                continue
            k = bisect_left(person_starts, start[p])  # persons[:k] start before the pronoun
            if not k:
                continue
            prev = f.persons[k - 1]
            gap = start[p] - end[prev] - 1
            if limit < 0 or gap <= limit:
                yield prev, p, f"previous person mention, {max(gap, 0)} token(s) before"
