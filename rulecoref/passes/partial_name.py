"""``partial_name``: two mentions of one person's name ("Edward L, Smith" ... "Dr Smith's").

Seed 001, "Partial match": remove salutations, titles, pronouns and single letters and punctuation,
then link two mentions when every word of the shorter one matches a word of the other by the main
linker's 80%-prefix comparison (``predicates.prefix_match``): "Edward L, Smith" -> {edward, smith},
"Dr Smith's" -> {smiths}; "smith" is a prefix match of "smiths", so they are linked.

Three guards the seed did not have, each a parameter:

* ``names_only``: both mentions must hold a capitalised word after the removals (one that starts
  a sentence counts only if the document never writes it in lower case), since the seed meant this
  match for names; without it "a man" would match "another man".
* ``min_prefix``: a word shorter than 3 letters must be equal, not a prefix ("Li" / "Lindqvist").
* ``drop_possessor``: in "Dr Smith's nurse" the mention is the nurse, so the words up to a
  possessive that is not the last word are dropped before comparing.
* ``gender_check``: mentions whose own words give different genders ("Mr. Bennet", "Mrs. Bennet")
  are different people.

Speed: a mention's compared words are cached per token sequence (with what decides whether it
looks like a name), and pairs are not tried one by one: two words can match only if they share
their first ceil(``prefix_ratio`` x ``min_prefix``) letters (a shorter word must be equal), so each
mention is compared only with the earlier mentions that share such a prefix key (an index by key),
nearest first, which finds the same antecedents as trying every earlier mention. Verdicts per pair
of word tuples are cached too; whether the document writes a line-start word in lower case is
read from the token counts ``people_roles`` shares (``PeopleFacts.token_counts``); the evidence
string is built only when read (lazy evidence).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import partial

from ..document import Document
from ..mentions import MentionCache
from ..resources.lexicon import Lexicon
from ..rules.schema import Param
from . import Context, Pass, register
from .conditioning import Conditioner
from .people import facts
from .predicates import prefix_len, prefix_match

_LEX = "resources/lexicons/people/"
_CACHE_LIMIT = 200_000  # token sequences and word-tuple pairs remembered per process; cleared when exceeded


def _evidence(wa: tuple[str, ...], wb: tuple[str, ...]) -> str:
    short, long_ = (wa, wb) if len(wa) <= len(wb) else (wb, wa)
    return f"name words {' '.join(short)!r} in {' '.join(long_)!r}"


def _is_possessive(token: str) -> bool:
    low = token.lower()
    return low.endswith(("'s", "\u2019s", "s'", "s\u2019")) and len(low) > 2


@register("partial_name")
class PartialName(Pass):
    requires = ("people_roles",)
    params = {
        "salutations": Param("wordlist", default=_LEX + "salutations.txt", help="'Mr', 'Mrs', ... removed before comparing"),
        "doctor_salutations": Param("wordlist", default=_LEX + "doctor_salutations.txt", help="'Dr' removed before comparing"),
        "titles": Param("wordlist", default=_LEX + "medical_titles.txt", help="'MD', 'RN' removed before comparing"),
        "pronouns": Param("wordlist", default=_LEX + "pronouns.txt", help="pronouns removed before comparing"),
        "ignore_words": Param("wordlist", default="resources/lexicons/determiners.txt", help="other words removed ('the', 'a')"),
        "prefix_ratio": Param("float", default=0.8, minimum=0.0, maximum=1.0, help="share of the shorter word that must agree"),
        "min_word_length": Param("int", default=2, minimum=1, help="shorter words (initials such as 'L') are removed"),
        "min_prefix": Param("int", default=3, minimum=1,
                            help="a word shorter than this must equal the other word ('Li' is no prefix of 'Lindqvist')"),
        "names_only": Param("bool", default=True, help="both mentions must hold a capitalised word (a name)"),
        "drop_possessor": Param("bool", default=True, help="'Dr Smith's nurse' is compared as 'nurse'"),
        "gender_check": Param("bool", default=True, help="'Mr. X' and 'Mrs. X' are never linked"),
        "antecedents": Param("choice", default="nearest", allowed=("nearest", "all"),
                             help="link each mention to its nearest earlier match (as the main linker does), or to every one (the seed)"),
    }

    def setup(self) -> None:
        removed: list[str] = []
        for name in ("salutations", "doctor_salutations", "titles", "pronouns", "ignore_words"):
            removed.extend(self.lexicon(name))
        self.condition = Conditioner(Lexicon(removed, name=f"{self.name}.removed"), None, drop_adjectives=False)
        # every match shares the first ``key_len`` letters (0: only equal words match, see same_word)
        self.key_len = prefix_len(self.p["min_prefix"], self.p["prefix_ratio"])
        self._analysis: dict[tuple[str, ...], tuple[tuple[str, ...], bool, str | None]] = {}
        self._by_id: MentionCache[tuple[tuple[str, ...], bool, str | None, tuple[str, ...]]] = MentionCache()
        self._verdicts: dict[tuple[tuple[str, ...], tuple[str, ...]], bool] = {}

    def words(self, tokens: Sequence[str], first: int, lower: frozenset[str]) -> tuple[tuple[str, ...], bool]:
        """Compared words of a mention, and whether one of them looks like a name.

        A capitalised token is a name unless it starts the sentence (``first`` is the flat index of
        the line's first token among ``tokens``, or -1) and the document also writes it in lower case
        ("Students ..." ... "students" is no name; "Smith said ..." is).
        """
        if self.p["drop_possessor"]:
            cut = max((k for k, t in enumerate(tokens[:-1]) if _is_possessive(t)), default=-1)
            tokens = tokens[cut + 1 :]
            first -= cut + 1
        min_len = self.p["min_word_length"]
        out: list[str] = []
        capital = False
        for k, tok in enumerate(tokens):
            kept = self.condition([tok])
            if kept and len(kept[0]) >= min_len:
                out.append(kept[0])
                if tok[:1].isupper() and not (k == first and tok.lower() in lower):
                    capital = True
        return tuple(out), capital

    def analyse(self, tokens: tuple[str, ...]) -> tuple[tuple[str, ...], bool, str | None, tuple[str, ...]]:
        """``words`` of a mention, cached per token sequence, split by what the document decides:
        (compared words, whether it looks like a name whatever the document says, the lowercased
        first token when that token alone would make it one, the words' prefix keys). The first
        token is no name if the mention starts its line and the document also writes that
        lowercase form (see ``words``)."""
        hit = self._analysis.get(tokens)
        if hit is not None:
            return hit
        if len(self._analysis) > _CACHE_LIMIT:
            self._analysis.clear()
        words, capital = self.words(tokens, 0, frozenset())
        first_low = None
        if capital:
            lowered = tokens[0].lower()
            if lowered.islower() and not self.words(tokens, 0, frozenset((lowered,)))[1]:
                capital, first_low = False, lowered
        k_len = self.key_len
        keys = tuple(dict.fromkeys(w[:k_len] if k_len else w for w in words))
        hit = self._analysis[tokens] = (words, capital, first_low, keys)
        return hit

    def same_word(self, a: str, b: str) -> bool:
        if len(a) > len(b):
            a, b = b, a
        if len(a) < self.p["min_prefix"]:
            return a == b
        return prefix_match(a, b, self.p["prefix_ratio"])

    def matches(self, wi: tuple[str, ...], wj: tuple[str, ...]) -> bool:
        """Every word of the shorter tuple matches a word of the other (cached per pair)."""
        key = (wi, wj)
        hit = self._verdicts.get(key)
        if hit is None:
            if len(self._verdicts) > _CACHE_LIMIT:
                self._verdicts.clear()
            short, long_ = (wi, wj) if len(wi) <= len(wj) else (wj, wi)
            hit = self._verdicts[key] = all(any(self.same_word(w, x) for x in long_) for w in short)
        return hit

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        f = facts(ctx.state, self.name)
        if len(f.persons) < 2:
            return
        names_only = self.p["names_only"]
        gender_check = self.p["gender_check"]
        nearest = self.p["antecedents"] == "nearest"
        concepts = doc.concepts
        tokens_of = doc.concept_tokens
        genders = f.genders
        prepared: list[tuple[int, tuple[str, ...], str | None]] = []
        index: dict[str, list[int]] = {}  # prefix key -> positions in ``prepared`` holding such a word
        ids = doc.concept_ids
        persons = f.persons
        analysed = self._by_id.lookup(list(map(ids.__getitem__, persons)), lambda k: tokens_of[persons[k]], self.analyse)
        for i, (words, capital, first_low, keys) in zip(persons, analysed):
            if not words:
                continue
            if names_only and not capital:
                if first_low is None:
                    continue
                if concepts[i].start[1] == 0 and first_low in f.token_counts():
                    continue  # "Students ..." where the text also says "students"
            gj = genders[i] if i in genders else f.gender_of(i)
            k = len(prepared)
            if len(keys) == 1:
                earlier: list[int] = index.get(keys[0], [])
            else:
                lists = [index[key] for key in keys if key in index]
                earlier = lists[0] if len(lists) == 1 else sorted(set().union(*lists))
            for pos in reversed(earlier):
                a, wa, ga = prepared[pos]
                if gender_check and ga and gj and ga != gj:
                    continue
                if self.matches(wa, words):
                    yield a, i, partial(_evidence, wa, words)
                    if nearest:
                        break
            prepared.append((i, words, gj))
            for key in keys:
                if key in index:
                    index[key].append(k)
                else:
                    index[key] = [k]
