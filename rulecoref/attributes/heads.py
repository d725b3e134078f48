"""Where a mention is, its words and its head: the attributes most rules block on and compare.

Seed 001's conditioning ("Abscess-like" -> "abscesslike"; common words and adjectives dropped), the
head (the last meaning-bearing word before a post-modifier) and when two words match (the 80%
prefix rule or WordNet synonyms). The words group of the settings (``common_words``, ``head_stops``,
``word_match``, ...) also answers the word-level questions other concerns ask (``condition``,
``words_match``), remembered in the process's word memo.
"""

from __future__ import annotations

import re
from functools import cached_property
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..resources.lexicon import Lexicon
from ..words import normalise, prefix_len, prefix_match
from .registry import EMPTY, LEX, BlockingKey, attribute, nested, resources, setting, settings_class, settings_group

if TYPE_CHECKING:
    from .registry import Table

NON_LETTERS = re.compile(r"[^a-z]+")
NON_ALNUM = re.compile(r"[^a-z0-9]+")


# fmt: off
@settings_class
class WordMatch:
    """When two conditioned words match (``words_match``, ``head_family``)."""

    prefix_ratio: float = setting("float", default=0.8, minimum=0.1, maximum=1.0,
                                  help="share of the shorter word's letters that must equal the longer word's (the UHD system: 0.8)")
    min_prefix: int = setting("int", default=3, minimum=1, help="a shorter shared prefix means the words must be equal")
    max_ending: int = setting("int", default=3, minimum=0,
                              help="prefix-matched words differ only by endings this long, without digits (0: any)")
    synonyms: bool = setting("bool", default=True, help="WordNet noun synonyms match too")
    synonym_senses: int = setting("int", default=1, minimum=0, help="synonyms from the N most frequent senses (0: all)")


@settings_group("words", top_level=True)
class Words:
    """The top-level keys of ``attributes:``: which words carry meaning and where a head ends."""

    common_words: Lexicon = setting("wordlist", default=LEX + "common_words.txt",
                                    help="words that carry no meaning of their own (conjunctions, pronouns, "
                                         "determiners): dropped from words/head, left out of initials")
    determiners: Lexicon = setting("wordlist", default=LEX + "determiners.txt", help="words dropped from text_norm ('the', 'a')")
    head_stops: Lexicon = setting("wordlist", default=LEX + "head_stops.txt",
                                  help="words where a noun phrase's post-modifiers begin (prepositions, 'which', '(')")
    singular_nouns: Lexicon = setting("wordlist", default=LEX + "singular_nouns.txt",
                                      help="nouns ending in -s that are not plurals ('diabetes', 'ascites'): number")
    keep_digits: bool = setting("bool", default=True, help="digits stay in words ('type 2 diabetes'; the UHD system stripped them)")
    drop_adjectives: bool = setting("bool", default=True, help="words WordNet knows only as adjectives are dropped (as in the UHD system)")
    word_match: WordMatch = nested(WordMatch, help="when two words match (words_match, head_family)")
    resources: Any = resources()
    # fmt: on

    @cached_property
    def _common(self) -> int:
        """The common words as the memo's number for them (keys the garbage collector need not walk)."""
        return self.resources.memo.name(self.common_words.words)

    @cached_property
    def _conditioning(self) -> tuple[Any, ...]:
        """The memo key of a token's conditioned form: what the conditioning depends on."""
        return ("condition", self._common, self.keep_digits, self.drop_adjectives)

    # -- word level (remembered in the process's memo) --------------------------------------------
    def condition(self, token: str) -> str:
        """Seed 001's conditioning of one token: "" for a common word or an adjective, else its
        letters (and digits, with keep_digits): "Abscess-like" -> "abscesslike", "painful" -> ""."""
        return self.resources.memo.get((*self._conditioning, token), lambda: self._condition(token))

    def _condition(self, token: str) -> str:
        common = self.common_words.words
        low = token.lower()
        if low in common:
            return ""
        letters = (NON_ALNUM if self.keep_digits else NON_LETTERS).sub("", low)
        if not letters or letters in common:
            return ""
        if self.drop_adjectives and self.resources.wordnet.is_adjective(low if low.isalpha() else letters):
            return ""
        return letters

    def word_class(self, word: str) -> str:
        """The adjective filter's class of a lowercased word: "" (no word: a common word, a number,
        punctuation), "noun" (a noun, or unknown to WordNet: a name?), "adj" (only an adjective)
        or "other"."""
        return self.resources.memo.get(("word_class", self._common, word), lambda: self._word_class(word))

    def _word_class(self, w: str) -> str:
        """The parts of speech asked one at a time, the deciding ones first: most words are nouns."""
        if w in self.common_words.words or not w.replace("-", "").isalpha():
            return ""
        listed, low = self.resources.wordnet.listed, w.lower()
        if listed(low, "n"):
            return "noun"
        if listed(low, "a"):
            return "adj"
        return "other" if listed(low, "v") or listed(low, "r") else "noun"  # unknown to WordNet: a name?

    def synonyms(self, word: str) -> frozenset[str]:
        """The WordNet noun synonyms ``word_match`` uses (none for words with digits: "pax6")."""
        wm = self.word_match
        if not wm.synonyms or not word.isalpha():
            return EMPTY
        return self.resources.wordnet.synonyms(word, "n", wm.synonym_senses)

    def prefix_match(self, u: str, v: str) -> bool:
        """The seed's 80% prefix rule, with ``word_match``'s settings."""
        wm = self.word_match
        return prefix_match(u, v, wm.prefix_ratio, min_prefix=wm.min_prefix, max_ending=wm.max_ending)

    def words_match(self, u: str, v: str) -> bool:
        """Two conditioned words match: equal, the seed's 80% prefix rule, or WordNet synonyms
        ("abscess" / "abscesses"; "tumor" / "neoplasm")."""
        if self.prefix_match(u, v):
            return True
        return v in self.synonyms(u) or u in self.synonyms(v)

    def why_words_match(self, u: str, v: str) -> str:
        if u == v:
            return u
        if self.prefix_match(u, v):
            short = min(u, v, key=len)
            return f"{u}~{v} (prefix '{short[: prefix_len(len(short), self.word_match.prefix_ratio)]}')"
        return f"{u}~{v} (wordnet synonyms)"


