"""roles.py: the people vocabulary read against a mention's words (the bundled word lists)."""

from __future__ import annotations

import pytest

from rulecoref.resources.lexicon import Lexicon
from rulecoref.roles import FEMININE, MASCULINE, WordSet
from rulecoref.words import norm_words
from tests.helpers import settings_pipeline


@pytest.fixture(scope="module")
def vocab():
    return settings_pipeline().settings.people.vocab


def test_roles_wordset_phrases_first_in_comparison_form():
    ws = WordSet.of(Lexicon(["social worker", "worker", "Dr."]))
    assert ws.first(["the", "social", "worker"]) == "social worker"
    assert ws.first(["a", "worker"]) == "worker" and ws.first(["nobody"]) is None
    assert "dr" in ws and "dr." not in ws


def test_roles_gender(vocab):
    assert vocab.pronoun_gender("his") == MASCULINE and vocab.pronoun_gender("hers") == FEMININE
    assert vocab.pronoun_gender("it") is None
    assert vocab.pronouns_gender(["he", "or", "she"]) is None and vocab.pronouns_gender(["his"]) == MASCULINE
    assert vocab.words_gender(norm_words("Mr. Smith".split())) == MASCULINE
    assert vocab.words_gender(norm_words("a 67 year old woman".split())) == FEMININE
    assert vocab.words_gender(norm_words("the man and his wife".split())) is None  # both
    assert vocab.words_gender(["the", "nurse"]) is None


def test_roles_titles_and_salutations(vocab):
    assert vocab.is_title("MD") and vocab.is_title("M.D.") and vocab.is_title("RN")
    assert not vocab.is_title("Pa") and not vocab.is_title("do")  # no two capitals, no dot
    assert vocab.title(["John", "Smith", ",", "MD"]) == "md" and vocab.title(["John", "Smith"]) is None
    assert vocab.salutation(["dr", "smith"]) == "dr" and vocab.salutation(["the", "doctor"]) is None
    assert vocab.named(["Dr", "Smith"], ["dr", "smith"]) == "salutation 'dr'"
    assert vocab.named(["Rosa", "Finch", "RN"], ["rosa", "finch", "rn"]) == "title 'rn'"


def test_roles_role_words_and_surnames(vocab):
    assert vocab.role_word(["the", "attending"]) == "lexicon 'attending'"
    assert vocab.role_word(["an", "audiologist"]) == "suffix 'ologist' in 'audiologist'"
    assert vocab.role_word(["her", "mother"]) is None
    assert vocab.surname(["Edward", "L", ",", "Smith"]) == "smith"
    assert vocab.surname(["Dr", "Smith's"]) == "smith"
    assert vocab.surname(["the", "Patient"]) is None and vocab.surname(["Dr", "MD"]) is None
    assert vocab.is_pronoun_words(["he"]) and not vocab.is_pronoun_words(["he", "man"]) and not vocab.is_pronoun_words([])
