"""Mention attributes: named facts about each concept of a document, computed once per document.

Every rule reads mentions through these names, the way Stanford's sieves read one ``Mention``
object: ``match`` rules name them as blocking keys and in pair predicates, the Python kinds read
them from ``ctx.table``, and the Bell-tree features read the same table. Each attribute is one
registered function that computes its column (a value per concept index) from the document, the
columns it depends on and the rule file's ``attributes:`` settings (``SETTINGS`` below; defaults
are the bundled word lists). ``docs/rules.md`` ("Mention attributes") lists them with examples.

Adding an attribute is one function decorated ``@attribute("name", depends=..., help=...)`` and a
unit test in ``tests/test_attributes.py``. Word-level answers (a token's conditioned form, WordNet
synonyms) go through the process's one memo, ``Resources.memo``; nothing else outlives a document.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations, compress
from typing import TYPE_CHECKING, Any, NamedTuple

from .resources.lexicon import Lexicon
from .roles import PeopleVocab, WordSet
from .rules.schema import Param
from .words import (
    BRACKETS,
    CLAUSE_END,
    acronym_forms,
    acronym_letters,
    find_phrases,
    has_alnum,
    initials,
    is_possessive,
    norm_word,
    norm_words,
    normalise,
    prefix_len,
    prefix_match,
)

if TYPE_CHECKING:
    from .mentions import MentionTable

_LEX = "resources/lexicons/"
_PEOPLE = _LEX + "people/"
_NON_LETTERS = re.compile(r"[^a-z]+")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")

# fmt: off
#: The ``attributes:`` block of a rule file: how the mention table is built. Every key is optional.
SETTINGS: dict[str, Param] = {
    "common_words": Param("wordlist", default=_LEX + "common_words.txt",
                          help="words that carry no meaning of their own (conjunctions, pronouns, determiners): "
                               "dropped from words/head, left out of initials"),
    "determiners": Param("wordlist", default=_LEX + "determiners.txt", help="words dropped from text_norm ('the', 'a')"),
    "head_stops": Param("wordlist", default=_LEX + "head_stops.txt",
                        help="words where a noun phrase's post-modifiers begin (prepositions, 'which', '(')"),
    "keep_digits": Param("bool", default=True, help="digits stay in words ('type 2 diabetes'; seed: stripped)"),
    "drop_adjectives": Param("bool", default=True, help="words WordNet knows only as adjectives are dropped (seed)"),
    "word_match": Param("mapping", help="when two words match (words_match, head_keys)", fields={
        "prefix_ratio": Param("float", default=0.8, minimum=0.1, maximum=1.0,
                              help="share of the shorter word's letters that must equal the longer word's (seed: 0.8)"),
        "min_prefix": Param("int", default=3, minimum=1, help="a shorter shared prefix means the words must be equal"),
        "max_ending": Param("int", default=3, minimum=0,
                            help="prefix-matched words differ only by endings this long, without digits (0: any)"),
        "synonyms": Param("bool", default=True, help="WordNet noun synonyms match too"),
        "synonym_senses": Param("int", default=1, minimum=0, help="synonyms from the N most frequent senses (0: all)"),
    }),
    "acronym": Param("mapping", help="acronyms and the initials of long forms", fields={
        "min_upper": Param("int", default=2, minimum=0, help="capitals an acronym shows in the text (0: any word)"),
        "min_letters": Param("int", default=2, minimum=1, help="shortest acronym and initials"),
        "min_words": Param("int", default=2, minimum=2, help="a long form has at least this many words"),
        "max_words": Param("int", default=8, minimum=2, help="longer concepts are no long forms"),
        "subsequence": Param("bool", default=True, help="an acronym may use some of the initials, in order (seed)"),
        "min_coverage": Param("float", default=0.6, minimum=0.0, maximum=1.0,
                              help="share of the initials a partial acronym must use, starting with the first"),
    }),
    "people": Param("mapping", help="roles and gender of person mentions (seed 001, people linker)", fields={
        "person_types": Param("str_list", default=["person", "people"], help="concept types of person mentions"),
        "doctor_salutations": Param("wordlist", default=_PEOPLE + "doctor_salutations.txt", help="'Dr' before a name"),
        "salutations": Param("wordlist", default=_PEOPLE + "salutations.txt", help="'Mr', 'Mrs': not name words"),
        "titles": Param("wordlist", default=_PEOPLE + "medical_titles.txt", help="'MD', 'RN' at the end: staff"),
        "titles_need_capitals": Param("bool", default=True, help="a title shows two capitals or a dot ('MD'; not 'Pa')"),
        "personnel": Param("wordlist", default=_PEOPLE + "medical_personnel.txt", help="words and phrases of staff"),
        "staff_suffixes": Param("wordlist", default=_PEOPLE + "staff_suffixes.txt", help="endings of specialists"),
        "family": Param("wordlist", default=_PEOPLE + "family.txt", help="family members and companions"),
        "patient_words": Param("wordlist", default=_PEOPLE + "patient_words.txt", help="'patient', 'pt'"),
        "generic_words": Param("wordlist", default=_PEOPLE + "generic_people.txt", help="'someone': never the subject"),
        "pronouns": Param("wordlist", default=_PEOPLE + "pronouns.txt", help="a person mention of these is a pronoun"),
        "masculine_pronouns": Param("wordlist", default=_PEOPLE + "pronouns_masculine.txt", help="he, him, his"),
        "feminine_pronouns": Param("wordlist", default=_PEOPLE + "pronouns_feminine.txt", help="she, her, hers"),
        "masculine_words": Param("wordlist", default=_PEOPLE + "masculine_words.txt", help="'Mr', 'man'"),
        "feminine_words": Param("wordlist", default=_PEOPLE + "feminine_words.txt", help="'Mrs', 'woman'"),
        "plural_pronouns": Param("wordlist", default=_PEOPLE + "pronouns_plural.txt", help="'they', 'we': number plural"),
        "singular_pronouns": Param("wordlist", default=_PEOPLE + "pronouns_singular.txt", help="'he', 'it': singular"),
        "neuter_pronouns": Param("wordlist", default=_PEOPLE + "pronouns_neutral.txt", help="'it', 'which': gender neuter"),
        "possessive_pronouns": Param("wordlist", default=_PEOPLE + "pronouns_possessive.txt", help="'his', 'its'"),
        "reflexive_pronouns": Param("wordlist", default=_PEOPLE + "pronouns_reflexive.txt", help="'himself'"),
    }),
    "names": Param("mapping", help="name words of person mentions (partial names, seed 001)", fields={
        "ignore_words": Param("wordlist", default=_LEX + "determiners.txt", help="words that are no name words"),
        "prefix_ratio": Param("float", default=0.8, minimum=0.1, maximum=1.0, help="as word_match, for names"),
        "min_prefix": Param("int", default=3, minimum=1, help="shorter name words must be equal ('Li' / 'Lindqvist')"),
        "min_word_length": Param("int", default=2, minimum=1, help="shorter words (initials) are no name words"),
        "drop_possessor": Param("bool", default=True, help="'Dr Smith's nurse' is named by 'nurse'"),
    }),
    "clues": Param("mapping", help="clues beside a mention (seed 001, link filtering)", fields={
        "triggers": Param("wordlist", default=_LEX + "filter_triggers.txt",
                          help="clues are searched only after/before one of these words ('in', 'on', 'is')"),
        "window": Param("int", default=4, minimum=1, help="words searched after (before) the trigger word"),
        "sides": Param("choice", default="both", allowed=("both", "after"),
                       help="search after a following trigger and before a preceding one (seed), or only after"),
        "dates": Param("regexes", default=_LEX + "date_patterns.txt", help="regular expressions that find a date"),
        "locations": Param("wordlist", default=_LEX + "location_keywords.txt", help="words that place a mention"),
        "modifiers": Param("wordlist", default=_LEX + "modifier_keywords.txt", help="words that describe one occurrence"),
    }),
    "umls": Param("mapping", help="the UMLS lookup behind cuis (docs/umls.md)", fields={
        "db": Param("str", default="", help="SQLAlchemy URL or SQLite file (relative: to the rule file); "
                                            "empty: $RULECOREF_UMLS_DB, else ~/.cache/rulecoref/umls.sqlite"),
        "db_env": Param("str", default="RULECOREF_UMLS_DB", help="the variable that holds the URL when db is empty"),
        "match": Param("choice", default="exact", allowed=("exact", "sorted"),
                       help="exact normalised string, or sorted: word order ignored (umls load --sorted-index)"),
        "literal_first": Param("bool", default=True, help="look the mention up as written first, then without "
                                                          "determiners, then conditioned (seed: conditioned only)"),
        "drop_adjectives": Param("bool", default=False, help="conditioning for the lookup drops adjectives (seed)"),
        "languages": Param("str_list", default=[], help="only strings of these languages (LAT, e.g. ENG)"),
        "sabs": Param("str_list", default=[], help="only strings of these sources (SAB, e.g. SNOMEDCT_US)"),
        "semantic_types": Param("str_list", default=[], help="only CUIs of these semantic types (T047 or names)"),
        "min_chars": Param("int", default=3, minimum=1, help="shorter lookup strings never match"),
        "max_cuis": Param("int", default=0, minimum=0, help="a string with more CUIs is ambiguous: none (0: no limit)"),
    }),
}
# fmt: on


@dataclass(frozen=True)
class AttributeSpec:
    """A registered attribute: its column function, what it depends on, and what it means."""

    name: str
    compute: Callable[[MentionTable], list[Any]]
    depends: tuple[str, ...]
    needs: tuple[str, ...]  # resources loaded before documents run: "wordnet", "umls"
    help: str
    #: a pure function of the mention's tokens (and the settings; within its document, the
    #: document's vocabulary may count too, as for ``head_family``), depending only on such
    #: attributes: computed once per distinct token sequence of a document (``mentions.WordsTable``)
    of_words: bool = False
    #: worked out one mention at a time, when a rule asks about that mention (``compute`` returns
    #: a function of the concept index; ``mentions.Cells``): for what most documents need for a
    #: few mentions only (``negation``: for the things an "it" may refer to, in a CRAFT article)
    per_mention: bool = False
    given: bool = False  # a document's facts (Document.facts) may supply its value per concept


ATTRIBUTES: dict[str, AttributeSpec] = {}
EMPTY: frozenset[str] = frozenset()  # one empty set for every mention that has none (a new one per mention costs)


def attribute(name: str, *, depends: tuple[str, ...] = (), needs: tuple[str, ...] = (), of_words: bool = False,
              per_mention: bool = False, given: bool = False, help: str):
    """Register a column function under ``name`` (the name rule files use); ``given``: a fact supplied
    with the document (medspaCy's ConText through the spaCy component) replaces the computed value."""
    if given and of_words:
        raise ValueError(f"attribute {name!r}: a given fact is a concept's, not its words' (given and of_words)")

    def deco(fn: Callable[[MentionTable], Any]) -> Callable[[MentionTable], Any]:
        compute = _with_facts(name, fn, per_mention) if given else fn
        ATTRIBUTES[name] = AttributeSpec(name, compute, depends, needs, help, of_words, per_mention, given)
        return fn

    return deco


def _with_facts(name: str, fn: Callable[[MentionTable], Any], per_mention: bool) -> Callable[[MentionTable], Any]:
    """``fn`` with the document's given facts ``name`` in place of the computed values."""

    def compute(t: MentionTable) -> Any:
        column = fn(t)
        if not t.doc.facts:
            return column
        if per_mention:  # ``column`` is the function of a concept index
            def cell(i: int) -> Any:
                fact = t.doc.fact(i, name)
                return fact.value if fact else column(i)

            return cell
        for i, facts in t.doc.facts.items():
            if name in facts:
                column[i] = facts[name].value
        return column

    return compute


def closure(names: set[str] | list[str] | tuple[str, ...]) -> list[str]:
    """The attributes ``names`` need, dependencies first."""
    out: list[str] = []

    def visit(n: str) -> None:
        if n not in out:
            for d in ATTRIBUTES[n].depends:
                visit(d)
            out.append(n)

    for n in sorted(names):
        visit(n)
    return out


class MentionSettings:
    """The ``attributes:`` settings of one rule file with their word lists loaded (once per pipeline)."""

    def __init__(self, values: dict[str, Any], resources: Any, pronoun_types: frozenset[str]):
        self.resources = resources
        self.values = values
        self.pronoun_types = pronoun_types

        def lex(value: Any) -> Lexicon:
            """A word list of the settings: a file (shared through Resources) or an inline list."""
            return Lexicon(value, name="attributes") if isinstance(value, (list, tuple)) else resources.lexicon(value)

        self.common = lex(values["common_words"]).words
        self.determiners = lex(values["determiners"]).words
        self.head_stops = lex(values["head_stops"]).words
        self.keep_digits = values["keep_digits"]
        self.drop_adjectives = values["drop_adjectives"]
        self.word_match = values["word_match"]
        self.acronym = values["acronym"]
        self.names = values["names"]
        self.clues = values["clues"]
        self.umls = values["umls"]
        people = values["people"]
        self.person_types = frozenset(people["person_types"])
        ws = lambda key: WordSet.of(lex(people[key]))  # noqa: E731
        self.people = PeopleVocab(
            doctor_salutations=ws("doctor_salutations"), titles=ws("titles"), personnel=ws("personnel"),
            staff_suffixes=tuple(sorted(ws("staff_suffixes").words, key=len, reverse=True)),
            family=ws("family"), patient=ws("patient_words"), generic=ws("generic_words"), pronouns=ws("pronouns"),
            masculine_pronouns=ws("masculine_pronouns"), feminine_pronouns=ws("feminine_pronouns"),
            masculine_words=ws("masculine_words"), feminine_words=ws("feminine_words"),
            titles_need_capitals=people["titles_need_capitals"])
        self.name_removed = frozenset().union(*(lex(people[k]).words for k in (
            "salutations", "doctor_salutations", "titles", "pronouns")), lex(self.names["ignore_words"]).words)
        self.pronoun_lists = {k: lex(people[f"{k}_pronouns"]).words
                              for k in ("plural", "singular", "neuter", "possessive", "reflexive")}
        self.triggers = lex(self.clues["triggers"]).words
        self.clue_lists = {k: lex(self.clues[k]).phrases for k in ("locations", "modifiers")}
        patterns = self.clues["dates"]
        self.date_rx = re.compile("|".join(f"(?:{rx.pattern})" for rx in patterns), re.IGNORECASE) if patterns else None
        # the memo key of a token's conditioned form: what the conditioning depends on
        common = values["common_words"]
        self.conditioning = ("condition", tuple(common) if isinstance(common, list) else common, self.keep_digits,
                             self.drop_adjectives)
        self.classing = ("word_class", self.conditioning[1])  # the memo key of a word's adjective class

    @property
    def wordnet(self) -> Any:
        return self.resources.wordnet

    # -- word level (memoised per process) ------------------------------------------------------
    def condition(self, token: str) -> str:
        """Seed 001's conditioning of one token: "" for a common word or an adjective, else its
        letters (and digits, with keep_digits): "Abscess-like" -> "abscesslike", "painful" -> ""."""
        return self.resources.memo.get((*self.conditioning, token), lambda: self._condition(token))

    def _condition(self, token: str) -> str:
        low = token.lower()
        if low in self.common:
            return ""
        letters = (_NON_ALNUM if self.keep_digits else _NON_LETTERS).sub("", low)
        if not letters or letters in self.common:
            return ""
        if self.drop_adjectives and self.wordnet.is_adjective(low if low.isalpha() else letters):
            return ""
        return letters

    def word_class(self, word: str) -> str:
        """The adjective filter's class of a lowercased word: "" (no word: a common word, a number,
        punctuation), "noun" (a noun, or unknown to WordNet: a name?), "adj" (only an adjective)
        or "other"."""
        return self.resources.memo.get((*self.classing, word), lambda: self._word_class(word))

    def _word_class(self, w: str) -> str:
        if w in self.common or not w.replace("-", "").isalpha():
            return ""
        pos = self.wordnet.parts_of_speech(w)
        return "noun" if not pos or "n" in pos else "adj" if "a" in pos else "other"

    def synonyms(self, word: str) -> frozenset[str]:
        """The WordNet noun synonyms ``word_match`` uses (none for words with digits: "pax6")."""
        wm = self.word_match
        if not wm["synonyms"] or not word.isalpha():
            return EMPTY
        return self.wordnet.synonyms(word, "n", wm["synonym_senses"])

    def words_match(self, u: str, v: str) -> bool:
        """Two conditioned words match: equal, the seed's 80% prefix rule, or WordNet synonyms
        ("abscess" / "abscesses"; "tumor" / "neoplasm")."""
        wm = self.word_match
        if prefix_match(u, v, wm["prefix_ratio"], min_prefix=wm["min_prefix"], max_ending=wm["max_ending"]):
            return True
        return v in self.synonyms(u) or u in self.synonyms(v)

    def why_words_match(self, u: str, v: str) -> str:
        if u == v:
            return u
        wm = self.word_match
        if prefix_match(u, v, wm["prefix_ratio"], min_prefix=wm["min_prefix"], max_ending=wm["max_ending"]):
            short = min(u, v, key=len)
            return f"{u}~{v} (prefix '{short[: prefix_len(len(short), wm['prefix_ratio'])]}')"
        return f"{u}~{v} (wordnet synonyms)"


# -- where the mention is -----------------------------------------------------------------------
@attribute("type", help="the concept type ('problem')")
def _type(t: MentionTable) -> list[str]:
    return [c.type for c in t.doc.concepts]


@attribute("line", help="the line the mention starts on; i2b2 text has one sentence per line")
def _line(t: MentionTable) -> list[int]:
    return [c.start[0] for c in t.doc.concepts]


@attribute("start", help="flat index of the first token (tokens counted over the whole document)")
def _start(t: MentionTable) -> list[int]:
    return list(t.doc.concept_starts)


@attribute("end", help="flat index of the last token")
def _end(t: MentionTable) -> list[int]:
    return list(t.doc.concept_ends)


# -- words ----------------------------------------------------------------------------------------
@attribute("tokens", help="the tokens as written: ('Chest', 'pain')")
def _tokens(t: MentionTable) -> list[tuple[str, ...]]:
    flat = t.doc.flat_tokens
    return [tuple(flat[s: e + 1]) for s, e in zip(t.doc.concept_starts, t.doc.concept_ends)]


@attribute("lower", of_words=True, depends=("tokens",), help="the tokens lowercased: ('chest', 'pain')")
def _lower(t: MentionTable) -> list[tuple[str, ...]]:
    lower = t.per_token("lower", str.lower).__getitem__
    return [tuple(map(lower, toks)) for toks in t["tokens"]]


@attribute("text_norm", of_words=True, depends=("tokens",),
           help="lowercased words without punctuation and determiners: 'The chest-pain .' -> 'chest-pain'")
def _text_norm(t: MentionTable) -> list[str]:
    ignore = t.settings.determiners
    kept = t.per_token("text_norm", lambda tok: normalise((tok,), ignore)).__getitem__
    return [" ".join(filter(None, map(kept, toks))) for toks in t["tokens"]]


@attribute("conditioned", of_words=True, depends=("tokens",), needs=("wordnet",),
           help="each token's meaning-bearing form, '' when dropped (common words, adjectives, punctuation)")
def _conditioned(t: MentionTable) -> list[tuple[str, ...]]:
    condition = t.per_token("conditioned", t.settings.condition).__getitem__
    return [tuple(map(condition, toks)) for toks in t["tokens"]]


@attribute("words", of_words=True, depends=("conditioned",),
           help="the set of meaning-bearing words: 'the painful Abscess-like area' -> {abscesslike, area}")
def _words(t: MentionTable) -> list[frozenset[str]]:
    return [frozenset(filter(None, cond)) for cond in t["conditioned"]]


def core_length(lower: tuple[str, ...], stops: frozenset[str]) -> int:
    """Tokens before the first head stop (not counting a stop at the start): "soft tissue abscess
    in the gluteal region" -> 3."""
    return next((k for k in range(1, len(lower)) if lower[k] in stops), len(lower))


@attribute("head", of_words=True, depends=("lower", "conditioned"),
           help="the last meaning-bearing word before a post-modifier: 'recurrent abscess in the gluteal region' -> abscess")
def _head(t: MentionTable) -> list[str | None]:
    stops = t.settings.head_stops
    out: list[str | None] = []
    for low, cond in zip(t["lower"], t["conditioned"]):
        core = cond[: core_length(low, stops)]
        out.append(next((w for w in reversed(core) if w), None))
    return out


def word_families(t: MentionTable) -> dict[str, frozenset[str]]:
    """For each meaning-bearing word of the document's mentions, the words of the document it
    matches by ``words_match`` (itself included): worked out once per document, so that rules
    compare words with a set lookup. Words that match by prefix share their first ``min_prefix``
    letters, so only those are compared; synonyms count whichever of the two lists the other."""

    def build(t: MentionTable) -> dict[str, frozenset[str]]:
        s = t.settings
        words = sorted(set().union(*t.words_table["words"]))  # the distinct mentions hold them all
        k = s.word_match["min_prefix"]
        by_prefix: dict[str, list[str]] = {}
        for w in words:
            by_prefix.setdefault(w[:k], []).append(w)
        family: dict[str, set[str]] = {w: {w} for w in words}
        wm = s.word_match
        ratio, shortest, ending = wm["prefix_ratio"], wm["min_prefix"], wm["max_ending"]
        for group in by_prefix.values():  # words_match by prefix here; by synonyms below
            for a, b in combinations(group, 2):
                if prefix_match(a, b, ratio, min_prefix=shortest, max_ending=ending):
                    family[a].add(b)
                    family[b].add(a)
        present, wn, senses = set(words), s.wordnet, wm["synonym_senses"]
        for w in words if wm["synonyms"] else ():  # s.synonyms(w), without a call per word
            if not w.isalpha():
                continue
            for g in wn.synonyms(w, "n", senses) & present:
                family[w].add(g)
                family[g].add(w)
        return {w: frozenset(f) for w, f in family.items()}

    return t.words_table.document_value("word_families", build)  # one for the document and its words table


@attribute("head_family", of_words=True, depends=("head", "words"), needs=("wordnet",),
           help="the words in this document that match this mention's head by words_match (itself included): "
                "'tumor' -> {tumor, tumors, neoplasm}; a match rule's blocking key against the candidates' head")
def _head_family(t: MentionTable) -> list[frozenset[str]]:
    family = word_families(t)
    return [family[h] if h else EMPTY for h in t["head"]]


@attribute("head_base", of_words=True, depends=("head",), needs=("wordnet",),
           help="the head's WordNet noun base form: 'abscesses' -> abscess (the head itself when WordNet has none)")
def _head_base(t: MentionTable) -> list[str | None]:
    wn = t.settings.wordnet
    return [(wn.base(h, "n") or h) if h else None for h in t["head"]]


@attribute("number", depends=("head", "lower", "is_pronoun"),
           help="plural or singular: a pronoun from the pronoun lists ('they', 'it'; 'you': unknown), else a head "
                "ending in -s (not -ss, -us, -is) is plural ('lesions'), any other head singular")
def _number(t: MentionTable) -> list[str | None]:
    lists = t.settings.pronoun_lists
    out: list[str | None] = []
    for head, low, pron in zip(t["head"], t["lower"], t["is_pronoun"]):
        if pron:
            word = low[-1]
            out.append("plural" if word in lists["plural"] else "singular" if word in lists["singular"] else None)
        elif head is None or not head[:1].isalpha():
            out.append(None)
        else:
            out.append("plural" if len(head) > 3 and head.endswith("s") and not head.endswith(("ss", "us", "is"))
                       else "singular")
    return out


@attribute("head_index", of_words=True, depends=("lower", "conditioned"),
           help="the position of the head token in the mention: the head's own token, else the last word before "
                "a post-modifier ('the size of the striatum' -> 1)")
def _head_index(t: MentionTable) -> list[int]:
    stops = t.settings.head_stops
    out = []
    for low, cond in zip(t["lower"], t["conditioned"]):
        core = core_length(low, stops)
        at = next((k for k in range(core - 1, -1, -1) if cond[k]), None)
        if at is None:
            at = next((k for k in range(core - 1, -1, -1) if low[k][:1].isalnum()), core - 1)
        out.append(at)
    return out


@attribute("head_word", of_words=True, depends=("head", "lower", "head_index"),
           help="the head as a word, also for mentions whose words conditioning drops ('this' -> this)")
def _head_word(t: MentionTable) -> list[str]:
    return [h or low[k] for h, low, k in zip(t["head"], t["lower"], t["head_index"])]


@attribute("capitalised", depends=("tokens", "lower"),
           help="capitalised words other than common words, not counting a sentence's first word: "
                "'Dr. Smith' -> {Dr., Smith}")
def _capitalised(t: MentionTable) -> list[frozenset[str]]:
    common = t.settings.common
    out = []
    for toks, low, c in zip(t["tokens"], t["lower"], t.doc.concepts):
        first_of_line = c.start[1] == 0
        out.append(frozenset(tok for k, (tok, w) in enumerate(zip(toks, low))
                             if tok[:1].isupper() and w not in common and not (k == 0 and first_of_line)))
    return out


@attribute("head_class", depends=("is_pronoun", "head_word", "head_index", "tokens"), needs=("wordnet",),
           help="the head's word class without a tagger: PRP (a pronoun), CD (has a digit), NNP (capitalised "
                "inside a sentence), NN (a WordNet noun), JJ (only an adjective), X (else)")
def _head_class(t: MentionTable) -> list[str]:
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
           help="Luo et al.'s mention level: PRO (a pronoun), NAM (a name: capitalised words), NOM (a description)")
