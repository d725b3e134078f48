"""``pronoun_salience``: "he"/"she"/"his"/"her" to the most salient person, by ordered preferences.

Issue 16. Seed 001's sentence rules ("the one name in the sentence", else the subject) take the
nearest person when two people of one gender are about, which is GAP's case: "[Christina Jennings]
approached [Kirstine Stewart] ... , and [she] felt" is Jennings, though Stewart is nearer. Without a
parser, clause roles are approximated from word order (``subject_position``, ``pronoun_role``), and
a person is found wherever the text names it again (``name_occurrences``: "Collins performed ..."
is an occurrence of the concept "Sandra Collins"). The YAML lists the preferences in order; the
first one that picks a candidate decides, and its name is the link's evidence:

* ``note_subject``: in a note about a patient (a mention says "the patient" or "pt"), or in a text
  with many pronouns of one gender (``min_subject_pronouns``: a long text full of "he" is about one
  man), a pronoun of the subject's gender is the subject (seed 001's subject rule).
* ``cataphora``: a possessive or subject pronoun in an opening phrase refers to the subject right
  after that phrase's comma: "After beginning [his] career , [Kanak] entered ...".
* ``clause_subject`` (only with a parse, ``--parser``; issue 35): the subject of the nearest clause
  above the pronoun that names a candidate (a possessive or reflexive may take its own clause's, a
  subject or object pronoun only a higher one's; a relative clause's is the person it describes):
  "[Cathal] met Margaret and measured a harpsichord that had taken [his] fancy".
* ``possessor_in_sentence``: a possessive (or reflexive) refers to the nearest person named before
  it in its sentence: "born to [Polly Simmons] , a slave , and [her] master".
* ``subject_in_sentence``: a subject pronoun that opens a clause refers to the subject of its
  sentence (parallelism): "[Jennings] approached Stewart ... , and [she] felt".
* ``object_other``: an object pronoun is not the subject of its own clause (binding principle B):
  "Amanda thanked [Lena] and paid [her]" -> the person named in the sentence who is not its subject.
* ``previous_subject``: the subject of the closest sentence before with a named subject, through
  sentence-initial pronouns of the same gender in between: "[Collins] performed ... . She
  released ... . [She] ..." -> Collins.
* ``nearest_before``: the nearest person named before the pronoun; ``first_after``: else the first
  one named after it (with a parse, only the subject of a clause that holds the pronoun's).

With a parse, ``previous_subject`` and ``nearest_before`` choose among a sentence's persons the most
prominent first (``Parse.depth``: the main clause's subject before a subordinate clause's).
And an object pronoun never takes the subject of its own clause, stated or shared, in any stage
(``binding``; binding principle B, ``Parse.local_subject``): "[Yasmeen] goes to Farah and confronts
[her]" is not Yasmeen; nor does a pronoun inside a quotation take the one who says it (``quotes``).

Candidates are the person mentions that are no pronoun, do not contain the pronoun, and whose own
words do not give the other gender (nor, in a patient note, the patient's when the pronoun's gender
is not the patient's). Measured on GAP's development split: docs/rules.md, "Clinical rules".
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

from ..attributes import Place
from ..document import Document
from ..mentions import MentionTable
from ..params import Param
from ..predicates import overlaps
from ..syntax import Parse
from . import Context, Pass, register
from .people import PeopleFacts, facts, fits, single_pronouns

#: (line, first token, last token, subject position, the candidate concepts named there, ascending)
Occurrence = tuple[int, int, int, bool, tuple[int, ...]]
STAGES = ("note_subject", "cataphora", "clause_subject", "possessor_in_sentence", "subject_in_sentence", "object_other",
          "previous_subject", "nearest_before", "first_after")
#: quotation marks as tokenizers write them: openers, closers and the straight mark that does both;
#: PTB's `` and '' may come as two tokens each ("` `", "' '")
OPENING_QUOTES = frozenset({"``", "`", "\u201c", "\u201e"})
CLOSING_QUOTES = frozenset({"''", "\u201d"})
QUOTE_REACH = 3  # sentences a quotation may run on before the pronoun's (``open_quotation``)
RELATIVE_CLAUSES = frozenset({"relcl", "acl:relcl"})  # dependency labels of a relative clause's verb


@dataclass
class _Pronoun:
    """One pronoun being resolved: where it is, its role and gender, how many pronouns of its gender
    the document has, and (worked out only when a stage asks) the places that name its candidates,
    in text order, and those near it."""

    line: int
    token: int
    role: str | None
    gender: str | None
    same_gender: int
    find: Callable[[], list[Occurrence]]
    #: never its antecedent: the person mentions holding the pronoun ("[his] lady") and, with a parse,
    #: those binding principle B rules out (``PronounSalience._bound``)
    barred: frozenset[int] = frozenset()

    def who(self, o: Occurrence, other_than: int | None = None) -> int | None:
        """The first candidate named at ``o`` that may be the antecedent (not ``other_than``)."""
        return next((c for c in o[4] if c not in self.barred and c != other_than), None)

    @cached_property
    def occurrences(self) -> list[Occurrence]:
        return self.find()

    @cached_property
    def _line(self) -> tuple[int, int]:
        """Where the places of the pronoun's line begin and end in ``occurrences`` (a bisection:
        the stages read the places near the pronoun, never the whole list)."""
        occ = self.occurrences
        return bisect_left(occ, (self.line,)), bisect_left(occ, (self.line + 1,))

    @cached_property
    def on_line(self) -> list[Occurrence]:
        """The places of the pronoun's sentence."""
        lo, hi = self._line
        return self.occurrences[lo:hi]

    @cached_property
    def same_line(self) -> list[Occurrence]:
        """The places of the pronoun's sentence that end before it."""
        return [o for o in self.on_line if o[2] < self.token and o[1] <= self.token]

    def last_line_before(self, subject: bool = False) -> list[Occurrence]:
        """The places (the subject places, with ``subject``) of the last earlier sentence that has some."""
        occ, k = self.occurrences, self._line[0] - 1
        while k >= 0 and subject and not occ[k][3]:
            k -= 1
        if k < 0:
            return []
        return [o for o in occ[bisect_left(occ, (occ[k][0],)): k + 1] if o[3] or not subject]


