"""Pronouns and salience (issue 16): where a mention stands in its clause, without a parser.

GAP's strongest cue is syntactic parallelism (a subject pronoun refers to a subject), and a name is
mentioned again in the text beyond the concept that marks it. ``passes/pronoun_salience.py`` reads
these columns. The word lists are closed-class English words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..resources.lexicon import Lexicon
from ..words import norm_word
from .registry import LEX, BlockingKey, attribute, setting, settings_group
from .syntax import span_role

if TYPE_CHECKING:
    from ..document import Document
    from .registry import Table

_SALIENCE = LEX + "salience/"


# fmt: off
@settings_group("salience", help="pronoun roles and subject positions (docs/rules.md, 'Clinical rules')")
class Salience:
    clause_openers: Lexicon = setting("wordlist", default=_SALIENCE + "clause_openers.txt",
                                      help="words after which a clause, and so a subject, begins ('and', 'when', 'which')")
    subject_pronouns: Lexicon = setting("wordlist", default=_SALIENCE + "pronouns_subject.txt", help="he, she, they, ...")
    object_pronouns: Lexicon = setting("wordlist", default=_SALIENCE + "pronouns_object.txt", help="him, them, ...")
    object_followers: Lexicon = setting("wordlist", default=_SALIENCE + "object_followers.txt",
                                        help="tokens after an object 'her' ('told her that'); before any other, 'her' is possessive")
    max_intro_tokens: int = setting("int", default=12, minimum=0,
                                    help="an opening phrase ending in ',' this long at most still leaves the subject after "
                                         "it ('In 1990 , [Smith] ...')")
# fmt: on


def subject_at(tokens: list[str], first: int, last: int, openers: frozenset[str], max_intro: int) -> bool:
    """Tokens ``first..last`` of a sentence stand where a subject stands: at the start, right after a
    clause opener ("and [she] felt"), or after a short opening phrase that ends in a comma ("In 1990 ,
    [Smith] resigned"); not as a possessor ("[Smith] 's wife")."""
    if last + 1 < len(tokens) and tokens[last + 1] in ("'s", "'", "\u2019s"):
        return False
    if first == 0:
        return True
    prev = tokens[first - 1].lower()
    if prev in openers:
        return True
    return prev == "," and first - 1 <= max_intro


def subject_place(doc: Document, line: int, first: int, last: int, openers: frozenset[str], max_intro: int) -> bool:
    """Tokens ``first..last`` of ``line`` are a subject: by the parse when the document has one
    ("the film [Smith] made" is no subject, "[Smith] , a DJ , said" is), else by word order
    (``subject_at``)."""
    role = span_role(doc, line, first, last)
    if role is not None:
        return role == "subject"
    return subject_at(doc.lines[line - 1], first, last, openers, max_intro)


#: a pronoun's role by the parse (``syntax.ROLES``) -> its ``pronoun_role``; other roles keep the word rule
PARSED_PRONOUN_ROLES = {"subject": "subject", "possessor": "possessive", "object": "object", "oblique": "object"}


@attribute("pronoun_role", depends=("pronoun", "line", "start", "end"),
           help="subject, object, possessive or reflexive for a one-word personal pronoun (salience lists; possessive "
                "and reflexive: attributes.people's): 'he' -> subject, "
                "'told [her] that' -> object, '[her] mother' -> possessive; None for others ('it', 'this'); with a "
                "parse (--parser), the role of its dependency label where it names one ('[he] and his wife' -> subject)",
           blocking=(BlockingKey(order=260,
                                 phrase=("same-pronoun-role",
                                         "the same pronoun role (subject, object, possessive, reflexive)"),
                                 broad=True),))
def _pronoun_role(t: Table) -> list[str | None]:
    s, people = t.settings.salience, t.settings.people
    subj, obj, followers = s.subject_pronouns.words, s.object_pronouns.words, s.object_followers.words
    poss, refl = people.possessive_pronouns.words, people.reflexive_pronouns.words
    flat, ends, lines = t.doc.flat_tokens, t["end"], t.doc.line_offsets
    out: list[str | None] = []
    parse = t.doc.parse
    for k, w in enumerate(t["pronoun"]):
        parsed = PARSED_PRONOUN_ROLES.get(parse.role(ends[k])) if parse is not None and w is not None else None
        if w is None:
            out.append(None)
        elif parsed is not None and w not in refl:
            out.append(parsed)
        elif w in subj:
            out.append("subject")
        elif w in refl:
            out.append("reflexive")
        elif w in obj and w in poss:  # "her": an object before a follower or at the end of a line
            nxt = ends[k] + 1
            line_end = lines[t.doc.concepts[k].end[0] + 1]
            out.append("object" if nxt >= line_end or flat[nxt].lower() in followers else "possessive")
        elif w in obj:
            out.append("object")
        elif w in poss:
            out.append("possessive")
        else:
            out.append(None)
    return out


@attribute("subject_position", depends=("line",),
           help="the mention stands where a subject stands: first in its sentence, after a clause opener or after "
                "a short opening phrase and a comma ('In 1990 , [Smith] resigned'); not a possessor ('[Smith] 's'); "
                "with a parse (--parser), it is a subject by its dependency label (grammatical_role)",
           blocking=(BlockingKey(order=250,
                                 phrase=("subject-to-subject",
                                         "both where a subject stands (first in a sentence or clause)"),
                                 broad=True),))
def _subject_position(t: Table) -> list[bool]:
    s = t.settings.salience
    openers, max_intro = s.clause_openers.words, s.max_intro_tokens
    doc = t.doc
    return [subject_place(doc, c.start[0], c.start[1], c.end[1] if c.end[0] == c.start[0] else c.start[1],
                          openers, max_intro) for c in doc.concepts]


Place = tuple[int, int, int, bool]  # (line, first token, last token, subject position)


class NameOccurrences(NamedTuple):
    """Where the text names a person mention's referent: the mention's own place and the places
    that write its name. ``named`` is one tuple shared by every mention of that name, so a note
    that writes "Dr. Smith" 12,000 times stores 12,000 places once, not once per mention."""

    own: Place | None
    named: tuple[Place, ...]

    def places(self) -> list[Place]:
        """Every place, in text order (the mention's own one among them)."""
        return sorted({*self.named, self.own} if self.own else self.named)


NO_NAME = NameOccurrences(None, ())


def _name_places(t: Table, names: set[str]) -> dict[str, list[tuple[int, int]]]:
    """Where each of ``names`` is written capitalised: (line, token) positions."""
    where: dict[str, list[tuple[int, int]]] = {}
    for li, toks in enumerate(t.doc.lines, 1) if names else ():
        for ti, tok in enumerate(toks):
            if tok[:1].isupper():
                w = norm_word(tok)  # the surname's own form ("Ličen" -> "lien")
                if w in names:
                    where.setdefault(w, []).append((li, ti))
    return where


@attribute("name_occurrences", depends=("tokens", "person", "surname", "person_words"),
           help="where the text names a person mention's referent: its own place and every capitalised occurrence "
                "of its surname, as (line, first token, last token, subject position), the occurrences shared by the "
                "mentions of one name; '[Sandra Collins] is a DJ . Collins performed' -> two places", blocking=())
def _name_occurrences(t: Table) -> list[NameOccurrences]:
    s = t.settings.salience
    openers, max_intro = s.clause_openers.words, s.max_intro_tokens
    doc = t.doc
    where = _name_places(t, {name for name, person in zip(t["surname"], t["person"]) if person and name})

    def place(li: int, a: int, b: int) -> Place:
        return (li, a, b, subject_place(doc, li, a, b, openers, max_intro))

    found: dict[tuple[str, tuple[str, ...]], tuple[Place, ...]] = {}  # a name's places in the text
    out: list[NameOccurrences] = []
    for c, person, name, words in zip(doc.concepts, t["person"], t["surname"], t["person_words"]):
        if not person:
            out.append(NO_NAME)
            continue
        key = (name or "", words)
        if key not in found:
            spans = set()
            for li, ti in where.get(name, ()) if name else ():
                toks = doc.lines[li - 1]
                first = ti
                while first > 0 and norm_word(toks[first - 1]) in words:  # "Sandra [Collins]" is one name
                    first -= 1
                spans.add((li, first, ti))
            found[key] = tuple(sorted(place(*span) for span in spans))
        out.append(NameOccurrences(place(c.start[0], c.start[1], c.end[1] if c.end[0] == c.start[0] else c.start[1]),
                                   found[key]))
    return out
