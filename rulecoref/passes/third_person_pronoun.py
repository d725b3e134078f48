"""``third_person_pronoun``: "he"/"she" to a name in the sentence, the subject, or the nearest mention.

Seed 001, "Pronoun linking": the sentence (a line in i2b2 text) that holds the pronoun decides.

* No name in the sentence: a pronoun of the subject's gender is linked to the subject; any other to
  the closest preceding person mention that is not a pronoun. "[Mr. Jones|person] ... [He|pronoun]
  was discharged ." -> Mr. Jones.
* One name, before the pronoun: linked to that name. "[Her husband|person] said [he|pronoun] ..."
  (one name after the pronoun: the seed says nothing; the no-name rule applies.)
* Several names: a pronoun of the subject's gender goes to the subject, any other to the first name
  in the sentence that is medical personnel (none: no link).

A "name" is a person mention that is no pronoun and does not contain the pronoun ("his" inside "his
lady" cannot refer to it). With ``gender_agreement`` (an addition to the seed) an antecedent that
does not fit the pronoun (``people.fits``: its own words give the other gender, "Mrs. Jones" for
"he", or, in a note about a patient, it is the patient and the pronoun is not of the patient's
gender) is skipped: "she" after a male patient does not go to him.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator

from ..document import Document
from ..mentions import MentionTable
from ..params import Param
from ..predicates import overlaps
from ..roles import FEMININE, MASCULINE
from . import Context, Pass, register
from .people import PeopleFacts, facts, fits, single_pronouns


@register("third_person_pronoun")
class ThirdPersonPronoun(Pass):
    requires = ("people_roles",)
    attributes = ("pronoun", "gender", "line", "start", "end")
    params = {
        "neutral_pronouns": Param("wordlist", default=[],
                                  help="genderless third-person pronouns to treat the same way (e.g. they, them, their); none by default"),
        "gender_agreement": Param("bool", default=True, help="skip antecedents of the other gender"),
    }

    def setup(self) -> None:
        self.neutral = self.lexicon("neutral_pronouns").words

    def fits(self, t: MentionTable, f: PeopleFacts, i: int, g: str | None) -> bool:
        """Whether mention ``i`` may be the antecedent of a pronoun of gender ``g`` (``people.fits``),
        with ``gender_agreement``; without it every person fits."""
        return not self.p["gender_agreement"] or fits(t, f, i, g)

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        f, t = facts(ctx.state), ctx.table
        by_line: dict[int, list[int]] = {}
        for i in f.persons:
            by_line.setdefault(t["line"][i], []).append(i)
        for p, w in single_pronouns(t):
            g = t["gender"][p] if t["gender"][p] in (MASCULINE, FEMININE) else None
            if g is None and w not in self.neutral:
                continue
            names = [i for i in by_line.get(t["line"][p], ()) if not overlaps(t, i, p)]
            target, why = self.antecedent(t, f, p, g, names)
            if target is not None and target != p:
                yield target, p, why

    def antecedent(self, t: MentionTable, f: PeopleFacts, p: int, g: str | None, names: list[int]) -> tuple[int | None, str]:
        """The seed's sentence rules for pronoun ``p`` of gender ``g`` with the sentence's ``names``."""
        if len(names) == 1 and t["end"][names[0]] < t["start"][p] and self.fits(t, f, names[0], g):
            return names[0], "the one name in the sentence, before the pronoun"
        if len(names) > 1:
            if g is not None and f.subject is not None and g == f.gender and not overlaps(t, f.subject, p):
                return f.subject, f"several names; {g} like the subject"
            staff = next((i for i in names if i in f.staff and self.fits(t, f, i, g)), None)
            return staff, "several names; the first staff member in the sentence"
        if g is not None and f.subject is not None and g == f.gender and not overlaps(t, f.subject, p):
            return f.subject, f"no name before it in the sentence; {g} like the subject"
        before = bisect_left([t["start"][i] for i in f.persons], t["start"][p])  # persons[:before] start earlier
        for i in reversed(f.persons[:before]):
            if not overlaps(t, i, p) and self.fits(t, f, i, g):
                return i, "no name before it in the sentence; closest preceding person mention"
        return None, ""
