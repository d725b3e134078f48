"""``relative_pronoun``: "which" or "that" right after a concept refers back to it.

Seed 001, "Non-personal pronoun match": a pronoun concept whose word is 'which' or 'that' is
linked to the concept immediately before it when fewer than two words separate them
("... deep wound culture showed MRSA which is sensitive to ..."). The seed's team found no reliable
rule for other pronouns, so the list stays short; it is a parameter all the same.

"Immediately before" is read as: the concept that ends closest before the pronoun (ties go to the
longest, i.e. the whole noun phrase "[the culture of [the wound]] which"); a concept that contains
the pronoun (a noun phrase with its own relative clause) or is itself a pronoun is skipped. Words
are tokens with a letter or digit, so the comma of "MRSA , which" does not count.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register


@register("relative_pronoun")
class RelativePronoun(Pass):
    params = {
        "pronouns": Param("wordlist", default=["which", "that"],
                          help="words of pronoun concepts that refer to the concept right before them"),
        "max_words_between": Param("int", default=1, minimum=0,
                                   help="at most this many words between the two (seed: fewer than two)"),
        "require_pronoun_type": Param("bool", default=True,
                                      help="the pronoun concept must have a pronoun type; false for "
                                           "schemes that type pronouns by their referent (ODIE)"),
    }

    def setup(self) -> None:
        self.pronouns = self.lexicon("pronouns").words
        self.max_between = int(self.p["max_words_between"])

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        concepts = doc.concepts
        pron_types = self.scope.pronoun_types
        need_type = self.p["require_pronoun_type"]
        flat = doc.flat_tokens
        # concepts by the flat index of their last token, to find "the one right before" directly
        by_end: dict[int, list[int]] | None = None
        for c in concepts:
            if c.text not in self.pronouns or (need_type and c.type not in pron_types):
                continue
            if not self.scope.admits(c):
                continue
            if by_end is None:
                by_end = {}
                for other in concepts:
                    by_end.setdefault(doc.end_of(other), []).append(other.index)
            start = doc.start_of(c)
            line_start = doc.flat((c.start[0], 0))  # a relative clause does not start a sentence
            words = 0
            pos = start - 1
            found = None
            while pos >= line_start and words <= self.max_between:
                for k in by_end.get(pos, ()):
                    cand = concepts[k]
                    if k == c.index or cand.type in pron_types or cand.text in self.pronouns:
                        continue
                    if found is None or doc.start_of(cand) < doc.start_of(concepts[found]):
                        found = k
                if found is not None:
                    break
                if any(ch.isalnum() for ch in flat[pos]):
                    words += 1
                pos -= 1
            if found is not None:
                between = doc.between(concepts[found], c)
                yield found, c.index, f"'{c.text}' right after '{concepts[found].text}'" + (
                    f" ({' '.join(between)} between)" if between else "")
