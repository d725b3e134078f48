"""``this_pronoun``: "this" right before a person mention that is not staff refers to it.

Seed 001, "Other pronouns": a pronoun mention that is the word "this" is linked "to the next person
mention if it is within three words of it and the next mention is not a doctor":
"[This|pronoun] is [a 67 year old woman|person] ...".
A rule file without pronoun types (ODIE: a pronoun carries its referent's type) takes the word
itself for the pronoun mention.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator

from ..document import Document
from ..params import Param
from . import Context, Pass, register
from .people import facts, single_pronouns


@register("this_pronoun")
class ThisPronoun(Pass):
    requires = ("people_roles",)
    attributes = ("pronoun", "start", "end")
    params = {
        "words": Param("wordlist", default=["this"], help="the pronoun words this rule is for"),
        "max_words_ahead": Param("int", default=3, minimum=1,
                                 help="the person mention must start within this many words after the pronoun"),
    }

    def setup(self) -> None:
        self.words = self.lexicon("words").words

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        f, t = facts(ctx.state), ctx.table
        start, end = t["start"], t["end"]
        person_starts = [start[i] for i in f.persons]
        pronoun_types = self.scope.pronoun_types
        for p, _ in single_pronouns(t, self.words):
            if pronoun_types and t["type"][p] not in pronoun_types:
                continue
            k = bisect_right(person_starts, end[p])  # the first person mention after the pronoun
            if k == len(f.persons):
                continue
            nxt = f.persons[k]
            if start[nxt] - end[p] <= self.p["max_words_ahead"] and nxt not in f.staff:
                yield p, nxt, f"{doc.concepts[p].text!r} {start[nxt] - end[p]} word(s) before a person who is not staff"
