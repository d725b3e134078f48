"""``second_person_pronoun``: "you" and "your" refer to the subject (the patient).

Seed 001, "Other pronouns": "any second person pronouns are linked to the subject". Discharge
instructions address the patient: "[You|pronoun] should take [your|pronoun] medicine".
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .people import facts


@register("second_person_pronoun")
class SecondPersonPronoun(Pass):
    requires = ("people_roles",)
    params = {
        "pronouns": Param("wordlist", default="resources/lexicons/people/pronouns_second.txt", help="you, your, yours, ..."),
    }

    def setup(self) -> None:
        self.words = self.lexicon("pronouns").words

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        f = facts(ctx.state, self.name)
        subject = f.subject
        if subject is None:
            return
        words = self.words
        evidence = f"second person; subject {doc.concepts[subject].text!r}"
        for p, w in f.single_pronouns():
            if w in words:
                yield subject, p, evidence