# -- where the mention is -----------------------------------------------------------------------
@attribute("type", help="the concept type ('problem')",
           blocking=(BlockingKey(order=210, phrase=("same-type", "one concept type"), broad=True),))
def _type(t: Table) -> list[str]:
    return [c.type for c in t.doc.concepts]


@attribute("line", help="the line the mention starts on; i2b2 text has one sentence per line",
           blocking=(BlockingKey(order=170, phrase=("same-sentence", "one sentence"), only_windows=(0,)),))
def _line(t: Table) -> list[int]:
    return [c.start[0] for c in t.doc.concepts]


@attribute("start", help="flat index of the first token (tokens counted over the whole document)", blocking=())
def _start(t: Table) -> list[int]:
    return t.doc.concept_starts  # the document's one position index, not a copy


@attribute("end", help="flat index of the last token", blocking=())
def _end(t: Table) -> list[int]:
    return t.doc.concept_ends


# -- words ----------------------------------------------------------------------------------------
@attribute("tokens", depends=("start", "end"), help="the tokens as written: ('Chest', 'pain')", blocking=())
def _tokens(t: Table) -> list[tuple[str, ...]]:
    flat = t.doc.flat_tokens
    return [tuple(flat[s: e + 1]) for s, e in zip(t["start"], t["end"])]


@attribute("lower", of_words=True, depends=("tokens",), help="the tokens lowercased: ('chest', 'pain')", blocking=())
def _lower(t: Table) -> list[tuple[str, ...]]:
    lower = t.per_token("lower", str.lower).__getitem__
    return [tuple(map(lower, toks)) for toks in t["tokens"]]


@attribute("text_norm", of_words=True, depends=("tokens",),
           help="lowercased words without punctuation and determiners: 'The chest-pain .' -> 'chest-pain'",
           blocking=(BlockingKey(order=10,
                                 phrase=("same-words", "the same words (without punctuation and determiners)")),))
def _text_norm(t: Table) -> list[str]:
    ignore = t.settings.words.determiners.words
    kept = t.per_token("text_norm", lambda tok: normalise((tok,), ignore)).__getitem__
    return [" ".join(filter(None, map(kept, toks))) for toks in t["tokens"]]


@attribute("conditioned", of_words=True, depends=("tokens",), needs=("wordnet",),
           help="each token's meaning-bearing form, '' when dropped (common words, adjectives, punctuation)",
           blocking=())
def _conditioned(t: Table) -> list[tuple[str, ...]]:
    condition = t.per_token("conditioned", t.settings.words.condition).__getitem__
    return [tuple(map(condition, toks)) for toks in t["tokens"]]


@attribute("words", of_words=True, depends=("conditioned",),
           help="the set of meaning-bearing words: 'the painful Abscess-like area' -> {abscesslike, area}",
           blocking=(BlockingKey(order=120, phrase=("shared-word", "a meaning-bearing word in common")),
                     BlockingKey(order=140,
                                 phrase=("word-is-head", "a head that is one of the later one's meaning-bearing words"),
                                 antecedent_key="head")))
