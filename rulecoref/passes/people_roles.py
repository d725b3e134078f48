"""``people_roles``: who is staff, who is the subject (the patient) and which gender it has.

Seed 001, "Identifying people mentions". Proposes no links: it leaves a ``PeopleFacts`` in
``ctx.state["people"]`` that the other people-linker kinds read (they declare
``requires = ("people_roles",)``, and the compiler checks this pass runs first).

* Medical personnel: a mention's own words say so (attributes ``named``: "Dr Smith", "John Smith,
  MD"; ``role_word``: "the attending", "audiologist"), or it carries the surname of a "Dr X"
  mention (``staff_by_surname``), or, only when ``web.enabled`` is true, the optional web
  provider (``resources/web.py``) says so about its generic lowercase head word.
* Family: a ``family_word`` ("her mother"). Patient mentions: a ``patient_word`` and no family
  word, not staff.
* The subject: the first person mention that is not staff and holds no patient, family or generic
  word ("Ms. Jones", "a 67 year old woman"); else the first patient mention.
* A note about a patient: a patient mention, or a concept of one of ``note_types`` (a clinical
  note that calls its patient only "ABC" and "he"; issue 35).
* The subject's gender: the more frequent of masculine and feminine pronouns in the document; on a
  tie, the subject's own words ("Mrs.", "woman").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from ..document import Document
from ..mentions import MentionTable
from ..params import Param
from ..resources.web import WebSettings, WebStaffProvider, privacy_gate, surface_word, wordnet_person_noun
from ..roles import FEMININE, MASCULINE
from ..words import norm_word, prefix_match
from . import Context, Pass, register
from .people import STATE_KEY, PeopleFacts

_LEX = "resources/lexicons/people/"


def _web_problems(value: object) -> list[str]:
    return WebSettings.from_mapping(value if isinstance(value, dict) else {})[1]


@register("people_roles")
class PeopleRoles(Pass):
    attributes = ("type", "person", "is_pronoun", "pronoun", "named", "role_word", "family_word", "patient_word",
                  "generic_person", "surname", "gender", "person_words", "tokens")
    params = {
        "staff_by_surname": Param("bool", default=True,
                                  help="a mention with the surname of a 'Dr X' / 'X, MD' mention is staff too"),
        "gender_count": Param("choice", default="tokens", allowed=("tokens", "concepts"),
                              help="count gendered pronouns among all tokens (the UHD system) or only pronoun mentions"),
        "note_types": Param("str_list", default=[],
                            help="concept types that make a document a note about a patient even when no mention "
                                 "says 'the patient' (problem, treatment, test: 'I have seen ABC today')"),
        "web": Param("mapping", default={}, check=_web_problems,
                     help="the optional web provider (off by default); see docs/web-provider.md"),
        "web_keywords": Param("wordlist", default=_LEX + "web_keywords.txt", help="medical keywords counted in web results"),
        "names": Param("wordlist", default=_LEX + "names.txt", help="names never sent to the web, even in lower case"),
        "date_words": Param("wordlist", default=_LEX + "date_words.txt", help="date words never sent to the web"),
    }

    def setup(self) -> None:
        self.web_settings = WebSettings.from_mapping(self.p.get("web") or {})[0]  # checked by the compiler
        self.names = self.lexicon("names").words
        self.date_words = self.lexicon("date_words").words
        self.provider: WebStaffProvider | None = None
        if self.web_settings.enabled:
            self.provider = WebStaffProvider(self.web_settings, tuple(self.lexicon("web_keywords")))
        self._vocabulary = None

    def local_facts(self, t: MentionTable) -> PeopleFacts:
        """Everything decided without the web: staff, family and patient mentions."""
        f = PeopleFacts(persons=[i for i, p in enumerate(t["person"]) if p])
        for i in f.persons:
            fam, why = t["family_word"][i], t["named"][i] or t["role_word"][i]
            if fam:
                f.family[i] = fam
            if why:
                f.staff[i] = why
                if t["role_word"][i]:
                    f.staff_words.add(i)
            if t["patient_word"][i] and not fam and not why:
                f.patients[i] = t["patient_word"][i]
        if self.p["staff_by_surname"] and f.staff:
            self._staff_by_surname(t, f)
        return f

    def _staff_by_surname(self, t: MentionTable, f: PeopleFacts) -> None:
        """A name written elsewhere with "Dr" or a title is a doctor's name: "You will see Edward L,
        Smith ... at Dr Smith's clinic" (seed 001's own example) makes "Edward L, Smith" staff, so
        it is not taken for the subject. Surnames are compared by the 80%-prefix rule."""
        surname = t["surname"]
        doctors: dict[str, int] = {}
        for i in f.staff:
            if t["named"][i] and surname[i] and len(surname[i]) >= 3:
                doctors.setdefault(surname[i], i)
        for i in f.persons if doctors else ():
            name = surname[i]
            if i in f.staff or i in f.family or t["gender"][i] or not name or len(name) < 3:
                continue  # "Mr. Smith", "Mrs. Smith": a lay title, not the doctor of that name
            hit = next((d for d in doctors if prefix_match(name, d)), None)
            if hit is not None:
                f.staff[i] = f"surname {name!r} of {t.doc.concepts[doctors[hit]].text!r}"
                f.patients.pop(i, None)

    def web_candidates(self, t: MentionTable, f: PeopleFacts) -> tuple[list[tuple[int, str]], Counter[str]]:
        """The (concept, word) pairs the web provider would be asked about, and refusal counts by
        reason: the head word (last word) of each person mention the local rules left undecided,
        when it passes the privacy gate."""
        asks: list[tuple[int, str]] = []
        refused: Counter[str] = Counter()
        for i in f.persons:
            if i in f.staff or i in f.family or i in f.patients or t["generic_person"][i] or t["gender"][i]:
                continue  # decided locally ("a 71 year old woman", "Mr. X")
            tokens = [tok for tok in t["tokens"][i] if norm_word(tok)]
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
        """The gate's vocabulary check (WordNet person nouns by default); when WordNet cannot be
        loaded every word is refused (fail closed)."""
        if self.web_settings.vocabulary == "none":
            return None
        if self._vocabulary is None:
            try:
                self._vocabulary = wordnet_person_noun(self.resources.wordnet)
            except Exception:  # no WordNet here: refuse everything rather than send unchecked words
                self._vocabulary = lambda word: False
        return self._vocabulary

    def _ask_web(self, t: MentionTable, f: PeopleFacts) -> None:
        asks, _ = self.web_candidates(t, f)
        for i, word in asks:
            verdict = self.provider.lookup(word)
            if verdict.staff:
                f.staff[i] = f"web {word!r}: {', '.join(verdict.found)}"
                f.staff_words.add(i)
            if verdict.source == "web":
                f.web_sent.append(word)
            elif verdict.source == "failed":
                f.web_failures.append(word)

    def _subject(self, t: MentionTable, f: PeopleFacts) -> None:
        """Seed 001, "The subject": the first plain person mention, else the first patient mention."""
        for i in f.persons:
            if not (i in f.staff or i in f.family or i in f.patients or t["patient_word"][i] or t["generic_person"][i]):
                f.subject, f.subject_why = i, "first person mention that is no pronoun, staff, patient, family or generic word"
                return
        for i in f.persons:
            if i in f.patients:
                f.subject, f.subject_why = i, f"no name: first mention with {f.patients[i]!r}"
                return

    def _gender(self, t: MentionTable, f: PeopleFacts) -> None:
        """Seed 001, "The subject's gender": the more frequent gendered pronoun, then the subject's words."""
        vocab = t.settings.people.vocab
        gendered = vocab.masculine_pronouns.words | vocab.feminine_pronouns.words
        if self.p["gender_count"] == "tokens":  # each token as written counted once, then read as a word
            counts: Counter[str] = Counter()
            for tok, n in Counter(t.doc.flat_tokens).items():
                w = tok.lower() if tok.isalpha() else norm_word(tok)
                if w in gendered:
                    counts[w] += n
        else:
            counts = Counter(w for i, p in enumerate(t["is_pronoun"]) if p for w in t["person_words"][i])
        m = sum(n for w, n in counts.items() if w in vocab.masculine_pronouns)
        fe = sum(n for w, n in counts.items() if w in vocab.feminine_pronouns)
        if m != fe:
            f.gender, f.gender_why = (MASCULINE if m > fe else FEMININE), f"{m} masculine vs {fe} feminine pronouns"
        elif f.subject is not None:
            f.gender = vocab.words_gender(t["person_words"][f.subject])
            f.gender_why = f"pronouns tie ({m}); " + ("subject's own words" if f.gender else "unknown")

    def detect(self, t: MentionTable, *, ask_web: bool = True) -> PeopleFacts:
        f = self.local_facts(t)
        if ask_web and self.provider is not None:
            self._ask_web(t, f)
        self._subject(t, f)
        self._gender(t, f)
        types = self.p["note_types"]
        f.note = bool(f.patients) or (f.subject is not None and bool(types) and not set(types).isdisjoint(t["type"]))
        return f

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        ctx.state[STATE_KEY] = self.detect(ctx.table)
        return iter(())
