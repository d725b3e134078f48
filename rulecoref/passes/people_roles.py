"""``people_roles``: who is staff, who is the subject (the patient) and which gender it has.

Seed 001, "Identifying people mentions". Proposes no links: it leaves a ``PeopleFacts`` in
``ctx.state["people"]`` that the other people-linker kinds read (they declare
``requires = ("people_roles",)``), so every pass agrees on the roles.

* Medical personnel: a doctor salutation ("Dr Smith"), a medical title at the end ("John Smith,
  MD"), a personnel word or phrase ("the attending", "social worker"), a specialist ending
  ("audiologist"), or, only when ``web.enabled`` is true, the optional web provider
  (``rulecoref/resources/web.py``), which is asked only about generic lowercase words.
* The subject: the first person mention that is not a pronoun, not staff and holds no patient,
  family or generic word ("Ms. Jones", "a 67 year old woman"); else the first mention with
  "patient"/"pt".
* The subject's gender: the more frequent of masculine and feminine pronouns in the document; on a
  tie, the subject's own words ("Mrs.", "woman").

Speed: only mentions of the person and pronoun types are looked at (taken by type, not by scanning
every concept), and what a mention's own tokens decide (its words, gender, staff/family/patient
words, surname) is remembered per token sequence across documents, in bounded caches of tuples (strings
and flags). Counting the gendered pronouns among all tokens is left to the first pass that reads the
gender (``PeopleFacts.defer_gender``); it uses the document's token counts (``PeopleFacts.token_counts``,
one C-level pass, shared with ``partial_name``) and remembers, across documents, which token
spellings are gendered pronouns, so only spellings never seen before are examined.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from operator import itemgetter

from ..document import Document
from ..errors import RuleFileError, diagnostic
from ..mentions import MentionCache
from ..resources.web import WebSettings, WebStaffProvider, privacy_gate, surface_word, wordnet_person_noun
from ..rules.schema import Param
from . import Context, Pass, register
from .people import FEMININE, MASCULINE, STATE_KEY, PeopleFacts, PeopleVocab, WordSet, norm_word, norm_words
from .predicates import prefix_match

_LEX = "resources/lexicons/people/"
_CACHE_LIMIT = 200_000  # token sequences (and token spellings) remembered per process; cleared when exceeded

# What a person mention's own tokens decide (one tuple per token sequence, see ``_person``):
_WORDS, _IS_PRONOUN, _GENDER, _FAMILY, _STAFF, _ROLE, _PATIENT, _GENERIC, _NAMED, _SURNAME = range(10)
_first, _second = itemgetter(0), itemgetter(1)


@register("people_roles")
class PeopleRoles(Pass):
    params = {
        "person_types": Param("str_list", default=["person", "people"],
                              help="concept types of person mentions (pronoun mentions come from the rule file's pronoun_types)"),
        "doctor_salutations": Param("wordlist", default=_LEX + "doctor_salutations.txt", help="'Dr' before a name makes a mention staff"),
        "titles": Param("wordlist", default=_LEX + "medical_titles.txt", help="a title at the end ('MD', 'RN') makes a mention staff"),
        "staff_by_surname": Param("bool", default=True,
                                  help="a mention with the surname of a 'Dr X' / 'X, MD' mention is staff too"),
        "titles_need_capitals": Param("bool", default=True, help="a title must be written with two capitals or a dot ('MD', 'M.D.'; not 'Pa')"),
        "personnel": Param("wordlist", default=_LEX + "medical_personnel.txt", help="words and phrases of medical personnel"),
        "staff_suffixes": Param("wordlist", default=_LEX + "staff_suffixes.txt", help="word endings of specialists ('-ologist')"),
        "family": Param("wordlist", default=_LEX + "family.txt", help="family members and companions: never the patient"),
        "patient_words": Param("wordlist", default=_LEX + "patient_words.txt", help="words naming the patient ('patient', 'pt')"),
        "generic_words": Param("wordlist", default=_LEX + "generic_people.txt", help="words that never name the subject ('someone')"),
        "pronouns": Param("wordlist", default=_LEX + "pronouns.txt", help="a person mention made only of these is a pronoun"),
        "masculine_pronouns": Param("wordlist", default=_LEX + "pronouns_masculine.txt", help="he, him, his, himself"),
        "feminine_pronouns": Param("wordlist", default=_LEX + "pronouns_feminine.txt", help="she, her, hers, herself"),
        "masculine_words": Param("wordlist", default=_LEX + "masculine_words.txt", help="'Mr', 'man': a masculine mention"),
        "feminine_words": Param("wordlist", default=_LEX + "feminine_words.txt", help="'Mrs', 'woman': a feminine mention"),
        "gender_count": Param("choice", default="tokens", allowed=("tokens", "concepts"),
                              help="count gendered pronouns among all tokens (seed) or only pronoun mentions"),
        "web": Param("mapping", default={}, help="the optional web provider (off by default); see docs/web-provider.md"),
        "web_keywords": Param("wordlist", default=_LEX + "web_keywords.txt", help="medical keywords counted in web results"),
        "names": Param("wordlist", default=_LEX + "names.txt", help="names never sent to the web, even in lower case"),
        "date_words": Param("wordlist", default=_LEX + "date_words.txt", help="date words never sent to the web"),
    }

    def setup(self) -> None:
        ws = lambda p: WordSet.of(self.lexicon(p))  # noqa: E731
        self.vocab = PeopleVocab(
            doctor_salutations=ws("doctor_salutations"),
            titles=ws("titles"),
            personnel=ws("personnel"),
            staff_suffixes=tuple(sorted(ws("staff_suffixes").words, key=len, reverse=True)),
            family=ws("family"),
            patient=ws("patient_words"),
            generic=ws("generic_words"),
            pronouns=ws("pronouns"),
            masculine_pronouns=ws("masculine_pronouns"),
            feminine_pronouns=ws("feminine_pronouns"),
            masculine_words=ws("masculine_words"),
            feminine_words=ws("feminine_words"),
            titles_need_capitals=self.p["titles_need_capitals"],
        )
        settings, problems = WebSettings.from_mapping(self.p.get("web") or {})
        if problems:
            raise RuleFileError([diagnostic("RC310", file=self.config.rule_file or None, line=self.config.line or None,
                                            detail=f"pass {self.name!r}: {p}") for p in problems])
        self.web_settings = settings
        self.names = self.lexicon("names").words
        self.date_words = self.lexicon("date_words").words
        self._vocabulary = None
        self.person_types = frozenset(self.p["person_types"])
        self._pronoun_cache: dict[tuple[str, ...], tuple[tuple[str, ...], str | None]] = {}
        self._person_cache: dict[tuple[str, ...], tuple] = {}
        # the same analyses by mention id (``mentions``), for the bulk lookups of ``local_facts``
        self._pronoun_ids: MentionCache[tuple[tuple[str, ...], str | None]] = MentionCache()
        self._person_ids: MentionCache[tuple] = MentionCache()
        self._known_tokens: set[str] = set()  # token spellings already sorted into the two below
        self._masculine_tokens: set[str] = set()
        self._feminine_tokens: set[str] = set()
        self.provider: WebStaffProvider | None = None
        if settings.enabled:
            self.provider = WebStaffProvider(settings, tuple(self.lexicon("web_keywords")))

    # -- local detection ------------------------------------------------------------------------
    def _pronoun(self, tokens: tuple[str, ...]) -> tuple[tuple[str, ...], str | None]:
        """Words and gender of a pronoun mention, cached per token sequence."""
        hit = self._pronoun_cache.get(tokens)
        if hit is None:
            if len(self._pronoun_cache) > _CACHE_LIMIT:
                self._pronoun_cache.clear()
            words = tuple(norm_words(tokens))
            hit = self._pronoun_cache[tokens] = (words, self._pronoun_words_gender(words))
        return hit

    def _pronoun_words_gender(self, words: Sequence[str]) -> str | None:
        genders = {self.vocab.pronoun_gender(w) for w in words} - {None}
        return genders.pop() if len(genders) == 1 else None

    def _person(self, tokens: tuple[str, ...]) -> tuple:
        """What a person mention's own tokens decide (fields ``_WORDS`` ... ``_SURNAME``), cached
        per token sequence: the same names and descriptions recur within and across documents."""
        hit = self._person_cache.get(tokens)
        if hit is not None:
            return hit
        if len(self._person_cache) > _CACHE_LIMIT:
            self._person_cache.clear()
        v = self.vocab
        words = tuple(norm_words(tokens))
        if v.is_pronoun_words(words):
            hit = (words, True, self._pronoun_words_gender(words), None, None, False, None, False, None, None)
        else:
            sal = v.salutation(words)
            title = None if sal else v.title(tokens)
            named = f"salutation {sal!r}" if sal else f"title {title!r}" if title else None
            hit = (
                words,
                False,
                v.words_gender(words),
                v.family.first(words),
                v.staff_reason(tokens, words),
                v.role_word(words) is not None,
                v.patient.first(words),
                bool(v.generic.first(words)),
                named,
                v.surname(tokens),
            )
        self._person_cache[tokens] = hit
        return hit

    def local_facts(self, doc: Document) -> PeopleFacts:
        """Everything decided without the web: pronoun, staff, family and patient mentions."""
        f = PeopleFacts(vocab=self.vocab, tokens=doc.flat_tokens)
        tokens_of, ids = doc.concept_tokens, doc.concept_ids
        f_words, genders = f.words, f.genders
        pronoun_types = self.scope.pronoun_types
        admits = self.scope.admits_type
        person_idx: list[int] = []
        person_kinds = 0
        for t in doc.types:
            if not admits(t):
                continue
            if t in pronoun_types:
                # many pronoun mentions, few spellings: looked up in bulk by mention id
                idx = [c.index for c in doc.of_type(t)]
                hits = self._pronoun_ids.lookup(list(map(ids.__getitem__, idx)),
                                                lambda k, idx=idx: tokens_of[idx[k]], self._pronoun)
                f_words.update(zip(idx, map(_first, hits)))
                genders.update(zip(idx, map(_second, hits)))
                f.pronouns.update(idx)
            elif t in self.person_types:
                person_idx.extend([c.index for c in doc.of_type(t)])
                person_kinds += 1
        if person_kinds > 1:
            person_idx.sort()  # text order across person types
        persons = f.persons
        analyses = self._person_ids.lookup(list(map(ids.__getitem__, person_idx)),
                                           lambda k: tokens_of[person_idx[k]], self._person)
        for i, a in zip(person_idx, analyses):
            f_words[i] = a[_WORDS]
            genders[i] = a[_GENDER]
            if a[_IS_PRONOUN]:
                f.pronouns.add(i)
                continue
            persons.append(i)
            fam = a[_FAMILY]
            if fam:
                f.family[i] = fam
            why = a[_STAFF]
            if why:
                f.staff[i] = why
                if a[_ROLE]:
                    f.staff_words.add(i)
                if a[_NAMED]:
                    f.named[i] = a[_NAMED]
            pat = a[_PATIENT]
            if pat and not fam and not why:
                f.patients[i] = pat
        if self.p["staff_by_surname"] and f.staff:
            self._staff_by_surname(doc, f)
        return f

    def _staff_by_surname(self, doc: Document, f: PeopleFacts) -> None:
        """A name written elsewhere with "Dr" or a title is a doctor's name: "You will see Edward L,
        Smith ... at Dr Smith's clinic" (seed 001's own example) makes "Edward L, Smith" staff, so
        it is not taken for the subject. Surnames are compared by the 80%-prefix rule."""
        tokens_of = doc.concept_tokens
        doctors: dict[str, int] = {}
        for i, why in f.staff.items():
            if why.startswith(("salutation", "title")):
                name = self._person(tokens_of[i])[_SURNAME]
                if name and len(name) >= 3:
                    doctors.setdefault(name, i)
        if not doctors:
            return
        for i in f.persons:
            if i in f.staff or i in f.family or f.genders[i]:
                continue  # "Mr. Smith", "Mrs. Smith": a lay title, not the doctor of that name
            name = self._person(tokens_of[i])[_SURNAME]
            if not name or len(name) < 3:
                continue
            hit = next((d for d in doctors if prefix_match(name, d)), None)
            if hit is not None:
                f.staff[i] = f"surname {name!r} of {doc.concepts[doctors[hit]].text!r}"
                f.patients.pop(i, None)

    def web_candidates(self, doc: Document, f: PeopleFacts) -> tuple[list[tuple[int, str]], Counter[str]]:
        """The (concept, word) pairs the web provider would be asked about, and refusal counts by
        reason. Only person mentions the local rules left undecided are considered (no staff, family,
        patient, generic or gendered word), and of each only its head word (the last word), which
        must pass the privacy gate."""
        asks: list[tuple[int, str]] = []
        refused: Counter[str] = Counter()
        v = self.vocab
        for i in f.persons:
            words = f.words[i]
            if i in f.staff or i in f.family or i in f.patients or v.generic.first(words):
                continue
            if v.words_gender(words):
                continue  # "a 71 year old woman", "Mr. X": a lay description, decided locally
            tokens = [t for t in doc.tokens(doc.concepts[i]) if norm_word(t)]
            if not tokens:
                continue
            word = surface_word(tokens[-1])
            reason = privacy_gate(word, names=self.names, date_words=self.date_words, vocabulary=self.vocabulary())
            if reason:
                refused[reason] += 1
            else:
                asks.append((i, word))
        return asks, refused

    def vocabulary(self):
        """The gate's vocabulary check (WordNet person nouns by default), loaded on first use; when
        WordNet cannot be loaded every word is refused (fail closed)."""
        if self.web_settings.vocabulary == "none":
            return None
        if self._vocabulary is None:
            try:
                self._vocabulary = wordnet_person_noun(self.resources.wordnet)
            except Exception:  # no WordNet here: refuse everything rather than send unchecked words
                self._vocabulary = lambda word: False
        return self._vocabulary

    def finish(self, doc: Document, f: PeopleFacts) -> PeopleFacts:
        """Subject and gender, once staff is final (seed 001, "The subject", "The subject's gender").
        The gender is settled when a pass first reads it (see the module docstring)."""
        tokens_of = doc.concept_tokens
        for i in f.persons:
            if i in f.staff or i in f.family or i in f.patients:
                continue
            a = self._person(tokens_of[i])
            if a[_PATIENT] or a[_GENERIC]:
                continue
            f.subject, f.subject_why = i, "first person mention that is no pronoun, staff, patient, family or generic word"
            break
        else:
            for i in f.persons:
                if i in f.patients:
                    f.subject, f.subject_why = i, f"no name: first mention with {f.patients[i]!r}"
                    break
        if self.p["gender_count"] == "tokens":
            f.defer_gender(self._gender_by_tokens)
        else:
            f.defer_gender(self._gender_by_concepts)
        return f

    def _gender_by_tokens(self, f: PeopleFacts) -> tuple[str | None, str]:
        """Gendered pronouns among all tokens. A token counts by its lowercase form when it is
        all letters, else by ``norm_word``. Which spellings are gendered is remembered across
        documents, so only the spellings never seen before are examined."""
        counts = f.token_counts()
        known = self._known_tokens
        if not known.issuperset(counts):
            new = [t for t in counts if t not in known]
            if len(known) + len(new) > _CACHE_LIMIT:
                known.clear()
                self._masculine_tokens.clear()
                self._feminine_tokens.clear()
                new = list(counts)
            masculine = self.vocab.masculine_pronouns.words
            feminine = self.vocab.feminine_pronouns.words
            for tok in new:
                low = tok.lower() if tok.isalpha() else norm_word(tok)
                if low in masculine:
                    self._masculine_tokens.add(tok)
                if low in feminine:
                    self._feminine_tokens.add(tok)
            known.update(new)
        get = counts.get
        m = sum(get(t, 0) for t in self._masculine_tokens)
        fe = sum(get(t, 0) for t in self._feminine_tokens)
        return self._decide_gender(f, m, fe)

    def _gender_by_concepts(self, f: PeopleFacts) -> tuple[str | None, str]:
        """Gendered pronouns among the words of pronoun mentions."""
        low = Counter(w for i in sorted(f.pronouns) for w in f.words[i])
        v = self.vocab
        m = sum(n for w, n in low.items() if w in v.masculine_pronouns.words)
        fe = sum(n for w, n in low.items() if w in v.feminine_pronouns.words)
        return self._decide_gender(f, m, fe)

    def _decide_gender(self, f: PeopleFacts, m: int, fe: int) -> tuple[str | None, str]:
        if m != fe:
            return (MASCULINE if m > fe else FEMININE), f"{m} masculine vs {fe} feminine pronouns"
        if f.subject is not None:
            gender = self.vocab.words_gender(f.words[f.subject])
            return gender, f"pronouns tie ({m}); subject's own words" if gender else f"pronouns tie ({m}); unknown"
        return None, ""

    def detect(self, doc: Document, *, ask_web: bool = True) -> PeopleFacts:
        f = self.local_facts(doc)
        if ask_web and self.provider is not None:
            asks, _ = self.web_candidates(doc, f)
            for i, word in asks:
                verdict = self.provider.lookup(word)
                if verdict.staff:
                    f.staff[i] = f"web {word!r}: {', '.join(verdict.found)}"
                    f.staff_words.add(i)
                if verdict.source == "web":
                    f.web_sent.append(word)
                elif verdict.source == "failed":
                    f.web_failures.append(word)
        return self.finish(doc, f)

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        ctx.state[STATE_KEY] = self.detect(doc)
        return iter(())
