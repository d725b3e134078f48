"""Optional web look-up for medical personnel (seed 001, "Medical personnel"), off by default.

The seed sent each person mention to a search engine and called it medical personnel when the
results held two or more medical keywords ("optometrist" -> "Doctors of Optometry ... clinic").
Clinical notes carry protected health information, so this provider sends far less than the seed:

* only single words that pass :func:`privacy_gate` (lowercase as written in the note, ASCII letters
  and at most one hyphen, no digit, no date word, on no name list, and by default a WordNet common
  noun for a person), never a mention, a sentence or a document name;
* only words the local rules could not decide (not staff by salutation, title or lexicon, not a
  family, patient or generic word); everything else is decided locally;
* one request per word ever: verdicts are kept in an SQLite cache (through SQLAlchemy).

A failing provider (timeout, HTTP error, malformed body, connection refused) never stops a batch:
the failure is logged with a code (RC311/RC312), the word counts as unknown (not staff), and after
``max_failures`` failures in a row the provider stops asking for the rest of the process (RC314).
``rulecoref web DATA --dry-run`` lists exactly the words that would be sent.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
import urllib.parse
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import Diagnostic, diagnostic
from ..extras import require

log = logging.getLogger("rulecoref.web")

_PLAIN_WORD = re.compile(r"[a-z]+(?:-[a-z]+){0,2}")
_DIGIT = re.compile(r"\d")
_SURROUNDING = re.compile(r"^[^\w]+|[^\w]+$")
_POSSESSIVE = re.compile(r"['\u2019]s$", re.IGNORECASE)
MIN_LEN, MAX_LEN = 3, 30


def privacy_gate(
    word: str,
    *,
    names: Container[str] = frozenset(),
    date_words: Container[str] = frozenset(),
    vocabulary: Callable[[str], bool] | None = None,
) -> str | None:
    """Why ``word`` may NOT be sent to a web service, or None when it may.

    ``word`` is the token as written in the note (possessive and surrounding punctuation removed, no
    lowercasing). Only a generic role word passes: "optometrist" passes; "Smith" (capitalised),
    "3rd" (digit), "march" (date word), "jones" (name list), "dr.smith" (not a plain word) do not.
    ``vocabulary`` (when given) must also accept it, e.g. "a WordNet common noun for a person".
    Every check refuses; nothing here can widen what is sent.
    """
    if not isinstance(word, str) or not word:
        return "empty"
    if _DIGIT.search(word):
        return "digit"
    if any(ch.isupper() for ch in word):
        return "capitalised"
    if not _PLAIN_WORD.fullmatch(word):
        return "not a plain lowercase word"
    if not MIN_LEN <= len(word) <= MAX_LEN:
        return "length"
    if word in date_words or any(part in date_words for part in word.split("-")):
        return "date word"
    if word in names or any(part in names for part in word.split("-")):
        return "name list"
    if vocabulary is not None and not vocabulary(word):
        return "not in the vocabulary"
    return None


def surface_word(token: str) -> str:
    """The gate's input for a note token: possessive and surrounding punctuation removed, case kept
    ("chiropodist's," -> "chiropodist", "Smith's" -> "Smith")."""
    return _POSSESSIVE.sub("", _SURROUNDING.sub("", token))


def wordnet_person_noun(wordnet: Any) -> Callable[[str], bool]:
    """A vocabulary check: the word is a WordNet common noun (lowercase lemma, not an instance such as a
    named person) under person.n.01 ("optometrist", "chiropodist"; not "smith" the economist as a
    name, though "smith" the metalworker passes: the names list catches such words)."""
    reader = wordnet.reader
    person = reader.synset("person.n.01")
    seen: dict[str, bool] = {}

    def check(word: str) -> bool:
        hit = seen.get(word)
        if hit is None:
            hit = False
            base = reader.morphy(word, "n") or word
            for s in reader.synsets(base, "n"):
                if s.instance_hypernyms():
                    continue
                if not any(l.name() == base for l in s.lemmas()):
                    continue  # only capitalised lemmas carry this word here ("Baker" the name)
                if s == person or person in s.closure(lambda x: x.hypernyms()):
                    hit = True
                    break
            seen[word] = hit
        return hit

    return check


@dataclass(frozen=True)
class WebSettings:
    """The ``web:`` mapping of a ``people_roles`` pass. Every key is optional; ``enabled`` is false
    by default, and nothing is sent unless it is true and ``url`` is set."""

    enabled: bool = False
    url: str = ""  # a template with {query}, e.g. https://search.example/api?q={query}
    timeout: float = 5.0  # seconds, for connecting and for reading
    retries: int = 1  # extra attempts after a timeout, a refused connection or HTTP 5xx/429
    backoff: float = 0.5  # seconds before the first retry, doubled for each further one
    threshold: int = 2  # distinct keywords in the result that make a word medical personnel
    format: str = "text"  # "text": count keywords in the body; "json": in the JSON body's strings
    cache: str = ""  # SQLite file; "" = $XDG_CACHE_HOME/rulecoref/web-cache.sqlite
    cache_only: bool = False  # answer from the cache and never send (after `rulecoref web` filled it)
    max_failures: int = 5  # failures in a row after which the provider stops asking (this process)
    max_bytes: int = 1_000_000  # the body is read up to this size
    vocabulary: str = "wordnet_person"  # "wordnet_person" or "none": the gate's extra word check
    proxy: str = ""  # an explicit proxy URL; environment proxies are never used

    @classmethod
    def from_mapping(cls, value: Mapping[str, Any] | None) -> tuple[WebSettings, list[str]]:
        """Settings from YAML and every problem found (unknown key, wrong type, bad URL)."""
        problems: list[str] = []
        if not value:
            return cls(), problems
        known = {f.name: f for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, v in value.items():
            f = known.get(key)
            if f is None:
                problems.append(f"unknown key {key!r}; allowed: {', '.join(known)}")
                continue
            default = f.default
            if isinstance(default, bool):
                ok = isinstance(v, bool)
            elif isinstance(default, int):
                ok = isinstance(v, int) and not isinstance(v, bool) and v >= 0
            elif isinstance(default, float):
                ok = isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0
                v = float(v) if ok else v
            else:
                ok = isinstance(v, str)
            if not ok:
                problems.append(f"{key}: expected {type(default).__name__} (not negative), got {v!r}")
                continue
            kwargs[key] = v
        s = cls(**kwargs)
        if s.url and ("{query}" not in s.url or not s.url.startswith(("http://", "https://"))):
            problems.append(f"url: expected an http(s) URL template containing {{query}}, got {s.url!r}")
        if s.enabled and not s.url and not s.cache_only:
            problems.append("enabled is true but no url is set")
        if s.format not in ("text", "json"):
            problems.append(f"format: expected 'text' or 'json', got {s.format!r}")
        if s.vocabulary not in ("wordnet_person", "none"):
            problems.append(f"vocabulary: expected 'wordnet_person' or 'none', got {s.vocabulary!r}")
        if s.threshold < 1:
            problems.append("threshold: expected at least 1")
        return s, problems

    def cache_path(self) -> Path:
        if self.cache:
            return Path(self.cache).expanduser()
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        return Path(base) / "rulecoref" / "web-cache.sqlite"


class WebCache:
    """Verdicts by (URL template, word) in SQLite: the keywords checked and the keywords found, so a
    new threshold needs no new request and a longer keyword list does."""

    def __init__(self, path: Path):
        from sqlalchemy import Column, MetaData, String, Table, Text, create_engine

        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.engine = create_engine(f"sqlite:///{path}", connect_args={"timeout": 30})
        meta = MetaData()
        self.table = Table(
            "web_verdicts", meta,
            Column("template", Text, primary_key=True),
            Column("word", String(64), primary_key=True),
            Column("checked", Text, nullable=False),  # JSON list of the keywords looked for
            Column("found", Text, nullable=False),  # JSON list of the keywords found
            Column("fetched_at", String(32), nullable=False),
        )
        meta.create_all(self.engine)

    def get(self, template: str, word: str) -> tuple[set[str], set[str]] | None:
        t = self.table
        with self.engine.connect() as conn:
            row = conn.execute(t.select().where(t.c.template == template, t.c.word == word)).first()
        if row is None:
            return None
        return set(json.loads(row.checked)), set(json.loads(row.found))

    def put(self, template: str, word: str, checked: Iterable[str], found: Iterable[str]) -> None:
        from sqlalchemy.dialects.sqlite import insert

        t = self.table
        values = {"template": template, "word": word, "checked": json.dumps(sorted(checked)),
                  "found": json.dumps(sorted(found)), "fetched_at": datetime.now(UTC).isoformat(timespec="seconds")}
        stmt = insert(t).values(**values)
        stmt = stmt.on_conflict_do_update(index_elements=[t.c.template, t.c.word],
                                          set_={k: stmt.excluded[k] for k in ("checked", "found", "fetched_at")})
        with self.engine.begin() as conn:
            conn.execute(stmt)

    def words(self, template: str) -> list[tuple[str, list[str]]]:
        t = self.table
        with self.engine.connect() as conn:
            rows = conn.execute(t.select().where(t.c.template == template).order_by(t.c.word)).all()
        return [(r.word, json.loads(r.found)) for r in rows]

    def close(self) -> None:
        self.engine.dispose()


class ProviderFailure(Exception):
    """One failed request (after retries); carries its diagnostic."""

    def __init__(self, diag: Diagnostic):
        super().__init__(str(diag))
        self.diagnostic = diag


@dataclass
class Verdict:
    """The provider's answer for one word: staff True/False, or None when unknown."""

    word: str
    staff: bool | None
    source: str  # "cache", "web", "failed", "off" (not asked), "refused" (failed the privacy gate)
    found: tuple[str, ...] = ()


