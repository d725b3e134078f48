"""``patient_description``: descriptions of the patient join the patient's chain.

Issue 16. A note describes its patient in many ways besides "the patient": as the predicate of
"This is ..." or "The patient is ..." ("This is [a 66-year-old gentleman]", "[The patient] is [a
cooperative little boy]", "He is [a smoker]"), by sex and age in the examination ("GU :
[Uncircumcised male] with descended testes"), and by name with a lay title ("[Mr. Barker]"). Seed
001 took only the first such description for the subject. In a note about a patient (a mention
says "the patient" or "pt", or has clinical concepts: ``PeopleFacts.note``), this rule links to the
subject every person mention that is not staff, family or generic and

* ``predicate``: follows a form of "be" (``be_words``) whose subject is "This", a patient mention
  or a pronoun of the patient's gender;
* ``description``: is singular and built on a sex or age noun (``patient_nouns``: "male", "boy") or
  an age ("85-year-old", "34-week"), without a possessive before it ("his boy" is a relative);
* ``titled_name``: carries a lay title ("Mr.", "Ms.") when the subject has no name of its own.

Its own words must not give the other gender than the patient's. Outside patient notes (fiction,
news) nothing is linked: "she was a young woman" there is no patient.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..document import Document
from ..mentions import MentionTable
from ..params import Param
from ..words import norm_word
from . import Context, Pass, register
from .people import PeopleFacts, facts

_CLIN = "resources/lexicons/clinical/"
_AGE = re.compile(r"^\d+(?:[-/.]\d+)*-?(?:year|yr|month|mo|week|wk|day)s?(?:-old)?$")


@register("patient_description")
class PatientDescription(Pass):
    requires = ("people_roles",)
    attributes = ("person", "gender", "tokens", "person_words", "name_words", "pronoun", "start", "end", "line")
    params = {
        "nouns": Param("wordlist", default=_CLIN + "patient_nouns.txt", help="sex and age nouns ('male', 'boy')"),
        "be_words": Param("wordlist", default=_CLIN + "be_words.txt", help="forms of 'be' before a predicate noun"),
        "salutations": Param("wordlist", default="resources/lexicons/people/salutations.txt",
                             help="lay titles before a name ('Mr', 'Ms')"),
        "possessives": Param("wordlist", default="resources/lexicons/people/pronouns_possessive.txt",
                             help="a possessive before a description makes it a relative ('his boy')"),
        "max_words_between": Param("int", default=1, minimum=0,
                                   help="words (adverbs) allowed between the form of 'be' and the description"),
    }

    def setup(self) -> None:
        self.nouns = self.lexicon("nouns").words
        self.be = self.lexicon("be_words").words
        self.salutations = self.lexicon("salutations").words
        self.possessives = self.lexicon("possessives").words

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        f, t = facts(ctx.state), ctx.table
        if not f.note or f.subject is None:
            return
        side = f.patient_side()
        for i in f.persons:
            if i in side or i in f.staff or i in f.family or t["generic_person"][i]:
                continue
            if t["gender"][i] is not None and f.gender is not None and t["gender"][i] != f.gender:
                continue
            why = self.predicate(doc, t, f, i) or self.description(doc, t, i) or self.titled_name(t, f, i)
            if why:
                yield f.subject, i, f"{why}; the patient is {doc.concepts[f.subject].text!r} ({f.subject_why})"

    def predicate(self, doc: Document, t: MentionTable, f: PeopleFacts, i: int) -> str | None:
        """'This is [X]', '[The patient] is [X]', 'He is [X]'."""
        before = doc.before(doc.concepts[i], self.p["max_words_between"] + 2)
        k = next((n for n in range(len(before) - 1, -1, -1) if before[n].lower() in self.be), None)
        if k is None:
            return None
        verb_at = t["start"][i] - (len(before) - k)  # flat index of the form of "be"
        subject_end = verb_at - 1
        flat = doc.flat_tokens
        if subject_end >= 0 and flat[subject_end].lower() == "this" and doc.concepts[i].start[1] > len(before) - k - 1:
            return f"predicate of 'This {flat[verb_at]}'"
        side = f.patient_side()
        for j in range(len(doc.concepts)):
            if t["end"][j] == subject_end:
                pron = t["pronoun"][j]
                if j in side or (pron is not None and f.gender is not None
                                 and t.settings.people.vocab.pronoun_gender(pron) == f.gender):
                    return f"predicate of '{doc.concepts[j].text} {flat[verb_at]}'"
        return None

    def description(self, doc: Document, t: MentionTable, i: int) -> str | None:
        """A singular description on a sex or age noun: '[a 66-year-old male]', '[Uncircumcised male]'."""
        words = t["person_words"][i]
        before = doc.before(doc.concepts[i], 1)
        if (before and norm_word(before[0]) in self.possessives) or (words and words[0] in self.possessives):
            return None
        noun = next((w for w in words if w in self.nouns), None)
        age = next((tok for tok in t["tokens"][i] if _AGE.match(tok.lower())), None)
        if noun or age:
            return f"a description by {'sex or age noun ' + repr(noun) if noun else 'age ' + repr(age)}"
        return None

    def titled_name(self, t: MentionTable, f: PeopleFacts, i: int) -> str | None:
        """'[Mr. Barker]' when the patient is known only by a description."""
        words = t["person_words"][i]
        if t["name_words"][f.subject] or not words or words[0] not in self.salutations or not t["name_words"][i]:
            return None
        return f"a name with the lay title {words[0]!r}"