def _mention_level(t: MentionTable) -> list[str]:
    out = []
    for pron, caps, toks, k in zip(t["is_pronoun"], t["capitalised"], t["tokens"], t["head_index"]):
        head = toks[k]
        out.append("PRO" if pron else "NAM" if caps or (head.isupper() and len(head) > 1) else "NOM")
    return out


def _pronoun_list_column(key: str):
    def column(t: MentionTable) -> list[bool]:
        words = t.settings.pronoun_lists[key]
        return [p and low[-1] in words for p, low in zip(t["is_pronoun"], t["lower"])]

    return column


attribute("possessive", depends=("is_pronoun", "lower"), help="a possessive pronoun: 'his', 'its'")(
    _pronoun_list_column("possessive"))
attribute("reflexive", depends=("is_pronoun", "lower"), help="a reflexive pronoun: 'himself'")(
    _pronoun_list_column("reflexive"))


# -- acronyms -------------------------------------------------------------------------------------
def _content(t: MentionTable, tokens: tuple[str, ...]) -> list[str]:
    """The tokens that carry content: no common word, some letter or digit ("of", "," are not)."""
    common = t.settings.common
    is_content = t.per_token("content", lambda tok: tok.lower() not in common and has_alnum(tok))
    return list(compress(tokens, map(is_content.__getitem__, tokens)))


