"""``introduction_match``: a staff role next to a doctor's name introduces that doctor.

Seed 001, "Introduction match": two person mentions at most two words apart, one starting with a
doctor salutation or ending with a medical title, the other marked as medical personnel by the
personnel lexicon (or the web provider), are linked: "Please follow-up with [your Optometrist|person]
, [Dr Smith|person] ...". A conjunction or preposition between them ("Dr Smith and the nurse",
"the nurse for Dr Smith") means two people, so ``block_words`` between the two stop the link.

Speed: ``people_roles`` already decided which mentions carry a salutation or title (``named``) and
which are staff by a role word; a document without both has no introduction, and the neighbours of
a mention are found by walking the person mentions in text order with flat token offsets.
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
        named = f.named  # salutation or title, as people_roles found them ("salutation 'dr'")
        by_words = f.staff_words
        if not named or not by_words:
            return
        limit = self.p["max_tokens_between"]
        persons = f.persons
        concepts = doc.concepts
        starts, ends = doc.concept_starts, doc.concept_ends
        n = len(persons)
        for k in range(n):
            i = persons[k]
            end = ends[i]
            for kk in range(k + 1, n):
                j = persons[kk]
                gap = starts[j] - end - 1
                if gap > limit:
                    break
                if gap < 0:
                    continue  # nested or overlapping: "Dr Smith's nurse" holds "Dr Smith's"
                for x, y in ((i, j), (j, i)):
                    how = named.get(x)
                    if how and y in by_words:
                        a, b = concepts[i], concepts[j]
                        blocker = next((w for w in between_words(doc, a, b) if w in self.block), None)
                        if blocker is None:
                            yield i, j, f"{concepts[x].text!r} ({how}) introduced by {concepts[y].text!r} ({f.staff[y]})"
                        break
