"""``filter_staff``: medical personnel are never merged with the patient.

The doctor and the patient are the two people every note speaks of, and the people linker's
pronoun rules can reach either ("Dr Smith saw her; she ..."). This filter removes the link that
would put a staff mention (``people_roles``: salutation, title, personnel word or web) into the
chain of the subject or a patient mention; links are taken in rule-file order, as in
``filter_family``. An addition to seed 001, which had no such filter.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from . import Context, Pass, register
from .people import facts, reject_joining_patient


@register("filter_staff")
class FilterStaff(Pass):
    role = "filter"
    requires = ("people_roles",)

    def reject(self, doc: Document, ctx: Context) -> Iterator[tuple[tuple[int, int], str]]:
        f = facts(ctx.state)
        yield from reject_joining_patient(doc, ctx.links, f, f.staff, "staff")