@attribute("acronym", of_words=True, depends=("tokens",),
           help="the letters of a mention that is one acronym-like word: 'MRSA' -> mrsa, 'the CTs' -> ct")
def _acronym(t: MentionTable) -> list[str | None]:
    s = t.settings.acronym
    out: list[str | None] = []
    for toks in t["tokens"]:
        content = _content(t, toks)
        letters = acronym_letters(content[0], s["min_upper"]) if len(content) == 1 else None
        out.append(letters if letters and len(letters) >= s["min_letters"] else None)
    return out


@attribute("initials", of_words=True, depends=("tokens",),
           help="the initials of a long form (2-8 content words before a bracket): "
                "'Methicillin-resistant Staphylococcus aureus' -> mrsa")
def _initials(t: MentionTable) -> list[str | None]:
    s = t.settings.acronym
    out: list[str | None] = []
    for toks in t["tokens"]:
        cut = next((k for k in range(1, len(toks)) if toks[k] in BRACKETS), len(toks))
        long_form = _content(t, toks[:cut])
        init = initials(long_form) if s["min_words"] <= len(long_form) <= s["max_words"] else ""
        out.append(init if len(init) >= s["min_letters"] else None)
    return out


@attribute("acronym_forms", of_words=True, depends=("initials",),
           help="the acronyms a long form admits: its initials and, with acronym.subsequence, every run of them in "
                "order that starts with the first and covers acronym.min_coverage ('mrsa' -> mrsa, mrs, mra, msa); "
                "with acronym as the other side, the exact blocking keys of acronym rules")
