"""Knowledge the passes use, loaded once and handed to them explicitly (no module-level caches).

``Resources`` owns the word lists, the offline WordNet reader and UMLS connections of one process.
Heavy resources load lazily on first use; ``warm()`` loads them before worker processes fork so
the workers share the parent's copy.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .lexicon import Lexicon

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
                 lean_import: bool = False):
        self.root = root or data_root()
        self.wordnet_path = wordnet_path
        self.lean_import = lean_import  # import NLTK without SciPy and scikit-learn (wordnet.import_nltk)
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

            self._wordnet = load_wordnet(self.wordnet_path, lean_import=self.lean_import)
        return self._wordnet

    def umls(self, url: str) -> Any:
        """A UMLS lookup for a database URL (``resources/umls.py``), opened on first use."""
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
