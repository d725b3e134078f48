"""``match``: a linking rule written in YAML alone, from mention attributes and pair predicates.

The sieve of Stanford's system made data: the engine reads, for each mention the scope admits, the
earlier mentions that share a value of the rule's ``key`` (an attribute, ``attributes/``),
nearest first and within ``window`` sentences, and links the first (``antecedent: nearest``) or
every (``all``) candidate that no ``veto`` predicate rules out and every ``require`` predicate
accepts (``predicates/``). Each link's evidence is what its predicates said.

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

from ..candidates import SearchSpec, key_values
from ..document import Evidence
from ..mentions import MentionTable
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
        #: the rule's predicates bound to their settings, in the rule's order
        self.requires: list[Test] = [PREDICATES[name].bind(params) for name, params in r["require"]]
        self.vetoes: list[Test] = [PREDICATES[name].bind(params) for name, params in r["veto"]]
        self.antecedent: str = r["antecedent"]
        self.window: int = r["window"].get("sentences", 0)
        self.direction: str = r["direction"]

    def needed_attributes(self) -> tuple[str, ...]:
        r = self.config.rule
        named = [a for name, params in (*r["require"], *r["veto"]) for a in PREDICATES[name].reads(params)]
        return tuple(dict.fromkeys((*self.keys, *(self.antecedent_keys or ()), *named)))

    def search(self) -> SearchSpec:
        return SearchSpec(self.keys, self.test, self.antecedent, self.window, self.direction, self.antecedent_keys)

    def test(self, t: MentionTable, i: int, j: int) -> Evidence | None:
        """The rule for mention ``i`` and a candidate ``j`` that shares a key value with it (docs/rules.md):
        every ``require`` predicate holds and no ``veto`` does. The evidence is spelt out when read.
        The engine runs an equivalent planned test (``plan.py``), which asks fewer questions."""
        if all(require(t, i, j) is not None for require in self.requires) and \
                all(veto(t, i, j) is None for veto in self.vetoes):
            return Evidence(self.evidence, t, i, j)
        return None

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
