"""The optional web provider: the privacy gate, settings, a local HTTP server (success, timeout,
HTTP 500, malformed body, refused connection), the cache, and a whole batch that must never send a
capitalised token, a digit or a date."""

from __future__ import annotations

import re
import socket
import urllib.parse

import pytest

from rulecoref.cli import main
from rulecoref.resources.lexicon import Lexicon
from rulecoref.resources.web import WebSettings, WebStaffProvider, privacy_gate, surface_word
from tests.helpers import ROOT, needs_sqlalchemy
from tests.resources.web_support import rules_with_web, search_engine, write_batch

pytestmark = needs_sqlalchemy


@pytest.fixture()
def engine():
    with search_engine() as e:
        yield e

PEOPLE = ROOT / "resources" / "lexicons" / "people"
NAMES = Lexicon.from_file(PEOPLE / "names.txt").words
DATES = Lexicon.from_file(PEOPLE / "date_words.txt").words
KEYWORDS = tuple(Lexicon.from_file(PEOPLE / "web_keywords.txt"))


# -- the gate ------------------------------------------------------------------------------------
@pytest.mark.parametrize("word,reason", [
    ("optometrist", None),
    ("chiropodist", None),
    ("sister-in-law", None),
    ("Smith", "capitalised"),
    ("OPTOMETRIST", "capitalised"),
    ("optoMetrist", "capitalised"),
    ("3rd", "digit"),
    ("2019-01-16", "digit"),
    ("bed12", "digit"),
    ("march", "date word"),
    ("monday", "date word"),
    ("today", "date word"),
    ("jones", "name list"),
    ("will", "name list"),
    ("baker", "name list"),
    ("dr.smith", "not a plain lowercase word"),
    ("o'brien", "not a plain lowercase word"),
    ("two words", "not a plain lowercase word"),
    ("caf\u00e9", "not a plain lowercase word"),
    ("x", "length"),
    ("", "empty"),
])
def test_web_privacy_gate(word, reason):
    assert privacy_gate(word, names=NAMES, date_words=DATES) == reason


def test_web_privacy_gate_vocabulary_only_narrows():
    assert privacy_gate("table", vocabulary=lambda w: False) == "not in the vocabulary"
    assert privacy_gate("Smith", vocabulary=lambda w: True) == "capitalised"


def test_web_privacy_gate_wordnet_person_nouns():
    from rulecoref.resources.web import wordnet_person_noun
    from tests.helpers import shared_resources

    check = wordnet_person_noun(shared_resources().wordnet)
    assert check("optometrist") and check("chiropodists")
    assert not check("table") and not check("pneumonia")


@pytest.mark.parametrize("token,expected", [("chiropodist's", "chiropodist"), ("Smith,", "Smith"), ("(nurse)", "nurse")])
def test_web_surface_word(token, expected):
    assert surface_word(token) == expected


def test_web_settings_problems():
    s, problems = WebSettings.from_mapping({"enabled": True, "url": "http://x/?q={query}", "timeout": 2})
    assert problems == [] and s.timeout == 2.0
    _, problems = WebSettings.from_mapping({"enabled": True, "retries": -1, "format": "xml", "colour": 1})
    assert len(problems) == 4  # colour unknown, retries negative, format, enabled without url
    assert WebSettings.from_mapping(None)[0].enabled is False


def _provider(tmp_path, url, **kw):
    settings = WebSettings(enabled=True, url=url, cache=str(tmp_path / "cache.sqlite"), backoff=0.0,
                           timeout=kw.pop("timeout", 2.0), **kw)
    return WebStaffProvider(settings, KEYWORDS)


def test_web_provider_success_and_cache(tmp_path, engine):
    base, log = engine
    p = _provider(tmp_path, base + "/search?q={query}")
    assert p.lookup("chiropodist").staff is True
    assert p.lookup("gardener").staff is False
    assert p.lookup("chiropodist").source == "web"  # asked once in this process
    assert [r["q"] for r in log] == ["chiropodist", "gardener"]
    again = _provider(tmp_path, base + "/search?q={query}")  # a new process: answered from SQLite
    v = again.lookup("chiropodist")
    assert (v.staff, v.source) == (True, "cache") and "clinic" in v.found
    assert len(log) == 2


def test_web_provider_threshold_from_cache(tmp_path, engine):
    base, log = engine
    _provider(tmp_path, base + "/s?q={query}").lookup("chiropodist")  # found: medical, doctors, clinic
    strict = _provider(tmp_path, base + "/s?q={query}", threshold=5)
    assert strict.lookup("chiropodist").staff is False and len(log) == 1