def _acronym_forms(t: MentionTable) -> list[frozenset[str]]:
    s, memo = t.settings.acronym, t.settings.resources.memo
    question = ("acronym_forms", s["subsequence"], s["min_letters"], s["min_coverage"])
    seen: dict[str | None, frozenset[str]] = {None: EMPTY, "": EMPTY}  # many long forms share their initials
    out = []
    for init in t["initials"]:
        forms = seen.get(init)
        if forms is None:  # a function of the initials alone: remembered in the process's memo
            forms = seen[init] = memo.get((*question, init), lambda init=init: acronym_forms(
                init, subsequence=s["subsequence"], min_letters=s["min_letters"], min_coverage=s["min_coverage"]))
        out.append(forms)
    return out


# -- people ---------------------------------------------------------------------------------------
@attribute("person_words", depends=("tokens", "type"),
           help="the people linker's words of a person or pronoun mention: 'Dr. Smith's' -> (dr, smith)")
def _person_words(t: MentionTable) -> list[tuple[str, ...]]:
    s = t.settings
    wanted = s.person_types | s.pronoun_types
    norm = t.per_token("norm_word", norm_word)
    return [tuple(w for w in map(norm.__getitem__, toks) if w) if ty in wanted else ()
            for toks, ty in zip(t["tokens"], t["type"])]


@attribute("is_pronoun", depends=("type", "person_words", "lower"),
           help="a pronoun mention: a pronoun type, a person mention made only of pronouns ('I', 'you'), or a "
                "one-word mention of any type that is a pronoun ('it' typed object)")
def _is_pronoun(t: MentionTable) -> list[bool]:
    s = t.settings
    pronouns = s.people.pronouns
    return [ty in s.pronoun_types or (ty in s.person_types and s.people.is_pronoun_words(w))
            or (len(low) == 1 and low[0] in pronouns)
            for ty, w, low in zip(t["type"], t["person_words"], t["lower"])]


@attribute("pronoun", depends=("is_pronoun", "person_words"),
           help="the word of a one-word pronoun mention: 'He' -> he")
def _pronoun(t: MentionTable) -> list[str | None]:
    return [w[0] if p and len(w) == 1 else None for p, w in zip(t["is_pronoun"], t["person_words"])]


@attribute("person", depends=("type", "is_pronoun"), help="a person mention that is no pronoun")
def _person(t: MentionTable) -> list[bool]:
    types = t.settings.person_types
    return [ty in types and not p for ty, p in zip(t["type"], t["is_pronoun"])]


@attribute("gender", depends=("tokens", "is_pronoun", "person", "person_words"),
           help="masculine, feminine or neuter from the mention's own words: 'Mr. Smith', 'his', "
                "'a 67 year old woman'; 'it' -> neuter (a pronoun); None when they say nothing")
def _gender(t: MentionTable) -> list[str | None]:
    v, neuter = t.settings.people, t.settings.pronoun_lists["neuter"]
    out: list[str | None] = []
    for toks, pron, person, pw in zip(t["tokens"], t["is_pronoun"], t["person"], t["person_words"]):
        if pron:
            words = norm_words(toks)
            g = v.pronouns_gender(words)
            out.append(g or ("neuter" if words and all(w in neuter for w in words) else None))
        else:
            out.append(v.words_gender(pw) if person else None)
    return out


def _person_column(fn: Callable[[PeopleVocab, tuple[str, ...], tuple[str, ...]], Any]):
    """A column over the person mentions (no pronouns); None elsewhere."""

    def column(t: MentionTable) -> list[Any]:
        v = t.settings.people
        return [fn(v, toks, w) if person else None for toks, w, person in zip(t["tokens"], t["person_words"], t["person"])]

    return column


for _name, _fn, _help in (
    ("family_word", lambda v, toks, w: v.family.first(w), "a family word: 'her mother' -> mother"),
    ("named", lambda v, toks, w: v.named(toks, w), "a doctor's salutation or title: 'Dr Smith' -> salutation 'dr'"),
    ("role_word", lambda v, toks, w: v.role_word(w), "a staff word: 'the attending' -> lexicon 'attending'"),
    ("patient_word", lambda v, toks, w: v.patient.first(w), "a patient word: 'the patient' -> patient"),
    ("generic_person", lambda v, toks, w: bool(v.generic.first(w)), "a generic person: 'someone'"),
    ("surname", lambda v, toks, w: v.surname(toks), "the last capitalised name word: 'Edward L, Smith' -> smith"),
):
    attribute(_name, depends=("tokens", "person_words", "person"), help=_help)(_person_column(_fn))


# -- names (partial names) --------------------------------------------------------------------------
@attribute("name_words", depends=("tokens", "person", "line", "start"),
           help="a person name's words, None when it shows no name: 'Dr. Edward L, Smith' -> (edward, smith), 'Smith's' -> (smiths,); "
                "a capital at the start of a line does not make a name when the note also writes the word in lowercase")
def _name_words(t: MentionTable) -> list[tuple[str, ...] | None]:
    s = t.settings
    n = s.names
    out: list[tuple[str, ...] | None] = []
    for toks, person, c in zip(t["tokens"], t["person"], t.doc.concepts):
        if not person:
            out.append(None)
            continue
        cut = 0
        if n["drop_possessor"]:  # "Dr Smith's nurse" names the nurse
            cut = max((k + 1 for k, tok in enumerate(toks[:-1]) if is_possessive(tok)), default=0)
        words, name = [], False
        for k, tok in enumerate(toks[cut:], cut):
            low = tok.lower()
            word = "" if low in s.name_removed else _NON_LETTERS.sub("", low)
            if len(word) < n["min_word_length"] or word in s.name_removed:
                continue
            words.append(word)
            line_start_lower = k == 0 and c.start[1] == 0 and low in t.token_set
            name = name or (tok[:1].isupper() and not line_start_lower)
        out.append(tuple(words) if words and name else None)
    return out