def _words(t: Table) -> list[frozenset[str]]:
    return [frozenset(filter(None, cond)) for cond in t["conditioned"]]


def core_length(lower: tuple[str, ...], stops: frozenset[str]) -> int:
    """Tokens before the first head stop (not counting a stop at the start): "soft tissue abscess
    in the gluteal region" -> 3."""
    return next((k for k in range(1, len(lower)) if lower[k] in stops), len(lower))


@attribute("head", of_words=True, depends=("lower", "conditioned"),
           help="the last meaning-bearing word before a post-modifier: 'recurrent abscess in the gluteal region' -> abscess",
           blocking=(BlockingKey(order=20, phrase=("same-head", "the same head word")),
                     BlockingKey(order=130,
                                 phrase=("head-among-words", "a meaning-bearing word that is the later one's head"),
                                 antecedent_key="words")))
def _head(t: Table) -> list[str | None]:
    stops = t.settings.words.head_stops.words
    out: list[str | None] = []
    for low, cond in zip(t["lower"], t["conditioned"]):
        core = cond[: core_length(low, stops)]
        out.append(next((w for w in reversed(core) if w), None))
    return out


def word_families(t: Table) -> dict[str, frozenset[str]]:
    """For each meaning-bearing word of the document's mentions, the words of the document it
    matches by ``words_match`` (itself included): worked out once per document, so that rules
    compare words with a set lookup. Words that match by prefix share their first ``min_prefix``
    letters, so only those are compared; synonyms count whichever of the two lists the other."""

    def build(t: Table) -> dict[str, frozenset[str]]:
        s = t.settings.words
        wm = s.word_match
        words = sorted(set().union(*t.words_table["words"]))  # the distinct mentions hold them all
        by_prefix: dict[str, list[str]] = {}
        for w in words:
            by_prefix.setdefault(w[: wm.min_prefix], []).append(w)
        family: dict[str, set[str]] = {w: {w} for w in words}
        ratio, shortest, ending = wm.prefix_ratio, wm.min_prefix, wm.max_ending
        for group in by_prefix.values():  # words_match by prefix here; by synonyms below
            for a, b in combinations(group, 2):
                if prefix_match(a, b, ratio, min_prefix=shortest, max_ending=ending):
                    family[a].add(b)
                    family[b].add(a)
        present, wn, senses = set(words), t.settings.wordnet, wm.synonym_senses
        for w in words if wm.synonyms else ():  # s.synonyms(w), without a call per word
            if not w.isalpha():
                continue
            for g in wn.synonyms(w, "n", senses) & present:
                family[w].add(g)
                family[g].add(w)
        return {w: frozenset(f) for w, f in family.items()}

    return t.words_table.document_value("word_families", build)  # one for the document and its words table


@attribute("head_family", of_words=True, depends=("head", "words"), needs=("wordnet",),
           help="the words in this document that match this mention's head by words_match (itself included): "
                "'tumor' -> {tumor, tumors, neoplasm}; a match rule's blocking key against the candidates' head",
           blocking=(BlockingKey(order=50,
                                 phrase=("matching-heads", "heads that match (80% prefix or WordNet synonyms)"),
                                 antecedent_key="head"),))
def _head_family(t: Table) -> list[frozenset[str]]:
    family = word_families(t)
    return [family[h] if h else EMPTY for h in t["head"]]


@attribute("head_base", of_words=True, depends=("head",), needs=("wordnet",),
           help="the head's WordNet noun base form: 'abscesses' -> abscess (the head itself when WordNet has none)",
           blocking=(BlockingKey(order=30,
                                 phrase=("same-head-base", "heads with one base form ('reports' / 'report')")),))
def _head_base(t: Table) -> list[str | None]:
    wn = t.settings.wordnet
    return [(wn.base(h, "n") or h) if h else None for h in t["head"]]


@attribute("number", depends=("head", "lower", "is_pronoun"),
           help="plural or singular: a pronoun from the pronoun lists ('they', 'it'; 'you': unknown), else a head "
                "ending in -s (not -ss, -us, -is, nor one of singular_nouns: 'diabetes') is plural ('lesions'), any "
                "other head singular",
           blocking=(BlockingKey(order=200, phrase=("same-number", "the same number (singular or plural)"),
                                 broad=True),))
