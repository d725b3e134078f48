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

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

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
#: the labels of a subject, and of a verb's object (a pronoun there obeys binding principle B)
SUBJECT_LABELS = frozenset(label for label, role in ROLES.items() if role == "subject")
OBJECT_LABELS = frozenset(label for label, role in ROLES.items() if role == "object")
#: a clause joined to another by these labels and without a subject of its own shares that
#: clause's subject: "[Yasmeen] goes to Farah and confronts her", "[Stone] ..., introducing him"
SHARES_SUBJECT = frozenset({"conj", "advcl"})
#: an open complement ("xcomp") has no subject of its own: its head's object controls it ("invited
#: [Shea] to join"), else its head's subject ("[Joe] threatens to throw him")
CONTROLLED = frozenset({"xcomp"})
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
        return ROLES.get(self.deps[self.joins(k)], "other")

    def joins(self, k: int) -> int:
        """The token that token ``k`` is joined to by coordinations and appositions, or ``k``:
        "Ann and [Bo] left" -> Ann."""
        seen = 0
        while self.deps[k] in SHARES_ROLE and self.heads[k] != k and seen < 8:
            k = self.heads[k]
            seen += 1
        return k

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

    def ancestors(self, k: int) -> Iterator[int]:
        """The tokens above ``k``, from its head up to its sentence's root."""
        for _ in range(len(self.heads)):
            if self.heads[k] == k:
                return
            k = self.heads[k]
            yield k

    def clause_of(self, k: int) -> int:
        """The word that mention head ``k`` is an argument of, past the conjunctions and
        appositions that join it ("Ann and [Bo] left" -> left)."""
        return self.heads[self.joins(k)]

    def quoted_by(self, k: int, opening: int) -> frozenset[int]:
        """Who says the quotation that token ``k`` lies in, opened at token ``opening``: the heads
        of the subjects of the clauses above ``k`` whose verb and subject stand before the opening
        ("[Chandran] says , `` No , ... dedicated to him ''"; "Foultz said that [Krueger] `` gives
        ..." is said by Foultz, not Krueger)."""
        out: frozenset[int] = frozenset()
        for verb in self.ancestors(k):
            if verb < opening:
                for j in self.dependents.get(verb, ()):
                    if j < opening and self.deps[j] in SUBJECT_LABELS:
                        out |= self.joined(j)
        return out

    @cached_property
    def dependents(self) -> dict[int, tuple[int, ...]]:
        """Each token's dependents (its children in the tree), in text order; computed once per parse."""
        out: dict[int, list[int]] = {}
        for k, h in enumerate(self.heads):
            if h != k:
                out.setdefault(h, []).append(k)
        return {h: tuple(ks) for h, ks in out.items()}

    def joined(self, k: int) -> frozenset[int]:
        """Token ``k`` and the tokens joined to it by coordination or apposition, at any depth: the
        heads of every mention of "[Ann] , [a DJ] , and [Bo]"."""
        out, todo = {k}, [k]
        while todo:
            for j in self.dependents.get(todo.pop(), ()):
                if self.deps[j] in SHARES_ROLE and j not in out:
                    out.add(j)
                    todo.append(j)
        return frozenset(out)

    def subject_of(self, verb: int) -> frozenset[int]:
        """The heads of the subject of the clause headed by ``verb``: its own subject; else, for a
        subjectless conjunct or adverbial clause, its head clause's ("[Mutai] pulled ahead and led
        him"); for an open complement, its head's object ("asked [Bo] to call him"), else its head's
        subject. Empty when the parse names none."""
        for _ in range(8):
            own = [j for j in self.dependents.get(verb, ()) if self.deps[j] in SUBJECT_LABELS]
            if own:
                return frozenset().union(*map(self.joined, own))
            head, label = self.heads[verb], self.deps[verb]
            if head == verb or label not in SHARES_SUBJECT | CONTROLLED:
                return frozenset()
            if label in CONTROLLED:
                objects = [j for j in self.dependents.get(head, ()) if self.deps[j] in OBJECT_LABELS]
                if objects:
                    return frozenset().union(*map(self.joined, objects))
            verb = head
        return frozenset()

    def local_subject(self, k: int) -> frozenset[int]:
        """Binding principle B (Chomsky 1981): a pronoun that is a verb's object ("him", "her") does
        not refer to the subject of its own clause, stated or shared: "[Yasmeen] goes to Farah and
        confronts her" (not Yasmeen). The heads of that subject; empty for other tokens."""
        if self.deps[k] not in OBJECT_LABELS or self.heads[k] == k:
            return frozenset()
        return self.subject_of(self.heads[k])
