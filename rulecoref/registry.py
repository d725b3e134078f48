"""Named registries: one mechanism for every name a rule file or the command line gives.

Pass kinds (``passes/``), document formats (``io/``), decoders (``decoders.py``), mention
attributes (``attributes/registry.py``) and pair predicates (``predicates/registry.py``) are each one
``Registry``: names are checked when they are registered (snake_case, once each, and for kinds and
formats the module's own name, so ``kind: relative_pronoun`` leads to ``passes/relative_pronoun.py``),
looked up one way, and a name that is not there gets one kind of message, its registry's code with
the names that exist and a "did you mean" (spaCy's ``registry.get`` lists what is registered
the same way). Before this module each registry had its own lookup, suggestion and miss message.

A registry can find its entries itself: ``package`` imports the package's modules (each registers
what it defines) before the first lookup or listing, and ``lazy`` names the module of an entry
imported only when that entry is asked for (the Bell-tree decoder, whose extras may be missing).
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
import re
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from typing import TypeVar

from .errors import ERRORS, Diagnostic, diagnostic

T = TypeVar("T")

#: a registered name: lower-case words joined by "_" (``head_family``, ``i2b2``)
NAME = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")


def suggest(word: str, options: Iterable[str]) -> str | None:
    """The option closest to a misspelt ``word`` ("did you mean ..."), or None: difflib's ratio of
    0.6 as is, then with "-" read as "_" and lower case (``Head-Family`` -> ``head_family``)."""
    options = list(options)
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if not close:
        close = difflib.get_close_matches(word.replace("-", "_").lower(), options, n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(word: str, options: Iterable[str]) -> str:
    """"did you mean 'x'? " for the closest option, or "" when none is close."""
    close = suggest(word, options)
    return f"did you mean {close!r}? " if close else ""


def import_modules(package: str) -> list[str]:
    """Import every module of ``package`` whose name does not start with "_" (each registers what
    it defines); the names of the modules, in file order."""
    found = importlib.import_module(package)
    names = [info.name for info in pkgutil.iter_modules(found.__path__) if not info.name.startswith("_")]
    for name in names:
        importlib.import_module(f"{package}.{name}")
    return names


class Registry(MutableMapping[str, T]):
    """Entries by name, in the order they were registered.

    ``what`` names an entry in messages ("pass kind"); ``code`` is the error a missing name gets
    (``miss``), its template filled with the name as ``field`` and the known names as ``known``;
    ``hint`` follows the "did you mean" (default: the code's own hint). ``module_named``: an entry
    lives in the module of its name. Setting an item registers it (a test may register one with
    ``monkeypatch.setitem``); a name registered twice is an error, as two modules claiming one name
    would be a silent override.
    """

    def __init__(self, what: str, *, code: str | None = None, field: str = "name", hint: str | None = None,
                 package: str | None = None, lazy: Mapping[str, str] | None = None,
                 module_named: bool = False) -> None:
        self.what = what
        self.code = code
        self.field = field
        self.hint = hint
        self.package = package
        self.lazy = dict(lazy or {})
        self.module_named = module_named
        self._entries: dict[str, T] = {}
        self._found = package is None  # the package's modules imported (they register themselves)

    # -- registering -------------------------------------------------------------------------------
    def register(self, name: str, entry: T, *, module: str | None = None) -> T:
        """Add ``entry`` under ``name`` (ValueError for a name that is not snake_case, is taken, or,
        for a ``module_named`` registry, is not the name of ``module``)."""
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise ValueError(f"{self.what} name {name!r} is not snake_case (lower-case words joined by '_')")
        if name in self._entries:
            raise ValueError(f"{self.what} {name!r} is registered twice")
        if self.module_named and module is not None:
            own = module.rsplit(".", 1)[-1]
            if own != name:
                folder = (self.package or module.rpartition(".")[0]).replace(".", "/")
                raise ValueError(f"{self.what} {name!r} must live in {folder}/{name}.py, not {own}.py")
        self._entries[name] = entry
        return entry

    def __setitem__(self, name: str, entry: T) -> None:
        self.register(name, entry)

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    # -- looking up ----------------------------------------------------------------------------------
    def _find(self) -> None:
        if not self._found:
            self._found = True
            import_modules(self.package or "")

    def __getitem__(self, name: str) -> T:
        """The entry called ``name``; KeyError naming the known ones otherwise (use ``miss`` for a
        name a user gave)."""
        self._find()
        if name not in self._entries and name in self.lazy:
            try:
                importlib.import_module(self.lazy[name])
            except ImportError:  # its extras are not installed: known, but not available
                pass
        if name not in self._entries:
            raise KeyError(f"no {self.what} {name!r}; known: {', '.join(self.names())}")
        return self._entries[name]

    def __iter__(self) -> Iterator[str]:
        self._find()
        return iter(list(self._entries))

    def __len__(self) -> int:
        self._find()
        return len(self._entries)

    def names(self) -> list[str]:
        """Every known name, sorted: those registered and those a lookup would import (``lazy``)."""
        self._find()
        return sorted(set(self._entries) | set(self.lazy))

    def miss(self, name: object, *, hint: str | None = None, **fields: object) -> Diagnostic:
        """The problem of a name given that is not here: the registry's code with the known names,
        and a "did you mean" before the hint (``hint`` replaces both: a case the registry cannot
        know, such as a former kind)."""
        if self.code is None:
            raise KeyError(f"no {self.what} {name!r}; known: {', '.join(self.names())}")
        if hint is None:
            rest = self.hint if self.hint is not None else ERRORS[self.code].hint
            hint = (did_you_mean(str(name), self.names()) + (rest or "")).strip() or None
        return diagnostic(self.code, hint=hint, **{self.field: name, "known": ", ".join(self.names()), **fields})