def test_web_provider_json_format(tmp_path, engine):
    base, _ = engine
    p = _provider(tmp_path, base + "/json?q={query}", format="json")
    assert p.lookup("doula").staff is True
    assert p.lookup("gardener").staff is False


def test_web_provider_timeout(tmp_path, engine):
    base, log = engine
    p = _provider(tmp_path, base + "/slow?q={query}", timeout=0.2, retries=1)
    v = p.lookup("chiropodist")
    assert v.staff is None and v.source == "failed"
    assert [d.code for d in p.failures] == ["RC311"] and "timeout" in p.failures[0].message
    assert len(log) == 2  # one retry


def test_web_provider_http_500(tmp_path, engine):
    base, log = engine
    p = _provider(tmp_path, base + "/fail?q={query}", retries=2)
    assert p.lookup("chiropodist").staff is None
    assert "HTTP 500" in p.failures[0].message and len(log) == 3


def test_web_provider_malformed_body(tmp_path, engine):
    base, _ = engine
    p = _provider(tmp_path, base + "/bad?q={query}", format="json")
    assert p.lookup("chiropodist").staff is None
    assert [d.code for d in p.failures] == ["RC312"]
    empty = _provider(tmp_path, base + "/empty?q={query}")
    assert empty.lookup("doula").staff is None and empty.failures[0].code == "RC312"


def test_web_provider_connection_refused_and_stop(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    p = _provider(tmp_path, f"http://127.0.0.1:{port}/?q={{query}}", retries=0, max_failures=2)
    for w in ("chiropodist", "orthoptist", "doula"):
        assert p.lookup(w).staff is None
    assert p.sent == ["chiropodist", "orthoptist"]  # stopped after two failures in a row
    assert [d.code for d in p.failures] == ["RC311", "RC311", "RC314"]


def test_web_provider_refuses_unsafe_words_itself(tmp_path, engine):
    base, log = engine
    p = _provider(tmp_path, base + "/s?q={query}")
    assert [p.lookup(w).source for w in ("Smith", "bed12", "o'brien")] == ["refused"] * 3 and log == []


def test_web_provider_cache_only_never_sends(tmp_path, engine):
    base, log = engine
    p = _provider(tmp_path, base + "/s?q={query}", cache_only=True)
    assert p.lookup("chiropodist").source == "off" and log == []



# -- a whole batch -------------------------------------------------------------------------------
_DATE = re.compile(r"\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*$|(?:mon|tues|wednes|thurs|fri|satur|sun)day")


def test_web_batch_sends_no_phi(tmp_path, engine):
    base, log = engine
    data = write_batch(tmp_path / "data")
    web = {"enabled": True, "url": base + "/search?q={query}", "cache": str(tmp_path / "c.sqlite"), "timeout": 2}
    out = tmp_path / "out"
    assert main(["resolve", str(data), "--out", str(out), "--rules", str(rules_with_web(tmp_path, web)), "--no-progress", "-q"]) == 0
    sent = [r["q"] for r in log]
    assert sent, "the batch sent nothing, so this test would prove nothing"
    for r in log:
        query = urllib.parse.urlsplit(r["path"]).query
        assert re.fullmatch(r"q=[a-z]+(?:-[a-z]+)?", query), r["path"]
        assert set(r["headers"]) <= {"Host", "User-Agent", "Accept-Encoding", "Accept", "Connection"}
    for word in sent:
        assert not any(ch.isupper() or ch.isdigit() for ch in word)
        assert not _DATE.match(word) and word not in NAMES
    # exactly the undecided generic role words, each once
    assert sorted(sent) == ["chiropodist", "doula", "gardener", "orthoptist"]
    # the verdict is used: "the chiropodist , Dr Quill" is now an introduction
    chains = (out / "note-a.txt.chains").read_text(encoding="utf-8")
    assert any('c="the chiropodist"' in line and 'c="dr quill"' in line for line in chains.splitlines())


def test_web_batch_survives_a_failing_provider(tmp_path, engine):
    base, log = engine
    data = write_batch(tmp_path / "data")
    web = {"enabled": True, "url": base + "/fail?q={query}", "cache": str(tmp_path / "c.sqlite"), "retries": 0,
           "vocabulary": "none"}
    out = tmp_path / "out"
    assert main(["resolve", str(data), "--out", str(out), "--rules", str(rules_with_web(tmp_path, web)), "--no-progress", "-q"]) == 0
    assert sorted(p.name for p in out.glob("*.txt.chains")) == ["note-a.txt.chains", "note-b.txt.chains"]
    assert log  # it did try


