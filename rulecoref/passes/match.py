"""``match``: a linking rule written in YAML alone, from mention attributes and pair predicates.

The sieve of Stanford's system made data: the engine reads, for each mention the scope admits, the
earlier mentions that share a value of the rule's ``key`` (an attribute, ``attributes.py``),
nearest first and within ``window`` sentences, and links the first (``antecedent: nearest``) or
every (``all``) candidate that no ``veto`` predicate rules out and every ``require`` predicate
accepts (``predicates.py``). Each link's evidence is what its predicates said.

    - kind: match
      name: same-head
      applies_to: {exclude_types: [person, pronoun]}
      key: head_keys
      require: [head_matches, words_covered]
      veto: [overlaps]
      antecedent: nearest
      window: {sentences: 20}
"""

from __future__ import annotations

from collections.abc import Callable

from ..candidates import SearchSpec, key_values
from ..mentions import MentionTable
from ..predicates import PREDICATES, Test, said
from ..rules.schema import Param
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

    def needed_attributes(self) -> tuple[str, ...]:
        r = self.config.rule
        named = [a for name, _ in (*r["require"], *r["veto"]) for a in PREDICATES[name].attributes]
        return tuple(dict.fromkeys((*self.keys, *(self.antecedent_keys or ()), *named)))

    def search(self) -> SearchSpec:
        r = self.config.rule
        return SearchSpec(self.keys, self.test, r["antecedent"], r["window"].get("sentences", 0), r["direction"],
                          self.antecedent_keys)

    def test(self, t: MentionTable, i: int, j: int) -> Callable[[], str] | None:
        """Evidence for linking mention ``i`` to candidate ``j`` (vetoes first, then requirements),
        spelt out when provenance is read."""
        for veto in self.vetoes:
            if veto(t, i, j) is not None:
                return None
        found = []
        for require in self.requires:
            evidence = require(t, i, j)
            if evidence is None:
                return None
            found.append(evidence)
        if not found:
            return lambda: self._shared_key(t, i, j)
        return lambda: "; ".join(map(said, found))

    def _shared_key(self, t: MentionTable, i: int, j: int) -> str:
        for key, other in zip(self.keys, self.antecedent_keys or self.keys):
            shared = set(key_values(t[key][i])).intersection(key_values(t[other][j]))
            if shared:
                what = key if key == other else f"{key} / {other}"
                return f"same {what} {', '.join(sorted(map(str, shared)))!r}"
        return "same key"
