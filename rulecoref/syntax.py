"""A dependency parse of a document's tokens, as plain data, and what rules read from it.

Issue 35: GAP's strongest cue is syntactic parallelism (a pronoun that is a subject refers to the
name that is a subject), and word order only approximates a subject ("In 1990 , [Smith] resigned"
yes, "the film [Smith] made" no). A parse is optional: it comes from the spaCy pipeline the user
names (``--parser MODEL``, ``rulecoref/parsing.py``) or from a spaCy ``Doc`` that was parsed
already (the spaCy component). It is stored per flat token of the ``Document`` (``Document.parse``),
so the mention attributes (``attributes/syntax.py``) read it without knowing where it came from.
No spaCy here: a parse is three tuples of the document's length.
"""

from __future__ import annotations

from dataclasses import dataclass

#: dependency labels (spaCy's English ClearNLP labels and Universal Dependencies) -> grammatical role
ROLES: dict[str, str] = {
    "nsubj": "subject", "nsubjpass": "subject", "csubj": "subject", "csubjpass": "subject",
    "nsubj:pass": "subject", "csubj:pass": "subject",
    "dobj": "object", "obj": "object", "iobj": "object", "dative": "object",
    "poss": "possessor", "nmod:poss": "possessor",
    "pobj": "oblique", "obl": "oblique", "agent": "oblique",
    "attr": "predicate", "oprd": "predicate", "acomp": "predicate",
    "root": "root", "ROOT": "root",
}
#: a mention joined to another by these labels shares its role: "[Ann] and [Bo] left" (both
#: subjects), "[Cheryl Cassidy] , [Pauline 's friend] ," (the apposition is the subject too)
SHARES_ROLE = frozenset({"conj", "appos"})
#: arcs that stay on one mention's level of the tree ("[Ann] and [Bo]", "[Bo Lund]"): ``Parse.depth``
SAME_LEVEL = frozenset({"conj", "appos", "compound", "flat", "flat:name"})
#: the roles rulecoref's attributes and predicates name (``grammatical_role``)
ROLE_NAMES = ("subject", "object", "possessor", "oblique", "predicate", "root", "other")


@dataclass(frozen=True)
class Parse:
    """One dependency tree per sentence, over a document's flat token index (``Document.flat``).

    ``heads[k]`` is the flat index of token k's syntactic head (k itself for a sentence's root),
    ``deps[k]`` its dependency label and ``tags[k]`` its coarse part of speech (Universal POS,
    "" when the pipeline tags none). ``source`` names the pipeline, for provenance.
    """

    heads: tuple[int, ...]
    deps: tuple[str, ...]
    tags: tuple[str, ...]
    source: str = ""

    def __post_init__(self) -> None:
        n = len(self.heads)
        if len(self.deps) != n or len(self.tags) != n:
            raise ValueError(f"a parse needs one head, label and tag per token ({n}, {len(self.deps)}, {len(self.tags)})")
        if any(not 0 <= h < n for h in self.heads):
            raise ValueError("a parse's heads must be token indices of the document")

    def head_of(self, first: int, last: int) -> int:
        """The syntactic head of tokens ``first..last`` (flat, inclusive): the token whose own head
        lies outside the span ("the [police] officer" -> officer); of several, the last."""
        heads = self.heads
        best = last
        for k in range(last, first - 1, -1):
            h = heads[k]
            if h == k or not first <= h <= last:
                return k
        return best

    def role(self, k: int) -> str:
        """The grammatical role of token ``k``, climbing coordinations and appositions to the
        mention they join: "Ann and [Bo] left" -> subject."""
        seen = 0
        while self.deps[k] in SHARES_ROLE and self.heads[k] != k and seen < 8:
            k = self.heads[k]
            seen += 1
        return ROLES.get(self.deps[k], "other")

    def depth(self, k: int) -> int:
        """How deep token ``k`` lies in its sentence's tree: the arcs up to the root, not counting
        those inside one mention's level (a conjunct, an apposition, a compound). The main clause's
        subject is shallower than a name in a subordinate clause: syntactic prominence."""
        heads, deps = self.heads, self.deps
        d = 0
        for _ in range(len(heads)):
            h = heads[k]
            if h == k:
                break
            if deps[k] not in SAME_LEVEL:
                d += 1
            k = h
        return d
