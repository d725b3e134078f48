"""The offline WordNet adapter: Debian's files through NLTK, no download, clear errors."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import pytest

from rulecoref.errors import ResourceError
from rulecoref.resources import Resources
from rulecoref.resources.wordnet import DEFAULT_PATH, ENV_VAR, lexnames_text, load_wordnet, wordnet_root
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
    assert wn.parts_of_speech("painful") == {"a"}
    assert wn.knows("tissue") and not wn.knows("mrsa")


def test_wordnet_synonyms(wn):
    assert {"tumor", "tumour", "neoplasm"} <= wn.synonyms("tumor")
    assert wn.are_synonyms("exam", "examination") and wn.are_synonyms("examination", "exam")
    assert not wn.are_synonyms("abscess", "tumor")
    assert "line" in wn.synonyms("blood")  # blood.n.02: lineage
    assert wn.synonyms("blood", senses=1) == {"blood"}
    assert "magnetic resonance imaging" in wn.synonyms("MRI")  # multi-word lemmas, "_" -> " "
    assert "leave" in wn.synonyms("left", pos=None) and "leave" not in wn.synonyms("left")


def test_wordnet_lookups_are_cached_per_instance(wn):
    wn.synonyms("kidney")
    assert ("kidney", "n", 0) in wn._syn
    wn.is_adjective("renal")
    assert "renal" in wn._pos


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
            "assert wn.has_noun('abscess') and 'neoplasm' in wn.synonyms('tumor')\n"
            # loaded with the collector off, which is on again, and moved out of its scans
            "import gc\n"
            "assert gc.isenabled() and gc.get_freeze_count() > 300_000, gc.get_freeze_count()\n")
    env = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr


def test_wordnet_synonyms_equal_nltk_synsets_lemma_names(wn):
    """``synonyms`` reads lemma names straight from the data files; it must give exactly what the
    synsets NLTK builds give, for inflected forms, every part of speech and a sense limit."""
    import random

    lemmas = sorted(k for k in wn.reader._lemma_pos_offset_map if k.isascii())
    rng = random.Random(11)
    words = rng.sample(lemmas, 1500) + ["abscesses", "kidneys", "larger", "ran", "galore", "mice", "data",
                                        "head", "line", "blood", "exam", "nonexistentword", "u.s."]
    for word in words:
        for pos, senses in (("n", 0), ("n", 1), (None, 0), ("a", 2), ("v", 0)):
            synsets = wn.reader.synsets(word, pos) if pos else wn.reader.synsets(word)
            if senses:
                synsets = synsets[:senses]
            expected = {word.lower()} | {n.lower().replace("_", " ") for s in synsets for n in s.lemma_names()}
            assert wn.synonyms(word, pos, senses) == expected, (word, pos, senses)


def test_wordnet_lemma_names_from_a_forked_worker(wn):
    """Workers share the parent's maps of the data files; a map has no file position to disturb."""
    offset = wn.reader._lemma_pos_offset_map["abscess"]["n"][0]
    expected = wn.lemma_names("n", offset)
    pid = os.fork()
    if pid == 0:  # child: read other synsets, then the same one
        try:
            wn._names.clear()
            for other in wn.reader._lemma_pos_offset_map["line"]["n"]:
                wn.lemma_names("n", other)
            os._exit(0 if wn.lemma_names("n", offset) == expected else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 0
    wn._names.clear()
    assert wn.lemma_names("n", offset) == expected and "abscess" in expected


def test_wordnet_is_adjective_without_every_part_of_speech(wn):
    """``is_adjective`` asks for the other parts of speech only when the word can be an adjective;
    on a fresh adapter it must answer as the full parts-of-speech rule does, in either call order."""
    import random

    lemmas = sorted(k for k in wn.reader._lemma_pos_offset_map if k.isascii())
    words = random.Random(5).sample(lemmas, 1500) + ["painful", "Chronic", "cold", "larger", "abscesses", "54", "u.s.", ""]
    fresh = type(wn)(wn.reader)  # the same reader, empty caches
    for k, word in enumerate(words):
        if k % 2:
            fresh.parts_of_speech(word)  # half of them with their parts of speech already known
        pos = wn.parts_of_speech(word)
        rule = any(ch.isalpha() for ch in word) and "a" in pos and "n" not in pos
        assert fresh.is_adjective(word) == rule, word


def test_wordnet_bases_equal_nltk_morphy(wn):
    """``bases`` answers every part-of-speech question in place of NLTK's ``_morphy``; it must give
    the same list (order included) for base forms, inflected forms, exception-list forms and
    words WordNet does not know. (Checked once over all 1.5 million forms of the index, its
    exception lists, their inflections and the corpora's tokens; here a sample.)"""
    import random

    reader = wn.reader
    rng = random.Random(3)
    lemmas = rng.sample(sorted(reader._lemma_pos_offset_map), 2000)
    exceptional = [w for p in ("n", "v", "a", "r") for w in sorted(reader._exception_map[p])[::20]]
    inflected = [w + suffix for w in lemmas[:500] for suffix in ("s", "es", "ies", "ed", "ing", "er", "est", "men", "ves")]
    odd = ["", "s", "es", "ies", "men", "u.s.", "abscesses", "mice", "larger", "ran", "xyzzyqq", "pax6"]
    for word in lemmas + exceptional + inflected + odd:
        for pos in ("n", "v", "a", "r", "s"):
            assert wn.bases(word, pos) == reader._morphy(word, pos, True), (word, pos)


def test_wordnet_index_read_as_plain_files_gives_nltk_maps(wn):
    """The adapter hands NLTK its index and exception files as plain text files; the maps the
    reader builds from them must equal those it builds through its own stream reader."""
    from rulecoref.resources.wordnet import _reader_class

    class StockStreams(_reader_class()):
        plain_files = frozenset()

    assert wn.reader.plain_files  # the adapter in use reads them plainly
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        stock = StockStreams(wn.path, None)
    assert dict(stock._lemma_pos_offset_map) == dict(wn.reader._lemma_pos_offset_map)
    assert stock._exception_map == wn.reader._exception_map
    assert stock.satellite_offsets == wn.reader.satellite_offsets


def test_import_nltk_lean_refuses_optional_packages_only_while_nltk_imports():
    """Lean, NLTK is imported without SciPy and scikit-learn (its features that need them are never
    called); afterwards the finder is gone and both import normally. Without ``lean`` nothing is
    refused."""
    code = ("import sys\n"
            "from rulecoref.resources.wordnet import load_wordnet\n"
            "wn = load_wordnet(lean_import=True)\n"
            "loaded = sorted(m for m in sys.modules if m.partition('.')[0] in ('scipy', 'sklearn'))\n"
            "assert 'nltk' in sys.modules and not loaded, loaded[:5]\n"
            "assert not any(type(f).__name__ == '_RefuseOptional' for f in sys.meta_path)\n"
            "import scipy.stats, sklearn.linear_model\n"
            "assert wn.has_noun('abscess') and 'neoplasm' in wn.synonyms('tumor')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    whole = ("import sys\n"
             "from rulecoref.resources.wordnet import load_wordnet\n"
             "load_wordnet()\n"
             "assert 'scipy.stats' in sys.modules\n")  # NLTK imports it when installed, as scikit-learn installs it
    done = subprocess.run([sys.executable, "-c", whole], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
