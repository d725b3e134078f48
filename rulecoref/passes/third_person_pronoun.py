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
lady" cannot refer to it). With ``gender_agreement`` (an addition to the seed) an antecedent whose
own words give the other gender ("Mrs. Jones" for "he"), or the patient when the pronoun is not of
the subject's gender, is skipped: "she" after a male subject does not go to him.

Speed: the person mentions of each line are grouped once per document (from ``PeopleFacts``, not
from every concept of the line), and the closest preceding person mention is searched from a
bisection of the person mentions' start offsets. The subject's gender (a count over every token,
see ``people_roles``) is asked only where it decides something: not when there is no subject.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .people import PeopleFacts, facts, overlaps


@register("third_person_pronoun")
class ThirdPersonPronoun(Pass):
    requires = ("people_roles",)
    params = {
        "neutral_pronouns": Param("wordlist", default=[],
                                  help="genderless third-person pronouns to treat the same way (e.g. they, them, their); none by default"),
        "gender_agreement": Param("bool", default=True, help="skip antecedents of the other gender"),
    }

    def setup(self) -> None:
        self.neutral = self.lexicon("neutral_pronouns").words

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        f = facts(ctx.state, self.name)
        gender_of_word = f.vocab.pronoun_gender
        genders = f.genders  # a one-word pronoun's own gender is that of its word
        neutral = self.neutral
        wanted = [(p, g) for p, w in f.single_pronouns()
                  if (g := genders[p] if p in genders else gender_of_word(w)) is not None or w in neutral]
        if not wanted:
            return
        concepts = doc.concepts
        starts, ends = doc.concept_starts, doc.concept_ends
        agree = self.p["gender_agreement"]
        side = f.patient_side()
        subject = f.subject
        by_line: dict[int, list[int]] = {}
        for i in f.persons:
            by_line.setdefault(concepts[i].start[0], []).append(i)

        def fits(i: int, g: str | None) -> bool:
            if not agree or g is None:
                return True
            own = f.gender_of(i)
            if own is not None and own != g:
                return False
            return not (i in side and f.gender is not None and f.gender != g)

        def apart(i: int, p: int) -> bool:  # not overlaps(doc, concepts[i], concepts[p])
            return not (starts[i] <= ends[p] and starts[p] <= ends[i])

        for p, g in wanted:
            pc = concepts[p]
            names = [i for i in by_line.get(pc.start[0], ()) if apart(i, p)]
            target, why = None, ""
            if len(names) == 1 and ends[names[0]] < starts[p] and fits(names[0], g):
                target, why = names[0], "the one name in the sentence, before the pronoun"
            elif len(names) > 1:
                if g is not None and subject is not None and g == f.gender and apart(subject, p):
                    target, why = subject, f"several names; {g} like the subject"
                else:
                    target = next((i for i in names if f.is_staff(i) and fits(i, g)), None)
                    why = "several names; the first staff member in the sentence"
            else:
                target, why = self._no_name(doc, f, p, g, fits)
            if target is not None and target != p:
                yield target, p, why

    @staticmethod
    def _no_name(doc: Document, f: PeopleFacts, p: int, g: str | None, fits) -> tuple[int | None, str]:
        pc = doc.concepts[p]
        if g is not None and f.subject is not None and g == f.gender and not overlaps(doc, doc.concepts[f.subject], pc):
            return f.subject, f"no name before it in the sentence; {g} like the subject"
        start = doc.start_of(pc)
        persons = f.persons
        k = bisect_left(f.person_starts(doc), start)  # persons[:k] start before the pronoun
        for n in range(k - 1, -1, -1):
            i = persons[n]
            c = doc.concepts[i]
            if not overlaps(doc, c, pc) and fits(i, g):
                return i, "no name before it in the sentence; closest preceding person mention"
        return None, ""
