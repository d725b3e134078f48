"""Common-word conditioning shared by the meaning matchers (seed 001, "Match by meaning")."""

from __future__ import annotations

from rulecoref.passes.conditioning import Conditioner
from rulecoref.resources.lexicon import Lexicon
from tests.helpers import ROOT, shared_resources

COMMON = Lexicon.from_file(ROOT / "resources" / "lexicons" / "common_words.txt")


def test_conditioning_drops_common_words_adjectives_and_non_letters():
    cond = Conditioner(COMMON, shared_resources().wordnet)
    assert cond("Recurrent soft tissue abscess in the gluteal region".split()) == ("tissue", "abscess", "region")
    assert cond("the large Abscess-like mass".split()) == ("large", "abscesslike", "mass")  # "large" is also a noun
    assert cond(["his", "painful", "cold"]) == ("cold",)


def test_conditioning_digits():
    seed = Conditioner(COMMON, shared_resources().wordnet)
    keep = Conditioner(COMMON, shared_resources().wordnet, keep_digits=True)
    assert seed("type 1 diabetes".split()) == ("type", "diabetes")
    assert keep("type 1 diabetes".split()) == ("type", "1", "diabetes")
    assert keep(["Pax6"]) == ("pax6",)


def test_conditioning_without_wordnet():
    cond = Conditioner(COMMON, None)
    assert cond(["painful", "abscess"]) == ("painful", "abscess")
    assert Conditioner(COMMON, shared_resources().wordnet, drop_adjectives=False)(["painful"]) == ("painful",)


def test_conditioning_word_by_word():
    # one token at a time, as the mention-level result is built (and cached per token)
    cond = Conditioner(COMMON, shared_resources().wordnet, keep_digits=True)
    assert [cond.word(t) for t in "the large Abscess-like painful Pax6 mass".split()] == [
        "", "large", "abscesslike", "", "pax6", "mass"]
    tokens = "Recurrent soft tissue abscess in the gluteal region".split()
    assert cond(tokens) == tuple(w for w in map(cond.word, tokens) if w)
