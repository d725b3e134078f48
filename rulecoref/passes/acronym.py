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

Every concept is analysed (cached across documents: one-token mentions by their token, the others
by their token sequence) with lookups done in C-level maps; then only the long forms whose initials
start like some acronym of the document are matched, once per distinct initials, and the evidence
strings are built only for the links made.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, compress, repeat
from operator import eq, is_, itemgetter, not_

from ..document import Concept, Document
from ..mentions import MentionCache
from ..rules.schema import Param
from . import Context, Pass, register
from .predicates import acronym_letters, acronym_matches, has_alnum, initials, scope_mask

_BRACKETS = frozenset("([{")
_CACHE_LIMIT = 200_000  # tokens and (letters, initials) pairs remembered per process; cleared when exceeded
_first, _second = itemgetter(0), itemgetter(1)


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
        # mention id -> analysis (acronym words, initials)
        self._analysis: MentionCache[tuple[tuple[tuple[str, str], ...], str | None]] = MentionCache()
        self._verdicts: dict[tuple[str, str], bool] = {}  # (acronym letters, initials) -> match
        self._one_word: dict[str, tuple[tuple[str, str], ...]] = {}  # token -> its acronym words
        self._is_content: dict[str, bool] = {}  # token -> neither a common word nor punctuation

    def _content(self, tokens: tuple[str, ...]) -> list[str]:
        """The tokens that are neither common words nor punctuation (decided once per token)."""
        content = self._is_content
        flags = list(map(content.get, tokens))
        if None in flags:
            if len(content) > _CACHE_LIMIT:
                content.clear()
            common = self.common
            for k, t in enumerate(tokens):
                if flags[k] is None:
                    flags[k] = content[t] = t.lower() not in common and has_alnum(t)
        return list(compress(tokens, flags))

    def one_word(self, token: str) -> tuple[tuple[str, str], ...]:
        """``analyse((token,))``'s acronym words (a one-token mention is never a long form: a long
        form has at least two words); cached per token."""
        hit = self._one_word.get(token)
        if hit is None:
            if len(self._one_word) > _CACHE_LIMIT:
                self._one_word.clear()
            hit = self._one_word[token] = self.analyse((token,))[0]
        return hit

    def analyse(self, tokens: tuple[str, ...]) -> tuple[tuple[tuple[str, str], ...], str | None]:
        """The acronym-like words (letters, token) a mention offers and its initials as a long form
        (None if it is not one)."""
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
        long_form = content if head_part is tokens else self._content(head_part)
        init = None
        if p["min_words"] <= len(long_form) <= p["max_words"]:
            init = initials(long_form)
            if len(init) < p["min_letters"]:
                init = None
        return (tuple(acros), init)

    def matches(self, letters: str, init: str) -> bool:
        """``acronym_matches`` with this pass's settings, cached per (letters, initials)."""
        key = (letters, init)
        hit = self._verdicts.get(key)
        if hit is None:
            if len(self._verdicts) > _CACHE_LIMIT:
                self._verdicts.clear()
            p = self.p
            hit = self._verdicts[key] = acronym_matches(letters, init, subsequence=p["subsequence"],
                                                        min_coverage=p["min_coverage"], min_letters=p["min_letters"])
        return hit

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        same_type = self.scope.same_type
        concepts = doc.concepts
        flat, tokens, starts, ends = doc.flat_tokens, doc.concept_tokens, doc.concept_starts, doc.concept_ends
        mask = scope_mask(doc, self.scope.admits_type, ctx.state)
        ids: range | list[int] = range(len(concepts)) if mask is None else list(compress(range(len(concepts)), mask))
        one_token = list(map(eq, map(starts.__getitem__, ids), map(ends.__getitem__, ids)))
        # one-token mentions (looked up by their token) only offer acronyms; the others are
        # analysed whole (looked up by their token sequence)
        single = list(compress(ids, one_token))
        words = list(map(flat.__getitem__, map(starts.__getitem__, single)))
        offered = list(map(self._one_word.get, words))
        for k in compress(range(len(words)), map(is_, offered, repeat(None))):  # tokens not seen before
            offered[k] = self.one_word(words[k])
        longer = list(compress(ids, map(not_, one_token)))
        analyses = self._analysis.lookup(list(map(doc.concept_ids.__getitem__, longer)),
                                         lambda k: tokens[longer[k]], self.analyse)
        # acronym letters -> [(concept, token, type key)], and the distinct letters by first letter
        # (the order of these lists does not matter: the matches are sorted below)
        acros: dict[str, list[tuple[int, str, str]]] = {}
        for i, pairs in chain(zip(compress(single, offered), compress(offered, offered)),
                              zip(compress(longer, map(_first, analyses)), filter(None, map(_first, analyses)))):
            key = concepts[i].type if same_type else ""
            for letters, tok in pairs:
                acros.setdefault(letters, []).append((i, tok, key))
        if not acros:
            return
        by_first: dict[str, list[str]] = {}
        for letters in acros:
            by_first.setdefault(letters[0], []).append(letters)
        # the long forms whose initials start like some acronym's letters; the letters each
        # distinct initials match
        long_at = list(compress(range(len(longer)), map(_second, analyses)))
        inits = list(map(_second, map(analyses.__getitem__, long_at)))
        at = list(compress(range(len(inits)), map(by_first.__contains__, map(_first, inits))))
        verdicts = self._verdicts
        matching: dict[str, list[str]] = {}
        for init in set(map(inits.__getitem__, at)):
            hits = []
            for letters in by_first[init[0]]:
                ok = verdicts.get((letters, init))
                if ok is None:
                    ok = self.matches(letters, init)
                if ok:
                    hits.append(letters)
            matching[init] = hits
        found: dict[int, list[tuple[int, str, str, str]]] = {}  # acronym concept -> [(long form, token, how, init)]
        for q in compress(at, map(matching.__getitem__, map(inits.__getitem__, at))):
            init = inits[q]
            i = longer[long_at[q]]
            key = concepts[i].type if same_type else ""
            cs, ce = starts[i], ends[i]
            for letters in matching[init]:
                how = "initials" if letters == init else "some initials in order"
                for j, tok, jkey in acros[letters]:
                    if j == i or jkey != key:
                        continue
                    if starts[j] <= ce and cs <= ends[j]:
                        continue  # overlapping spans: the acronym inside its own long form
                    found.setdefault(j, []).append((i, tok, how, init))
        nearest = self.p["antecedents"] == "nearest"
        for j in sorted(found):
            # the evidence strings break ties between two matches of one long form, so they are
            # built for the chosen long form(s) only
            forms = found[j]
            if nearest:
                earlier = [f[0] for f in forms if f[0] < j]
                i = max(earlier) if earlier else min(f[0] for f in forms)
                said = sorted(self._evidence(f, concepts) for f in forms if f[0] == i)
                yield i, j, said[-1] if earlier else said[0]
            else:
                for i in sorted({f[0] for f in forms}):
                    yield i, j, min(self._evidence(f, concepts) for f in forms if f[0] == i)

    @staticmethod
    def _evidence(form: tuple[int, str, str, str], concepts: list[Concept]) -> str:
        i, tok, how, init = form
        return f"'{tok}' = {how} '{init}' of '{concepts[i].text}'"
