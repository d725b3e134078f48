"""Optional features and the extras that install them (``pip install 'rulecoref[umls]'``).

The base install is what ``rulecoref resolve`` with the default rules needs (PyYAML, NLTK, tqdm).
A feature whose packages are missing stops with one numbered error naming the extra (RC304), not
an ImportError from deep inside a module. Presence is checked without importing the packages, so
asking costs nothing where they are installed.
"""

from __future__ import annotations

import importlib.util

from .errors import ResourceError, diagnostic

#: extra -> the importable modules it installs (pyproject.toml's optional-dependencies)
EXTRAS: dict[str, tuple[str, ...]] = {
    "umls": ("sqlalchemy",),
    "web": ("requests",),
    "belltree": ("sklearn", "scipy", "numpy", "rapidfuzz"),
    "eval": ("numpy", "scipy"),
    "spacy": ("spacy",),
    "spark": ("pyspark",),
    "browser": ("playwright",),
}


def _present(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # ValueError: blocked in sys.modules (tests do that)
        return False


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here."""
    return [m for m in EXTRAS[extra] if not _present(m)]


def require(extra: str, feature: str) -> None:
    """Stop with RC304 when ``feature`` needs packages of ``extra`` that are not installed."""
    gone = missing(extra)
    if gone:
        raise ResourceError(diagnostic("RC304", feature=feature, extra=extra, modules=", ".join(gone)))
