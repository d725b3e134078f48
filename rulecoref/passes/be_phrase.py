"""``be_phrase``: "X is Y" between two neighbouring concepts of one type says they are one thing.

Seed 001, "Be phrase match": a concept and the concept that immediately follows it are linked
when they have the same type and the text between them contains a be-phrase ("Resolution of
organism is methicillin-resistant Staphylococcus ..."). The phrases live in a word list
(``resources/lexicons/be_phrases.txt``: the copula plus clinical equatives such as "consistent with").

Guards the seed does not spell out keep the rule to the "something is something" reading:
* the two concepts are neighbours (the next concept that starts after the first one ends; of
  several starting there the longest, the whole noun phrase) on one line, at most
  ``max_words_between`` tokens apart; of nested subjects the outer one counts ("[the culture of
  [the wound]] is ...");
* a blocker word outside the be-phrase ("X is not Y", "X was followed by Y", "X is due to Y")
  cancels the link;
* with ``fillers``, every other word between them must be a filler ("X is most likely Y"), so that
  a be-word used as an auxiliary ("X was observed in Y") does not count.
* with ``coordinators`` (issue 35), the second concept must not be followed by one of them and
  another concept ("X is [Y] and [Z]": X is both, not Y).
The type check is the engine's YAML scope (same type; pronouns are usually excluded).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence

from ..document import Document
from ..params import Param
from ..words import find_phrases
from . import Context, Pass, register


@register("be_phrase")
class BePhrase(Pass):
    attributes = ("start", "end", "type")
    params = {
        "phrases": Param("wordlist", default="resources/lexicons/be_phrases.txt",
                         help="words and phrases that equate the concepts on either side"),
        "blockers": Param("wordlist", default="resources/lexicons/be_blockers.txt",
                          help="words outside the be-phrase that cancel the link (negation, sequence, cause)"),
        "fillers": Param("wordlist", default=[],
                         help="if given, the only other words allowed between the concepts (adverbs, commas)"),
        "coordinators": Param("wordlist", default=[],
                              help="words that join the second concept to a next one ('and', 'or'): then it is one of "
                                   "several ('X is [Y] and [Z]'), not what X is"),
        "max_words_between": Param("int", default=4, minimum=1, help="longest gap (tokens) between the two concepts"),
        "same_line": Param("bool", default=True, help="both concepts on one line (sentence)"),
    }

    def setup(self) -> None:
        self.phrases = self.lexicon("phrases").phrases
        self.blockers = self.lexicon("blockers").words
        self.fillers = self.lexicon("fillers").phrases or None
        self.longest = max(map(len, self.phrases), default=0)
        self.longest_filler = max(map(len, self.fillers or ()), default=0)
        self.first_words = frozenset(p[0] for p in self.phrases)
        self.coordinators = self.lexicon("coordinators").words

    def judge(self, between: Sequence[str]) -> str:
        """The evidence for two concepts with these tokens between them, "" when the tokens do not
        equate them (no be-phrase, a blocker, or a word that is no filler)."""
        if self.first_words.isdisjoint(map(str.lower, between)):  # most gaps hold no be-word
            return ""
        hits = find_phrases(between, self.phrases, self.longest)
        if not hits:
            return ""
        covered = {k for s, e, _ in hits for k in range(s, e)}
        rest = [tok for k, tok in enumerate(between) if k not in covered]
        if any(tok.lower() in self.blockers for tok in rest):
            return ""
        if self.fillers is not None:
            filled = sum(e - s for s, e, _ in find_phrases(rest, self.fillers, self.longest_filler))
            if filled < len(rest):
                return ""  # "X was observed in Y": the be-word is an auxiliary
        return f"be-phrase '{hits[0][2]}' in '{' '.join(between)}'"

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        t = ctx.table
        idx = self.admitted(t)  # text order: by start
        starts = [t["start"][i] for i in idx]
        ends = [t["end"][i] for i in idx]
        outer: dict[int, int] = {}  # last token -> the admitted mention ending there that starts first
        for i, e in zip(idx, ends):
            outer.setdefault(e, i)
        concepts = doc.concepts
        for k, a in enumerate(idx):
            if outer[ends[k]] != a:
                continue  # "[the culture of [the wound]] is ...": the outer phrase is the subject
            n = bisect_right(starts, ends[k])  # the neighbour starts at the first start after a ends
            if n == len(idx) or starts[n] - ends[k] - 1 > self.p["max_words_between"]:
                continue
            evidence = self.judge(doc.flat_tokens[ends[k] + 1: starts[n]])
            if not evidence:
                continue
            same_start = range(n, bisect_right(starts, starts[n]))
            b = idx[max(same_start, key=lambda m: (ends[m], -m))]  # the longest: the whole noun phrase
            if self.p["same_line"] and concepts[a].end[0] != concepts[b].start[0]:
                continue
            if self.coordinated(doc, t["end"][b], starts):
                continue
            yield a, b, evidence

    def coordinated(self, doc: Document, end: int, starts: list[int]) -> bool:
        """A coordinator follows the token ``end`` and an admitted concept starts right after it:
        "is [Ortho Tri-Cyclen] and [the Allegra]" names two things."""
        after = end + 1
        if not self.coordinators or after >= len(doc.flat_tokens):
            return False
        if doc.flat_tokens[after].lower() not in self.coordinators:
            return False
        k = bisect_right(starts, after)
        return k < len(starts) and starts[k] == after + 1
