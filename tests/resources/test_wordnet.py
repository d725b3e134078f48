"""The offline WordNet adapter: Debian's files read directly, every answer NLTK's, no download, clear errors."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from rulecoref.errors import ResourceError
from rulecoref.resources import Memo, Resources
from rulecoref.resources.wordnet import DEFAULT_PATH, ENV_VAR, WordNet, lexnames_text, load_wordnet, wordnet_root
from tests.helpers import shared_resources


@pytest.fixture(scope="module")
def wn():
    return shared_resources().wordnet


def test_wordnet_adjectives(wn):
    for word in ("painful", "chronic", "gluteal", "febrile", "larger"):
        assert wn.is_adjective(word), word
    # nouns too, so conditioning keeps them: "a cold" names the illness
    for word in ("cold", "left", "abscess", "mrsa", "methicillin-resistant", "54", "which"):
        assert not wn.is_adjective(word), word


def test_wordnet_nouns_through_morphology(wn):
    assert wn.has_noun("abscesses") and wn.has_noun("mice") and wn.has_noun("Cold")
    assert not wn.has_noun("painful") and not wn.has_noun("mrsa")
    assert wn.parts_of_speech("painful") == {"a"} and wn.parts_of_speech("cold") == {"n", "a"}
    assert wn.parts_of_speech("left") >= {"n", "v", "a"} and wn.parts_of_speech("") == frozenset()
    assert wn.knows("tissue") and not wn.knows("mrsa")


def test_wordnet_base_forms(wn):
    assert wn.base("abscesses") == "abscess" and wn.base("Mice", "n") == "mouse"
    assert wn.base("biggest", "a") == "big" and wn.base("ran", "v") == "run"
    assert wn.base("painful", "n") is None and wn.base("mrsa") is None and wn.base("") is None


def test_wordnet_synonyms(wn):
    assert {"tumor", "tumour", "neoplasm"} <= wn.synonyms("tumor")
    assert "examination" in wn.synonyms("exam") and "exam" in wn.synonyms("Examination")
    assert "tumor" not in wn.synonyms("abscess") and "abscess" in wn.synonyms("abscess")  # the word itself
    assert "line" in wn.synonyms("blood")  # blood.n.02: lineage
    assert wn.synonyms("blood", senses=1) == {"blood"}
    assert "magnetic resonance imaging" in wn.synonyms("MRI")  # multi-word lemmas, "_" -> " "
    assert "leave" in wn.synonyms("left", pos=None) and "leave" not in wn.synonyms("left")
    assert wn.synonyms("xyzzyqq") == {"xyzzyqq"} and wn.synonyms("") == {""}


def test_wordnet_synonyms_go_through_the_memo():
    memo = Memo(limit=3)
    shared = shared_resources().wordnet
    wn = WordNet(shared.index, shared.exceptions, shared.data, memo)  # the session's files, a small memo of its own
    assert wn.synonyms("tumor", "n", 1) == shared.synonyms("tumor", "n", 1)
    assert 0 < len(memo) <= 3
    for word in ("abscess", "kidney", "renal", "painful", "cold", "mice"):
        wn.synonyms(word, "n", 1)
        assert len(memo) <= 3  # bounded: past the limit it starts afresh
    assert "neoplasm" in wn.synonyms("tumor", "n", 1) and wn.is_adjective("painful")  # and answers stay right


def test_resources_memo_is_bounded_and_remembers():
    memo = Memo(limit=2)
    calls: list[str] = []

    def answer(word: str):
        return lambda: calls.append(word) or word.upper()

    assert memo.get(("q", "a"), answer("a")) == "A" and memo.get(("q", "a"), answer("a")) == "A"
    assert calls == ["a"]  # remembered
    memo.get(("q", "b"), answer("b"))
    memo.get(("q", "c"), answer("c"))  # past the limit: starts afresh
    assert len(memo) == 1 and memo.get(("q", "a"), answer("a")) == "A" and calls == ["a", "b", "c", "a"]
    assert Resources(memo_limit=7).memo.limit == 7

def test_wordnet_missing_folder_is_rc301(tmp_path):
    with pytest.raises(ResourceError) as info:
        load_wordnet(tmp_path)
    assert info.value.code == "RC301"
    assert "apt-get install wordnet-base" in str(info.value)


def test_wordnet_missing_is_reported_at_pipeline_start(tmp_path):
    from rulecoref.engine import Pipeline
    from rulecoref.rules.compiler import compile_rules
    from tests.helpers import ROOT

    with pytest.raises(ResourceError) as info:
        Pipeline(compile_rules(ROOT / "rules" / "i2b2.yaml"), Resources(wordnet_path=tmp_path / "none"))
    assert info.value.code == "RC301"


def test_wordnet_unreadable_files_are_rc303(tmp_path):
    for kind in ("index", "data"):
        for pos in ("noun", "verb", "adj", "adv"):
            (tmp_path / f"{kind}.{pos}").write_text("not wordnet\n", encoding="utf-8")
    with pytest.raises(ResourceError) as info:
        load_wordnet(tmp_path)
    assert info.value.code == "RC303"


def test_wordnet_root_choice(monkeypatch, tmp_path):
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert str(wordnet_root()) == DEFAULT_PATH
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    assert wordnet_root() == tmp_path
    assert wordnet_root("/elsewhere") == wordnet_root("/elsewhere")  # the argument wins over the variable
    (tmp_path / "dict").mkdir()
    (tmp_path / "dict" / "index.noun").write_text("", encoding="utf-8")
    assert wordnet_root(tmp_path) == tmp_path / "dict"  # Princeton's tarball layout


def test_wordnet_lexnames_table():
    lines = lexnames_text().splitlines()
    assert len(lines) == 45
    assert lines[0] == "00\tadj.all\t3" and lines[3] == "03\tnoun.Tops\t1" and lines[-1] == "44\tadj.ppl\t3"


@pytest.mark.slow
def test_wordnet_loads_offline_in_a_fresh_process():
    """No nltk.download, no network: the Debian folder alone is enough (and NLTK's own data path
    does not have to hold WordNet)."""
    code = ("import socket\n"
            "def refuse(*a, **k): raise RuntimeError('network used')\n"
            "socket.socket.connect = refuse\n"
            "from rulecoref.resources.wordnet import load_wordnet\n"
            "wn = load_wordnet()\n"
            "assert wn.has_noun('abscess') and 'neoplasm' in wn.synonyms('tumor')\n")
    env = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr


# -- NLTK is the reference ---------------------------------------------------------------------
def nltk_answers(reader, word: str) -> tuple:
    """What NLTK's WordNetCorpusReader says to each question WordNet answers (word lowercased)."""
    w = word.lower()
    bases = tuple(reader.morphy(w, p) if w else None for p in ("n", "v", "a", "r", "s", None))
    pos = frozenset(p for p in "nvar" if w and reader.morphy(w, p))
    adjective = any(ch.isalpha() for ch in w) and bool(reader.morphy(w, "a")) and not reader.morphy(w, "n")

    def synonyms(pos, senses):
        found = reader.synsets(w, pos) if w else []
        found = found[:senses] if senses else found
        return frozenset({w, *(n.lower().replace("_", " ") for s in found for n in s.lemma_names())})

    return bases, pos, adjective, synonyms("n", 1), synonyms("n", 0), synonyms(None, 0), synonyms("s", 2)


