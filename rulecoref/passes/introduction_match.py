"""``introduction_match``: a staff role next to a doctor's name introduces that doctor.

Seed 001, "Introduction match": two person mentions at most two words apart, one starting with a
doctor salutation or ending with a medical title (attribute ``named``), the other marked as
medical personnel by a role word (or the web provider), are linked: "Please follow-up with [your
Optometrist|person] , [Dr Smith|person] ...". A conjunction or preposition between them ("Dr Smith
and the nurse", "the nurse for Dr Smith") means two people, so ``block_words`` stop the link.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from ..params import Param
from ..words import norm_words
from . import Context, Pass, register
from .people import facts


@register("introduction_match")
class IntroductionMatch(Pass):
    requires = ("people_roles",)
    attributes = ("named", "start", "end")
    params = {
        "max_tokens_between": Param("int", default=2, minimum=0, help="at most this many tokens between the two mentions"),
        "block_words": Param("wordlist", default="resources/lexicons/people/introduction_blockers.txt",
                             help="words between the two that mean two different people ('and', 'for')"),
    }

    def setup(self) -> None:
        self.block = self.lexicon("block_words").words

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        f, t = facts(ctx.state), ctx.table
        named = {i: t["named"][i] for i in f.staff if t["named"][i]}
        if not named or not f.staff_words:
            return
        start, end = t["start"], t["end"]
        persons = f.persons
        for k, i in enumerate(persons):
            for j in persons[k + 1:]:
                gap = start[j] - end[i] - 1
                if gap > self.p["max_tokens_between"]:
                    break
                if gap < 0:
                    continue  # nested or overlapping: "Dr Smith's nurse" holds "Dr Smith's"
                x, y = (i, j) if i in named and j in f.staff_words else (j, i)
                if x not in named or y not in f.staff_words:
                    continue
                between = norm_words(doc.flat_tokens[end[i] + 1: start[j]])
                if not any(w in self.block for w in between):
                    c = doc.concepts
                    yield i, j, f"{c[x].text!r} ({named[x]}) introduced by {c[y].text!r} ({f.staff[y]})"
