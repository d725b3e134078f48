"""``second_person_pronoun``: "you" and "your" refer to the subject (the patient).

Seed 001, "Other pronouns": "any second person pronouns are linked to the subject". Discharge
instructions address the patient: "[You|pronoun] should take [your|pronoun] medicine". A consult
letter addresses the referring doctor instead: "Thank [you] for allowing me to see this patient"
(``not_after``: a pronoun right after one of these words is left alone; issue 35).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from ..params import Param
from . import Context, Pass, register
from .people import facts, single_pronouns


@register("second_person_pronoun")
class SecondPersonPronoun(Pass):
    requires = ("people_roles",)
    attributes = ("pronoun",)
    params = {
        "pronouns": Param("wordlist", default="resources/lexicons/people/pronouns_second.txt", help="you, your, yours, ..."),
        "not_after": Param("wordlist", default=[], help="words right before a 'you' that is not the patient ('thank')"),
    }

    def setup(self) -> None:
        self.words = self.lexicon("pronouns").words
        self.not_after = self.lexicon("not_after").words

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        subject = facts(ctx.state).subject
        if subject is None:
            return
        evidence = f"second person; subject {doc.concepts[subject].text!r}"
        for p, _ in single_pronouns(ctx.table, self.words):
            before = doc.before(doc.concepts[p], 1)
            if not (before and before[0].lower() in self.not_after):
                yield subject, p, evidence