@attribute("name_keys", depends=("name_words",),
           help="blocking keys of name words: their first letters, as many as names_match needs to share")
def _name_keys(t: MentionTable) -> list[tuple[str, ...]]:
    n = t.settings.names
    k = prefix_len(n["min_prefix"], n["prefix_ratio"])
    return [tuple(dict.fromkeys(w[:k] for w in words)) if words else () for words in t["name_words"]]


# -- clues beside a mention (link filters) -----------------------------------------------------------
def trigger_windows(before: list[str], after: list[str], triggers: frozenset[str], window: int,
                    look_before: bool) -> list[list[str]]:
    """Seed 001's clue windows: when the word right after a mention is a trigger ("in", "on", ...),
    the ``window`` words after it; when the word right before is one, the ``window`` words before
    it. A window stops at a clause end. "[pain] in the left leg ." -> [["the", "left", "leg"]]."""
    out = []
    if after and after[0].lower() in triggers:
        words = []
        for tok in after[1: 1 + window]:
            if tok in CLAUSE_END:
                break
            words.append(tok)
        out.append(words)
    if look_before and before and before[-1].lower() in triggers:
        words = []
        for tok in reversed(before[max(0, len(before) - 1 - window): -1]):
            if tok in CLAUSE_END:
                break
            words.append(tok)
        out.append(words[::-1])
    return [w for w in out if w]


@attribute("clue_windows", depends=("start", "end"), help="the words seed 001's filters search for clues: after a trigger word that "
                                "follows the mention, before one that precedes it ('[pain] in the left leg' -> the left leg)")
def _clue_windows(t: MentionTable) -> list[tuple[tuple[str, ...], ...]]:
    s, doc = t.settings, t.doc
    w = s.clues["window"]
    look_before = s.clues["sides"] == "both"
    is_trigger = t.per_token("trigger", lambda tok: tok.lower() in s.triggers)
    flat, lines = doc.flat_tokens, doc._line_offsets  # lines[k]: the flat index of line k's first token
    out: list[tuple[tuple[str, ...], ...]] = []
    for c, start, end in zip(doc.concepts, t["start"], t["end"]):  # most have no trigger word beside them
        first, last = lines[c.start[0]], lines[c.end[0] + 1]  # the mention's lines, within which windows stay
        after = end + 1 < last and is_trigger[flat[end + 1]]
        before = look_before and start > first and is_trigger[flat[start - 1]]
        if not (after or before):
            out.append(())
            continue
        windows = trigger_windows(flat[max(first, start - w - 1): start], flat[end + 1: min(last, end + w + 2)],
                                  s.triggers, w, look_before)
        out.append(tuple(map(tuple, windows)))  # tuples of strings: nothing for the garbage collector
    return out


@attribute("dates", depends=("clue_windows",), help="dates in the clue windows: '[x-ray] on 3/12' -> ('3/12',)")
def _dates(t: MentionTable) -> list[tuple[str, ...]]:
    rx = t.settings.date_rx
    if rx is None:
        return [()] * t.n
    seen: dict[tuple[tuple[str, ...], ...], tuple[str, ...]] = {(): ()}  # nested mentions share their windows
    out = []
    for ws in t["clue_windows"]:
        found = seen.get(ws)
        if found is None:
            found = seen[ws] = tuple(m.group(0) for words in ws for m in rx.finditer(" ".join(words)))
        out.append(found)
    return out


def _keywords(phrases: frozenset[tuple[str, ...]]):
    longest = max(map(len, phrases), default=0)
    first_words = frozenset(p[0] for p in phrases)

    def keywords(words: tuple[str, ...]) -> frozenset[str]:
        if first_words.isdisjoint(map(str.lower, words)):
            return EMPTY  # most windows hold no keyword at all
        found = {h[2] for h in find_phrases(words, phrases, longest)}
        # "lungs" and "lung" are one place: a listed plural counts as its listed singular
        return frozenset(k[:-1] if k.endswith("s") and (k[:-1],) in phrases else k for k in found)

    def column(t: MentionTable) -> list[frozenset[str]]:
        seen: dict[tuple[str, ...], frozenset[str]] = {}  # nested mentions share their windows
        out = []
        for ws in t["clue_windows"]:
            found = EMPTY
            for words in ws:  # none for most mentions
                if words not in seen:
                    seen[words] = keywords(words)
                if seen[words]:
                    found = found | seen[words] if found else seen[words]
            out.append(found)
        return out

    return column


@attribute("locations", depends=("clue_windows",), help="location words in the clue windows: 'in the left leg' -> {left, leg}")
def _locations(t: MentionTable) -> list[frozenset[str]]:
    return _keywords(t.settings.clue_lists["locations"])(t)


@attribute("modifiers", depends=("clue_windows",), help="descriptive words in the clue windows: 'is new' -> {new}")
def _modifiers(t: MentionTable) -> list[frozenset[str]]:
    return _keywords(t.settings.clue_lists["modifiers"])(t)


@attribute("adjective_only", of_words=True, depends=("lower",), needs=("wordnet",),
           help="an adjective with no noun ('febrile', 'very painful'): every word known to WordNet, none a noun, "
                "one an adjective; unknown words ('mrsa') might be names and keep a mention")
def _adjective_only(t: MentionTable) -> list[bool]:
    classes = t.per_token("adjective_class", t.settings.word_class).__getitem__
    out = []
    for low in t["lower"]:
        kinds = set(map(classes, low))
        out.append("adj" in kinds and "noun" not in kinds)
    return out


# -- UMLS -------------------------------------------------------------------------------------------
class UmlsStrings:
    """How the ``cuis`` attribute asks UMLS (seed 001, "UMLS match"): each mention's strings, most
    literal first ("the Loss of consciousness" -> "the loss of consciousness", "loss of
    consciousness", "loss consciousness"), looked up in one query per document; the first string
    with CUIs decides. UMLS strings keep their function words ("Pain in chest"), which the seed's
    conditioning would drop, and the literal form is the least ambiguous. Opened at start-up, so a
    missing database stops the run before the first document (RC401)."""

    def __init__(self, settings: MentionSettings, rule_file: str = ""):
        from pathlib import Path

        from .resources.umls import normalize, resolve_url

        u = settings.umls
        self.settings = settings
        self.normalize = normalize
        db = u["db"].strip()
        if db and "://" not in db and not Path(db).expanduser().is_absolute() and rule_file:
            db = str(Path(rule_file).parent / db)
        self.db = settings.resources.umls(resolve_url(db or None, u["db_env"].strip() or None))
        self.types = {x.strip().lower() for x in u["semantic_types"] if x.strip()}
        self.db.require(u["match"], semantic_types=bool(self.types))

    def _kept(self, token: str) -> bool:
        s = self.settings
        low = token.lower()
        letters = _NON_ALNUM.sub("", low)
        if low in s.common or not letters or letters in s.common:
            return False
        return not (s.umls["drop_adjectives"] and s.wordnet.is_adjective(low if low.isalpha() else letters))

    def forms(self, tokens: tuple[str, ...]) -> list[str]:
        norm, u = self.normalize, self.settings.umls
        conditioned = norm(" ".join(filter(self._kept, tokens)))
        if not u["literal_first"]:
            out = [conditioned]
        else:
            dets = self.settings.determiners
            out = [norm(" ".join(tokens)), norm(" ".join(t for t in tokens if t.lower() not in dets)), conditioned]
        return [f for f in dict.fromkeys(out) if len(f) >= u["min_chars"]]

    def lookup(self, token_lists: list[tuple[str, ...]]) -> list[tuple[str | None, frozenset[str]]]:
        """Per mention: the string that decided and its CUIs (empty when none, or ambiguous)."""
        u = self.settings.umls
        forms = [self.forms(toks) for toks in token_lists]
        found = self.db.cuis_many({f for fs in forms for f in fs}, u["match"],
                                  languages=tuple(u["languages"]) or None, sabs=tuple(u["sabs"]) or None)
        out: list[tuple[str | None, frozenset[str]]] = []
        for fs in forms:
            hit: tuple[str | None, frozenset[str]] = (None, EMPTY)
            for f in fs:
                cuis = self._typed(found[f])
                if cuis:  # the most literal string with CUIs decides, ambiguous or not
                    if not u["max_cuis"] or len(cuis) <= u["max_cuis"]:
                        hit = (f, cuis)
                    break
            out.append(hit)
        return out

    def _typed(self, cuis: frozenset[str]) -> frozenset[str]:
        if not cuis or not self.types:
            return cuis
        types = self.db.semantic_types(cuis)
        return frozenset(c for c in cuis if any(t.lower() in self.types or n.lower() in self.types
                                                for t, n in types.get(c, ())))