@dataclass
class WebStaffProvider:
    """Asks a search URL whether a generic word names medical personnel; see the module docstring.

    Holds its HTTP session and cache connection itself (created on first use, again after a fork),
    so there is no module-level state. ``sent`` lists every word actually requested in this process
    and ``failures`` every failure, for reports.
    """

    settings: WebSettings
    keywords: tuple[str, ...]
    sent: list[str] = field(default_factory=list)
    failures: list[Diagnostic] = field(default_factory=list)
    #: each failure is also logged (``resolve``: the only place it shows); ``rulecoref web`` prints
    #: ``failures`` itself and turns this off, so each shows once
    log_failures: bool = True
    _cache: WebCache | None = field(default=None, repr=False)
    _session: Any = field(default=None, repr=False)
    _pid: int = field(default=0, repr=False)
    _asked: dict[str, Verdict] = field(default_factory=dict, repr=False)
    _failures_in_row: int = field(default=0, repr=False)
    _stopped: bool = field(default=False, repr=False)
    _patterns: dict[str, re.Pattern[str]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        require("web", "the web provider (web.enabled: true)")
        self.keywords = tuple(dict.fromkeys(k.lower() for k in self.keywords if k.strip()))
        self._patterns = {k: re.compile(r"(?<![a-z])" + re.escape(k) + r"(?![a-z])") for k in self.keywords}

    # -- plumbing -------------------------------------------------------------------------------
    def _fresh(self) -> None:
        """Drop connections inherited from a parent process (resolve --jobs forks workers)."""
        pid = os.getpid()
        if pid != self._pid:
            self._pid = pid
            self._session = None
            if self._cache is not None:
                self._cache.engine.dispose(close=False)
                self._cache = None

    @property
    def cache(self) -> WebCache | None:
        self._fresh()
        if self._cache is None:
            try:
                self._cache = WebCache(self.settings.cache_path())
            except Exception as exc:  # an unwritable folder or a corrupt file: run without a cache
                self._record(diagnostic("RC313", path=str(self.settings.cache_path()), detail=f"{type(exc).__name__}: {exc}",
                                        severity="warning"))
                return None
        return self._cache

    def _http(self) -> Any:
        self._fresh()
        if self._session is None:
            import requests

            session = requests.Session()
            session.trust_env = False  # no proxy or .netrc from the environment: only the configured URL
            if self.settings.proxy:
                session.proxies = {"http": self.settings.proxy, "https": self.settings.proxy}
            session.headers["User-Agent"] = "rulecoref-web-provider"
            self._session = session
        return self._session

    def _record(self, diag: Diagnostic) -> None:
        self.failures.append(diag)
        if self.log_failures:
            log.warning("%s", diag)

    # -- the question ---------------------------------------------------------------------------
    def url_for(self, word: str) -> str:
        return self.settings.url.replace("{query}", urllib.parse.quote(word, safe=""))

    def count(self, text: str) -> set[str]:
        """The configured keywords found in a result body (case-insensitive, whole words)."""
        low = text.lower()
        return {k for k, rx in self._patterns.items() if rx.search(low)}

    def _fetch(self, word: str) -> str:
        """One word's result text, with retries; raises ProviderFailure."""
        import requests

        s = self.settings
        url = self.url_for(word)
        attempts = 1 + s.retries
        last = ""
        for attempt in range(attempts):
            if attempt:
                time.sleep(s.backoff * (2 ** (attempt - 1)))
            try:
                with self._http().get(url, timeout=(s.timeout, s.timeout), stream=True, allow_redirects=True) as resp:
                    if resp.status_code >= 500 or resp.status_code == 429:
                        last = f"HTTP {resp.status_code}"
                        continue
                    if resp.status_code >= 400:
                        raise ProviderFailure(diagnostic("RC311", word=word, detail=f"HTTP {resp.status_code}", severity="warning"))
                    body = bytearray()
                    for chunk in resp.iter_content(chunk_size=65536):
                        body.extend(chunk)
                        if len(body) >= s.max_bytes:
                            break
                    text = bytes(body[: s.max_bytes]).decode(resp.encoding or "utf-8", errors="replace")
            except requests.Timeout:
                last = f"timeout after {s.timeout:g} s"
                continue
            except requests.RequestException as exc:
                last = f"{type(exc).__name__}: {exc}"
                continue
            except OSError as exc:  # a connection dropped while the body was read
                last = f"{type(exc).__name__}: {exc}"
                continue
            return self._body_text(word, text)
        raise ProviderFailure(diagnostic("RC311", word=word, detail=f"{last} ({attempts} attempt(s))", severity="warning"))

    def _body_text(self, word: str, text: str) -> str:
        if not text.strip():
            raise ProviderFailure(diagnostic("RC312", word=word, detail="empty body", severity="warning"))
        if self.settings.format == "json":
            try:
                data = json.loads(text)
            except ValueError as exc:
                raise ProviderFailure(diagnostic("RC312", word=word, detail=f"not JSON ({exc})", severity="warning")) from None
            return " ".join(_strings(data))
        return text

    def lookup(self, word: str) -> Verdict:
        """Whether ``word`` names medical personnel. The caller has passed it through the privacy gate.

        Never raises for a provider problem: the verdict is then unknown (``staff=None``).
        """
        hit = self._asked.get(word)
        if hit is not None:
            return hit
        if privacy_gate(word) is not None:  # defence in depth: the caller's gate has more lists
            return Verdict(word, None, "refused")
        s = self.settings
        wanted = set(self.keywords)
        cache = self.cache
        if cache is not None:
            try:
                got = cache.get(s.url, word)
            except Exception as exc:
                self._record(diagnostic("RC313", path=str(cache.path), detail=f"{type(exc).__name__}: {exc}", severity="warning"))
                got = None
            if got is not None and wanted <= got[0]:
                found = got[1] & wanted
                return self._keep(Verdict(word, len(found) >= s.threshold, "cache", tuple(sorted(found))))
        if not s.enabled or s.cache_only or self._stopped:
            return Verdict(word, None, "off")
        self.sent.append(word)
        try:
            found = self.count(self._fetch(word))
        except ProviderFailure as exc:
            self._record(exc.diagnostic)
            self._failures_in_row += 1
            if self._failures_in_row >= max(1, s.max_failures):
                self._stopped = True
                self._record(diagnostic("RC314", count=self._failures_in_row, severity="warning"))
            return self._keep(Verdict(word, None, "failed"))
        self._failures_in_row = 0
        if cache is not None:
            try:
                cache.put(s.url, word, wanted, found)
            except Exception as exc:
                self._record(diagnostic("RC313", path=str(cache.path), detail=f"{type(exc).__name__}: {exc}", severity="warning"))
        return self._keep(Verdict(word, len(found) >= s.threshold, "web", tuple(sorted(found))))

    def _keep(self, v: Verdict) -> Verdict:
        self._asked[v.word] = v
        return v

    @property
    def stopped(self) -> bool:
        return self._stopped


def _strings(data: Any) -> Iterable[str]:
    """Every string inside a JSON value (titles, snippets, URLs of a search API's answer)."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for v in data.values():
            yield from _strings(v)
    elif isinstance(data, list):
        for v in data:
            yield from _strings(v)
