"""``first_person_pronoun``: "I", "me", "my" in one note are one person (the writer).

Seed 001, "Other pronouns": "any person concepts that are first person pronouns are linked
together". The seed put "we" in the same chain; in notes "we" is the care team and "I" the writer,
so by default singular and plural form two chains (``join_plural: true`` restores the seed).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .people import facts

_LEX = "resources/lexicons/people/"


@register("first_person_pronoun")
class FirstPersonPronoun(Pass):
    requires = ("people_roles",)
    params = {
        "singular": Param("wordlist", default=_LEX + "pronouns_first_singular.txt", help="I, me, my, mine, myself"),
        "plural": Param("wordlist", default=_LEX + "pronouns_first_plural.txt", help="we, us, our, ours, ourselves"),
        "join_plural": Param("bool", default=False, help="one chain for singular and plural (the seed)"),
    }

    def setup(self) -> None:
        self.singular = self.lexicon("singular").words
        self.plural = self.lexicon("plural").words

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        f = facts(ctx.state, self.name)
        singular, plural = self.singular, self.plural
        join = self.p["join_plural"]
        last: dict[str, int] = {}
        for p, w in f.single_pronouns():
            group = "singular" if w in singular else "plural" if w in plural else None
            if group is None:
                continue
            if join:
                group = "first person"
            if group in last:
                yield last[group], p, _EVIDENCE[group]
            last[group] = p


_EVIDENCE = {g: f"first-person {g} pronouns are one person" for g in ("singular", "plural", "first person")}
