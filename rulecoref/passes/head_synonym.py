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

How it runs fast (the pass sees every mention of every document):
* Whether two words match does not depend on the document, so the relation is kept for the whole
  process (``WordMatches``): each word, when first seen, is compared once with the words seen
  before through two prefix indexes and WordNet, and from then on its matches are one lookup.
  A mention's analysis (its words, its head, its other words and one of them as the anchor) is
  likewise cached by token sequence. Both caches are bounded and cleared together.
* Candidates come from an index, not from comparing all pairs. With ``head_match`` the mentions of
  a group are walked in text order; each head keeps the chain of the mentions seen so far with
  that head, and heads that match each other are noted as they appear, so a mention's candidate
  antecedents are the chains of the heads that match its head, read nearest first. When only the
  later mention must be covered, a mention with words besides its head looks only at candidates
  filed under a match of its anchor: the head and the anchor are then covered by construction and
  only its remaining words are checked (none, for most mentions). Without ``head_match`` a
  candidate j of mention i holds a match of i's rarest word (j must cover all of i's words); with
  ``covered: either`` also the mentions whose own rarest word matches a word of i (i covers j).
* The evidence string is built only when somebody reads it (a callable; see ``Provenance``).
A pair an earlier pass already linked (exact_match) counts as found but is not proposed again.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from heapq import merge
from operator import attrgetter, itemgetter
from typing import Any

from ..document import Concept, Document
from ..mentions import MentionCache
from ..rules.schema import Param
from . import Context, Pass, register
from .conditioning import Conditioner
from .predicates import endings_ok, prefix_len, prefix_match

_index = attrgetter("index")
_first, _second = itemgetter(0), itemgetter(1)
_CACHE_LIMIT = 200_000  # token sequences (and words) remembered per process; cleared when exceeded

# A mention's analysis: its conditioned words, its head (None without head_match or when the words
# before the first head stop are all dropped), its words other than the head, one of these (the
# anchor, None when there are none) and the others (None when there are none).
Analysis = tuple[frozenset[str], "str | None", frozenset[str], "str | None", "frozenset[str] | None"]


class WordMatches:
    """The word-match relation of one parameter set, over every word seen so far in the process.

    ``matches[w]`` holds the words seen so far that match ``w`` (``w`` first) as a tuple of str,
    which the garbage collector stops tracking once it has seen it. The relation does not depend
    on the document,
    so for the words of any one document it is the same relation as one built from that document's
    vocabulary alone. A new word ``x`` finds the words it matches through
    * ``keys``: a word u of prefix length k = ceil(ratio * len(u)) >= min_prefix is filed under
      u[:k]; x, as the longer word, looks up x[:L] for each L it could share (with ``max_ending``
      only the last few L, since longer endings never match);
    * ``probes``: x[:L] for those same L, so a later, shorter word finds x under its own key;
    * ``synonym_of``: the words whose WordNet synonyms include a given string, so that a pair is
      found whichever of the two words lists the other.
    """

    def __init__(self, ratio: float, min_prefix: int, max_ending: int,
                 synonyms: Callable[[str], frozenset[str]] | None):
        self.ratio = ratio
        self.min_prefix = min_prefix
        self.max_ending = max_ending
        self.synonyms = synonyms
        self.matches: dict[str, tuple[str, ...]] = {}
        self.keys: dict[str, list[str]] = {}
        self.probes: dict[str, list[str]] = {}
        self.synonym_of: dict[str, list[str]] = {}

    def __len__(self) -> int:
        return len(self.matches)

    def clear(self) -> None:
        self.matches.clear()
        self.keys.clear()
        self.probes.clear()
        self.synonym_of.clear()

    def _lengths(self, n: int) -> range:
        """Prefix lengths under which a word of ``n`` characters may match a shorter or equal word."""
        low = self.min_prefix if self.max_ending <= 0 else max(self.min_prefix, n - self.max_ending)
        return range(max(low, 1), n + 1)

    def add(self, x: str) -> None:
        """File a new word and record its matches with every word filed before."""
        matches = self.matches
        if x in matches:
            return
        me = self.max_ending
        found: set[str] = set()
        n = len(x)
        k = prefix_len(n, self.ratio)
        key = x[:k] if k >= self.min_prefix else None
        if key is not None:  # x as the shorter word
            for v in self.probes.get(key, ()):
                if len(v) >= n and endings_ok(x, v, k, me):
                    found.add(v)
        keys = self.keys
        lengths = self._lengths(n)
        for length in lengths:  # x as the longer word
            for u in keys.get(x[:length], ()):
                if len(u) <= n and endings_ok(u, x, length, me):
                    found.add(u)
        syn: frozenset[str] = frozenset()
        if self.synonyms is not None:
            syn = self.synonyms(x)
            found.update(s for s in syn if s in matches)
            found.update(self.synonym_of.get(x, ()))
        found.discard(x)
        matches[x] = (x, *found)
        for y in found:
            matches[y] = (*matches[y], x)
        if key is not None:
            keys.setdefault(key, []).append(x)
        probes = self.probes
        for length in lengths:
            probes.setdefault(x[:length], []).append(x)
        for s in syn:
            if s != x:
                self.synonym_of.setdefault(s, []).append(x)


