"""Shared vocabulary and per-document facts of the people linker (seed 001, "People linker").

Not a pass kind (it registers nothing): ``people_roles`` fills a :class:`PeopleFacts` into
``ctx.state["people"]`` and the linking passes (``patient_mention``, ``introduction_match``,
``partial_name``, the pronoun kinds) and the role filters read it, so the staff list, the subject
and its gender are decided once, by one set of word lists.

Words are compared in a normalised form: lowercased, a possessive "'s" removed and every character
other than a letter, digit or hyphen dropped, so "Dr." = "dr", "M.D." = "md", "Smith's" = "smith".

Speed: most documents hold few person mentions among many concepts, so the facts keep what every
linking pass asks again (each mention's words as a tuple and own gender, the single-word pronouns,
where person mentions start, the document's token counts), and the subject's gender, which needs
a count over every token of the document, is settled only when a pass first reads it. The role filters share one grouping of
the kept links per document (``link_groups``) and run the chain check only where a group holds
both sides.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ..document import Concept, Document
from ..resources.lexicon import Lexicon

STATE_KEY = "people"
MASCULINE = "masculine"
FEMININE = "feminine"

_POSSESSIVE = re.compile(r"(?:['\u2019]s|s['\u2019]|['\u2019])$")
_DROP = re.compile(r"[^0-9a-z-]+")


def norm_word(token: str) -> str:
    """Comparison form of a token: "Dr." -> "dr", "Smith's" -> "smith", "," -> ""."""
    low = token.lower()
    if low.endswith(("s'", "s\u2019")) and len(low) > 2:
        low = low[:-1]  # "nurses'" -> "nurses"
    else:
        low = _POSSESSIVE.sub("", low)
    return _DROP.sub("", low).strip("-")


def norm_words(tokens: Iterable[str]) -> list[str]:
    """Comparison forms of tokens, empty ones (punctuation) dropped."""
    return [w for w in (norm_word(t) for t in tokens) if w]


@dataclass(frozen=True)
class WordSet:
    """A word list in comparison form: single words plus multi-word phrases ("social worker")."""

    words: frozenset[str] = frozenset()
    phrases: tuple[tuple[str, ...], ...] = ()
    #: first words of the phrases: a mention without any of them holds no phrase
    heads: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "heads", frozenset(p[0] for p in self.phrases))

    @classmethod
    def of(cls, lex: Lexicon) -> WordSet:
        words: set[str] = set()
        phrases: set[tuple[str, ...]] = set()
        for entry in lex.phrases:
            forms = tuple(norm_words(entry))
            if len(forms) == 1:
                words.add(forms[0])
            elif forms:
                phrases.add(forms)
        return cls(frozenset(words), tuple(sorted(phrases, key=len, reverse=True)))

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word in self.words

    def first(self, words: Sequence[str]) -> str | None:
        """The first entry (phrases before single words) found in normalised ``words``, or None."""
        if not self.heads.isdisjoint(words):
            n = len(words)
            for phrase in self.phrases:
                k = len(phrase)
                for i in range(n - k + 1):
                    if tuple(words[i : i + k]) == phrase:
                        return " ".join(phrase)
        for w in words:
            if w in self.words:
                return w
        return None


@dataclass(frozen=True)
class PeopleVocab:
    """The word lists that define roles and gender, shared by every people-linker pass."""

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
        if not self.titles_need_capitals:
            return True
        return "." in token or sum(ch.isupper() for ch in token) >= 2

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
        """A personnel lexicon entry ("attending", "social worker") or specialist ending ("audiologist")."""
        hit = self.personnel.first(words)
        if hit:
            return f"lexicon {hit!r}"
        for w in words:
            for suffix in self.staff_suffixes:
                if w.endswith(suffix) and len(w) > len(suffix) + 2:
                    return f"suffix {suffix!r} in {w!r}"
        return None

    def staff_reason(self, tokens: Sequence[str], words: Sequence[str] | None = None) -> str | None:
        """Why a mention is medical personnel by the local rules (seed 001, "Medical personnel"), or None:
        a doctor salutation ("Dr Smith"), a title at the end ("John Smith, MD"), a word or phrase of
        the personnel lexicon ("the attending", "social worker"), or a specialist ending ("audiologist").
        """
        words = norm_words(tokens) if words is None else words
        sal = self.salutation(words)
        if sal:
            return f"salutation {sal!r}"
        title = self.title(tokens)
        if title:
            return f"title {title!r}"
        return self.role_word(words)

    def surname(self, tokens: Sequence[str]) -> str | None:
        """The last capitalised word of a mention that is no salutation, title, pronoun or role word:
        "Edward L, Smith" -> "smith", "Dr Smith's" -> "smith", "the patient" -> None."""
        for tok in reversed(tokens):
            w = norm_word(tok)
            if len(w) < 2 or not tok[:1].isupper():
                continue
            if w in self.doctor_salutations or self.is_title(tok) or w in self.pronouns:
                continue
            if w in self.personnel or w in self.patient or w in self.family or w in self.generic:
                continue
            if w in self.masculine_words or w in self.feminine_words:
                continue
            return w
        return None

    def is_pronoun_words(self, words: Sequence[str]) -> bool:
        return bool(words) and all(w in self.pronouns for w in words)


@dataclass
class PeopleFacts:
    """What ``people_roles`` found in one document (seed 001, "Identifying people mentions").

    Indices are concept indices. ``why`` maps each decision to its evidence, for provenance.
    ``gender``/``gender_why`` may be settled on first read (``defer_gender``): counting the
    pronouns of a long document costs more than everything else here, and many documents have no
    gendered pronoun mention that would ask.
    """

    vocab: PeopleVocab
    words: dict[int, Sequence[str]] = field(default_factory=dict)  # normalised words per person/pronoun concept
    persons: list[int] = field(default_factory=list)  # non-pronoun person mentions, text order
    pronouns: set[int] = field(default_factory=set)  # pronoun mentions (pronoun type, or person type made of pronouns)
    staff: dict[int, str] = field(default_factory=dict)  # index -> reason ("salutation 'dr'", "web", ...)
    staff_words: set[int] = field(default_factory=set)  # staff by a role word (lexicon, ending, web)
    family: dict[int, str] = field(default_factory=dict)  # index -> the family word
    patients: dict[int, str] = field(default_factory=dict)  # index -> the patient word (no family word)
    subject: int | None = None
    subject_why: str = ""
    web_sent: list[str] = field(default_factory=list)  # words the web provider was asked about
    web_failures: list[str] = field(default_factory=list)
    named: dict[int, str] = field(default_factory=dict)  # person mentions with a salutation or title -> that reason
    genders: dict[int, str | None] = field(default_factory=dict)  # a mention's gender from its own words
    _gender: str | None = None
    _gender_why: str = ""
    _gender_source: Callable[[PeopleFacts], tuple[str | None, str]] | None = field(default=None, repr=False)
    tokens: Sequence[str] = field(default=(), repr=False)  # the document's tokens (flat), for token_counts
    _singles: list[tuple[int, str]] | None = field(default=None, repr=False)
    _token_counts: Counter[str] | None = field(default=None, repr=False)
    _person_starts: list[int] | None = field(default=None, repr=False)

    # -- the subject's gender (possibly settled on first read) -------------------------------------
    def defer_gender(self, source: Callable[[PeopleFacts], tuple[str | None, str]]) -> None:
        """Decide ``gender`` and ``gender_why`` by ``source(self)`` when first read."""
        self._gender_source = source

    def _settle_gender(self) -> None:
        source, self._gender_source = self._gender_source, None
        if source is not None:
            self._gender, self._gender_why = source(self)

    @property
    def gender(self) -> str | None:
        if self._gender_source is not None:
            self._settle_gender()
        return self._gender

    @gender.setter
    def gender(self, value: str | None) -> None:
        self._settle_gender()
        self._gender = value

    @property
    def gender_why(self) -> str:
        if self._gender_source is not None:
            self._settle_gender()
        return self._gender_why

    @gender_why.setter
    def gender_why(self, value: str) -> None:
        self._settle_gender()
        self._gender_why = value

    # -- questions the linking passes ask ------------------------------------------------------------
    def is_staff(self, i: int) -> bool:
        return i in self.staff

    def patient_side(self) -> set[int]:
        """The subject and the patient mentions: the mentions that name the patient."""
        side = set(self.patients)
        if self.subject is not None:
            side.add(self.subject)
        return side

    def gender_of(self, i: int) -> str | None:
        """A mention's gender from its own words (pronoun or gendered word), None when unknown."""
        got = self.genders.get(i, _UNKNOWN)
        if got is not _UNKNOWN:
            return got  # type: ignore[return-value]
        words = self.words.get(i, [])
        if i in self.pronouns:
            genders = {self.vocab.pronoun_gender(w) for w in words} - {None}
            return genders.pop() if len(genders) == 1 else None
        return self.vocab.words_gender(words)

    def token_counts(self) -> Counter[str]:
        """How often each token occurs in the document, counted once for every pass that asks
        (the subject's gender, ``partial_name``'s lowercase check): one pass over the tokens."""
        if self._token_counts is None:
            self._token_counts = Counter(self.tokens)
        return self._token_counts

    def single_pronouns(self) -> list[tuple[int, str]]:
        """(index, word) of the pronoun mentions made of one word, in text order (built once)."""
        if self._singles is None:
            words = self.words
            self._singles = [(p, w[0]) for p in sorted(self.pronouns) if len(w := words.get(p, ())) == 1]
        return self._singles

    def person_starts(self, doc: Document) -> list[int]:
        """Flat start of each of ``persons`` (non-decreasing, as concepts are in text order)."""
        if self._person_starts is None:
            starts = doc.concept_starts
            self._person_starts = [starts[i] for i in self.persons]
        return self._person_starts

    def next_person(self, doc: Document, flat: int) -> int | None:
        """The first person mention that starts after flat token ``flat``."""
        k = bisect_right(self.person_starts(doc), flat)
        return self.persons[k] if k < len(self.persons) else None

    def previous_person(self, doc: Document, flat: int) -> int | None:
        """The last person mention that starts before flat token ``flat``."""
        k = bisect_left(self.person_starts(doc), flat)
        return self.persons[k - 1] if k else None