@attribute("umls_hit", depends=("tokens",), needs=("umls",),
           help="(the string that decided, its CUIs): one UMLS query for the document")
def _umls_hit(t: MentionTable) -> list[tuple[str | None, frozenset[str]]]:
    return t.umls.lookup(t["tokens"])


@attribute("cuis", depends=("umls_hit",), needs=("umls",),
           help="UMLS concept numbers of the mention's string (its most literal form that has some): "
                "'renal' -> {C0022646}; empty when ambiguous (more than umls.max_cuis)")
def _cuis(t: MentionTable) -> list[frozenset[str]]:
    return [cuis for _, cuis in t["umls_hit"]]


def live(values: list[Any]) -> list[int]:
    """The indices whose value is set (not None, empty or false)."""
    return list(compress(range(len(values)), values))


# == Pronouns and salience (issue 16) ==============================================================
# Where a mention stands in its clause, without a parser: GAP's strongest cue is syntactic
# parallelism (a subject pronoun refers to a subject), and a name is mentioned again in the text
# beyond the concept that marks it. The word lists are closed-class English words.
_SALIENCE = _LEX + "salience/"
SETTINGS["salience"] = Param("mapping", help="pronoun roles and subject positions (issue 16; docs/rules.md, 'Clinical rules')",
                             fields={
    "clause_openers": Param("wordlist", default=_SALIENCE + "clause_openers.txt",
                            help="words after which a clause, and so a subject, begins ('and', 'when', 'which')"),
    "subject_pronouns": Param("wordlist", default=_SALIENCE + "pronouns_subject.txt", help="he, she, they, ..."),
    "object_pronouns": Param("wordlist", default=_SALIENCE + "pronouns_object.txt", help="him, them, ..."),
    "object_followers": Param("wordlist", default=_SALIENCE + "object_followers.txt",
                              help="tokens after an object 'her' ('told her that'); before any other, 'her' is possessive"),
    "max_intro_tokens": Param("int", default=12, minimum=0,
                              help="an opening phrase ending in ',' this long at most still leaves the subject after it "
                                   "('In 1990 , [Smith] ...')"),
})


def setting_words(t: MentionTable, group: str, key: str) -> frozenset[str]:
    """The lowercased words of a ``wordlist`` setting of an ``attributes:`` group (a path or inline list)."""
    from .resources.lexicon import Lexicon

    value = t.settings.values[group][key]
    if isinstance(value, (list, tuple)):
        return Lexicon(value).words
    return t.settings.resources.memo.get(("setting_words", value), lambda: t.settings.resources.lexicon(value).words)


def subject_at(tokens: list[str], first: int, last: int, openers: frozenset[str], max_intro: int) -> bool:
    """Tokens ``first..last`` of a sentence stand where a subject stands: at the start, right after a
    clause opener ("and [she] felt"), or after a short opening phrase that ends in a comma ("In 1990 ,
    [Smith] resigned"); not as a possessor ("[Smith] 's wife")."""
    if last + 1 < len(tokens) and tokens[last + 1] in ("'s", "'", "\u2019s"):
        return False
    if first == 0:
        return True
    prev = tokens[first - 1].lower()
    if prev in openers:
        return True
    return prev == "," and first - 1 <= max_intro


@attribute("pronoun_role", depends=("pronoun", "line", "start"),
           help="subject, object, possessive or reflexive for a one-word personal pronoun (salience lists; possessive "
                "and reflexive: attributes.people's): 'he' -> subject, "
                "'told [her] that' -> object, '[her] mother' -> possessive; None for others ('it', 'this')")
def _pronoun_role(t: MentionTable) -> list[str | None]:
    subj, obj = setting_words(t, "salience", "subject_pronouns"), setting_words(t, "salience", "object_pronouns")
    poss, refl = t.settings.pronoun_lists["possessive"], t.settings.pronoun_lists["reflexive"]
    followers = setting_words(t, "salience", "object_followers")
    flat, ends = t.doc.flat_tokens, t.doc.concept_ends
    out: list[str | None] = []
    for k, w in enumerate(t["pronoun"]):
        if w is None:
            out.append(None)
        elif w in subj:
            out.append("subject")
        elif w in refl:
            out.append("reflexive")
        elif w in obj and w in poss:  # "her": an object before a follower or at the end of a line
            nxt = ends[k] + 1
            line_end = t.doc._line_offsets[t.doc.concepts[k].end[0] + 1]
            out.append("object" if nxt >= line_end or flat[nxt].lower() in followers else "possessive")
        elif w in obj:
            out.append("object")
        elif w in poss:
            out.append("possessive")
        else:
            out.append(None)
    return out


@attribute("subject_position", depends=("line",),
           help="the mention stands where a subject stands: first in its sentence, after a clause opener or after "
                "a short opening phrase and a comma ('In 1990 , [Smith] resigned'); not a possessor ('[Smith] 's')")
def _subject_position(t: MentionTable) -> list[bool]:
    openers = setting_words(t, "salience", "clause_openers")
    max_intro = t.settings.values["salience"]["max_intro_tokens"]
    doc = t.doc
    return [subject_at(doc.lines[c.start[0] - 1], c.start[1], c.end[1] if c.end[0] == c.start[0] else c.start[1],
                       openers, max_intro) for c in doc.concepts]


Place = tuple[int, int, int, bool]  # (line, first token, last token, subject position)


class NameOccurrences(NamedTuple):
    """Where the text names a person mention's referent: the mention's own place and the places
    that write its name. ``named`` is one tuple shared by every mention of that name, so a note
    that writes "Dr. Smith" 12,000 times stores 12,000 places once, not once per mention."""

    own: Place | None
    named: tuple[Place, ...]

    def places(self) -> list[Place]:
        """Every place, in text order (the mention's own one among them)."""
        return sorted({*self.named, self.own} if self.own else self.named)


NO_NAME = NameOccurrences(None, ())


@attribute("name_occurrences", depends=("tokens", "person", "surname", "person_words"),
           help="where the text names a person mention's referent: its own place and every capitalised occurrence "
                "of its surname, as (line, first token, last token, subject position), the occurrences shared by the "
                "mentions of one name; '[Sandra Collins] is a DJ . Collins performed' -> two places")
def _name_occurrences(t: MentionTable) -> list[NameOccurrences]:
    openers = setting_words(t, "salience", "clause_openers")
    max_intro = t.settings.values["salience"]["max_intro_tokens"]
    doc = t.doc
    names = {name for name, person in zip(t["surname"], t["person"]) if person and name}
    where: dict[str, list[tuple[int, int]]] = {}
    for li, toks in enumerate(doc.lines, 1) if names else ():
        for ti, tok in enumerate(toks):
            if tok[:1].isupper():
                w = norm_word(tok)  # the surname's own form ("Ličen" -> "lien")
                if w in names:
                    where.setdefault(w, []).append((li, ti))

    def place(li: int, a: int, b: int) -> Place:
        return (li, a, b, subject_at(doc.lines[li - 1], a, b, openers, max_intro))

    found: dict[tuple[str, tuple[str, ...]], tuple[Place, ...]] = {}  # a name's places in the text
    out: list[NameOccurrences] = []
    for c, person, name, words in zip(doc.concepts, t["person"], t["surname"], t["person_words"]):
        if not person:
            out.append(NO_NAME)
            continue
        key = (name or "", words)
        if key not in found:
            spans = set()
            for li, ti in where.get(name, ()) if name else ():
                toks = doc.lines[li - 1]
                first = ti
                while first > 0 and norm_word(toks[first - 1]) in words:  # "Sandra [Collins]" is one name
                    first -= 1
                spans.add((li, first, ti))
            found[key] = tuple(sorted(place(*span) for span in spans))
        out.append(NameOccurrences(place(c.start[0], c.start[1], c.end[1] if c.end[0] == c.start[0] else c.start[1]),
                                   found[key]))
    return out