def open_quotation(lines: list[list[str]], line: int, k: int) -> tuple[int, int] | None:
    """Where the quotation that token ``k`` of sentence ``line`` stands in opens, as (line, token):
    in that sentence or in one of the ``QUOTE_REACH`` before it that leave a quotation open
    ("Clapp wrote : `` Kurup is the star . / She belts out ..."); None outside one."""
    start: tuple[int, int] | None = None
    for li in range(max(1, line - QUOTE_REACH), line + 1):
        tokens = lines[li - 1]
        end = k if li == line else len(tokens)
        i = 0
        while i < end:
            tok = tokens[i]
            if tok in OPENING_QUOTES:
                start = (li, i) if start is None or tok != "`" or i == 0 or tokens[i - 1] != "`" else start
            elif tok in CLOSING_QUOTES or (tok == "'" and i + 1 < end and tokens[i + 1] == "'"):
                start = None
                i += tok == "'"
            elif tok == '"':
                start = (li, i) if start is None else None
            i += 1
    return start


def named_places(t: MentionTable, persons: list[int]) -> list[Occurrence]:
    """Every place where the text names one of ``persons`` (ascending concept indices), in text
    order, with the persons named there. The places of a name are shared by the mentions of that
    name (``name_occurrences``), and so is their list of candidates here: a note that repeats one
    name 12,000 times lists 12,000 places, not 12,000 x 12,000 (place, candidate) pairs."""
    groups: dict[int, tuple[tuple[Place, ...], frozenset[Place], list[int]]] = {}  # by the shared tuple
    named_at: dict[Place, list[tuple[int, ...]]] = {}
    for i in persons:
        occ = t["name_occurrences"][i]
        group = groups.get(id(occ.named))
        if group is None:
            group = groups[id(occ.named)] = (occ.named, frozenset(occ.named), [])
        group[2].append(i)
        if occ.own is not None and occ.own not in group[1]:  # "[Smith , MD]": its own place is no name place
            named_at.setdefault(occ.own, []).append((i,))
    for named, _, members in groups.values():
        shared = tuple(members)
        for place in named:
            named_at.setdefault(place, []).append(shared)
    return sorted((*place, who[0] if len(who) == 1 else tuple(sorted(set().union(*who))))
                  for place, who in named_at.items())


