"""``head_synonym``: two concepts whose meaning-bearing words all match are one thing.

Seed 001, "Head and synonym match": after common-word conditioning (``conditioning.Conditioner``:
drop common words and WordNet adjectives, strip non-letters), two concepts of one type are linked
when every remaining word of one matches some word of the other. Two words match when the first
80% of the shorter word's characters equal the longer word's ("abscess" / "abscesses") or when
WordNet lists them as synonyms ("tumor" / "neoplasm"). Because only one side has to be covered,
"Recurrent soft tissue abscess in the gluteal region" links to "tissue abscesses".

Choices beyond the seed, each a parameter:
* ``min_prefix``: a prefix match needs at least this many shared characters, otherwise the words
  must be equal; without it a one-letter word ("b" of "hepatitis b") matches every word starting
  with that letter.
* ``max_ending``: the words may differ only by endings of a few letters and no digits, so the
  80% rule keeps "abscess" / "abscesses" but drops "actin" / "activation" and "abcg5" / "abcg8".
* ``synonym_senses``: synonyms come from the word's most frequent senses only, so that rare senses
  do not match "blood" with "line" (blood.n.02 = lineage).
* ``keep_digits``: keep digits inside words, so "type 1 diabetes" is not "type 2 diabetes".
* ``head_match``: the heads (last meaning-bearing word before a preposition, relative word or
  bracket) must match as well, as in Stanford's strict head match: "striatal neurons" does not join
  "the striatal volume , the lower the neuron - packing density".
* ``covered: later``: only the later mention's words must all be matched (Stanford's word
  inclusion): a later mention rarely adds modifiers to the same entity ("mice" ... "mutant mice").
* Mentions that overlap are never linked (a phrase does not corefer with a part of itself).
* ``antecedents``: the seed kept every matching pair. ``nearest`` links each mention only to its
  nearest earlier match; the chains are the same whenever the matches are transitive, the number
  of links stays linear, and a link a filter removes is less often restored by a parallel path.

Candidates come from an index, not from comparing all pairs: each head (or each word, without
``head_match``) points to the concepts holding it, and a mention's candidate antecedents are those
whose head matches its head (or that hold a match of its rarest word), scanned from the nearest back.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Mapping
from heapq import merge

from ..document import Concept, Document
from ..rules.schema import Param
from . import Context, Pass, register
from .conditioning import Conditioner
from .predicates import endings_ok, prefix_len

_CACHE_LIMIT = 200_000  # token sequences remembered per process; cleared when exceeded


@register("head_synonym")
class HeadSynonym(Pass):
    params = {
        "common_words": Param("wordlist", default="resources/lexicons/common_words.txt",
                              help="words dropped before comparing (conjunctions, pronouns, determiners, ...)"),
        "prefix_ratio": Param("float", default=0.8, minimum=0.1, maximum=1.0,
                              help="share of the shorter word's characters that must equal the longer word's"),
        "min_prefix": Param("int", default=1, minimum=1,
                            help="a prefix match needs at least this many characters, else words must be equal"),
        "max_ending": Param("int", default=0, minimum=0,
                            help="prefix-matched words may differ only by endings this long, without digits (0 = seed: any)"),
        "wordnet_synonyms": Param("bool", default=True, help="WordNet noun synonyms also match"),
        "synonym_senses": Param("int", default=0, minimum=0,
                                help="synonyms from the word's N most frequent senses (0 = all senses)"),
        "drop_adjectives": Param("bool", default=True, help="drop words WordNet knows only as adjectives"),
        "keep_digits": Param("bool", default=False, help="keep digits in words (seed: strip every non-letter)"),
        "head_match": Param("bool", default=False,
                            help="the heads (last word before a head stop) must match too (Stanford's strict head match)"),
        "head_stops": Param("wordlist", default="resources/lexicons/head_stops.txt",
                            help="words where a noun phrase's post-modifiers begin (prepositions, 'which', '(')"),
        "covered": Param("choice", default="either", allowed=("either", "later"),
                         help="whose words must all match: either mention's (seed) or the later mention's"),
        "antecedents": Param("choice", default="nearest", allowed=("nearest", "all"),
                             help="link each mention to its nearest earlier match, or every matching pair (seed)"),
    }
    needs = ("wordnet",)

    def setup(self) -> None:
        wants_wn = self.p["wordnet_synonyms"] or self.p["drop_adjectives"]
        self.wordnet = self.resources.wordnet if wants_wn else None
        self.condition = Conditioner(self.lexicon("common_words"), self.wordnet,
                                     drop_adjectives=self.p["drop_adjectives"], keep_digits=self.p["keep_digits"])
        self.ratio = float(self.p["prefix_ratio"])
        self.min_prefix = int(self.p["min_prefix"])
        self.max_ending = int(self.p["max_ending"])
        self.senses = int(self.p["synonym_senses"])
        self.use_synonyms = bool(self.p["wordnet_synonyms"])
        self.head_match = bool(self.p["head_match"])
        self.head_stops = self.lexicon("head_stops").words
        self._analysis: dict[tuple[str, ...], tuple[frozenset[str], str | None]] = {}

    def core(self, tokens: list[str]) -> list[str]:
        """The tokens before the first head stop: "soft tissue abscess in the gluteal region" ->
        "soft tissue abscess" (a stop as the first token does not count)."""
        for k, tok in enumerate(tokens):
            if k and tok.lower() in self.head_stops:
                return tokens[:k]
        return tokens

    def head(self, tokens: list[str]) -> str | None:
        """The conditioned head word: the last meaning-bearing word before the first head stop.
        "Recurrent soft tissue abscess in the gluteal region" -> "abscess"."""
        words = self.condition(self.core(tokens))
        return words[-1] if words else None

    # -- word level ----------------------------------------------------------------------------
    def _synonyms(self, word: str) -> frozenset[str]:
        if self.wordnet is None or not word.isalpha():
            return frozenset()  # numbers and names with digits ("4", "pax6") have no useful synonyms
        return self.wordnet.synonyms(word, "n", self.senses)

    def word_matches(self, vocab: set[str]) -> dict[str, set[str]]:
        """For each word, the words of ``vocab`` it matches (itself included), via a prefix index."""
        out = {w: {w} for w in vocab}
        keys: dict[str, list[str]] = {}
        for u in vocab:
            k = prefix_len(len(u), self.ratio)
            if k >= self.min_prefix:
                keys.setdefault(u[:k], []).append(u)
        lengths = sorted({len(k) for k in keys})
        for v in vocab:
            for length in lengths:
                if length > len(v):
                    break
                for u in keys.get(v[:length], ()):
                    if u != v and len(u) <= len(v) and endings_ok(u, v, length, self.max_ending):
                        out[u].add(v)
                        out[v].add(u)
        if self.use_synonyms and self.wordnet is not None:
            for u in vocab:
                for s in self._synonyms(u):
                    if s != u and s in vocab:
                        out[u].add(s)
                        out[s].add(u)
        return out

    def why(self, w: str, u: str) -> str:
        if w == u:
            return w
        short, long_ = (w, u) if len(w) <= len(u) else (u, w)
        k = prefix_len(len(short), self.ratio)
        if k >= self.min_prefix and short[:k] == long_[:k] and endings_ok(short, long_, k, self.max_ending):
            return f"{w}~{u} (prefix '{short[:k]}')"
        return f"{w}~{u} (wordnet synonyms)"

    # -- concept level -------------------------------------------------------------------------
    def analyse(self, tokens: tuple[str, ...]) -> tuple[frozenset[str], str | None]:
        """Conditioned words and head of a mention's tokens (cached per token sequence)."""
        hit = self._analysis.get(tokens)
        if hit is None:
            if len(self._analysis) > _CACHE_LIMIT:
                self._analysis.clear()
            words = frozenset(self.condition(tokens))
            hit = (words, self.head(list(tokens)) if self.head_match and words else None)
            self._analysis[tokens] = hit
        return hit

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        groups: dict[str, list[Concept]] = {}
        same_type = self.scope.same_type
        words: dict[int, frozenset[str]] = {}
        heads: dict[int, str | None] = {}
        tokens = doc.concept_tokens
        for c in self.candidates(doc):
            ws, head = self.analyse(tokens[c.index])
            if ws:
                words[c.index] = ws
                heads[c.index] = head
                groups.setdefault(c.type if same_type else "", []).append(c)
        groups = {k: g for k, g in groups.items() if len(g) > 1}
        if not groups:
            return
        match = self.word_matches({w for g in groups.values() for c in g for w in words[c.index]})
        for group in groups.values():
            yield from self._link_group(doc, group, words, heads, match, ctx.links)

    def _link_group(self, doc: Document, group: list[Concept], words: dict[int, frozenset[str]],
                    heads: dict[int, str | None], match: dict[str, set[str]],
                    linked: Mapping[tuple[int, int], object]):
        """Walk the mentions in text order; for each, scan earlier candidates from the nearest back.

        With ``head_match`` a candidate antecedent j of mention i is a mention whose head matches
        i's head ("striatal neurons" is not "the striatal volume , ... neuron density"), so the
        candidates come straight from an index of heads. Without it, j must hold a match of i's
        rarest word, since it has to cover all of i's words; with ``covered: either`` also the
        mentions whose own rarest word matches a word of i (i covers j). Postings are in text
        order, so the candidates come out nearest first, lazily. A pair an earlier pass already
        linked (exact_match) counts as found but is not proposed again.
        """
        either = self.p["covered"] == "either"
        nearest = self.p["antecedents"] == "nearest"
        postings: dict[str, list[int]] = {}
        anchors: dict[int, str | None] = {}
        anchor_post: dict[str, list[int]] = {}
        if self.head_match:
            anchors = heads
            for c in group:
                if heads[c.index] is not None:
                    postings.setdefault(heads[c.index], []).append(c.index)
        else:
            for c in group:
                for w in words[c.index]:
                    postings.setdefault(w, []).append(c.index)
            for c in group:
                i = c.index
                a = anchors[i] = min(words[i], key=lambda w: (len(postings[w]), w))
                if either:
                    anchor_post.setdefault(a, []).append(i)
        start, end = doc.concept_starts, doc.concept_ends
        concepts = doc.concepts
        for c in group:
            i = c.index
            a = anchors[i]
            if a is None:
                continue
            wi = words[i]
            lists = [postings[u] for u in match[a] if u in postings]
            if anchor_post:
                lists += [anchor_post[u] for w in wi for u in match[w] if u in anchor_post]
            streams = [reversed(lst[: bisect_left(lst, i)]) for lst in lists]
            last = -1
            for j in merge(*streams, reverse=True) if len(streams) > 1 else (streams[0] if streams else ()):
                if j == last:
                    continue
                last = j
                if start[i] <= end[j] and start[j] <= end[i]:
                    continue  # overlapping mentions: a phrase and a part of it
                wj = words[j]
                if all(not wj.isdisjoint(match[w]) for w in wi) or (
                        either and all(not wi.isdisjoint(match[w]) for w in wj)):
                    if (j, i) not in linked:
                        yield j, i, self._evidence(concepts[j], concepts[i], words, match)
                    if nearest:
                        break

    def _evidence(self, a: Concept, b: Concept, words: dict[int, frozenset[str]], match: dict[str, set[str]]) -> str:
        wa, wb = words[a.index], words[b.index]
        # explain from the side whose words are all covered (the shorter one when both are)
        cov_a = all(match[w] & wb for w in wa)
        cov_b = all(match[w] & wa for w in wb)
        if not cov_a or (cov_b and len(wb) < len(wa)):
            a, b, wa, wb = b, a, wb, wa
        parts = [self.why(w, min(match[w] & wb, key=lambda u: (u != w, u))) for w in sorted(wa)]
        return f"all words of '{a.text}' match '{b.text}': " + ", ".join(parts)
