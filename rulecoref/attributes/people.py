"""Who a person mention is from its own words (seed 001, "Identifying people mentions"), and its name.

The people linker's kinds (``passes/people_roles.py`` and the pronoun kinds) read these columns;
``roles.PeopleVocab`` holds the word lists in the linker's comparison form.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..resources.lexicon import Lexicon
from ..roles import PeopleVocab, WordSet
from ..words import is_possessive, norm_word, norm_words, prefix_len
from .heads import NON_LETTERS
from .registry import LEX, BlockingKey, attribute, setting, settings_group, sibling

if TYPE_CHECKING:
    from .registry import Table

_PEOPLE = LEX + "people/"


# fmt: off
@settings_group("people", help="roles and gender of person mentions (the UHD system's people linker)")
class People:
    person_types: tuple[str, ...] = setting("str_list", default=["person", "people"], help="concept types of person mentions")
    doctor_salutations: Lexicon = setting("wordlist", default=_PEOPLE + "doctor_salutations.txt", help="'Dr' before a name")
    salutations: Lexicon = setting("wordlist", default=_PEOPLE + "salutations.txt", help="'Mr', 'Mrs': not name words")
    titles: Lexicon = setting("wordlist", default=_PEOPLE + "medical_titles.txt", help="'MD', 'RN' at the end: staff")
    titles_need_capitals: bool = setting("bool", default=True, help="a title shows two capitals or a dot ('MD'; not 'Pa')")
    personnel: Lexicon = setting("wordlist", default=_PEOPLE + "medical_personnel.txt", help="words and phrases of staff")
    staff_suffixes: Lexicon = setting("wordlist", default=_PEOPLE + "staff_suffixes.txt", help="endings of specialists")
    family: Lexicon = setting("wordlist", default=_PEOPLE + "family.txt", help="family members and companions")
    patient_words: Lexicon = setting("wordlist", default=_PEOPLE + "patient_words.txt", help="'patient', 'pt'")
    generic_words: Lexicon = setting("wordlist", default=_PEOPLE + "generic_people.txt", help="'someone': never the subject")
    pronouns: Lexicon = setting("wordlist", default=_PEOPLE + "pronouns.txt", help="a person mention of these is a pronoun")
    masculine_pronouns: Lexicon = setting("wordlist", default=_PEOPLE + "pronouns_masculine.txt", help="he, him, his")
    feminine_pronouns: Lexicon = setting("wordlist", default=_PEOPLE + "pronouns_feminine.txt", help="she, her, hers")
    masculine_words: Lexicon = setting("wordlist", default=_PEOPLE + "masculine_words.txt", help="'Mr', 'man'")
    feminine_words: Lexicon = setting("wordlist", default=_PEOPLE + "feminine_words.txt", help="'Mrs', 'woman'")
    plural_pronouns: Lexicon = setting("wordlist", default=_PEOPLE + "pronouns_plural.txt", help="'they', 'we': number plural")
    singular_pronouns: Lexicon = setting("wordlist", default=_PEOPLE + "pronouns_singular.txt", help="'he', 'it': singular")
    neuter_pronouns: Lexicon = setting("wordlist", default=_PEOPLE + "pronouns_neutral.txt", help="'it', 'which': gender neuter")
    possessive_pronouns: Lexicon = setting("wordlist", default=_PEOPLE + "pronouns_possessive.txt", help="'his', 'its'")
    reflexive_pronouns: Lexicon = setting("wordlist", default=_PEOPLE + "pronouns_reflexive.txt", help="'himself'")
    # fmt: on

    @cached_property
    def types(self) -> frozenset[str]:
        """``person_types`` as a set."""
        return frozenset(self.person_types)

    @cached_property
    def vocab(self) -> PeopleVocab:
        """The lists in the people linker's comparison form (``roles.py``)."""
        ws = WordSet.of
        return PeopleVocab(
            doctor_salutations=ws(self.doctor_salutations), titles=ws(self.titles), personnel=ws(self.personnel),
            staff_suffixes=tuple(sorted(ws(self.staff_suffixes).words, key=len, reverse=True)),
            family=ws(self.family), patient=ws(self.patient_words), generic=ws(self.generic_words),
            pronouns=ws(self.pronouns), masculine_pronouns=ws(self.masculine_pronouns),
            feminine_pronouns=ws(self.feminine_pronouns), masculine_words=ws(self.masculine_words),
            feminine_words=ws(self.feminine_words), titles_need_capitals=self.titles_need_capitals)


# fmt: off
@settings_group("names", help="name words of person mentions (partial names, as in the UHD system)")
class Names:
    ignore_words: Lexicon = setting("wordlist", default=LEX + "determiners.txt", help="words that are no name words")
    prefix_ratio: float = setting("float", default=0.8, minimum=0.1, maximum=1.0, help="as word_match, for names")
    min_prefix: int = setting("int", default=3, minimum=1, help="shorter name words must be equal ('Li' / 'Lindqvist')")
    min_word_length: int = setting("int", default=2, minimum=1, help="shorter words (initials) are no name words")
    drop_possessor: bool = setting("bool", default=True, help="'Dr Smith's nurse' is named by 'nurse'")
    people: People = sibling("people")
    # fmt: on

    @cached_property
    def removed(self) -> frozenset[str]:
        """Words that are no name words: salutations, titles, pronouns and ``ignore_words``."""
        p = self.people
        return frozenset().union(*(lex.words for lex in (p.salutations, p.doctor_salutations, p.titles, p.pronouns)),
                                 self.ignore_words.words)


@attribute("person_words", depends=("tokens", "type"),
           help="the people linker's words of a person or pronoun mention: 'Dr. Smith's' -> (dr, smith)", blocking=())