# == Clinical context (issue 16) ====================================================================
# Xu et al. 2012, the best i2b2 2011 system, compared the clinical context of two mentions:
# negation, uncertainty, time (history versus now), laterality and anatomical site, dates. These
# attributes give each mention its context from the words around it and the section it is in, so
# that vetoes can keep "no [masses]" (neck) and "no [masses]" (abdomen), or "[prior operations]"
# and a planned "[surgery]", apart. All word lists are general clinical or English knowledge.
_CLIN = _LEX + "clinical/"
SETTINGS["clinical"] = Param("mapping", help="clinical context of a mention (issue 16; docs/rules.md, 'Clinical rules')",
                             fields={
    "negation_cues": Param("wordlist", default=_CLIN + "negation_cues.txt", help="'no', 'denies', 'negative for' before a finding"),
    "negation_post": Param("wordlist", default=_CLIN + "negation_post.txt", help="'not', 'negative', 'absent' after it"),
    "post_window": Param("int", default=3, minimum=0, help="words after a mention searched for negation_post"),
    "scope_breaks": Param("wordlist", default=_CLIN + "scope_breaks.txt",
                          help="words that end a cue's scope ('no fever but [cough]')"),
    "uncertainty_cues": Param("wordlist", default=_CLIN + "uncertainty_cues.txt", help="'possible', 'rule out', 'versus'"),
    "history_cues": Param("wordlist", default=_CLIN + "history_cues.txt", help="'previous', 'prior', 'history of'"),
    "new_event_cues": Param("wordlist", default=_CLIN + "new_event_cues.txt", help="'another', 'repeat', 'next'"),
    "generic_cues": Param("wordlist", default=_CLIN + "generic_cues.txt", help="'any', 'daily': a kind, not one thing"),
    "qualifiers_low": Param("wordlist", default=_CLIN + "qualifiers_low.txt", help="'mild', 'minimal', 'decreased'"),
    "qualifiers_high": Param("wordlist", default=_CLIN + "qualifiers_high.txt", help="'severe', 'significant', 'increased'"),
    "light_heads": Param("wordlist", default=_CLIN + "light_heads.txt", help="'issues', 'therapy' after the real head"),
    "sites": Param("wordlist", default=_LEX + "location_keywords.txt", help="laterality and body parts"),
    "exam_headings": Param("wordlist", default=_CLIN + "exam_headings.txt", help="review of systems and exam headings"),
    "family_headings": Param("wordlist", default=_CLIN + "family_headings.txt", help="'FAMILY HISTORY'"),
    "drugs": Param("wordlist", default=_CLIN + "drug_names.txt", help="'generic: Brand, Brand' lines"),
    "thing_pronouns": Param("wordlist", default=_CLIN + "thing_pronouns.txt", help="'it', 'this', 'they' for things"),
    "max_heading_words": Param("int", default=6, minimum=1, help="a heading line has at most this many words"),
})


def _clin(t: MentionTable, key: str) -> frozenset[str]:
    return setting_words(t, "clinical", key)


def _clin_phrases(t: MentionTable, key: str) -> frozenset[tuple[str, ...]]:
    from .resources.lexicon import Lexicon

    value = t.settings.values["clinical"][key]
    if isinstance(value, (list, tuple)):
        return Lexicon(value).phrases
    return t.settings.resources.memo.get(("setting_phrases", value), lambda: t.settings.resources.lexicon(value).phrases)


def heading_of(tokens: list[str], max_words: int) -> tuple[str, int] | None:
    """A section heading at the start of a line, and the token after it: "PAST MEDICAL HISTORY :" ->
    ("past medical history", 4); "GENERAL : The patient ..." -> ("general", 2); an all-capitals line
    without a colon ("PHYSICAL EXAMINATION") is one too. Headings are written in capitals."""
    if not tokens or tokens[0].upper() != tokens[0]:  # headings are written in capitals
        return None
    words = [tok for tok in tokens if has_alnum(tok)]
    if ":" in tokens:
        k = tokens.index(":")
        head = [tok for tok in tokens[:k] if has_alnum(tok)]
        if head and len(head) <= max_words and all(tok.upper() == tok and any(ch.isalpha() for ch in tok) for tok in head):
            return " ".join(tok.lower() for tok in head), k + 1
    if words and len(words) <= max_words and all(tok.upper() == tok for tok in words) \
            and sum(any(ch.isalpha() for ch in tok) for tok in words) >= 1 and len("".join(words)) > 3 \
            and all(not tok.isdigit() for tok in words):
        return " ".join(tok.lower() for tok in words), len(tokens)
    return None


@attribute("section", depends=("line",), given=True,
           help="the heading of the section a mention is in, lowercased: 'PAST MEDICAL HISTORY :' -> past medical history; "
                "'NECK : Without [masses]' -> neck; None before the first heading")
def _section(t: MentionTable) -> list[str | None]:
    max_words = t.settings.values["clinical"]["max_heading_words"]
    current: list[str | None] = [None]
    inline: dict[int, tuple[str, int]] = {}
    for li, toks in enumerate(t.doc.lines, 1):
        h = heading_of(toks, max_words)
        if h is not None:
            inline[li] = h
        current.append(h[0] if h is not None else current[-1])
    out = []
    for c in t.doc.concepts:
        h = inline.get(c.start[0])
        if h is not None and c.start[1] < h[1]:  # the heading itself ("ALLERGIES :" typed as a concept)
            out.append(current[c.start[0] - 1])
        else:
            out.append(current[c.start[0]])
    return out


@attribute("exam_section", depends=("section",),
           help="the section is a review of systems or a physical examination (or one of its body-system headings)")
def _exam_section(t: MentionTable) -> list[bool]:
    exam = _clin_phrases(t, "exam_headings")
    return [s is not None and tuple(s.split()) in exam for s in t["section"]]


@attribute("family_section", depends=("section",), given=True,
           help="the section is the family history (or a given fact says the finding is a relative's: ConText's is_family)")
def _family_section(t: MentionTable) -> list[bool]:
    fam = _clin_phrases(t, "family_headings")
    return [s is not None and tuple(s.split()) in fam for s in t["section"]]


def scope_changes(low: list[str], cues: frozenset[tuple[str, ...]], breaks: frozenset[str]
                  ) -> tuple[list[int], list[tuple[str, int] | None]] | None:
    """Where the cue in scope changes on a lowercased line: the positions, ascending, and the cue
    in scope after each (with where it ends), None after a scope break; None for a line without a
    cue. NegEx's scope: a cue reaches forward until a scope break ("no fever but [cough]"; a
    heading's colon is a break too). A token's cue is the one of the last change before it."""
    last_words = frozenset(c[-1] for c in cues)
    if last_words.isdisjoint(low):  # most lines hold no cue
        return None
    longest = max(map(len, cues), default=0)
    positions: list[int] = []
    states: list[tuple[str, int] | None] = []
    for pos in [k for k, w in enumerate(low) if w in last_words or w in breaks]:
        w, found = low[pos], None
        for k in range(min(longest, pos + 1), 0, -1) if w in last_words else ():
            if tuple(low[pos - k + 1: pos + 1]) in cues:
                found = (" ".join(low[pos - k + 1: pos + 1]), pos)
                break
        if found is not None or w in breaks:
            positions.append(pos)
            states.append(found)
    return positions, states


def scope_reader(t: MentionTable, cues: frozenset[tuple[str, ...]], breaks: frozenset[str]
                 ) -> Callable[[int, int], tuple[str, int] | None]:
    """``at(line index, token)``: the cue in scope right before a token, each line's changes worked
    out when a mention on it is first asked about."""
    lines, changes = t.doc.lines, {}

    def at(li: int, token: int) -> tuple[str, int] | None:
        if li not in changes:
            changes[li] = scope_changes([tok.lower() for tok in lines[li]], cues, breaks)
        found = changes[li]
        k = bisect_left(found[0], token) - 1 if found else -1
        return found[1][k] if found and k >= 0 else None

    return at


def _cue_in_scope(t: MentionTable, cues: frozenset[tuple[str, ...]], breaks: frozenset[str], window: int = 0
                  ) -> list[str | None]:
    """Per mention, the cue in scope before its first token (within ``window`` tokens when > 0)."""
    at = scope_reader(t, cues, breaks)
    out: list[str | None] = []
    for c in t.doc.concepts:
        hit = at(c.start[0] - 1, c.start[1])
        out.append(hit[0] if hit and (not window or c.start[1] - hit[1] <= window) else None)
    return out


@attribute("negation", depends=("lower", "line"), per_mention=True, given=True,
           help="the negation cue of a negated mention, None when it is affirmed: 'denies [chest pain]' -> denies, "
                "'no [masses] were appreciated' -> no, '[swelling] was not seen' -> not (NegEx-style: the cue's scope "
                "ends at 'but', 'which', ';' ...)")
def _negation(t: MentionTable) -> Callable[[int], str | None]:
    pre, post = _clin_phrases(t, "negation_cues"), _clin_phrases(t, "negation_post")
    breaks, window = _clin(t, "scope_breaks"), t.settings.values["clinical"]["post_window"]
    at = scope_reader(t, pre, breaks)
    lengths = sorted({len(p) for p in post}, reverse=True)
    post_firsts, lower, concepts, lines = frozenset(p[0] for p in post), t["lower"], t.doc.concepts, t.doc.lines

    def negation(i: int) -> str | None:
        c, low = concepts[i], lower[i]
        if low and (low[0],) in pre:  # "[No masses]" carries its own cue
            return low[0]
        hit = at(c.start[0] - 1, c.start[1])
        if hit or not window:
            return hit[0] if hit else None
        after = [tok.lower() for tok in lines[c.end[0] - 1][c.end[1] + 1: c.end[1] + 1 + window]]
        if post_firsts.isdisjoint(after):  # the words after it on its last line: "[swelling] was not seen"
            return None
        stop = next((k for k, w in enumerate(after) if w in breaks), len(after))
        return next((" ".join(after[k: k + n]) for k in range(stop) for n in lengths if tuple(after[k: k + n]) in post),
                    None)

    return negation


