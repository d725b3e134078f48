"""``second_person_pronoun``: "you" and "your" refer to the subject (the patient).

Seed 001, "Other pronouns": "any second person pronouns are linked to the subject". Discharge
instructions address the patient: "[You|pronoun] should take [your|pronoun] medicine".
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .people import facts, single_pronouns


@register("second_person_pronoun")
class SecondPersonPronoun(Pass):
    requires = ("people_roles",)
    attributes = ("pronoun",)
    params = {
        "pronouns": Param("wordlist", default="resources/lexicons/people/pronouns_second.txt", help="you, your, yours, ..."),
    }

    def setup(self) -> None:
        self.words = self.lexicon("pronouns").words

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        subject = facts(ctx.state).subject
        if subject is None:
            return
        evidence = f"second person; subject {doc.concepts[subject].text!r}"
        for p, _ in single_pronouns(ctx.table, self.words):
            yield subject, p, evidence
