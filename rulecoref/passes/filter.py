"""``filter``: remove kept links between mentions that a predicate says are different things.

Seed 001, "Link filtering": after the main linker, links are taken out where clues beside the two
mentions disagree (dates, places, descriptions) or where a mention names no thing (an adjective).
The clues are mention attributes (``dates``, ``locations``, ``modifiers``, ``adjective_only``) and
the comparisons pair predicates (``predicates/``), so a filter is YAML alone:

    - kind: filter
      name: different-dates
      applies_to: {exclude_types: [person, pronoun]}
      remove_if: [dates_conflict]

A link is judged when the scope admits either of its mentions (a pronoun linked to an adjective is
judged too); the first predicate that holds removes it, and its evidence is the removal's provenance. A filter removes the direct link only: if other
kept links still join the two mentions, the chain builder merges them anyway.

``made_by`` narrows a filter to the links of named passes, so a rule file that includes another can
refine one of its passes without editing it (``rulecoref induce`` writes such filters):

    - kind: filter
      name: head-match-not-when-repeating-another
      made_by: [head-and-synonym]
      remove_if: [repeats_another]

A link is judged only when every pass that made it is named: a pair that another pass also linked
stands on that pass's evidence. The names must be of passes before the filter (the compiler
checks it, RC134).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from ..params import Param
from ..predicates import PREDICATES, Test
from . import Context, Pass, register


@register("filter")
class Filter(Pass):
    role = "filter"
    rule_keys = {
        "remove_if": Param("predicates", required=True, help="predicates any one of which removes a link"),
        "made_by": Param("str_list", default=[],
                         help="judge only the links these passes made (names of earlier passes; a pair that another "
                              "pass also linked is kept): a learned file refines a pass of the file it includes "
                              "(empty: every link)"),
    }

    def setup(self) -> None:
        #: the rule's predicates bound to their settings, in the rule's order
        self.tests: list[Test] = [PREDICATES[name].bind(params) for name, params in self.config.rule["remove_if"]]
        self.made_by = frozenset(self.config.rule.get("made_by") or ())

    def needed_attributes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(a for name, params in self.config.rule["remove_if"] for a in PREDICATES[name].reads(params)))

    def reject(self, doc: Document, ctx: Context) -> Iterator[tuple[tuple[int, int], str]]:
        """The rule: each judged link that some ``remove_if`` predicate holds for, with the first one's evidence.
        The engine runs it with the tests that can hold in the document (``plan.py``)."""
        return self.judge(ctx, self.tests)

    def judge(self, ctx: Context, tests: list[Test]) -> Iterator[tuple[tuple[int, int], str]]:
        """The kept links the scope and ``made_by`` judge, and the first of ``tests`` that holds for each."""
        if not tests:
            return
        t = ctx.table
        types = t["type"]
        admitted = {ty for ty in set(types) if self.scope.admits_type(ty)}  # once per type, not per link
        made_by = self.made_by
        for (a, b), links in list(ctx.links.items()):
            if types[a] not in admitted and types[b] not in admitted:
                continue
            if made_by and any(link.provenance.pass_name not in made_by for link in links):
                continue
            for test in tests:
                evidence = test(t, b, a)
                if evidence is not None:
                    yield (a, b), str(evidence)
                    break
