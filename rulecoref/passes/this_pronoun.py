"""``this_pronoun``: "this" right before a person mention that is not staff refers to it.

Seed 001, "Other pronouns": a pronoun mention that is the word "this" is linked "to the next person
mention if it is within three words of it and the next mention is not a doctor":
"[This|pronoun] is [a 67 year old woman|person] ..." . The next person mention is found by bisecting
the person mentions' start offsets (``PeopleFacts.next_person``), not by scanning them.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .people import facts, pronouns_with_word


@register("this_pronoun")
class ThisPronoun(Pass):
    requires = ("people_roles",)
    params = {
        "words": Param("wordlist", default=["this"], help="the pronoun words this rule is for"),
        "max_words_ahead": Param("int", default=3, minimum=1,
                                 help="the person mention must start within this many words after the pronoun"),
    }

    def setup(self) -> None:
        self.words = self.lexicon("words").words

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        f = facts(ctx.state, self.name)
        ahead = self.p["max_words_ahead"]
        for c in pronouns_with_word(doc, f, self.words, self.scope.pronoun_types):
            end = doc.end_of(c)
            nxt = f.next_person(doc, end)
            if nxt is None or doc.start_of(nxt) - end > ahead:
                continue
            if f.is_staff(nxt):
                continue
            yield c.index, nxt, f"{c.text!r} {doc.start_of(nxt) - end} word(s) before a person who is not staff"
