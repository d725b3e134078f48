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

Most concepts have no be-phrase word after them, so the tokens that can start a be-phrase are
found first (one set lookup per token, over all their spellings) and only the concepts whose gap
to their neighbour holds one of them are examined; the rest of the document costs no Python-level
work. The verdict on a gap depends only on its tokens, so it is cached per token sequence.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from itertools import compress, count, repeat
from operator import add, gt, is_, le, lt, sub

from ..document import Document
from ..rules.schema import Param
from . import Context, Pass, register
from .predicates import case_variants, find_phrases, scope_mask

_CACHE_LIMIT = 100_000  # gaps remembered per process; cleared when exceeded



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
        # every spelling of a first word ("is", "Is", "IS", ...), so finding them is a set lookup
        # per token; None (unusual word lists) lowercases each distinct token of a document instead
        self.first_spellings = case_variants(self.first_words)
        self.blockers = self.lexicon("blockers").words
        fillers = self.lexicon("fillers")
        self.fillers = fillers.phrases if len(fillers) else None
        self.fillers_len = max((len(p) for p in self.fillers), default=0) if self.fillers else 0
        self._gaps: dict[tuple[str, ...], str] = {}  # tokens between two concepts -> evidence or ""

    def first_word_positions(self, flat: list[str]) -> list[int]:
        """Flat indices of the tokens whose lowercase starts a be-phrase, in text order."""
        spellings = self.first_spellings
        if spellings is None:
            distinct = list(set(flat))
            spellings = set(compress(distinct, map(self.first_words.__contains__, map(str.lower, distinct))))
        return list(compress(count(), map(spellings.__contains__, flat)))

    def gap_evidence(self, between: tuple[str, ...]) -> str:
        """The evidence for two concepts with these tokens between them, "" when the tokens do not
        equate them (no be-phrase, a blocker, or a word that is no filler); cached per token
        sequence, as the same few gaps ("is", ", which is") recur."""
        hit = self._gaps.get(between)
        if hit is not None:
            return hit
        if len(self._gaps) > _CACHE_LIMIT:
            self._gaps.clear()
        hit = self._gaps[between] = self._judge(between)
        return hit

    def _judge(self, between: tuple[str, ...]) -> str:
        if not any(t.lower() in self.first_words for t in between):
            return ""
        hits = find_phrases(between, self.phrases, self.max_len)
        if not hits:
            return ""
        covered = {i for s, e, _ in hits for i in range(s, e)}
        if any(i not in covered and t.lower() in self.blockers for i, t in enumerate(between)):
            return ""
        if self.fillers is not None:
            rest = [t for i, t in enumerate(between) if i not in covered]
            filled = {i for s, e, _ in find_phrases(rest, self.fillers, self.fillers_len) for i in range(s, e)}
            if len(filled) < len(rest):
                return ""  # "X was observed in Y": the be-word is an auxiliary
        return f"be-phrase '{hits[0][2]}' in '{' '.join(between)}'"

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        concepts = doc.concepts
        mask = scope_mask(doc, self.scope.admits_type, ctx.state)
        if mask is None:
            index: list[int] | range = range(len(concepts))
            starts, ends = doc.concept_starts, doc.concept_ends
        else:  # the candidates, and their spans, in text order
            index = list(compress(range(len(concepts)), mask))
            starts = list(compress(doc.concept_starts, mask))
            ends = list(compress(doc.concept_ends, mask))
        n = len(starts)
        if n < 2:
            return
        flat = doc.flat_tokens
        hits = self.first_word_positions(flat)
        if not hits:
            return
        max_gap = self.p["max_words_between"]
        same_line = self.p["same_line"]
        # A pair needs a first word p in the gap after its first concept: that concept ends before p,
        # at or after the last candidate start before p (else its neighbour starts before p) and at
        # most max_gap tokens before the first candidate start after p. Only candidates ending so
        # are examined, in text order.
        padded = [-1, *starts, 1 << 62]  # padded[i] / padded[i + 1]: last start <= p / first start > p
        at = list(map(bisect_right, repeat(starts), hits))
        lowest = list(map(max, map(padded.__getitem__, at), map(sub, map(padded.__getitem__, map(add, at, repeat(1))),
                                                                 repeat(max_gap + 1))))
        near: set[int] = set()
        for d in range(1, max_gap + 1):
            ends_at = list(map(sub, hits, repeat(d)))
            near.update(compress(ends_at, map(le, lowest, ends_at)))
        ks = list(compress(range(n), map(near.__contains__, ends)))
        if not ks:
            return
        k_ends = list(map(ends.__getitem__, ks))
        # "[the culture of [the wound]] is ...": the outer phrase is the subject, so a candidate is
        # skipped when another one ending on its last token starts earlier (every candidate ending
        # there is in ks; the first of them in text order starts earliest)
        first = dict(zip(reversed(k_ends), reversed(ks)))
        k_starts = list(map(starts.__getitem__, ks))
        inner = map(lt, map(starts.__getitem__, map(first.__getitem__, k_ends)), k_starts)
        # the neighbour starts at the first candidate start after the end (there is one: see near)
        nexts = list(map(bisect_right, repeat(starts), k_ends))
        nstarts = list(map(starts.__getitem__, nexts))
        between = list(map(tuple, map(flat.__getitem__, map(slice, map(add, k_ends, repeat(1)), nstarts))))
        said = list(map(self._gaps.get, between))
        for q in compress(range(len(ks)), map(is_, said, repeat(None))):  # gaps not seen before
            said[q] = self.gap_evidence(between[q])
        for q in compress(range(len(ks)), map(gt, map(bool, said), inner)):  # evidence, not an inner phrase
            nxt, nstart = nexts[q], nstarts[q]
            # of several candidates starting on the neighbour's token, the longest (the whole noun phrase)
            last = bisect_right(starts, nstart, nxt) - 1
            m = nxt if last == nxt else max(range(nxt, last + 1), key=lambda m: (ends[m], -m))
            a, b = concepts[index[ks[q]]], concepts[index[m]]
            if same_line and a.end[0] != b.start[0]:
                continue
            yield a.index, b.index, said[q]
