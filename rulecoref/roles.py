"""Who a person mention is, from its own words: staff, family, the patient, and its gender.

Seed 001, "Identifying people mentions". The word lists live in ``resources/lexicons/people/`` and
are named in a rule file's ``attributes.people`` (docs/rules.md); this module reads a mention's
words against them. Words are compared in the people linker's form (``words.norm_word``:
lowercase, no possessive, no dots), so "Dr." = "dr", "M.D." = "md", "Smith's" = "smith".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .resources.lexicon import Lexicon
from .words import norm_word, norm_words

MASCULINE = "masculine"
FEMININE = "feminine"


@dataclass(frozen=True)
class WordSet:
    """A word list in comparison form: single words plus multi-word phrases ("social worker")."""

    words: frozenset[str] = frozenset()
    phrases: tuple[tuple[str, ...], ...] = ()
    heads: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "heads", frozenset(p[0] for p in self.phrases))

    @classmethod
    def of(cls, lex: Lexicon) -> WordSet:
        words: set[str] = set()
        phrases: set[tuple[str, ...]] = set()
        for entry in lex.phrases:
            forms = norm_words(entry)
            if len(forms) == 1:
                words.add(forms[0])
            elif forms:
                phrases.add(forms)
        return cls(frozenset(words), tuple(sorted(phrases, key=len, reverse=True)))

    def __contains__(self, word: object) -> bool:
        return word in self.words

    def first(self, words: Sequence[str]) -> str | None:
        """The first entry (phrases before single words) found in normalised ``words``, or None."""
        if not self.heads.isdisjoint(words):
            for phrase in self.phrases:
                k = len(phrase)
                if any(tuple(words[i: i + k]) == phrase for i in range(len(words) - k + 1)):
                    return " ".join(phrase)
        return next((w for w in words if w in self.words), None)


@dataclass(frozen=True)
class PeopleVocab:
    """The word lists that define roles and gender."""

    doctor_salutations: WordSet
    titles: WordSet
    personnel: WordSet
    staff_suffixes: tuple[str, ...]
    family: WordSet
    patient: WordSet
    generic: WordSet
    pronouns: WordSet
    masculine_pronouns: WordSet
    feminine_pronouns: WordSet
    masculine_words: WordSet
    feminine_words: WordSet
    titles_need_capitals: bool = True

    def pronoun_gender(self, word: str) -> str | None:
        """ "he"/"his" -> masculine, "she"/"her" -> feminine, anything else None."""
        if word in self.masculine_pronouns:
            return MASCULINE
        if word in self.feminine_pronouns:
            return FEMININE
        return None

    def pronouns_gender(self, words: Sequence[str]) -> str | None:
        """The one gender a pronoun mention's words give it ("his" -> masculine; "he or she" -> None)."""
        genders = {self.pronoun_gender(w) for w in words} - {None}
        return genders.pop() if len(genders) == 1 else None

    def words_gender(self, words: Sequence[str]) -> str | None:
        """Gender a mention's own words give it ("Mr. Smith", "a 67 year old woman"); None when
        it has none or both ("the man and his wife")."""
        m = any(w in self.masculine_words for w in words)
        f = any(w in self.feminine_words for w in words)
        if m == f:
            return None
        return MASCULINE if m else FEMININE

    def is_title(self, token: str) -> bool:
        """A medical title ("MD", "M.D.", "RN"). With ``titles_need_capitals`` the token must show
        two capitals or a dot, so that a word like "Pa" (father) or "do" is no title."""
        if norm_word(token) not in self.titles:
            return False
        return not self.titles_need_capitals or "." in token or sum(ch.isupper() for ch in token) >= 2

    def salutation(self, words: Sequence[str]) -> str | None:
        """A doctor salutation used as one, i.e. followed by a name ("Dr Smith"; not "the doctor")."""
        for w, nxt in zip(words, words[1:]):
            if w in self.doctor_salutations and nxt not in self.doctor_salutations:
                return w
        return None

    def title(self, tokens: Sequence[str]) -> str | None:
        """The medical title a mention ends with ("John Smith, MD" -> "md"), or None."""
        last = next((t for t in reversed(tokens) if norm_word(t)), None)
        return norm_word(last) if last is not None and self.is_title(last) else None

    def role_word(self, words: Sequence[str]) -> str | None:
        """A personnel entry ("attending", "social worker") or specialist ending ("audiologist")."""
        hit = self.personnel.first(words)
        if hit:
            return f"lexicon {hit!r}"
        for w in words:
            for suffix in self.staff_suffixes:
                if w.endswith(suffix) and len(w) > len(suffix) + 2:
                    return f"suffix {suffix!r} in {w!r}"
        return None

    def named(self, tokens: Sequence[str], words: Sequence[str]) -> str | None:
        """A doctor's salutation ("Dr Smith") or a title at the end ("John Smith, MD"), or None."""
        sal = self.salutation(words)
        if sal:
            return f"salutation {sal!r}"
        title = self.title(tokens)
        return f"title {title!r}" if title else None

    def surname(self, tokens: Sequence[str]) -> str | None:
        """The last capitalised word of a mention that is no salutation, title, pronoun or role word:
        "Edward L, Smith" -> "smith", "Dr Smith's" -> "smith", "the patient" -> None."""
        for tok in reversed(tokens):
            w = norm_word(tok)
            if len(w) < 2 or not tok[:1].isupper():
                continue
            if w in self.doctor_salutations or self.is_title(tok) or w in self.pronouns:
                continue
            if any(w in s for s in (self.personnel, self.patient, self.family, self.generic,
                                    self.masculine_words, self.feminine_words)):
                continue
            return w
        return None

    def is_pronoun_words(self, words: Sequence[str]) -> bool:
        return bool(words) and all(w in self.pronouns for w in words)