def _number(t: Table) -> list[str | None]:
    people, singular_nouns = t.settings.people, t.settings.words.singular_nouns.words
    plural, singular = people.plural_pronouns.words, people.singular_pronouns.words
    out: list[str | None] = []
    for head, low, pron in zip(t["head"], t["lower"], t["is_pronoun"]):
        if pron:
            word = low[-1]
            out.append("plural" if word in plural else "singular" if word in singular else None)
        elif head is None or not head[:1].isalpha():
            out.append(None)
        else:
            out.append("plural" if len(head) > 3 and head.endswith("s") and not head.endswith(("ss", "us", "is"))
                       and head not in singular_nouns else "singular")
    return out


@attribute("head_index", of_words=True, depends=("lower", "conditioned"),
           help="the position of the head token in the mention: the head's own token, else the last word before "
                "a post-modifier ('the size of the striatum' -> 1)", blocking=())
def _head_index(t: Table) -> list[int]:
    stops = t.settings.words.head_stops.words
    out = []
    for low, cond in zip(t["lower"], t["conditioned"]):
        core = core_length(low, stops)
        at = next((k for k in range(core - 1, -1, -1) if cond[k]), None)
        if at is None:
            at = next((k for k in range(core - 1, -1, -1) if low[k][:1].isalnum()), core - 1)
        out.append(at)
    return out


@attribute("head_word", of_words=True, depends=("head", "lower", "head_index"),
           help="the head as a word, also for mentions whose words conditioning drops ('this' -> this)",
           blocking=(BlockingKey(order=40,
                                 phrase=("same-head-word", "the same head word, pronouns included ('he' / 'he')")),))
def _head_word(t: Table) -> list[str]:
    return [h or low[k] for h, low, k in zip(t["head"], t["lower"], t["head_index"])]


@attribute("capitalised", depends=("tokens", "lower"),
           help="capitalised words other than common words, not counting a sentence's first word: "
                "'Dr. Smith' -> {Dr., Smith}",
           blocking=(BlockingKey(order=110, phrase=("shared-capitalised-word", "a capitalised word in common")),))
def _capitalised(t: Table) -> list[frozenset[str]]:
    common = t.settings.words.common_words.words
    out = []
    for toks, low, c in zip(t["tokens"], t["lower"], t.doc.concepts):
        first_of_line = c.start[1] == 0
        out.append(frozenset(tok for k, (tok, w) in enumerate(zip(toks, low))
                             if tok[:1].isupper() and w not in common and not (k == 0 and first_of_line)))
    return out


@attribute("head_class", depends=("is_pronoun", "head_word", "head_index", "tokens"), needs=("wordnet",),
           help="the head's word class without a tagger: PRP (a pronoun), CD (has a digit), NNP (capitalised "
                "inside a sentence), NN (a WordNet noun), JJ (only an adjective), X (else)",
           blocking=(BlockingKey(order=270,
                                 phrase=("same-word-class", "heads of one word class (name, noun, pronoun, number)"),
                                 broad=True),))
def _head_class(t: Table) -> list[str]:
    wn = t.settings.wordnet
    out = []
    for pron, h, k, toks, c in zip(t["is_pronoun"], t["head_word"], t["head_index"], t["tokens"], t.doc.concepts):
        if pron:
            out.append("PRP")
        elif any(ch.isdigit() for ch in h):
            out.append("CD")
        elif toks[k][:1].isupper() and not (k == 0 and c.start[1] == 0):
            out.append("NNP")
        else:
            out.append("NN" if wn.has_noun(h) else "JJ" if wn.is_adjective(h) else "X")
    return out


@attribute("mention_level", depends=("is_pronoun", "capitalised", "tokens", "head_index"),
           help="Luo et al.'s mention level: PRO (a pronoun), NAM (a name: capitalised words), NOM (a description)",
           blocking=(BlockingKey(order=220,
                                 phrase=("same-mention-level", "the same mention level (name, description or pronoun)"),
                                 broad=True),))
def _mention_level(t: Table) -> list[str]:
    out = []
    for pron, caps, toks, k in zip(t["is_pronoun"], t["capitalised"], t["tokens"], t["head_index"]):
        head = toks[k]
        out.append("PRO" if pron else "NAM" if caps or (head.isupper() and len(head) > 1) else "NOM")
    return out


@attribute("possessive", depends=("is_pronoun", "lower"), help="a possessive pronoun: 'his', 'its'", blocking=())
def _possessive(t: Table) -> list[bool]:
    words = t.settings.people.possessive_pronouns.words
    return [p and low[-1] in words for p, low in zip(t["is_pronoun"], t["lower"])]


@attribute("reflexive", depends=("is_pronoun", "lower"), help="a reflexive pronoun: 'himself'", blocking=())
def _reflexive(t: Table) -> list[bool]:
    words = t.settings.people.reflexive_pronouns.words
    return [p and low[-1] in words for p, low in zip(t["is_pronoun"], t["lower"])]