@attribute("hedge", depends=("lower", "line"), given=True,
           help="the uncertainty cue of a hedged mention: 'possible [infection]' -> possible, 'rule out [torsion]' -> rule out")
def _hedge(t: MentionTable) -> list[str | None]:
    cues, breaks = _clin_phrases(t, "uncertainty_cues"), _clin(t, "scope_breaks")
    before = _cue_in_scope(t, cues, breaks, window=4)
    return [next((w for w in low if (w,) in cues), None) or b for low, b in zip(t["lower"], before)]


def _own_cue(t: MentionTable, key: str, before: int = 0) -> list[str | None]:
    """A cue among a mention's own words (or the ``before`` words right before it)."""
    cues = _clin_phrases(t, key)
    longest = max(map(len, cues), default=0)
    firsts = frozenset(c[0] for c in cues)
    lowers = t["lower"]
    context = [[w.lower() for w in t.doc.before(c, before)] for c in t.doc.concepts] if before else [[]] * len(lowers)
    out: list[str | None] = []
    for pre, low in zip(context, lowers):
        words = pre + list(low)
        if firsts.isdisjoint(words):  # most mentions hold no cue at all
            out.append(None)
            continue
        out.append(next((" ".join(words[a: a + k]) for a in range(len(words)) for k in range(longest, 0, -1)
                         if tuple(words[a: a + k]) in cues), None))
    return out


@attribute("history", depends=("lower", "line"), given=True,
           help="a past-time cue in or right before the mention: '[prior operations]' -> prior, "
                "'history of [nephrolithiasis]' -> history of")
def _history(t: MentionTable) -> list[str | None]:
    return _own_cue(t, "history_cues", before=2)


@attribute("new_event", of_words=True, depends=("lower",),
           help="the mention introduces another one of its kind: '[another tube]' -> another, '[a repeat CT]' -> repeat")
def _new_event(t: MentionTable) -> list[str | None]:
    return _own_cue(t, "new_event_cues")


@attribute("generic", of_words=True, depends=("lower",),
           help="a non-specific mention: '[any swelling]' -> any, '[daily medication]' -> daily")
def _generic(t: MentionTable) -> list[str | None]:
    cues = _clin(t, "generic_cues")
    return [next((w for w in low[:2] if w in cues), None) for low in t["lower"]]


@attribute("degree", of_words=True, depends=("lower",),
           help="low or high from the mention's degree words: '[minimal discomfort]' -> low, '[increased blood flow]' -> high")
def _degree(t: MentionTable) -> list[str | None]:
    low_w, high_w = _clin(t, "qualifiers_low"), _clin(t, "qualifiers_high")
    out: list[str | None] = []
    for low in t["lower"]:
        lo, hi = any(w in low_w for w in low), any(w in high_w for w in low)
        out.append("low" if lo and not hi else "high" if hi and not lo else None)
    return out


@attribute("sites", depends=("lower", "section", "exam_section"),
           help="laterality and body parts of the mention's own words and of its exam heading: "
                "'[left testicular pain]' -> {left}; 'NECK : no [masses]' -> {neck}")
def _sites(t: MentionTable) -> list[frozenset[str]]:
    sites = _clin(t, "sites")
    seen: dict[tuple[tuple[str, ...], str | None], frozenset[str]] = {}  # a repeated mention in one section
    out = []
    for low, sec, exam in zip(t["lower"], t["section"], t["exam_section"]):
        key = (low, sec if exam else None)
        found = seen.get(key)
        if found is None:
            words = sites.intersection(low)
            if exam and sec:
                words |= sites.intersection(sec.split())
            found = seen[key] = words or EMPTY
        out.append(found)
    return out


@attribute("drug", of_words=True, depends=("lower",),
           help="the generic name of a drug the mention names, brand or generic: '[Zyrtec]' -> cetirizine, "
                "'[Coumadin therapy]' -> warfarin")
def _drug(t: MentionTable) -> list[str | None]:
    value = t.settings.values["clinical"]["drugs"]
    path = str(value) if not isinstance(value, (list, tuple)) else None
    key = ("drug_names", path)
    names: dict[tuple[str, ...], str] = t.settings.resources.memo.get(key, lambda: _drug_names(t))
    firsts = t.settings.resources.memo.get(("drug_first_words", path), lambda: frozenset(n[0] for n in names))
    longest = max(map(len, names), default=0)
    out: list[str | None] = []
    for low in t["lower"]:
        words = [w.strip(".,") for w in low]
        if firsts.isdisjoint(words):  # most mentions name no drug
            out.append(None)
            continue
        out.append(next((names[tuple(words[a: a + k])] for a in range(len(words)) for k in range(longest, 0, -1)
                         if tuple(words[a: a + k]) in names), None))
    return out


def _drug_names(t: MentionTable) -> dict[tuple[str, ...], str]:
    """'generic: Brand, Brand' lines -> every name's words -> the generic."""
    value = t.settings.values["clinical"]["drugs"]
    lines = value if isinstance(value, (list, tuple)) else \
        [" ".join(p) for p in sorted(t.settings.resources.lexicon(value).phrases)]
    out: dict[tuple[str, ...], str] = {}
    for line in lines:
        generic, _, brands = " ".join(str(line).lower().split()).partition(":")
        generic = generic.strip()
        for name in [generic, *brands.split(",")]:
            if name.strip():
                out[tuple(name.split())] = generic
    return out


@attribute("thing_pronoun", depends=("lower", "type"),
           help="the word of a one-word pronoun mention that refers to things: '[it]' -> it, '[these]' -> these")
def _thing_pronoun(t: MentionTable) -> list[str | None]:
    words, ptypes = _clin(t, "thing_pronouns"), t.settings.pronoun_types
    return [low[0] if len(low) == 1 and low[0] in words and ty in ptypes else None
            for low, ty in zip(t["lower"], t["type"])]


@attribute("thing_key", depends=("thing_pronoun", "person", "is_pronoun"),
           help="'thing' for a pronoun that refers to things and for every mention that is neither a person nor a "
                "pronoun: the blocking key of rules that resolve 'it' and 'this'")
def _thing_key(t: MentionTable) -> list[str | None]:
    return ["thing" if w or not (p or pr) else None for w, p, pr in zip(t["thing_pronoun"], t["person"], t["is_pronoun"])]


@attribute("clinical_head", of_words=True, depends=("lower", "conditioned"),
           help="the head, skipping a light noun after it: 'sleep apnea symptoms' -> apnea, "
                "'Coumadin therapy' -> coumadin")
def _clinical_head(t: MentionTable) -> list[str | None]:
    stops, light, cues = t.settings.head_stops, _clin(t, "light_heads"), _context_words(t)
    out: list[str | None] = []
    for low, cond in zip(t["lower"], t["conditioned"]):
        core = [w for w in cond[: core_length(low, stops)] if w]
        while len(core) > 1 and core[-1] in light and core[-2] not in cues:  # "daily medication" keeps its head
            core.pop()
        out.append(core[-1] if core else None)
    return out


@attribute("clinical_head_keys", of_words=True, depends=("clinical_head",), needs=("wordnet",),
           help="blocking keys of clinical_head, as head_keys for head")
def _clinical_head_keys(t: MentionTable) -> list[frozenset[str]]:
    s = t.settings
    k = s.word_match["min_prefix"]
    return [frozenset({h[:k], *(w[:k] for w in s.synonyms(h))}) if h else EMPTY for h in t["clinical_head"]]


@attribute("clinical_words", of_words=True, depends=("words",),
           help="words without light nouns and context cues: 'ongoing sleep apnea symptoms' -> {sleep, apnea}")
def _clinical_words(t: MentionTable) -> list[frozenset[str]]:
    drop = _clin(t, "light_heads") | _context_words(t)
    return [ws if ws.isdisjoint(drop) else ws - drop or ws for ws in t["words"]]


def _context_words(t: MentionTable) -> frozenset[str]:
    """The single words of the context cue lists: they say how a thing is, not what it is."""
    keys = ("history_cues", "new_event_cues", "generic_cues", "qualifiers_low", "qualifiers_high", "uncertainty_cues")
    return frozenset().union(*(_clin(t, key) for key in keys))
