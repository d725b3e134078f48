"""Per-document facts of the people linker (seed 001, "People linker"), shared by its kinds.

Not a kind (it registers nothing): ``people_roles`` decides who is staff, who is the subject (the
patient) and the subject's gender, and leaves a ``PeopleFacts`` in ``ctx.state["people"]``; the
linking kinds (``patient_mention``, ``introduction_match``, the pronoun kinds) and the role
filters read it, so every pass agrees on the roles. What a mention's own words say (its role
words, gender, surname) are mention attributes (``attributes/people.py``, from ``roles.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ..chains import UnionFind
from ..document import Document
from ..mentions import MentionTable

STATE_KEY = "people"
#: this module registers no pass kind: it is the shared code of the people linker's kinds
NOT_A_KIND = "the people linker's shared facts"


@dataclass
class PeopleFacts:
    """What ``people_roles`` found in one document. Indices are concept indices; each decision
    maps to its evidence, for provenance."""

    persons: list[int] = field(default_factory=list)  # non-pronoun person mentions, text order
    staff: dict[int, str] = field(default_factory=dict)  # index -> why ("salutation 'dr'", "web ...")
    staff_words: set[int] = field(default_factory=set)  # staff by a role word (lexicon, ending, web)
    family: dict[int, str] = field(default_factory=dict)  # index -> the family word
    patients: dict[int, str] = field(default_factory=dict)  # index -> the patient word (no family word, not staff)
    subject: int | None = None
    #: a note about a patient: some mention says "the patient" or "pt", or (``people_roles``'
    #: ``note_types``) the document has clinical concepts ("I have seen ABC today ... [hematuria]")
    note: bool = False
    subject_why: str = ""
    gender: str | None = None  # the subject's gender
    gender_why: str = ""
    web_sent: list[str] = field(default_factory=list)  # words the web provider was asked about
    web_failures: list[str] = field(default_factory=list)

    def patient_side(self) -> set[int]:
        """The subject and the patient mentions: the mentions that name the patient."""
        side = set(self.patients)
        if self.subject is not None:
            side.add(self.subject)
        return side


def facts(state: dict) -> PeopleFacts:
    """The facts the ``people_roles`` pass left (the compiler checks it runs first: RC133)."""
    return state[STATE_KEY]


def single_pronouns(table: MentionTable, words: Iterable[str] | None = None) -> Iterator[tuple[int, str]]:
    """(index, word) of the one-word pronoun mentions, in text order; only ``words`` when given."""
    wanted = None if words is None else frozenset(words)
    for i, w in enumerate(table["pronoun"]):
        if w is not None and (wanted is None or w in wanted):
            yield i, w


def fits(t: MentionTable, f: PeopleFacts, i: int, g: str | None) -> bool:
    """Whether person mention ``i`` may be the antecedent of a pronoun of gender ``g`` (None: of
    any), for every pronoun kind: not when its own words give another gender ("Mrs. Jones" for
    "he"), nor, in a note about a patient (``PeopleFacts.note``), when it names the
    patient and the pronoun is not of the patient's gender ("she" after "the patient ... he"). In
    other text the subject's gender is only the majority of its pronouns, too weak to rule out the
    first person named (GAP: 0.43 CoNLL F1 lost when it did; benchmarks/RESULTS.md, issue 23)."""
    if g is None:
        return True
    own = t["gender"][i]
    if own is not None and own != g:
        return False
    return not (f.note and i in f.patient_side() and f.gender is not None and f.gender != g)


def keep_apart(pairs: Sequence[tuple[int, int]], side_a: set[int], side_b: set[int]
               ) -> Iterator[tuple[tuple[int, int], int, int]]:
    """Links that would put a member of ``side_a`` and one of ``side_b`` into one chain.

    Links are taken in the order given (rule-file order: earlier, more precise passes win) and
    joined with union-find; a link that would merge a group holding an ``a`` mention with a group
    holding a ``b`` mention is yielded with the two mentions it would have joined, and left out.
    Checking chains, not single links, matters: "her mother" ~ "she" ~ "the patient" would merge
    the mother with the patient although neither link alone joins them.
    """
    if not side_a or not side_b:
        return
    uf = UnionFind(1 + max(*side_a, *side_b, *(max(pair) for pair in pairs)))
    a_of = {x: x for x in side_a}  # root -> an a-member of its group (each mention its own root at first)
    b_of = {x: x for x in side_b}
    for pair in pairs:
        ra, rb = uf.find(pair[0]), uf.find(pair[1])
        if ra == rb:
            continue
        if ra in a_of and rb in b_of:
            yield pair, a_of[ra], b_of[rb]
        elif rb in a_of and ra in b_of:
            yield pair, a_of[rb], b_of[ra]
        else:  # the merged group keeps the first mention's member of each side, else the second's
            a, b = a_of.get(ra, a_of.get(rb)), b_of.get(ra, b_of.get(rb))
            uf.union(ra, rb)
            root = uf.find(ra)
            if a is not None:
                a_of[root] = a
            if b is not None:
                b_of[root] = b


def reject_joining_patient(doc: Document, links: Iterable[tuple[int, int]], f: PeopleFacts,
                           others: dict[int, str], what: str) -> Iterator[tuple[tuple[int, int], str]]:
    """Links that would put one of ``others`` (family, staff) in the patient's chain, with evidence."""
    side = f.patient_side()
    c = doc.concepts
    apart = set(others) - side
    if not side or not apart:  # nobody to keep apart: no need to copy the links
        return
    for pair, a, b in keep_apart(list(links), side, apart):
        yield pair, f"would put {what} mention {c[b].text!r} ({others[b]}) in the chain of patient mention {c[a].text!r}"
