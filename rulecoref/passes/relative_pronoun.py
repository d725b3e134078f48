"""``relative_pronoun``: "which" or "that" right after a concept refers back to it.

Seed 001, "Non-personal pronoun match": a pronoun concept whose word is 'which' or 'that' is
linked to the concept immediately before it when fewer than two words separate them
("... deep wound culture showed MRSA which is sensitive to ..."). The seed's team found no reliable
rule for other pronouns, so the list stays short; it is a parameter all the same.

"Immediately before" is the concept that ends closest before the pronoun on its line (of several
ending there the longest: "[the culture of [the wound]] which"); a concept that contains the
pronoun or is itself a pronoun is skipped. Words are tokens with a letter or digit, so the comma of
"MRSA , which" does not count. With ``through`` (issue 35), a concept that follows one of those
prepositions right after another concept hands the pronoun on to that one: "[steroids] for [renal
transplant] , which has reduced his healing".
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from ..params import Param
from ..words import has_alnum
from . import Context, Pass, register


@register("relative_pronoun")
class RelativePronoun(Pass):
    attributes = ("start", "end", "type")
    params = {
        "pronouns": Param("wordlist", default=["which", "that"],
                          help="words of pronoun concepts that refer to the concept right before them"),
        "max_words_between": Param("int", default=1, minimum=0,
                                   help="at most this many words between the two (the UHD system: fewer than two)"),
        "through": Param("wordlist", default=[],
                         help="prepositions that make the concept before the pronoun a complement of a concept "
                              "right before them, which the pronoun then refers to: with [for], "
                              "'[steroids] for [renal transplant] , which has reduced ...' links 'which' to steroids"),
        "require_pronoun_type": Param("bool", default=True,
                                      help="the pronoun concept must have a pronoun type; false for "
                                           "schemes that type pronouns by their referent (ODIE)"),
    }

    def setup(self) -> None:
        self.pronouns = self.lexicon("pronouns").words
        self.through = self.lexicon("through").words

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        t, concepts = ctx.table, doc.concepts
        pron_types, words = self.scope.pronoun_types, self.pronouns
        pronouns = [p for p in self.admitted(t) if concepts[p].text in words
                    and not (self.p["require_pronoun_type"] and concepts[p].type not in pron_types)]
        by_end: dict[int, list[int]] = {}
        for k, (c, end) in enumerate(zip(concepts, t["end"]) if pronouns else ()):
            if c.type not in pron_types and c.text not in words:
                by_end.setdefault(end, []).append(k)
        for p in pronouns:
            c = concepts[p]
            found = self.before(doc, p, t["start"], by_end)
            if found is not None and self.through:
                found = self.head_of(doc, found, t["start"], by_end)
            if found is not None:
                between = doc.between(concepts[found], c)
                yield found, p, f"'{c.text}' right after '{concepts[found].text}'" + (
                    f" ({' '.join(between)} between)" if between else "")

    def head_of(self, doc: Document, k: int, starts: list[int], by_end: dict[int, list[int]]) -> int:
        """The concept ending right before the ``through`` preposition in front of concept ``k`` (on
        its line), else ``k``: "[steroids] for [renal transplant] , which" -> steroids. A clause after
        a treatment and the problem it is for tells about the treatment."""
        c = doc.concepts[k]
        if c.start[1] < 2 or doc.lines[c.start[0] - 1][c.start[1] - 1].lower() not in self.through:
            return k
        heads = by_end.get(starts[k] - 2, ())
        return min(heads, key=lambda h: (starts[h], h)) if heads else k

    def before(self, doc: Document, p: int, starts: list[int], by_end: dict[int, list[int]]) -> int | None:
        """The longest concept ending closest before pronoun ``p`` on its line, within the word limit."""
        start = starts[p]
        line_start = start - doc.concepts[p].start[1]  # a relative clause does not start a sentence
        words, pos = 0, start - 1
        while pos >= line_start and words <= self.p["max_words_between"]:
            ending = [k for k in by_end.get(pos, ()) if k != p]
            if ending:
                return min(ending, key=lambda k: (starts[k], k))
            words += has_alnum(doc.flat_tokens[pos])
            pos -= 1
        return None