@register("pronoun_salience")
class PronounSalience(Pass):
    requires = ("people_roles",)
    attributes = ("pronoun", "is_pronoun", "pronoun_role", "gender", "line", "start", "end", "person", "name_occurrences", "type")
    params = {
        "pronouns": Param("wordlist", default="resources/lexicons/salience/pronouns_gendered.txt",
                          help="the pronouns this rule resolves (he, him, his, she, her, ...)"),
        "stages": Param("str_list", default=list(STAGES), allowed=STAGES,
                        help="preferences in order; the first that picks a candidate decides"),
        "min_subject_pronouns": Param("int", default=8, minimum=0,
                                      help="note_subject also holds in a text with this many pronoun mentions of the "
                                           "subject's gender: a long text full of 'he' is about one man"),
        "binding": Param("bool", default=True,
                         help="with a parse (--parser): an object pronoun never refers to the subject of its own "
                              "clause, stated or shared (binding principle B): 'Yasmeen goes to Farah and confronts her'"),
        "quotes": Param("bool", default=True,
                        help="with a parse (--parser): a pronoun inside a quotation never refers to the one who says "
                             "it (who would say 'I'): 'Chandran says , `` the film is dedicated to him ''"),
        "max_depth": Param("int", default=3, minimum=0,
                           help="sentence-initial pronouns followed back by previous_subject"),
    }

    def setup(self) -> None:
        self.words = self.lexicon("pronouns").words
        self.stages: list[tuple[str, Callable[..., int | None]]] = [(s, getattr(self, s)) for s in self.p["stages"]]

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        f, t = facts(ctx.state), ctx.table
        vocab = t.settings.people.vocab
        genders = Counter(vocab.pronoun_gender(w) for w in t["pronoun"] if w is not None)
        by_gender: dict[str | None, list[Occurrence]] = {}  # every occurrence of a fitting candidate
        persons_on: dict[int, list[int]] = {}
        for i in f.persons:
            for li in {doc.concepts[i].start[0], doc.concepts[i].end[0]}:
                persons_on.setdefault(li, []).append(i)

        def fitting(g: str | None) -> list[Occurrence]:
            if g not in by_gender:
                by_gender[g] = named_places(t, [i for i in f.persons if fits(t, f, i, g)])
            return by_gender[g]

        for p, _ in single_pronouns(t, self.words):
            if t["type"][p] not in self.scope.pronoun_types and not t["is_pronoun"][p]:
                continue
            g = t["gender"][p]
            line, token = doc.concepts[p].start
            barred = frozenset(i for i in persons_on.get(line, ()) if overlaps(t, i, p))  # "[his] lady" holds "his"
            ruled = self._bound(doc, doc.parse, line, token, fitting(g)) if doc.parse is not None else {}
            barred |= frozenset(ruled)

            def find(g: str | None = g, barred: frozenset[int] = barred) -> list[Occurrence]:
                occ = fitting(g)
                return [o for o in occ if any(c not in barred for c in o[4])] if barred else occ

            pron = _Pronoun(line, token, t["pronoun_role"][p], g, genders[g], find, barred)
            for name, stage in self.stages:
                target = stage(t, f, pron, 0)
                if target is not None:
                    why = "".join(f"; not '{doc.concepts[c].text}' ({reason})" for c, reason in sorted(ruled.items()))
                    yield target, p, f"pronoun salience: {name} ({pron.role or 'other'} pronoun{why})"
                    break

    def _bound(self, doc: Document, parse: Parse, line: int, token: int, places: list[Occurrence]) -> dict[int, str]:
        """The candidates the parse rules out, which every stage then passes over, each with the
        setting that does: the subject of an object pronoun's own clause (``binding``: binding
        principle B, ``Parse.local_subject``; "[Yasmeen] goes to Farah and confronts [her]" is not
        Yasmeen), and the one who says the quotation the pronoun stands in (``quotes``,
        ``Parse.quoted_by``: the speaker says "I")."""
        base = doc.line_offsets[line]
        why: dict[int, str] = {}
        if self.p["binding"]:
            why.update(dict.fromkeys(parse.local_subject(base + token), "binding"))
        lines = {line}
        opening = open_quotation(doc.lines, line, token) if self.p["quotes"] else None
        if opening is not None:  # said before the opening mark, in the pronoun's sentence or an earlier one
            mark = doc.line_offsets[opening[0]] + opening[1]
            why.update(dict.fromkeys(parse.quoted_by(base + token if opening[0] == line else mark, mark), "quotes"))
            lines.add(opening[0])
        out: dict[int, str] = {}
        for li in sorted(lines) if why else ():
            at = doc.line_offsets[li]
            for o in places[bisect_left(places, (li,)): bisect_left(places, (li + 1,))]:
                reason = why.get(parse.head_of(at + o[1], at + o[2]))
                if reason is not None:
                    out.update(dict.fromkeys(o[4], reason))
        return out

    # -- the stages: each returns a concept index or None ---------------------------------------
    def note_subject(self, t: MentionTable, f: PeopleFacts, p: _Pronoun, depth: int) -> int | None:
        if f.subject is None or p.gender is None or p.gender != f.gender or f.subject in p.barred:
            return None
        if f.note or p.same_gender >= self.p["min_subject_pronouns"]:
            return f.subject
        return None

    def clause_subject(self, t: MentionTable, f: PeopleFacts, p: _Pronoun, depth: int) -> int | None:
        """With a parse: the subject of the nearest clause above the pronoun that has a candidate
        for subject. A possessive or reflexive may take its own clause's ("[Cathal] met [his] wife"),
        a subject or object pronoun only a higher one ("[Smith] said that Jones hit [him]"). A
        relative clause's subject is the person it describes ("[Mary Bell] , a girl who made [her]
        living")."""
        parse = t.doc.parse
        if parse is None or p.role is None:
            return None
        base = t.doc.line_offsets[p.line]
        heads, deps, tags = parse.heads, parse.deps, parse.tags
        named: dict[int, list[Occurrence]] = {}  # the places named on the line, by their syntactic head
        for o in p.on_line:
            named.setdefault(parse.head_of(base + o[1], base + o[2]), []).append(o)
        subjects: dict[int, list[Occurrence]] = {}  # the subjects among them, by the word they are subject of
        for k, places in named.items():
            subjects.setdefault(heads[k], []).extend(o for o in places if o[3])
        k, own = base + p.token, p.role in ("possessive", "reflexive")
        for _ in range(64):
            if heads[k] == k:
                return None
            k = heads[k]
            if tags[k] and tags[k] not in ("VERB", "AUX") and not own:
                continue
            if own:
                found = self._first(p, subjects.get(k, ()))
                if found is None and deps[k] in RELATIVE_CLAUSES:
                    found = self._described(p, parse, named, heads[k])
                if found is not None:
                    return found
            own = True
        return None

    @staticmethod
    def _first(p: _Pronoun, places: Iterable[Occurrence]) -> int | None:
        return next((c for c in map(p.who, places) if c is not None), None)

    def _described(self, p: _Pronoun, parse: Parse, named: dict[int, list[Occurrence]], k: int) -> int | None:
        """The person a relative clause describes: named at its noun or at the noun that noun is in
        apposition to ("[Mary Bell] , a poor farmer girl who ...")."""
        for _ in range(8):
            found = self._first(p, named.get(k, ()))
            if found is not None or parse.deps[k] != "appos" or parse.heads[k] == k:
                return found
            k = parse.heads[k]
        return None

    def cataphora(self, t: MentionTable, f: PeopleFacts, p: _Pronoun, depth: int) -> int | None:
        if p.role not in ("possessive", "subject"):
            return None
        toks = t.doc.lines[p.line - 1]
        if "," in toks[: p.token]:
            return None
        after = [o for o in p.on_line if o[1] > p.token and o[3] and toks[o[1] - 1] == ","]
        return p.who(after[0]) if after else None

    def possessor_in_sentence(self, t: MentionTable, f: PeopleFacts, p: _Pronoun, depth: int) -> int | None:
        if p.role not in ("possessive", "reflexive"):
            return None
        same = p.same_line
        return p.who(max(same, key=lambda o: o[2])) if same else None

    def subject_in_sentence(self, t: MentionTable, f: PeopleFacts, p: _Pronoun, depth: int) -> int | None:
        if p.role != "subject" or p.token == 0:
            return None
        prev = t.doc.lines[p.line - 1][p.token - 1].lower()
        if prev != "," and prev not in t.settings.salience.clause_openers.words:
            return None
        subj = [o for o in p.same_line if o[3]]
        return p.who(subj[0]) if subj else None

    def object_other(self, t: MentionTable, f: PeopleFacts, p: _Pronoun, depth: int) -> int | None:
        if p.role != "object":
            return None
        same = p.same_line
        subj = [o for o in same if o[3]]
        if not subj:
            return None
        s = p.who(subj[0])
        others = [o for o in same if p.who(o, other_than=s) is not None]
        return p.who(max(others, key=lambda o: o[2]), other_than=s) if others else None

    def previous_subject(self, t: MentionTable, f: PeopleFacts, p: _Pronoun, depth: int) -> int | None:
        named = p.last_line_before(subject=True)  # the latest sentence with a subject named
        # the first subject of that sentence; with a parse, the most prominent (the main clause's)
        best = min(named, key=self._prominence(t, lambda o: o[1])) if named else None
        if depth < self.p["max_depth"] and p.gender is not None:
            vocab, lines = t.settings.people.vocab, t.doc.lines
            for li in range(p.line - 1, best[0] if best else 0, -1):
                first = lines[li - 1][0].lower() if lines[li - 1] else ""
                if first in vocab.masculine_pronouns or first in vocab.feminine_pronouns:
                    if vocab.pronoun_gender(first) != p.gender:
                        continue
                    earlier = _Pronoun(li, 0, "subject", p.gender, p.same_gender, lambda: p.occurrences, p.barred)
                    for name, stage in self.stages:
                        if name == "note_subject":
                            continue
                        target = stage(t, f, earlier, depth + 1)
                        if target is not None:
                            return target
                    return None
        return p.who(best) if best else None

    def nearest_before(self, t: MentionTable, f: PeopleFacts, p: _Pronoun, depth: int) -> int | None:
        near = p.same_line or p.last_line_before()
        # the nearest; with a parse, the most prominent, then the nearest
        return p.who(min(near, key=self._prominence(t, lambda o: -o[2]))) if near else None

    @staticmethod
    def _prominence(t: MentionTable, order: Callable[[Occurrence], int]) -> Callable[[Occurrence], tuple[int, int]]:
        """A sort key over the places of one sentence: ``order`` alone without a parse; with one, how
        deep the place lies in the tree first (``Parse.depth``): the main clause's subject over a name
        in a subordinate clause (issue 35)."""
        parse, offsets = t.doc.parse, t.doc.line_offsets
        if parse is None:
            return lambda o: (0, order(o))
        return lambda o: (parse.depth(parse.head_of(offsets[o[0]] + o[1], offsets[o[0]] + o[2])), order(o))

    def first_after(self, t: MentionTable, f: PeopleFacts, p: _Pronoun, depth: int) -> int | None:
        """The first person named after the pronoun. With a parse, only backward anaphora: the subject
        of a clause that holds the pronoun's ("When [he] arrived , [John] sat"); a pronoun that
        nobody before it and no such subject explains refers outside the text."""
        parse = t.doc.parse
        if parse is None:
            return p.who(p.occurrences[0]) if p.occurrences else None
        base = t.doc.line_offsets[p.line]
        above = set(parse.ancestors(base + p.token))
        for o in p.on_line:
            if o[1] > p.token and o[3] and parse.clause_of(parse.head_of(base + o[1], base + o[2])) in above:
                found = p.who(o)
                if found is not None:
                    return found
        return None
