"""The engine's plan: each compiled pass as the engine runs it, with the shortcuts that make it fast.

A ``match`` rule means what docs/rules.md says and ``Match.test`` does: a candidate that shares a
blocking value with the mention is linked when every ``require`` predicate holds and no ``veto``
does. A ``filter`` removes a kept link when one of its ``remove_if`` predicates holds
(``Filter.reject``). The plan asks fewer questions and gets the same answers, so the links, their
evidence and the removals are those of the plain tests (``tests/test_plan.py`` runs both ways and
compares; ``Pipeline(..., shortcuts=False)`` runs the plain tests). The shortcuts, and why each
gives the same result:

1. **Requirements the blocking implies** (``PredicateSpec.implied_by``). A rule blocking on one key
   pair finds only candidates that hold one of the mention's values, and for a predicate declared
   implied by that pair this is the predicate itself (``head_matches`` with ``key: head_family,
   antecedent_key: head``). The search does not ask it; a link's evidence still names every
   requirement (``Match.evidence`` asks them all). Not with several keys (a candidate then shares
   one of them only), nor with a ``types:`` limit on the predicate (the limit can make it fail).
2. **Vetoes a document's types rule out.** A veto limited to some types (``types:``) holds only
   between two mentions of those types: in a document with none of them it is not asked (the
   clinical vetoes in a CRAFT article).
3. **Predicates that need a value no mention has** (``PredicateSpec.needs_value``). A veto or a
   filter's test that holds only when one of the two mentions has a true value of an attribute (a
   date, a family history section) is not asked in a document where no mention has one.
4. **Requirements asked once per pair of word sequences.** When every requirement reads only
   ``of_words`` attributes (a function of a mention's tokens, ``AttributeSpec.of_words``) and none
   has a ``types:`` limit, two pairs whose mentions write the same words get the same answers: the
   requirements are asked once per pair of rows of the document's words table
   (``MentionTable.words_table``), the vetoes for each pair that passes them (in a CRAFT article
   half the pairs that head-and-synonym asks about repeat an earlier pair's words).

Both the plain and the planned test ask the requirements first, then the vetoes: conjunctions of
pure predicates, so the order changes no answer, and a requirement (``words_covered``) turns down
most candidates before a veto is asked. Below the plan, the mention table has shortcuts of its own
that change no value (``mentions.py``: columns on first use, ``of_words`` columns once per distinct
token sequence, ``per_mention`` columns one cell at a time), as has the candidate search
(``candidates.py``: postings once per key, the walk ending at the window's edge).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .attributes import ATTRIBUTES
from .candidates import SearchSpec
from .document import Document, Evidence
from .mentions import MentionTable, WordsTable
from .passes import Context, Pass
from .passes.filter import Filter
from .passes.match import Match
from .predicates import PREDICATES, PredicateSpec, Test

PairTest = Callable[[MentionTable, int, int], Any]
Rejections = Iterator[tuple[tuple[int, int], str]]


@dataclass(frozen=True)
class Step:
    """One pass as the engine runs it: a keyed search, a positional pass or a filter."""

    pass_: Pass
    #: a keyed pass's search (None: the pass proposes its pairs, or is a filter)
    search: SearchSpec | None = None
    #: a keyed pass's pair test for one document (None: the search's own test)
    test_for: Callable[[MentionTable], PairTest] | None = None
    #: a filter's removals (None: ``pass_.reject``)
    reject: Callable[[Document, Context], Rejections] | None = None

    def pair_test(self, table: MentionTable) -> PairTest:
        """The test the candidate search asks in this document."""
        assert self.search is not None
        return self.search.test if self.test_for is None else self.test_for(table)

    def rejections(self, doc: Document, ctx: Context) -> Rejections:
        """The links a filter removes in this document, with their evidence."""
        return self.pass_.reject(doc, ctx) if self.reject is None else self.reject(doc, ctx)


def plan(passes: list[Pass], shortcuts: bool = True) -> list[Step]:
    """The steps of ``passes`` in order; ``shortcuts=False``: every rule's plain test (the reference)."""
    steps = []
    for p in passes:
        if shortcuts and isinstance(p, Match):
            steps.append(Step(p, p.search(), test_for=_match_test_for(p)))
        elif shortcuts and isinstance(p, Filter):
            steps.append(Step(p, reject=_filter_reject(p)))
        else:
            steps.append(Step(p, None if p.role == "filter" else p.search()))
    return steps


