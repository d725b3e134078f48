"""Knowledge the passes use, loaded once and handed to them explicitly (no module-level caches).

``Resources`` owns the word lists, the offline WordNet reader, UMLS connections and the one memo
of word-level knowledge of one process. Heavy resources load lazily on first use; ``warm()`` loads
them before worker processes fork so the workers share the parent's copy.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, TypeVar

from .lexicon import Lexicon

T = TypeVar("T")
_MISSING = object()
MEMO_LIMIT = 500_000  # entries of word-level knowledge remembered before the memo starts afresh


class Memo:
    """The process's one memo of word-level knowledge (WordNet bases and synonyms, a token's
    conditioned form): what a word means does not depend on the document, so it is worked out once.

    Bounded: past ``limit`` entries it starts afresh, which costs recomputation, never a wrong
    answer. Keys are tuples that begin with the question asked, e.g. ``("synonyms", "tumor", 1)``.
    """

    def __init__(self, limit: int = MEMO_LIMIT):
        self.limit = limit
        self._answers: dict[Hashable, Any] = {}
        self._names: dict[Hashable, int] = {}  # a settings value -> its number in keys (kept when afresh)

    def __len__(self) -> int:
        return len(self._answers)

    def name(self, value: Hashable) -> int:
        """A number standing for a settings value (a word list) in keys, the same for equal values:
        a key of strings, numbers and booleans is one the garbage collector stops walking after a
        first look, and a frozenset inside would keep every such key tracked (20,000 in a CRAFT batch)."""
        return self._names.setdefault(value, len(self._names))

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        hit = self._answers.get(key, _MISSING)
        if hit is _MISSING:
            if len(self._answers) >= self.limit:
                self._answers.clear()
            hit = self._answers[key] = compute()
        return hit

PACKAGE_DIR = Path(__file__).resolve().parent.parent


def data_root() -> Path:
    """Folder holding the bundled ``rules/`` and ``resources/`` (the source tree or the install)."""
    env = os.environ.get("RULECOREF_HOME")
    if env:
        return Path(env)
    source = PACKAGE_DIR.parent
    if (source / "rules").is_dir() and (source / "resources").is_dir():
        return source
    return PACKAGE_DIR / "_data"


class Resources:
    """Lexicons by path, WordNet and UMLS for one process."""

    def __init__(self, *, wordnet_path: str | Path | None = None, root: Path | None = None,
                 memo_limit: int = MEMO_LIMIT, network: str = "env"):
        self.root = root or data_root()
        self.wordnet_path = wordnet_path
        #: which database servers may be connected (docs/security.md): "allow" (``--allow-network``),
        #: "env" (a URL from $RULECOREF_UMLS_DB, never one a rule file names) or "none" (``check``,
        #: ``web --dry-run``: local files only)
        self.network = network
        self.memo = Memo(memo_limit)
        self._lexicons: dict[str, Lexicon] = {}
        self._wordnet: Any = None
        self._umls: dict[str, Any] = {}

    def lexicon(self, path: str | Path) -> Lexicon:
        key = str(Path(path).resolve())
        lex = self._lexicons.get(key)
        if lex is None:
            lex = self._lexicons[key] = Lexicon.from_file(key)
        return lex

    @property
    def wordnet(self) -> Any:
        """The offline WordNet adapter (``resources/wordnet.py``), loaded on first use."""
        if self._wordnet is None:
            from .wordnet import load_wordnet

            self._wordnet = load_wordnet(self.wordnet_path, self.memo)
        return self._wordnet

    def umls(self, url: str, named_by: str | None = None) -> Any:
        """A UMLS lookup for a database URL (``resources/umls/``), opened on first use.

        ``named_by``: the rule file when the URL comes from it (``db:``, or a ``db_env:`` of its
        own). A URL that is not a local file is a network connection, and PHI may go along with
        the lookups: a rule file alone never makes one (RC420), ``network="none"`` never (RC421).
        """
        from .umls import network_url

        if network_url(url) and self.network != "allow" and (named_by is not None or self.network == "none"):
            from ..errors import UmlsError, diagnostic
            from .umls import safe_url

            if self.network == "none":
                raise UmlsError(diagnostic("RC421", url=safe_url(url)))
            raise UmlsError(diagnostic("RC420", file=named_by, url=safe_url(url)))
        db = self._umls.get(url)
        if db is None:
            from .umls import UmlsLookup

            db = self._umls[url] = UmlsLookup(url)
        return db

    def warm(self, *, wordnet: bool = False) -> None:
        """Load what workers will need before forking, so they share one copy."""
        if wordnet:
            _ = self.wordnet


def named_file(value: str | Path, folder: str = "", suffix: str = "") -> Path:
    """A file named by a user setting: the path as given when it exists, else the bundled one.

    Settings that travel (a spaCy config, a Spark job) name bundled files portably: ``"i2b2"`` with
    ``folder="rules", suffix=".yaml"`` is ``rules/i2b2.yaml`` of whichever installation reads it, and
    ``"resources/lexicons/abbreviations.txt"`` the bundled word list. A name found nowhere comes
    back as given, so the reader reports it missing with its own numbered error.
    """
    path = Path(value).expanduser()
    if path.is_file() or path.is_absolute():
        return path
    base = data_root() / folder
    for cand in (base / path, base / f"{path}{suffix}"):
        if cand.is_file():
            return cand
    return path
