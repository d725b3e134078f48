"""The mention finder: the pronouns NER tools never emit, found the same way on every way in (issue 30).

A clinical team's concepts come from an NER tool (medspaCy, cTAKES, scispaCy, a vendor's), and no
NER marks "he", "his", "which" or a "this" that stands alone; yet pronouns carry over a third of
the links in clinical notes. The finder adds them, typed as the rule file's pronoun type, before
the passes run, so the command line, Spark, the Python API and the spaCy component see the same
mentions: they all resolve through ``Pipeline.resolve`` (engine.py), which calls ``complete``.

What it adds (word lists in ``resources/lexicons/finder/``, named by the rule file's ``mentions:``
settings; docs/rules.md, "Finding mentions"):

* personal, possessive and reflexive pronouns, as written ("He", "his", "itself"); "I" only as a
  capital and not after "type" or "grade" (a roman numeral); a word in capitals ("US", "IT") is an
  abbreviation, unless its whole line is in capitals ("HE HAS NO ALLERGIES");
* "it" unless a pattern of ``not_referring`` matches it and the words after it ("it is clear that",
  "it was three months before"), and so for a presentational "This is a 66-year-old male";
* "who", "whom", "whose"; "which" and the demonstratives only when they stand alone (a verb, a
  preposition, punctuation follows: "[which] was", "for [this] ."), never before their noun ("at
  which time", "this morning") nor right before a concept ("this [lesion]");
* "that" standing alone, and before a clause's subject only right after a concept that is no person
  ("a [lesion] [that] the patient noticed"; not "states that he has pain", "told [the patient] that he").

A found mention is one token outside every given concept, marked ``Concept.added``. ``find: auto``
(the default) finds them only in a document that has no concept of a pronoun type (NER output);
i2b2 gold, which marks every pronoun, is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .document import Concept, Document
from .params import Param
from .resources import Resources
from .resources.lexicon import Lexicon

MODES = ("auto", "on", "off")
_LEX = "resources/lexicons/finder/"

# fmt: off
#: The ``mentions:`` settings of a rule file (validated by the compiler like every other setting).
SETTINGS: dict[str, Param] = {
    "find": Param("choice", default="auto", allowed=MODES,
                  help="auto: find pronouns in a document with no concept of a pronoun type; on: always; off: never"),
    "type": Param("str", default="", help="type of the mentions found ('': the rule file's first pronoun type)"),
    "personal": Param("wordlist", default=_LEX + "personal.txt", help="'he', 'it', 'them'"),
    "possessive": Param("wordlist", default=_LEX + "possessive.txt", help="'his', 'its', 'their'"),
    "reflexive": Param("wordlist", default=_LEX + "reflexive.txt", help="'himself', 'itself'"),
    "relative": Param("wordlist", default=_LEX + "relative.txt", help="'who', 'which', 'that' opening a relative clause"),
    "demonstrative": Param("wordlist", default=_LEX + "demonstrative.txt", help="'this', 'that' standing alone"),
    "demonstrative_plural": Param("wordlist", default=_LEX + "demonstrative_plural.txt",
                                  help="'these', 'those' standing alone"),
    "standalone_before": Param("wordlist", default=_LEX + "standalone_before.txt",
                               help="words after which a demonstrative or 'which' stands alone ('[this] is')"),
    "clause_starts": Param("wordlist", default=_LEX + "clause_starts.txt",
                           help="words that begin a subject: 'that he' is a conjunction unless a concept ends before 'that'"),
    "roman_before": Param("wordlist", default=_LEX + "roman_before.txt", help="'type I': a capital I after these is a numeral"),
    "not_referring": Param("regexes", default=_LEX + "not_referring.txt",
                           help="a pronoun and the words after it matching one of these refers to nothing ('it is clear that')"),
    "conjunction_after_types": Param("str_list", default=["person"],
                                     help="'that' before a subject after a concept of these types is a conjunction "
                                          "('told [the patient] that he ...')"),
    "capitals_abbreviations": Param("str_list", default=["us"],
                                    help="abbreviations even in a line all in capitals ('RENAL US')"),
    "verb_endings": Param("str_list", default=["ed", "s"],
                          help="a next word ending so is a verb: '[this] started', '[which] causes'"),
    "plural_verb_endings": Param("str_list", default=["ed"], help="the same after 'these', 'those' ('these tests')"),
    "not_verb_endings": Param("str_list", default=["ss", "us", "is", "'s"],
                              help="endings that are no verb's ('this mass', 'this diagnosis')"),
}
# fmt: on

_WORD = re.compile(r"\w")
_WINDOW = 10  # words from a pronoun on that the not_referring patterns see


def _lexicon(value: Any, resources: Resources) -> frozenset[str]:
    """A word list setting as the compiler left it: a path (shared through Resources) or an inline list."""
    if isinstance(value, (list, tuple)):
        return Lexicon(value, name="mentions").words
    return resources.lexicon(value).words


@dataclass(frozen=True)
class MentionFinder:
    """The ``mentions:`` settings of one rule file, word lists loaded: built once per pipeline."""

    mode: str
    type: str | None  # None: the rule file has no pronoun type, so nothing can be found
    pronoun_types: frozenset[str]
    personal: frozenset[str]
    possessive: frozenset[str]
    reflexive: frozenset[str]
    relative: frozenset[str]
    demonstrative: frozenset[str]
    demonstrative_plural: frozenset[str]
    standalone_before: frozenset[str]
    clause_starts: frozenset[str]
    roman_before: frozenset[str]
    not_referring: tuple[re.Pattern, ...]
    conjunction_after_types: frozenset[str]
    capitals_abbreviations: frozenset[str]
    verb_endings: tuple[str, ...]
    plural_verb_endings: tuple[str, ...]
    not_verb_endings: tuple[str, ...]

    @classmethod
    def build(cls, values: dict[str, Any], resources: Resources, pronoun_types: frozenset[str],
              mode: str | None = None) -> MentionFinder:
        """The finder of a rule file's checked ``mentions:`` values; ``mode`` (the command line's
        ``--find-mentions``, a spaCy or Spark setting) overrides ``find``."""
        ctype = values.get("type") or (min(pronoun_types) if pronoun_types else None)
        words = {k: _lexicon(values[k], resources) for k in (
            "personal", "possessive", "reflexive", "relative", "demonstrative", "demonstrative_plural",
            "standalone_before", "clause_starts", "roman_before")}
        return cls(mode=mode or values["find"], type=ctype, pronoun_types=pronoun_types, **words,
                   not_referring=tuple(values["not_referring"]), verb_endings=tuple(values["verb_endings"]),
                   conjunction_after_types=frozenset(values["conjunction_after_types"]),
                   capitals_abbreviations=frozenset(w.lower() for w in values["capitals_abbreviations"]),
                   plural_verb_endings=tuple(values["plural_verb_endings"]),
                   not_verb_endings=tuple(values["not_verb_endings"]))

    def wanted(self, doc: Document) -> bool:
        """Whether to look in ``doc``: never without a type to give; with ``auto``, only when no
        concept has a pronoun type (an NER's output; gold that marks pronouns is left alone)."""
        if self.mode == "off" or self.type is None:
            return False
        return self.mode == "on" or not any(c.type in self.pronoun_types or c.type == self.type for c in doc.concepts)

    def complete(self, doc: Document) -> tuple[Document, list[int]]:
        """``doc`` with the pronouns found added (a new Document, concepts in text order), and the
        new index of each of its concepts; ``doc`` itself when nothing is added."""
        found = self.find(doc) if self.wanted(doc) else []
        if not found:
            return doc, list(range(len(doc.concepts)))
        added = [Concept(index=-1, text=doc.lines[line - 1][tok].lower(), type=self.type or "", start=(line, tok),
                         end=(line, tok), added=True) for line, tok in found]
        return add_mentions(doc, added)

    def find(self, doc: Document) -> list[tuple[int, int]]:
        """(line, token) of every pronoun to add: outside the given concepts, in text order."""
        covered = bytearray(len(doc.flat_tokens))
        ends: dict[int, Concept] = {}  # a concept by the flat index of its last token
        starts: dict[int, Concept] = {}  # and of its first
        for c in doc.concepts:
            s, e = doc.start_of(c), doc.end_of(c)
            covered[s:e + 1] = b"\x01" * (e - s + 1)
            ends.setdefault(e, c)
            starts.setdefault(s, c)
        out = []
        for line, tokens in enumerate(doc.lines, 1):
            base = doc.line_offsets[line]
            capitals = not any(ch.islower() for tok in tokens for ch in tok)  # "HE HAS NO ALLERGIES ."
            for k in range(len(tokens)):
                if (not covered[base + k]
                        and self.is_pronoun(tokens, k, capitals, ends.get(base + k - 1), starts.get(base + k + 1))
                        and not self.refers_to_nothing(tokens, k)):
                    out.append((line, k))
        return out

    def is_pronoun(self, tokens: Sequence[str], k: int, capitals: bool, after: Concept | None,
                   before: Concept | None) -> bool:
        """Whether token ``k`` of a line is a pronoun (the module docstring's rules); ``after``: the
        concept that ends right before it, ``before``: the one that starts right after it;
        ``capitals``: the line is written in capitals, so a word in capitals is no abbreviation."""
        tok = tokens[k]
        low = tok.lower()
        if len(tok) > 1 and tok.isupper() and (not capitals or low in self.capitals_abbreviations):
            return False  # "US" (ultrasound), "IT", "HIS": abbreviations
        if low == "i":
            return tok == "I" and (tokens[k - 1].lower() if k else "") not in self.roman_before
        if low in self.personal or low in self.possessive or low in self.reflexive:
            return True
        if low in ("who", "whom", "whose") and low in self.relative:
            return True
        nxt = tokens[k + 1] if k + 1 < len(tokens) else ""
        if nxt.lower() in self.clause_starts:  # "that he": a conjunction, unless a concept ends before it
            if low == "that":
                return after is not None and after.type not in self.conjunction_after_types
            return low in self.relative  # "in which his bladder held 120 ml"
        if before is not None:  # "this [lesion]": a determiner of the concept
            return False
        if low in self.relative or low in self.demonstrative:
            return self._alone(nxt, self.verb_endings)
        if low in self.demonstrative_plural:
            return self._alone(nxt, self.plural_verb_endings)
        return False

    def refers_to_nothing(self, tokens: Sequence[str], k: int) -> bool:
        """A pattern of ``not_referring`` matches the word and those after it ("it is clear that")."""
        window = " ".join(tokens[k:k + _WINDOW]).lower()
        return any(rx.search(window) for rx in self.not_referring)

    def _alone(self, nxt: str, endings: tuple[str, ...]) -> bool:
        """What follows lets a demonstrative or "which"/"that" stand alone: the end of the line,
        punctuation, a word of ``standalone_before``, or a verb by its ending."""
        if not nxt or not _WORD.search(nxt):
            return True
        low = nxt.lower()
        if low in self.standalone_before:
            return True
        return low.isalpha() and low.endswith(endings) and not low.endswith(self.not_verb_endings)



def add_mentions(doc: Document, added: Sequence[Concept]) -> tuple[Document, list[int]]:
    """``doc`` with the mentions ``added`` (in text order, each outside every concept) merged in by
    position, and the new index of each of its own concepts, which keep their order."""
    merged: list[Concept] = []
    given: list[int] = []
    k = 0
    for c in doc.concepts:
        while k < len(added) and added[k].start < c.start:
            merged.append(added[k])
            k += 1
        given.append(len(merged))
        merged.append(c)
    merged.extend(added[k:])
    concepts = [c if c.index == i else replace(c, index=i) for i, c in enumerate(merged)]
    facts = {given[i]: f for i, f in doc.facts.items()}
    return replace(doc, concepts=concepts, facts=facts), given