# -- match ------------------------------------------------------------------------------------------
def _match_test_for(rule: Match) -> Callable[[MentionTable], PairTest]:
    """``rule.test`` with shortcuts 1-4 (the module's docstring), made once per document."""
    r = rule.config.rule
    requires = [(PREDICATES[name], params, test) for (name, params), test in zip(r["require"], rule.requires)]
    vetoes = [(PREDICATES[name], params, test) for (name, params), test in zip(r["veto"], rule.vetoes)]
    implied = _implied(rule, requires)
    searched = [test for k, (_, _, test) in enumerate(requires) if k not in implied]
    by_words = bool(requires) and all(_reads_only_words(spec) and not spec.limited_to(params)
                                      for spec, params, _ in requires)
    spell = rule.evidence  # one bound method for every link of the rule

    def test_for(t: MentionTable) -> PairTest:
        present = set(t["type"])
        live = [test for spec, params, test in vetoes if _may_hold(spec, params, t, present)]
        if not by_words:
            return _all_hold(searched, live, spell)
        return _once_per_words(t.words_table, searched, _all_hold([], live, spell))

    return test_for


def _implied(rule: Match, requires: list[tuple[PredicateSpec, dict[str, Any], Test]]) -> frozenset[int]:
    """The positions of the requirements the rule's blocking implies (shortcut 1)."""
    if len(rule.keys) != 1:
        return frozenset()
    blocked = (rule.keys[0], (rule.antecedent_keys or rule.keys)[0])
    return frozenset(k for k, (spec, params, _) in enumerate(requires)
                     if spec.implied_by == blocked and not spec.limited_to(params))


def _reads_only_words(spec: PredicateSpec) -> bool:
    """The predicate reads only ``of_words`` attributes: its answer for two mentions is its answer
    for any two mentions of the document that write the same words (shortcut 4)."""
    return all(ATTRIBUTES[a].of_words for a in spec.attributes)


def _may_hold(spec: PredicateSpec, params: dict[str, Any], t: MentionTable, present: set[str]) -> bool:
    """Whether the bound predicate can hold for some pair of this document (shortcuts 2 and 3)."""
    types = spec.limited_to(params)
    if types and present.isdisjoint(types):
        return False
    return spec.needs_value is None or any(t[spec.needs_value])


def _all_hold(requires: list[Test], vetoes: list[Test], spell: Callable[[MentionTable, int, int], str]) -> PairTest:
    """Evidence when every requirement holds and no veto does, else None (a plain loop: the search
    asks this of every candidate)."""

    def test(t: MentionTable, i: int, j: int) -> Evidence | None:
        for require in requires:
            if require(t, i, j) is None:
                return None
        for veto in vetoes:
            if veto(t, i, j) is not None:
                return None
        return Evidence(spell, t, i, j)

    return test


def _once_per_words(words: WordsTable, requires: list[Test], test: PairTest) -> PairTest:
    """``requires`` asked once per pair of word sequences (each mention's row of the document's
    words table), then ``test`` (the vetoes) for the pairs that pass them. A pair of rows is one
    int: no tuple made per candidate, none kept for the garbage collector."""
    rows, n = words.rows, words.n
    passed: dict[int, bool] = {}

    def once(t: MentionTable, i: int, j: int) -> Evidence | None:
        key = rows[i] * n + rows[j]
        ok = passed.get(key)
        if ok is None:
            ok = True
            for require in requires:
                if require(t, i, j) is None:
                    ok = False
                    break
            passed[key] = ok
        return test(t, i, j) if ok else None

    return once


# -- filter -----------------------------------------------------------------------------------------
def _filter_reject(rule: Filter) -> Callable[[Document, Context], Rejections]:
    """``rule.reject`` asking only the tests that can hold in the document (shortcut 3)."""
    specs = [PREDICATES[name] for name, _ in rule.config.rule["remove_if"]]

    def reject(doc: Document, ctx: Context) -> Rejections:
        t = ctx.table
        return rule.judge(ctx, [test for test, spec in zip(rule.tests, specs)
                                if spec.needs_value is None or any(t[spec.needs_value])])

    return reject
