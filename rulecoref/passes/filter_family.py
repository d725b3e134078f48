"""``filter_family``: family members are never merged with the patient.

Seed 001 keeps family words out of the subject and out of the patient mentions; this filter makes
sure no chain of links (from any pass) still joins them: "[the patient|person] ... [her
mother|person] ... [she|pronoun]" may link "she" to either, but not to both. Links are checked in
rule-file order with union-find (``people.keep_apart``), so the earlier link wins and the later one
that would close the chain is removed, with the two mentions it would have joined as evidence.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from . import Context, Pass, register
from .people import facts, reject_joining_patient


@register("filter_family")
class FilterFamily(Pass):
    role = "filter"
    requires = ("people_roles",)

    def reject(self, doc: Document, ctx: Context) -> Iterator[tuple[tuple[int, int], str]]:
        f = facts(ctx.state)
        yield from reject_joining_patient(doc, ctx.links, f, f.family, "family")