_UNKNOWN = object()


def facts(ctx_state: dict, pass_name: str) -> PeopleFacts:
    """The facts a ``people_roles`` pass left; a clear error when the rule file forgot that pass."""
    got = ctx_state.get(STATE_KEY)
    if not isinstance(got, PeopleFacts):
        raise RuntimeError(
            f"pass {pass_name!r} needs a 'people_roles' pass earlier in the rule file "
            "(it finds the staff, the subject and its gender); see docs/rules.md, 'People linker'"
        )
    return got


def between_words(doc: Document, a: Concept, b: Concept) -> list[str]:
    """Normalised words strictly between two concepts (punctuation dropped)."""
    return norm_words(doc.between(a, b))


def overlaps(doc: Document, a: Concept, b: Concept) -> bool:
    """True when two mentions share a token ("his" inside "his lady")."""
    return doc.start_of(a) <= doc.end_of(b) and doc.start_of(b) <= doc.end_of(a)


def keep_apart(pairs: Iterable[tuple[int, int]], side_a: set[int], side_b: set[int]) -> Iterator[tuple[tuple[int, int], int, int]]:
    """Links that would put a member of ``side_a`` and one of ``side_b`` into one chain.

    Links are taken in the order given (rule-file order: earlier, more precise passes win) and
    joined with union-find; a link that would merge a group holding an ``a`` mention with a group
    holding a ``b`` mention is yielded with the two mentions it would have joined, and left out.
    Checking chains, not single links, matters: "her mother" ~ "she" ~ "the patient" would merge
    the mother with the patient although neither link alone joins them.
    """
    if not side_a or not side_b:
        return
    parent: dict[int, int] = {}
    a_of: dict[int, int] = {}  # root -> an a-member of its group
    b_of: dict[int, int] = {}

    def root(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for x in side_a:
        a_of.setdefault(root(x), x)
    for x in side_b:
        b_of.setdefault(root(x), x)
    for pair in pairs:
        ra, rb = root(pair[0]), root(pair[1])
        if ra == rb:
            continue
        if ra in a_of and rb in b_of:
            yield pair, a_of[ra], b_of[rb]
            continue
        if rb in a_of and ra in b_of:
            yield pair, a_of[rb], b_of[ra]
            continue
        parent[rb] = ra
        if rb in a_of:
            a_of.setdefault(ra, a_of[rb])
        if rb in b_of:
            b_of.setdefault(ra, b_of[rb])


_GROUPS_KEY = "people.link_groups"


def link_groups(pairs: list[tuple[int, int]], state: dict | None = None) -> dict[int, int]:
    """The connected groups of the links ``pairs``: a label per linked mention (unlinked mentions
    have none). With ``state`` (``ctx.state``) the grouping is remembered for the same link list,
    so the family and the staff filter build it once per document when the first removes nothing."""
    if state is not None:
        got = state.get(_GROUPS_KEY)
        if got is not None and got[0] == pairs:
            return got[1]
    label: dict[int, int] = {}
    members: dict[int, list[int]] = {}
    get = label.get
    for a, b in pairs:
        la, lb = get(a), get(b)
        if la is None:
            if lb is None:
                label[a] = label[b] = a
                members[a] = [a, b]
            else:
                label[a] = lb
                members[lb].append(a)
        elif lb is None:
            label[b] = la
            members[la].append(b)
        elif la != lb:
            ma, mb = members[la], members[lb]
            if len(ma) < len(mb):
                la, lb, ma, mb = lb, la, mb, ma
            for x in mb:
                label[x] = la
            ma.extend(mb)
            del members[lb]
    if state is not None:
        state[_GROUPS_KEY] = (pairs, label)
    return label


def pronouns_with_word(doc: Document, f: PeopleFacts, words: frozenset[str] | set[str],
                       pronoun_types: Iterable[str]) -> Iterator[Concept]:
    """Pronoun mentions that are exactly one of ``words`` ("this", "who"), in text order."""
    types = set(pronoun_types)
    concepts = doc.concepts
    for p, w in f.single_pronouns():
        if w in words:
            c = concepts[p]
            if c.type in types:
                yield c


def reject_joining_patient(doc: Document, links: Iterable[tuple[int, int]], f: PeopleFacts,
                           others: dict[int, object], what: str,
                           state: dict | None = None) -> Iterator[tuple[tuple[int, int], str]]:
    """Links that would put one of ``others`` (family, staff) in the patient's chain, with evidence.

    Only links inside a group (``link_groups``) that holds both a patient mention and one of
    ``others`` can do that, so ``keep_apart`` runs on those links alone (in their order); groups
    never interact, so the result is that of ``keep_apart`` over every link.
    """
    side = f.patient_side()
    if not side or not others:
        return
    other = set(others) - side
    if not other:
        return
    pairs = list(links)
    label = link_groups(pairs, state).get
    both = {label(x) for x in side} & {label(x) for x in other}
    both.discard(None)
    if not both:
        return
    pairs = [pair for pair in pairs if label(pair[0]) in both]
    c = doc.concepts
    for pair, a, b in keep_apart(pairs, side, other):
        yield pair, f"would put {what} mention {c[b].text!r} ({others[b]}) in the chain of patient mention {c[a].text!r}"
