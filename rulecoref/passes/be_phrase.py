"""``be_phrase``: "X is Y" between two neighbouring concepts of one type says they are one thing.

Seed 001, "Be phrase match": a concept and the concept that immediately follows it are linked
when they have the same type and the text between them contains a be-phrase ("Resolution of
organism is methicillin-resistant Staphylococcus ..."). The phrases live in a word list
(``resources/lexicons/be_phrases.txt``: the copula plus clinical equatives such as
"consistent with").

Three guards the seed does not spell out keep the rule to the "something is something" reading:
* the two concepts are neighbours in text order (the next concept that starts after the first one
  ends, so a concept nested inside either one does not break the pair) on one line (i2b2 lines
  are sentences), with at most ``max_words_between`` tokens between them;
* a blocker word between them outside the be-phrase ("X is not Y", "X was followed by Y",
  "X is due to Y", "X and Y were ...") cancels the link (``blockers``; an empty list turns this off);
* with ``fillers``, every other word between them must be a filler (adverbs, commas: "X is most
  likely Y"), so that a be-word used as an auxiliary ("X was observed in Y", "X is expressed in
  Y") does not count; the seed only asked that the text between "contains" a be-phrase;
* the type check is the engine's YAML scope (same type; pronouns are usually excluded).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .predicates import find_phrases


@register("be_phrase")
class BePhrase(Pass):
    params = {
        "phrases": Param("wordlist", default="resources/lexicons/be_phrases.txt",
                         help="words and phrases that equate the concepts on either side"),
        "blockers": Param("wordlist", default="resources/lexicons/be_blockers.txt",
                          help="words outside the be-phrase that cancel the link (negation, sequence, cause)"),
        "fillers": Param("wordlist", default=[],
                         help="if given, the only other words allowed between the concepts (adverbs, commas)"),
        "max_words_between": Param("int", default=4, minimum=1,
                                   help="longest gap (tokens) between the two concepts"),
        "same_line": Param("bool", default=True, help="both concepts on one line (sentence)"),
    }

    def setup(self) -> None:
        lex = self.lexicon("phrases")
        self.phrases = lex.phrases
        self.max_len = max((len(p) for p in self.phrases), default=0)
        self.first_words = frozenset(p[0] for p in self.phrases)
        self.blockers = self.lexicon("blockers").words
        fillers = self.lexicon("fillers")
        self.fillers = fillers.phrases if len(fillers) else None

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        cands = self.candidates(doc)
        if len(cands) < 2:
            return
        starts = [doc.start_of(c) for c in cands]
        ends = [doc.end_of(c) for c in cands]
        n = len(cands)
        max_gap = self.p["max_words_between"]
        same_line = self.p["same_line"]
        flat = doc.flat_tokens
        first_start: dict[int, int] = {}  # end token -> earliest start of a candidate ending there
        for st, en in zip(starts, ends):
            first_start[en] = min(st, first_start.get(en, st))
        for k, a in enumerate(cands):
            if first_start[ends[k]] < starts[k]:
                continue  # "[the culture of [the wound]] is ...": the outer phrase is the subject
            # the neighbour: the first candidate starting after a ends; of several starting on the
            # same token, the longest (the whole noun phrase)
            nxt = bisect_right(starts, ends[k])
            if nxt >= n:
                continue
            last = bisect_right(starts, starts[nxt]) - 1
            b = cands[max(range(nxt, last + 1), key=lambda m: (ends[m], -m))]
            gap = starts[nxt] - ends[k] - 1
            if gap < 1 or gap > max_gap or (same_line and a.end[0] != b.start[0]):
                continue
            between = flat[ends[k] + 1 : starts[nxt]]
            if not any(t.lower() in self.first_words for t in between):
                continue
            hits = find_phrases(between, self.phrases, self.max_len)
            if not hits:
                continue
            covered = {i for s, e, _ in hits for i in range(s, e)}
            blocker = next((t.lower() for i, t in enumerate(between) if i not in covered and t.lower() in self.blockers), None)
            if blocker is not None:
                continue
            if self.fillers is not None:
                rest = [t for i, t in enumerate(between) if i not in covered]
                filled = {i for s, e, _ in find_phrases(rest, self.fillers) for i in range(s, e)}
                if len(filled) < len(rest):
                    continue  # "X was observed in Y": the be-word is an auxiliary
            yield a.index, b.index, f"be-phrase '{hits[0][2]}' in '{' '.join(between)}'"
