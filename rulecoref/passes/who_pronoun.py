"""``who_pronoun``: "who" refers to the person mention before it.

Seed 001, "Other pronouns": "any pronoun type mention that is the word 'who' is linked to the
previous person type mention that is not any type of pronoun": "[her daughter|person] , [who|pronoun]
lives nearby ,". ``max_tokens_between`` can bound the distance (-1, the default, does not, as in the seed).
The previous person mention is found by bisection (``PeopleFacts.previous_person``).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .people import facts, pronouns_with_word


@register("who_pronoun")
class WhoPronoun(Pass):
    requires = ("people_roles",)
    params = {
        "words": Param("wordlist", default=["who"], help="the relative pronouns this rule is for"),
        "max_tokens_between": Param("int", default=-1, minimum=-1, help="-1: any distance"),
    }

    def setup(self) -> None:
        self.words = self.lexicon("words").words

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        f = facts(ctx.state, self.name)
        limit = self.p["max_tokens_between"]
        for c in pronouns_with_word(doc, f, self.words, self.scope.pronoun_types):
            start = doc.start_of(c)
            prev = f.previous_person(doc, start)
            if prev is None:
                continue
            gap = start - doc.end_of(prev) - 1
            if limit >= 0 and gap > limit:
                continue
            yield prev, c.index, f"previous person mention, {max(gap, 0)} token(s) before"
