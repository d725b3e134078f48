"""``match``: a linking rule written in YAML alone, from mention attributes and pair predicates.

The sieve of Stanford's system made data: the engine reads, for each mention the scope admits, the
earlier mentions that share a value of the rule's ``key`` (an attribute, ``attributes/``),
nearest first and within ``window`` sentences, and links the first (``antecedent: nearest``) or
every (``all``) candidate that no ``veto`` predicate rules out and every ``require`` predicate
accepts (``predicates.py``). Each link's evidence is what its predicates said.

    - kind: match
      name: same-head
      applies_to: {exclude_types: [person, pronoun]}
      key: head_family
      antecedent_key: head
      require: [head_matches, words_covered]
      veto: [overlaps]
      antecedent: nearest
      window: {sentences: 20}
"""

from __future__ import annotations

from collections.abc import Callable

from ..candidates import SearchSpec, key_values
from ..document import Evidence
from ..mentions import MentionTable, WordsTable
from ..params import Param
from ..predicates import PREDICATES, Test
from . import Pass, register


@register("match")
class Match(Pass):
    rule_keys = {
        "key": Param("attributes", required=True,
                     help="blocking key: an attribute (or a list of them); mentions sharing a value are candidates"),
        "antecedent_key": Param("attributes", default=None,
                                help="the candidates' blocking attribute(s) when they differ from the mention's: "
                                     "key: head_family, antecedent_key: head"),
        "require": Param("predicates", default=[], help="predicates that must all hold for a link"),
        "veto": Param("predicates", default=[], help="predicates any one of which rules a pair out"),
        "antecedent": Param("choice", default="nearest", allowed=("nearest", "all"),
                            help="link the nearest candidate that passes, or every one"),
        "window": Param("mapping", default={}, help="how far back candidates may be",
                        fields={"sentences": Param("int", default=0, minimum=0, help="sentences back (0: any)")}),
        "direction": Param("choice", default="backward", allowed=("backward", "backward_then_forward"),
                           help="earlier candidates only, or the later ones too when no earlier one passes "
                                "(an acronym written before its expansion)"),
    }

    def setup(self) -> None:
        r = self.config.rule
        self.keys: tuple[str, ...] = tuple(r["key"])
        self.antecedent_keys: tuple[str, ...] | None = tuple(r["antecedent_key"]) if r["antecedent_key"] else None
        self.requires: list[Test] = [PREDICATES[name].bind(params) for name, params in r["require"]]
        self.vetoes: list[Test] = [PREDICATES[name].bind(params) for name, params in r["veto"]]
        #: the concept types each veto is limited to (empty: every type)
        self.veto_types = [PREDICATES[name].limited_to(params) for name, params in r["veto"]]
        self.veto_specs = [PREDICATES[name] for name, _ in r["veto"]]
        #: the positions of the requirements the candidate search need not ask: the blocking keys
        #: guarantee them (``head_matches`` holds for every candidate whose head is in the mention's
        #: ``head_family``; with several keys a candidate shares only one); a link's evidence
        #: still spells out every requirement
        blocked = set(zip(self.keys, self.antecedent_keys or self.keys)) if len(self.keys) == 1 else set()
        self.given = frozenset(k for k, (name, params) in enumerate(r["require"])
                               if PREDICATES[name].given_by in blocked and not PREDICATES[name].limited_to(params))
        #: the requirements read only the mentions' words: asked once per pair of word sequences
        self.requires_words = bool(self.requires) and all(
            PREDICATES[name].of_words and not PREDICATES[name].limited_to(params) for name, params in r["require"])
        #: a link's evidence, spelt out when read: the requirements asked again about the pair
        #: (predicates are pure); one bound method for every link of the rule
        self._spell = self.evidence

    def needed_attributes(self) -> tuple[str, ...]:
        r = self.config.rule
        named = [a for name, params in (*r["require"], *r["veto"]) for a in PREDICATES[name].reads(params)]
        return tuple(dict.fromkeys((*self.keys, *(self.antecedent_keys or ()), *named)))

    def search(self) -> SearchSpec:
        r = self.config.rule
        return SearchSpec(self.keys, self.test, r["antecedent"], r["window"].get("sentences", 0), r["direction"],
                          self.antecedent_keys, prepare=self.prepare)

    def prepare(self, t: MentionTable) -> Callable[[MentionTable, int, int], Evidence | None]:
        """The pair test for one document, asking only the vetoes that can hold there, and the
        requirements once per pair of distinct word sequences when they read only words (in a
        CRAFT article half the pairs that head-and-synonym asks about repeat an earlier pair's words)."""
        vetoes = self.live_vetoes(t)
        searched = [require for k, require in enumerate(self.requires) if k not in self.given]
        if not self.requires_words:
            return self._test(searched, vetoes)
        return self._once_per_words(t.words_table, searched, self._test([], vetoes))

    def live_vetoes(self, t: MentionTable) -> list[Test]:
        """The vetoes that can hold in this document: a typed veto is left out where no mention has
        one of its types (the clinical vetoes in a CRAFT article), and one that needs a value no
        mention has (``PredicateSpec.needs_value``: family history)."""
        present = set(t["type"])
        return [v for v, types, spec in zip(self.vetoes, self.veto_types, self.veto_specs)
                if (not types or not present.isdisjoint(types)) and spec.can_hold(t)]

    def test(self, t: MentionTable, i: int, j: int) -> Evidence | None:
        """Evidence for linking mention ``i`` to candidate ``j``, spelt out when provenance is read."""
        return self._test(self.requires, self.vetoes)(t, i, j)

    def _test(self, requires: list[Test], vetoes: list[Test]) -> Callable[[MentionTable, int, int], Evidence | None]:
        """Requirements first, then vetoes: both are conjunctions of pure predicates, so the order
        changes neither the links nor their evidence, and a requirement (``words_covered``) turns
        down most candidates that the vetoes would have been asked about."""

        def test(t: MentionTable, i: int, j: int) -> Evidence | None:
            for require in requires:
                if require(t, i, j) is None:
                    return None
            for veto in vetoes:
                if veto(t, i, j) is not None:
                    return None
            return Evidence(self._spell, t, i, j)

        return test

    @staticmethod
    def _once_per_words(words: WordsTable, requires: list[Test], test: Callable[[MentionTable, int, int], Evidence | None]
                        ) -> Callable[[MentionTable, int, int], Evidence | None]:
        """``requires`` asked once per pair of word sequences (each mention's row of the document's
        words table), then ``test`` (the vetoes) for the pairs that pass them. A pair of rows is
        one int: no tuple made per candidate, none kept for the garbage collector."""
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

    def evidence(self, t: MentionTable, i: int, j: int) -> str:
        """What the requirements say about a linked pair (or the key the two share)."""
        if not self.requires:
            return self._shared_key(t, i, j)
        return "; ".join(str(require(t, i, j)) for require in self.requires)

    def _shared_key(self, t: MentionTable, i: int, j: int) -> str:
        for key, other in zip(self.keys, self.antecedent_keys or self.keys):
            shared = set(key_values(t[key][i])).intersection(key_values(t[other][j]))
            if shared:
                what = key if key == other else f"{key} / {other}"
                return f"same {what} {', '.join(sorted(map(str, shared)))!r}"
        return "same key"
