"""``relative_pronoun``: "which" or "that" right after a concept refers back to it.

Seed 001, "Non-personal pronoun match": a pronoun concept whose word is 'which' or 'that' is
linked to the concept immediately before it when fewer than two words separate them
("... deep wound culture showed MRSA which is sensitive to ..."). The seed's team found no reliable
rule for other pronouns, so the list stays short; it is a parameter all the same.

"Immediately before" is read as: the concept that ends closest before the pronoun (ties go to the
longest, i.e. the whole noun phrase "[the culture of [the wound]] which"); a concept that contains
the pronoun (a noun phrase with its own relative clause) or is itself a pronoun is skipped. Words
are tokens with a letter or digit, so the comma of "MRSA , which" does not count.

Pronoun mentions are few: they are found first (among the concepts of pronoun types, when the
pronoun must have one), and only the concepts ending on the few tokens before them are indexed.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import compress
from operator import attrgetter

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .predicates import has_alnum

_text = attrgetter("text")


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
        pronouns = self.pronouns
        if self.p["require_pronoun_type"]:  # only the concepts of pronoun types can be the pronoun
            typed = sorted(c.index for t in pron_types for c in doc.of_type(t))
            found = list(compress(typed, map(pronouns.__contains__, map(_text, map(concepts.__getitem__, typed)))))
        else:
            found = list(compress(range(len(concepts)), map(pronouns.__contains__, map(_text, concepts))))
        todo = [concepts[i] for i in found if self.scope.admits(concepts[i])]
        if not todo:
            return
        flat = doc.flat_tokens
        starts, ends = doc.concept_starts, doc.concept_ends
        # the tokens each pronoun's backward walk may visit: concepts ending there, by that token,
        # to find "the one right before" directly
        visit: set[int] = set()
        for c in todo:
            start = starts[c.index]
            line_start = start - c.start[1]  # a relative clause does not start a sentence
            words = 0
            pos = start - 1
            while pos >= line_start and words <= self.max_between:
                visit.add(pos)
                if has_alnum(flat[pos]):
                    words += 1
                pos -= 1
        by_end: dict[int, list[int]] = {}
        for k in compress(range(len(concepts)), map(visit.__contains__, ends)):
            by_end.setdefault(ends[k], []).append(k)
        for c in todo:
            start = starts[c.index]
            line_start = start - c.start[1]
            words = 0
            pos = start - 1
            found_at = None
            while pos >= line_start and words <= self.max_between:
                for k in by_end.get(pos, ()):
                    cand = concepts[k]
                    if k == c.index or cand.type in pron_types or cand.text in pronouns:
                        continue
                    if found_at is None or starts[k] < starts[found_at]:
                        found_at = k
                if found_at is not None:
                    break
                if has_alnum(flat[pos]):
                    words += 1
                pos -= 1
            if found_at is not None:
                between = doc.between(concepts[found_at], c)
                yield found_at, c.index, f"'{c.text}' right after '{concepts[found_at].text}'" + (
                    f" ({' '.join(between)} between)" if between else "")