def ours(wn, word: str) -> tuple:
    bases = tuple(wn.base(word, p) for p in ("n", "v", "a", "r", "s", None))
    return (bases, wn.parts_of_speech(word), wn.is_adjective(word), wn.synonyms(word, "n", 1),
            wn.synonyms(word, "n", 0), wn.synonyms(word, None, 0), wn.synonyms(word, "s", 2))


def differences(wn, words) -> list[tuple]:
    reader = wn.reader
    return [(w, ours(wn, w), nltk_answers(reader, w)) for w in words if ours(wn, w) != nltk_answers(reader, w)]


def every_form(wn) -> list[str]:
    return sorted(set().union(*wn.index.values(), *wn.exceptions.values()))


def test_wordnet_answers_equal_nltks_on_a_sample(wn):
    import random

    sample = random.Random(26).sample(every_form(wn), 400)
    tricky = ["abscesses", "tumors", "Mice", "geese", "axes", "larger", "biggest", "ran", "painful", "galore",
              "cells", "blood", "left", "MRI", "1", "54", "methicillin-resistant", "mrsa", "", "ss", "s", "men",
              "women", "ties", "boxes", "xyzzyqq", "st.", "a.d.", "o'clock", "well-being", "aardwolves", "Cold"]
    assert differences(wn, sample + tricky) == []


@pytest.mark.slow
def test_wordnet_answers_equal_nltks_everywhere(wn):
    """Every index lemma and exception form of the four parts of speech, and every token of the
    development corpora (when present)."""
    from tests.helpers import SHARED

    words = set(every_form(wn))
    for con in sorted(SHARED.glob("corpora/*/docs/*.txt")):
        words.update(con.read_text(encoding="utf-8").split())
    assert differences(wn, sorted(words)) == []


def test_wordnet_store_leaves_the_garbage_collector_nothing_to_walk():
    """155,000 lemmas are plain strings in dicts: loading them adds a handful of tracked objects
    (NLTK's reader added about 440,000, which every full collection walked)."""
    import gc

    gc.collect()
    before = len(gc.get_objects())
    wn = load_wordnet()
    gc.collect()
    assert sum(map(len, wn.index.values())) > 150_000
    assert len(gc.get_objects()) - before < 100


def test_wordnet_loads_without_nltk():
    code = ("import sys\n"
            "from rulecoref.resources.wordnet import load_wordnet\n"
            "wn = load_wordnet()\n"
            "assert wn.base('abscesses') == 'abscess' and 'neoplasm' in wn.synonyms('tumor', 'n', 1)\n"
            "assert 'nltk' not in sys.modules, 'nltk imported'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_wordnet_nltk_reader_on_demand(wn):
    """Features that need more of WordNet (hypernyms) get NLTK's reader over the same folder."""
    assert wn.reader.synset("tumor.n.01").hypernyms()[0].name() == "growth.n.06"
    assert wn.reader is wn.reader


def test_wordnet_derived_nouns(wn):
    assert "catheterization" in wn.derived_nouns("catheterizing")
    assert "fever" in wn.derived_nouns("febrile")  # an adjective's pertainym
    assert "catheter" in wn.derived_nouns("catheterizing")
    events = frozenset({"noun.act", "noun.state"})
    assert "catheter" not in wn.derived_nouns("catheterizing", kinds=events)  # an artifact, not the act
    assert "obstruction" in wn.derived_nouns("obstructed", kinds=events)
    assert wn.derived_nouns("kidney") == frozenset()
    # a derivation belongs to one word: "mesh" shares a verb synset with "operate", not its "operation";
    # a spelling variant's ("catheterise") does count
    assert "operation" not in wn.derived_nouns("mesh")
    assert "catheterization" in wn.derived_nouns("catheterizing", kinds=events)
