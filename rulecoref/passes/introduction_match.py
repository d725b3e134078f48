"""``introduction_match``: a staff role next to a doctor's name introduces that doctor.

Seed 001, "Introduction match": two person mentions at most two words apart, one starting with a
doctor salutation or ending with a medical title, the other marked as medical personnel by the
personnel lexicon (or the web provider), are linked: "Please follow-up with [your Optometrist|person]
, [Dr Smith|person] ...". A conjunction or preposition between them ("Dr Smith and the nurse",
"the nurse for Dr Smith") means two people, so ``block_words`` between the two stop the link.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .people import between_words, facts


@register("introduction_match")
class IntroductionMatch(Pass):
    requires = ("people_roles",)
    params = {
        "max_tokens_between": Param("int", default=2, minimum=0, help="at most this many tokens between the two mentions"),
        "block_words": Param("wordlist", default="resources/lexicons/people/introduction_blockers.txt",
                             help="words between the two that mean two different people ('and', 'for')"),
    }

    def setup(self) -> None:
        self.block = self.lexicon("block_words").words

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        f = facts(ctx.state, self.name)
        v = f.vocab
        limit = self.p["max_tokens_between"]
        persons = f.persons
        concepts = doc.concepts

        def named(i: int) -> str | None:
            words = f.words[i]
            sal = v.salutation(words)
            if sal:
                return f"salutation {sal!r}"
            title = v.title(doc.tokens(concepts[i]))
            return f"title {title!r}" if title else None

        for k, i in enumerate(persons):
            a = concepts[i]
            for j in persons[k + 1 :]:
                b = concepts[j]
                gap = doc.start_of(b) - doc.end_of(a) - 1
                if gap > limit:
                    break
                if gap < 0:
                    continue  # nested or overlapping: "Dr Smith's nurse" holds "Dr Smith's"
                for x, y in ((i, j), (j, i)):
                    how = named(x)
                    if how and f.staff_by_words(y):
                        blocker = next((w for w in between_words(doc, a, b) if w in self.block), None)
                        if blocker is None:
                            yield i, j, f"{concepts[x].text!r} ({how}) introduced by {concepts[y].text!r} ({f.staff[y]})"
                        break