def _person_words(t: Table) -> list[tuple[str, ...]]:
    wanted = t.settings.people.types | t.settings.pronoun_types
    norm = t.per_token("norm_word", norm_word)
    return [tuple(w for w in map(norm.__getitem__, toks) if w) if ty in wanted else ()
            for toks, ty in zip(t["tokens"], t["type"])]


@attribute("is_pronoun", depends=("type", "person_words", "lower"),
           help="a pronoun mention: a pronoun type, a person mention made only of pronouns ('I', 'you'), or a "
                "one-word mention of any type that is a pronoun ('it' typed object)",
           blocking=(BlockingKey(order=230, phrase=("pronoun-to-pronoun", "pronouns both"), broad=True),))
def _is_pronoun(t: Table) -> list[bool]:
    people, pronoun_types = t.settings.people, t.settings.pronoun_types
    person_types, vocab = people.types, people.vocab
    pronouns = vocab.pronouns
    return [ty in pronoun_types or (ty in person_types and vocab.is_pronoun_words(w))
            or (len(low) == 1 and low[0] in pronouns)
            for ty, w, low in zip(t["type"], t["person_words"], t["lower"])]


@attribute("pronoun", depends=("is_pronoun", "person_words"),
           help="the word of a one-word pronoun mention: 'He' -> he",
           blocking=(BlockingKey(order=160, phrase=("same-pronoun", "the same pronoun word")),))
def _pronoun(t: Table) -> list[str | None]:
    return [w[0] if p and len(w) == 1 else None for p, w in zip(t["is_pronoun"], t["person_words"])]


@attribute("person", depends=("type", "is_pronoun"), help="a person mention that is no pronoun",
           blocking=(BlockingKey(order=240, phrase=("person-to-person", "person mentions both (no pronouns)"),
                                 broad=True),))
def _person(t: Table) -> list[bool]:
    types = t.settings.people.types
    return [ty in types and not p for ty, p in zip(t["type"], t["is_pronoun"])]


@attribute("gender", depends=("tokens", "is_pronoun", "person", "person_words"),
           help="masculine, feminine or neuter from the mention's own words: 'Mr. Smith', 'his', "
                "'a 67 year old woman'; 'it' -> neuter (a pronoun); None when they say nothing",
           blocking=(BlockingKey(order=190, phrase=("same-gender", "the same gender"), broad=True),))
def _gender(t: Table) -> list[str | None]:
    v, neuter = t.settings.people.vocab, t.settings.people.neuter_pronouns.words
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

    def column(t: Table) -> list[Any]:
        v = t.settings.people.vocab
        return [fn(v, toks, w) if person else None for toks, w, person in zip(t["tokens"], t["person_words"], t["person"])]

    return column


_SURNAME_KEY = (BlockingKey(order=90, phrase=("same-surname", "the same surname")),)
for _name, _fn, _help, _blocking in (
    ("family_word", lambda v, toks, w: v.family.first(w), "a family word: 'her mother' -> mother", ()),
    ("named", lambda v, toks, w: v.named(toks, w), "a doctor's salutation or title: 'Dr Smith' -> salutation 'dr'", ()),
    ("role_word", lambda v, toks, w: v.role_word(w), "a staff word: 'the attending' -> lexicon 'attending'", ()),
    ("patient_word", lambda v, toks, w: v.patient.first(w), "a patient word: 'the patient' -> patient", ()),
    ("generic_person", lambda v, toks, w: bool(v.generic.first(w)), "a generic person: 'someone'", ()),
    ("surname", lambda v, toks, w: v.surname(toks), "the last capitalised name word: 'Edward L, Smith' -> smith",
     _SURNAME_KEY),
):
    attribute(_name, depends=("tokens", "person_words", "person"), help=_help, blocking=_blocking)(_person_column(_fn))
del _name, _fn, _help, _blocking


# -- names (partial names) --------------------------------------------------------------------------
@attribute("name_words", depends=("tokens", "person", "line", "start"),
           help="a person name's words, None when it shows no name: 'Dr. Edward L, Smith' -> (edward, smith), 'Smith's' -> (smiths,); "
                "a capital at the start of a line does not make a name when the note also writes the word in lowercase",
           blocking=(BlockingKey(order=100, phrase=("shared-name-word", "a name word in common")),))
def _name_words(t: Table) -> list[tuple[str, ...] | None]:
    n = t.settings.names
    removed = n.removed
    out: list[tuple[str, ...] | None] = []
    for toks, person, c in zip(t["tokens"], t["person"], t.doc.concepts):
        if not person:
            out.append(None)
            continue
        cut = 0
        if n.drop_possessor:  # "Dr Smith's nurse" names the nurse
            cut = max((k + 1 for k, tok in enumerate(toks[:-1]) if is_possessive(tok)), default=0)
        words, name = [], False
        for k, tok in enumerate(toks[cut:], cut):
            low = tok.lower()
            word = "" if low in removed else NON_LETTERS.sub("", low)
            if len(word) < n.min_word_length or word in removed:
                continue
            words.append(word)
            line_start_lower = k == 0 and c.start[1] == 0 and low in t.token_set
            name = name or (tok[:1].isupper() and not line_start_lower)
        out.append(tuple(words) if words and name else None)
    return out


@attribute("name_keys", depends=("name_words",),
           help="blocking keys of name words: their first letters, as many as names_match needs to share",
           blocking=(BlockingKey(order=80, phrase=("name-initials", "name words with the same first letters")),))
def _name_keys(t: Table) -> list[tuple[str, ...]]:
    n = t.settings.names
    k = prefix_len(n.min_prefix, n.prefix_ratio)
    return [tuple(dict.fromkeys(w[:k] for w in words)) if words else () for words in t["name_words"]]
