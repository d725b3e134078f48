"""``first_person_pronoun``: "I", "me", "my" in one note are one person (the writer).

Seed 001, "Other pronouns": "any person concepts that are first person pronouns are linked
together". The seed put "we" in the same chain; in notes "we" is the care team and "I" the writer,
so by default singular and plural form two chains (``join_plural: true`` restores the seed).
In a note about a patient (``PeopleFacts.note``) the writer is the dictating
clinician, and "I" and "we" are the same clinician or team (the MTSamples guidelines chain them):
``join_plural_in_notes: true`` joins them there and nowhere else (in fiction and interviews "we" is
the narrator and others: joining everywhere lost 0.5 CoNLL F1 on LitBank, benchmarks/RESULTS.md).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from ..params import Param
from . import Context, Pass, register
from .people import facts, single_pronouns

_LEX = "resources/lexicons/people/"


@register("first_person_pronoun")
class FirstPersonPronoun(Pass):
    requires = ("people_roles",)
    attributes = ("pronoun",)
    params = {
        "singular": Param("wordlist", default=_LEX + "pronouns_first_singular.txt", help="I, me, my, mine, myself"),
        "plural": Param("wordlist", default=_LEX + "pronouns_first_plural.txt", help="we, us, our, ours, ourselves"),
        "join_plural": Param("bool", default=False, help="one chain for singular and plural (the UHD system)"),
        "join_plural_in_notes": Param("bool", default=False,
                                      help="one chain for singular and plural in a note about a patient only"),
    }

    def setup(self) -> None:
        self.singular = self.lexicon("singular").words
        self.plural = self.lexicon("plural").words

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        last: dict[str, int] = {}
        join = self.p["join_plural"] or (self.p["join_plural_in_notes"] and facts(ctx.state).note)
        for p, w in single_pronouns(ctx.table, self.singular | self.plural):
            group = "first person" if join else "singular" if w in self.singular else "plural"
            if group in last:
                yield last[group], p, f"first-person {group} pronouns are one person"
            last[group] = p
