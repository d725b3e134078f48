"""``acronym``: a word made of a multi-word concept's initials names the same thing.

Seed 001, "Acronym match": the first letters of the words of a concept with two or more words are
compared with whole words of other concepts; a word equal to all the initials, or to some of them
in order, links the two ("Methicillin-resistant Staphylococcus aureus" / "MRSA": hyphenated parts
count as words, so the initials are m-r-s-a).

Readings of the seed, each a parameter:
* Initials are taken after dropping common words ("the", "of") but not adjectives: the seed's
  adjective conditioning would reduce "chronic obstructive pulmonary disease" to "disease".
* "Some of them in order" (``subsequence``) must start with the first initial and cover
  ``min_coverage`` of the initials, or every two-letter word would match some long concept.
* The word must look like an acronym in the text (``min_upper`` capitals, more capitals than
  lowercase letters, plural "s" allowed: "MRSA", "FGFs"); 0 accepts any word (all-lowercase text).
* ``match: word`` (seed) accepts the acronym anywhere in the other concept ("MRSA bacteremia");
  ``match: concept`` needs the other concept to be the acronym alone (after common words).
* ``antecedents: nearest`` links each concept holding the acronym to the nearest long form
  (the earlier one if any); ``all`` links every pair.
Long forms with more than ``max_words`` words are skipped (an acronym that long is not written).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..document import Concept, Document
from ..rules.schema import Param
from . import Context, Pass, register
from .predicates import acronym_letters, acronym_matches, initials

_BRACKETS = frozenset("([{")
_CACHE_LIMIT = 200_000  # token sequences remembered per process; cleared when exceeded


@register("acronym")
class Acronym(Pass):
    params = {
        "common_words": Param("wordlist", default="resources/lexicons/common_words.txt",
                              help="words left out of the initials ('of', 'the', ...)"),
        "min_words": Param("int", default=2, minimum=2, help="a long form has at least this many words (seed: 2)"),
        "max_words": Param("int", default=8, minimum=2, help="longer concepts are not taken as long forms"),
        "min_letters": Param("int", default=2, minimum=1, help="shortest acronym"),
        "min_upper": Param("int", default=2, minimum=0,
                           help="capital letters an acronym needs in the text (0: any word)"),
        "subsequence": Param("bool", default=True, help="also accept some of the initials in order (seed)"),
        "min_coverage": Param("float", default=0.6, minimum=0.0, maximum=1.0,
                              help="share of the initials a partial acronym must use"),
        "match": Param("choice", default="word", allowed=("word", "concept"),
                       help="the acronym is any word of the other concept (seed) or the whole concept"),
        "antecedents": Param("choice", default="nearest", allowed=("nearest", "all"),
                             help="link each acronym mention to the nearest long form, or to all of them"),
    }

    def setup(self) -> None:
        self.common = self.lexicon("common_words").words
        self._analysis: dict[tuple[str, ...], tuple[tuple[tuple[str, str], ...], str | None]] = {}

    def _content(self, tokens: tuple[str, ...]) -> list[str]:
        return [t for t in tokens if t.lower() not in self.common and any(ch.isalnum() for ch in t)]

    def analyse(self, tokens: tuple[str, ...]) -> tuple[tuple[tuple[str, str], ...], str | None]:
        """The acronym-like words (letters, token) a mention offers and its initials as a long form
        (None if it is not one); cached per token sequence."""
        hit = self._analysis.get(tokens)
        if hit is not None:
            return hit
        if len(self._analysis) > _CACHE_LIMIT:
            self._analysis.clear()
        p = self.p
        content = self._content(tokens)
        acros: list[tuple[str, str]] = []
        if p["match"] == "word" or len(content) == 1:
            for tok in content:
                letters = acronym_letters(tok, p["min_upper"])
                if letters and len(letters) >= p["min_letters"]:
                    acros.append((letters, tok))
        # the long form stops at a bracket: "otitis media ( OM )" -> "otitis media"
        head_part = tokens
        for k, t in enumerate(tokens):
            if k and t in _BRACKETS:
                head_part = tokens[:k]
                break
        long_form = self._content(head_part)
        init = None
        if p["min_words"] <= len(long_form) <= p["max_words"]:
            init = initials(long_form)
            if len(init) < p["min_letters"]:
                init = None
        hit = self._analysis[tokens] = (tuple(acros), init)
        return hit

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        p = self.p
        same_type = self.scope.same_type
        tokens, starts, ends = doc.concept_tokens, doc.concept_starts, doc.concept_ends
        # acronym letters -> [(concept, token, type key)], and the distinct letters by first letter
        acros: dict[str, list[tuple[int, str, str]]] = {}
        long_forms: list[tuple[Concept, str]] = []
        for c in self.candidates(doc):
            words, init = self.analyse(tokens[c.index])
            key = c.type if same_type else ""
            for letters, tok in words:
                acros.setdefault(letters, []).append((c.index, tok, key))
            if init is not None:
                long_forms.append((c, init))
        if not acros or not long_forms:
            return
        by_first: dict[str, list[str]] = {}
        for letters in acros:
            by_first.setdefault(letters[0], []).append(letters)
        verdicts: dict[tuple[str, str], bool] = {}
        found: dict[int, list[tuple[int, str]]] = {}  # acronym concept -> [(long form, evidence)]
        for c, init in long_forms:
            key = c.type if same_type else ""
            cs, ce = starts[c.index], ends[c.index]
            for letters in by_first.get(init[0], ()):
                ok = verdicts.get((letters, init))
                if ok is None:
                    ok = verdicts[(letters, init)] = acronym_matches(
                        letters, init, subsequence=p["subsequence"], min_coverage=p["min_coverage"],
                        min_letters=p["min_letters"])
                if not ok:
                    continue
                how = "initials" if letters == init else "some initials in order"
                for j, tok, jkey in acros[letters]:
                    if j == c.index or jkey != key:
                        continue
                    if starts[j] <= ce and cs <= ends[j]:
                        continue  # overlapping spans: the acronym inside its own long form
                    found.setdefault(j, []).append((c.index, f"'{tok}' = {how} '{init}' of '{c.text}'"))
        for j in sorted(found):
            forms = sorted(found[j])
            if p["antecedents"] == "nearest":
                earlier = [f for f in forms if f[0] < j]
                forms = [earlier[-1]] if earlier else forms[:1]
            seen = set()
            for i, evidence in forms:
                if i not in seen:
                    seen.add(i)
                    yield i, j, evidence
