"""The optional web provider: the privacy gate, settings, a local HTTP server (success, timeout,
HTTP 500, malformed body, refused connection), the cache, and a whole batch that must never send a
capitalised token, a digit or a date."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml

from rulecoref.cli import main
from rulecoref.resources.lexicon import Lexicon
from rulecoref.resources.web import WebSettings, WebStaffProvider, privacy_gate, surface_word
from tests.helpers import ROOT

PEOPLE = ROOT / "resources" / "lexicons" / "people"
NAMES = Lexicon.from_file(PEOPLE / "names.txt").words
DATES = Lexicon.from_file(PEOPLE / "date_words.txt").words
KEYWORDS = tuple(Lexicon.from_file(PEOPLE / "web_keywords.txt"))
STAFF_WORDS = {"chiropodist", "orthoptist", "doula"}  # what the fake search engine calls medical


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


# -- a local search engine -------------------------------------------------------------------------
class _Engine(BaseHTTPRequestHandler):
    log: list[dict] = []

    def do_GET(self):  # noqa: N802 (http.server's name)
        url = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(url.query).get("q", [""])[0]
        self.log.append({"path": self.path, "q": q, "headers": dict(self.headers)})
        route = url.path.strip("/")
        if route == "slow":
            time.sleep(0.6)
        if route == "fail":
            self._send(500, "oops")
        elif route == "bad":
            self._send(200, "{\"results\": [ oops")
        elif route == "empty":
            self._send(200, "")
        elif route == "json":
            snippet = "Doctors at the clinic and hospital" if q in STAFF_WORDS else "a word of the day"
            self._send(200, json.dumps({"results": [{"title": q, "snippet": snippet}]}))
        else:
            body = f"{q}: medical doctors in a clinic near you" if q in STAFF_WORDS else f"{q}: pictures and lyrics"
            self._send(200, body)

    def _send(self, status, body):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except OSError:
            pass  # the client timed out and went away

    def log_message(self, *args):
        pass


@pytest.fixture()
def engine():
    """A search engine on 127.0.0.1 (a free port), stopped after the test; yields (base URL, request log)."""
    log: list[dict] = []
    handler = type("Engine", (_Engine,), {"log": log})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", log
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


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


def test_web_provider_cache_only_never_sends(tmp_path, engine):
    base, log = engine
    p = _provider(tmp_path, base + "/s?q={query}", cache_only=True)
    assert p.lookup("chiropodist").source == "off" and log == []


# -- a whole batch -------------------------------------------------------------------------------
NOTES = {
    "note-a": [
        ("Ms. Alvarez is a 71 year old woman seen on 2019-01-16 at 8:30 .", ["ms. alvarez", "a 71 year old woman"]),
        ("She was seen by the chiropodist , Dr Quill , in Bed12 .", ["she", "the chiropodist", "dr quill"]),
        ("Her daughter Rosa and the orthoptist on March 3 .", ["her daughter rosa", "the orthoptist"]),
    ],
    "note-b": [
        ("Mr. OBrien , 58 , met the gardener and jones and the march .", ["mr. obrien", "the gardener", "jones", "the march"]),
        ("JOHN SMITH MD and the Podiatrist and the will .", ["john smith md", "the podiatrist", "the will"]),
        ("The STAFF NURSE and the 3rd visitor and the doula .", ["the staff nurse", "the 3rd visitor", "the doula"]),
    ],
}


def _span(tokens: list[str], mention: str) -> tuple[int, int]:
    want = mention.split()
    low = [t.lower() for t in tokens]
    for i in range(len(low) - len(want) + 1):
        if low[i : i + len(want)] == want:
            return i, i + len(want) - 1
    raise AssertionError(f"{mention!r} not in {tokens}")


def _write_batch(root: Path) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "concepts").mkdir()
    for name, lines in NOTES.items():
        (root / "docs" / f"{name}.txt").write_text("\n".join(text for text, _ in lines) + "\n", encoding="utf-8")
        con = []
        for ln, (text, mentions) in enumerate(lines, 1):
            for mention in mentions:
                t1, t2 = _span(text.split(), mention)
                ctype = "pronoun" if mention == "she" else "person"
                con.append(f'c="{mention}" {ln}:{t1} {ln}:{t2}||t="{ctype}"')
        (root / "concepts" / f"{name}.txt.con").write_text("\n".join(con) + "\n", encoding="utf-8")
    return root


def _rules(tmp_path: Path, web: dict) -> Path:
    data = yaml.safe_load((ROOT / "rules" / "people.yaml").read_text(encoding="utf-8"))
    for entry in data["passes"]:
        entry.pop("examples", None)
        if entry["kind"] == "people_roles":
            entry["params"]["web"] = web
    path = tmp_path / "web-rules.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


_DATE = re.compile(r"\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*$|(?:mon|tues|wednes|thurs|fri|satur|sun)day")


def test_web_batch_sends_no_phi(tmp_path, engine):
    base, log = engine
    data = _write_batch(tmp_path / "data")
    web = {"enabled": True, "url": base + "/search?q={query}", "cache": str(tmp_path / "c.sqlite"), "timeout": 2}
    out = tmp_path / "out"
    assert main(["resolve", str(data), "--out", str(out), "--rules", str(_rules(tmp_path, web)), "--no-progress", "-q"]) == 0
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
    data = _write_batch(tmp_path / "data")
    web = {"enabled": True, "url": base + "/fail?q={query}", "cache": str(tmp_path / "c.sqlite"), "retries": 0,
           "vocabulary": "none"}
    out = tmp_path / "out"
    assert main(["resolve", str(data), "--out", str(out), "--rules", str(_rules(tmp_path, web)), "--no-progress", "-q"]) == 0
    assert sorted(p.name for p in out.glob("*.txt.chains")) == ["note-a.txt.chains", "note-b.txt.chains"]
    assert log  # it did try


def test_web_dry_run_lists_what_would_be_sent(tmp_path, engine, capsys):
    base, log = engine
    data = _write_batch(tmp_path / "data")
    rules = _rules(tmp_path, {"enabled": False, "url": base + "/search?q={query}", "cache": str(tmp_path / "c.sqlite"),
                              "vocabulary": "none"})
    assert main(["web", str(data), "--rules", str(rules), "--dry-run", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["would_send"] == ["chiropodist", "doula", "gardener", "orthoptist"]
    assert out["refused_by_reason"]  # "the will", "jones", "the march", "Podiatrist"... are refused
    assert "Alvarez" not in json.dumps(out) and log == []


def test_web_command_fills_the_cache(tmp_path, engine, capsys):
    base, log = engine
    data = _write_batch(tmp_path / "data")
    web = {"enabled": True, "url": base + "/search?q={query}", "cache": str(tmp_path / "c.sqlite"), "vocabulary": "none"}
    rules = _rules(tmp_path, web)
    assert main(["web", str(data), "--rules", str(rules)]) == 0
    assert "chiropodist\tstaff\tweb" in capsys.readouterr().out
    n = len(log)
    assert main(["web", str(data), "--rules", str(rules), "--dry-run", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["would_send"] == [] and len(out["cached"]) == 4 and len(log) == n


def test_web_command_refuses_when_disabled(tmp_path, engine):
    base, log = engine
    data = _write_batch(tmp_path / "data")
    rules = _rules(tmp_path, {"enabled": False, "url": base + "/search?q={query}"})
    assert main(["web", str(data), "--rules", str(rules)]) == 2
    assert log == []