def _covers(others: frozenset[str], wj: frozenset[str], matches: Mapping[str, frozenset[str]]) -> bool:
    """Does a mention with the words ``wj`` hold a match of each word in ``others``?"""
    for w in others:
        if w not in wj and wj.isdisjoint(matches[w]):
            return False
    return True


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
        self.use_synonyms = bool(self.p["wordnet_synonyms"]) and self.wordnet is not None
        self.head_match = bool(self.p["head_match"])
        self.either = self.p["covered"] == "either"
        self.nearest = self.p["antecedents"] == "nearest"
        self.head_stops = self.lexicon("head_stops").words
        self.relation = WordMatches(self.ratio, self.min_prefix, self.max_ending,
                                    self._synonyms if self.use_synonyms else None)
        self._analysis: dict[tuple[str, ...], Analysis] = {}
        self._by_id: MentionCache[Analysis] = MentionCache()  # the same analyses, by mention id

    def core(self, tokens: list[str]) -> list[str]:
        """The tokens before the first head stop: "soft tissue abscess in the gluteal region" ->
        "soft tissue abscess" (a stop as the first token does not count)."""
        return tokens[: self._core_len(tokens)]

    def _core_len(self, tokens: Sequence[str]) -> int:
        stops = self.head_stops
        for k in range(1, len(tokens)):
            if tokens[k].lower() in stops:
                return k
        return len(tokens)

    def head(self, tokens: list[str]) -> str | None:
        """The conditioned head word: the last meaning-bearing word before the first head stop.
        "Recurrent soft tissue abscess in the gluteal region" -> "abscess"."""
        return self._head(tokens, list(map(self.condition.word, tokens)))

    def _head(self, tokens: Sequence[str], conditioned: list[str]) -> str | None:
        """``head`` given each token's conditioned word ("" when dropped)."""
        for w in reversed(conditioned[: self._core_len(tokens)]):
            if w:
                return w
        return None

    # -- word level ----------------------------------------------------------------------------
    def _synonyms(self, word: str) -> frozenset[str]:
        if self.wordnet is None or not word.isalpha():
            return frozenset()  # numbers and names with digits ("4", "pax6") have no useful synonyms
        return self.wordnet.synonyms(word, "n", self.senses)

    def _prefix_matched(self, u: str, v: str) -> bool:
        """The seed's 80% prefix test with this pass's guards (``predicates.prefix_match``)."""
        return prefix_match(u, v, self.ratio, min_prefix=self.min_prefix, max_ending=self.max_ending)

    def word_match(self, u: str, v: str) -> bool:
        """Whether two conditioned words match (the relation ``WordMatches`` indexes), from scratch."""
        if self._prefix_matched(u, v):  # equal words included
            return True
        return self.use_synonyms and (v in self._synonyms(u) or u in self._synonyms(v))

    def why(self, w: str, u: str) -> str:
        if w == u:
            return w
        if self._prefix_matched(w, u):
            return f"{w}~{u} (prefix '{min(w, u, key=len)[: prefix_len(min(len(w), len(u)), self.ratio)]}')"
        return f"{w}~{u} (wordnet synonyms)"

    # -- concept level -------------------------------------------------------------------------
    def analyse(self, tokens: tuple[str, ...]) -> Analysis:
        """Conditioned words, head and non-head words of a mention's tokens (cached per token
        sequence); the words join the process's word-match relation. ``propose`` bounds the cache,
        between documents."""
        hit = self._analysis.get(tokens)
        if hit is None:
            conditioned = list(map(self.condition.word, tokens))  # one word per token, "" when dropped
            words = frozenset(filter(None, conditioned))
            head = self._head(tokens, conditioned) if self.head_match and words else None
            rest = words - {head} if head is not None else words
            for w in words:
                self.relation.add(w)
            # the anchor: the longest word besides the head (longer words are rarer)
            anchor = min(rest, key=lambda w: (-len(w), w)) if rest else None
            others = rest - {anchor} if len(rest) > 1 else None
            hit = self._analysis[tokens] = (words, head, rest, anchor, others)
        return hit

    def _forget(self) -> None:
        """Clear the per-process caches together: every analysed word must stay in the relation."""
        self._analysis.clear()
        self._by_id.clear()
        self.relation.clear()

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, Any]]:
        if len(self._analysis) > _CACHE_LIMIT or len(self.relation) > _CACHE_LIMIT:
            self._forget()  # between documents only: a document's words must stay in the relation
        if not self.head_match:
            for links in self._link_words(doc, ctx.links):
                yield from links
            return
        groups = [self._analyses(doc, members) for members in self._groups(doc)]
        if len(groups) > 1:  # groups in the order of their first mention with words, as always
            groups.sort(key=lambda g: next((i for i, rec in zip(*g) if rec[0]), len(doc.concepts)))
        linked = ctx.links
        if self.nearest and not self.either:
            # Pairs linked before, by their later mention: ``partner[i]`` is one mention linked
            # with i, the only one when ``alone`` (the usual case), so ints answer "linked before?"
            # (this pass's own links never come up again: each mention is the later one once).
            partner = dict(zip(map(_second, linked), map(_first, linked)))
            alone = len(partner) == len(linked)
            for indices, recs in groups:
                yield from self._link_nearest_later(doc, indices, recs, linked, partner, alone)
        else:
            for indices, recs in groups:
                yield from self._link_heads(doc, indices, recs, linked)

    def _groups(self, doc: Document) -> list[list[Concept]]:
        """The candidate concepts that may link with each other: one group per admitted type (in
        text order), or all of them when the scope lets types mix."""
        if not self.scope.same_type:
            return [self.candidates(doc)]
        admits = self.scope.admits_type
        return [doc.of_type(t) for t in doc.types if admits(t)]

    def _evidence_of(self, concepts: list[Concept], words: list[frozenset[str]], a: int, b: int) -> str:
        """``_evidence`` for concept indices (a document's concepts and their words by index)."""
        return self._evidence(concepts[a], concepts[b], words[a], words[b])

    def _evidence(self, a: Concept, b: Concept, wa: frozenset[str], wb: frozenset[str]) -> str:
        """Why mentions a (earlier) and b match, from the side whose words are all covered (the
        shorter one when both are)."""
        text_a, text_b = a.text, b.text
        matches = self.relation.matches
        if all(w in matches for w in wa) and all(w in matches for w in wb):
            def hits(w: str, other: frozenset[str]) -> frozenset[str]:
                return other.intersection(matches[w])
        else:  # the relation was cleared since (a long batch): compare the words afresh
            def hits(w: str, other: frozenset[str]) -> frozenset[str]:
                return frozenset(u for u in other if self.word_match(w, u))
        cov_a = all(hits(w, wb) for w in wa)
        cov_b = all(hits(w, wa) for w in wb)
        if not cov_a or (cov_b and len(wb) < len(wa)):
            text_a, text_b, wa, wb = text_b, text_a, wb, wa
        parts = [self.why(w, min(hits(w, wb), key=lambda u: (u != w, u))) for w in sorted(wa)]
        return f"all words of '{text_a}' match '{text_b}': " + ", ".join(parts)

    # ``head_match`` ----------------------------------------------------------------------------
    # A group's mentions are walked in text order. A mention's candidate antecedents are the
    # mentions seen so far whose head matches its head. When only the later mention must be
    # covered and it has words besides its head, a candidate must also hold a match of one of them
    # (the anchor), so the candidates are the mentions with a matching head filed under a match of
    # the anchor, or all of them when their head itself matches the anchor: the head and the
    # anchor are then covered by construction, and only the mention's other words are checked.
    # Candidates are read nearest first; overlapping mentions never link.

    def _analyses(self, doc: Document, members: list[Concept]) -> tuple[list[int], list[Analysis]]:
        """The members' concept indices and analyses (looked up in bulk: most are cached)."""
        tokens, ids = doc.concept_tokens, doc.concept_ids
        if len(members) == len(tokens):  # every concept of the document
            indices: list[int] = list(range(len(tokens)))
            return indices, self._by_id.lookup(ids, tokens.__getitem__, self.analyse)
        indices = list(map(_index, members))
        return indices, self._by_id.lookup(list(map(ids.__getitem__, indices)),
                                           lambda k: tokens[indices[k]], self.analyse)

    @staticmethod
    def _new_head(h: str, heads: dict[str, list[int]], near: dict[str, tuple[str, ...]],
                  matches: dict[str, tuple[str, ...]]) -> list[int]:
        """A head seen for the first time in a group: it joins the heads it matches, and they it."""
        for g in matches[h]:
            if g != h and g in heads:
                near[h] = near.get(h, (h,)) + (g,)
                near[g] = near.get(g, (g,)) + (h,)
        everyone = heads[h] = []
        return everyone

    def _link_nearest_later(self, doc: Document, indices: list[int], recs: list[Analysis],
                            linked: Mapping[tuple[int, int], object], partner: dict[int, int],
                            alone: bool) -> Iterator[tuple[int, int, Any]]:
        """``covered: later``, ``antecedents: nearest`` (the rule files' setting): for each mention
        the nearest earlier mention that covers it.

        The postings are chains of ints rather than lists: ``last[h]`` is the latest mention with
        head h (``last_near[h]`` when other heads seen so far match h: ``near[h]``, h first) and
        ``prev[i]`` the one before i with the same head; ``words[h][u]`` is the latest slot of the
        mentions with head h and the other word u, ``slot_of[s]`` its mention and ``slot_prev[s]``
        the slot before. Dicts of ints are not tracked by the garbage collector, so a document
        costs it a handful of containers, not one per head and word. The usual mention, one word
        and a head no other head matches, takes the first branch.
        """
        matches = self.relation.matches
        start, end = doc.concept_starts, doc.concept_ends
        concepts = doc.concepts
        seen: list[frozenset[str]] = [frozenset()] * len(concepts)  # words of the mentions seen
        explain = partial(self._evidence_of, concepts, seen)
        last: dict[str, int] = {}
        last_near: dict[str, int] = {}
        near: dict[str, tuple[str, ...]] = {}
        prev = [-1] * len(concepts)
        words: dict[str, dict[str, int]] = {}
        slot_of: list[int] = []
        slot_prev: list[int] = []
        for i, (wi, h, rest, anchor, others) in zip(indices, recs):
            if h is None:
                continue
            seen[i] = wi
            top = last.get(h)
            if top is not None and anchor is None:  # the nearest that does not overlap
                best = top
                si = start[i]
                while best >= 0 and si <= end[best] and start[best] <= end[i]:
                    best = prev[best]
                prev[i] = top
                last[h] = i
            else:
                hs: tuple[str, ...] | None = None  # the heads that match h, when there are others
                if top is None:
                    top = last_near.get(h)
                    if top is None:  # a new head: which heads seen so far match it?
                        top = -1
                        for g in matches[h]:
                            if g != h:
                                if g in last:
                                    last_near[g] = last.pop(g)
                                elif g not in last_near:
                                    continue
                                near[g] = near.get(g, (g,)) + (h,)
                                near[h] = near.get(h, (h,)) + (g,)
                    hs = near.get(h)
                best = -1
                filed = words.get(h) if anchor is not None else None
                if top >= 0 or hs is not None:  # else nothing earlier has a matching head
                    si, ei = start[i], end[i]
                    am = matches[anchor] if anchor is not None else ()
                    for g in hs or (h,):
                        if anchor is None or g in am:  # every mention with head g covers i's words
                            j = top if g == h else last_near[g]
                            while j > best:
                                # not overlapping, and (for a longer mention) covering i's other words
                                if (si > end[j] or start[j] > ei) and (
                                        others is None or others <= (wj := seen[j]) or _covers(others, wj, matches)):
                                    best = j
                                    break
                                j = prev[j]
                            continue
                        index = filed if g == h else words.get(g)
                        if index is None:
                            continue
                        for u in am:  # the mentions with head g holding a match of the anchor
                            s = index.get(u, -1)
                            while s >= 0:
                                j = slot_of[s]
                                if j <= best:
                                    break
                                if (si > end[j] or start[j] > ei) and (
                                        others is None or others <= (wj := seen[j]) or _covers(others, wj, matches)):
                                    best = j
                                    break
                                s = slot_prev[s]
                if anchor is not None:
                    if filed is None:
                        filed = words[h] = {}
                    for u in rest:
                        slot_prev.append(filed.get(u, -1))
                        filed[u] = len(slot_of)
                        slot_of.append(i)
                prev[i] = top
                if hs is None:
                    last[h] = i
                else:
                    last_near[h] = i
            if best >= 0:
                p = partner.get(i)
                if p is None or (p != best and (alone or (best, i) not in linked)):
                    yield best, i, partial(explain, best, i)

    def _link_heads(self, doc: Document, indices: list[int], recs: list[Analysis],
                    linked: Mapping[tuple[int, int], object]) -> Iterator[tuple[int, int, Any]]:
        """``head_match`` with ``covered: either`` or ``antecedents: all``: the same walk as
        ``_link_nearest_later`` (which handles the rule files' setting faster), over lists:
        ``heads[h]`` lists the mentions with head h, ``near[h]`` the heads that match h (h first;
        only when there are others) and ``words[h][u]`` the mentions with head h and other word u.
        """
        matches = self.relation.matches
        either, nearest = self.either, self.nearest
        explain = self._evidence
        start, end = doc.concept_starts, doc.concept_ends
        concepts = doc.concepts
        seen: list[Analysis | None] = [None] * len(concepts)
        heads: dict[str, list[int]] = {}
        near: dict[str, tuple[str, ...]] = {}
        words: dict[str, dict[str, list[int]]] = {}
        for i, rec in zip(indices, recs):
            wi, h, rest, anchor, others = rec
            if h is None:
                continue
            seen[i] = rec
            everyone = heads.get(h)
            if everyone is None:
                everyone = self._new_head(h, heads, near, matches)
            hs = near.get(h, (h,))
            if anchor is None or either:
                lists = [heads[g] for g in hs]
                check = rest or None  # i's words a candidate has yet to be checked for
            else:
                am = matches[anchor]
                lists = [heads[g] for g in hs if g in am]
                lists += [lst for g in hs if g not in am and g in words for u in am if (lst := words[g].get(u))]
                check = others
            best = -1
            found: list[int] = []
            si, ei = start[i], end[i]
            for lst in lists:
                for j in reversed(lst):
                    if j <= best:
                        break
                    if si <= end[j] and start[j] <= ei:
                        continue  # overlapping mentions: a phrase and a part of it
                    if check is not None:
                        rj = seen[j]
                        wj = rj[0]  # type: ignore[index]
                        ok = True
                        if not check <= wj:  # does j cover i's words?
                            for w in check:
                                if w not in wj and wj.isdisjoint(matches[w]):
                                    ok = False
                                    break
                        if not ok and either:  # does i cover j's words other than its head?
                            ok = True
                            rest_j = rj[2]  # type: ignore[index]
                            if not rest_j <= wi:
                                for w in rest_j:
                                    if w not in wi and wi.isdisjoint(matches[w]):
                                        ok = False
                                        break
                        if not ok:
                            continue
                    if nearest:
                        best = j
                        break
                    found.append(j)
            for j in ([best] if best >= 0 else sorted(set(found), reverse=True)):
                if (j, i) not in linked:
                    yield j, i, partial(explain, concepts[j], concepts[i], seen[j][0], wi)  # type: ignore[index]
            everyone.append(i)
            if rest:
                filed = words.get(h)
                if filed is None:
                    filed = words[h] = {}
                for u in rest:
                    lst = filed.get(u)
                    if lst is None:
                        filed[u] = [i]
                    else:
                        lst.append(i)

    def _link_words(self, doc: Document, linked: Mapping[tuple[int, int], object]) -> list[Iterator[tuple[int, int, Any]]]:
        """Without ``head_match``: a candidate antecedent j of mention i holds a match of i's
        rarest word (it has to cover all of i's words); with ``covered: either`` also the mentions
        whose own rarest word matches a word of i (i covers j). Postings are in text order, so the
        candidates come out nearest first, lazily. The relation is narrowed to the document's
        words first, so that a set operation answers whether a mention holds a match of a word."""
        groups: dict[str, list[int]] = {}
        same_type = self.scope.same_type
        words: dict[int, frozenset[str]] = {}
        tokens = doc.concept_tokens
        for c in self.candidates(doc):
            ws = self.analyse(tokens[c.index])[0]
            if ws:
                words[c.index] = ws
                groups.setdefault(c.type if same_type else "", []).append(c.index)
        linking = [g for g in groups.values() if len(g) > 1]
        vocab = {w for g in linking for i in g for w in words[i]}
        matches = self.relation.matches
        match = {w: vocab.intersection(matches[w]) for w in vocab}
        return [self._link_group(doc, group, words, match, linked) for group in linking]

    def _link_group(self, doc: Document, group: list[int], words: dict[int, frozenset[str]],
                    match: dict[str, set[str]], linked: Mapping[tuple[int, int], object]
                    ) -> Iterator[tuple[int, int, Any]]:
        either, nearest = self.either, self.nearest
        postings: dict[str, list[int]] = {}
        anchors: dict[int, str] = {}
        anchor_post: dict[str, list[int]] = {}
        for i in group:
            for w in words[i]:
                postings.setdefault(w, []).append(i)
        for i in group:
            a = anchors[i] = min(words[i], key=lambda w: (len(postings[w]), w))
            if either:
                anchor_post.setdefault(a, []).append(i)
        start, end = doc.concept_starts, doc.concept_ends
        concepts = doc.concepts
        explain = self._evidence
        for i in group:
            wi = words[i]
            lists = [postings[u] for u in match[anchors[i]] if u in postings]
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
                if wi <= wj or all(w in wj or not wj.isdisjoint(match[w]) for w in wi) or (
                        either and (wj <= wi or all(w in wi or not wi.isdisjoint(match[w]) for w in wj))):
                    if (j, i) not in linked:
                        yield j, i, partial(explain, concepts[j], concepts[i], wj, wi)
                    if nearest:
                        break
