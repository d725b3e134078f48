"""``patient_mention``: "the patient", "pt" and "patient's" refer to the subject of the note.

Seed 001, "The subject (patient)": "every concept that has the words 'patient' or 'pt' in it and
no words that refer to a family member is linked to the subject concept", because the patient is
the subject of every note. "the patient's mother" is not linked (a family word), and neither is
"the patient's cardiologist" (staff; an addition to the seed, which only checked family words).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from . import Context, Pass, register
from .people import facts


@register("patient_mention")
class PatientMention(Pass):
    requires = ("people_roles",)

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        f = facts(ctx.state)
        if f.subject is None:
            return
        for i, word in f.patients.items():
            if i != f.subject:
                yield f.subject, i, f"{word!r} names the patient; subject {doc.concepts[f.subject].text!r} ({f.subject_why})"
