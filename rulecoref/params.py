"""Parameter specs: what each setting accepts, so validation can report every problem at once.

Passes, attributes, predicates, decoders and the mention finder declare their parameters with
``Param``; the rule compiler (rules/compiler.py) checks a YAML value against the spec and never runs
code from the file, and the command line checks numbers with the same ``check_number``. This module
sits at the bottom of the layers (docs/architecture.md): whatever declares a parameter imports it,
and it imports nothing of rulecoref.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# Value kinds a parameter can have. "wordlist" is a path to a plain-text list (or an inline list);
# "regexes" is a list of regular expressions (or a path to a file of them, one per line); a
# "mapping" with ``fields`` is checked key by key like a pass's params; "attributes" names mention
# attributes (one, or a list); "predicates" lists pair predicates, each a name or {name: {params}}.
KINDS = ("bool", "int", "float", "str", "str_list", "wordlist", "regexes", "choice", "mapping",
         "attributes", "predicates")
#: Largest magnitude of an int or float parameter that declares no maximum of its own: a count,
#: a distance or a window beyond it means "no limit", and the passes give 0 or -1 that meaning.
MAX_MAGNITUDE = 10**9


@dataclass(frozen=True)
class Param:
    """One parameter a kind accepts: its value kind, default and a one-line why."""

    kind: str
    default: Any = None
    required: bool = False
    allowed: tuple[str, ...] = ()
    help: str = ""
    minimum: float | None = None
    maximum: float | None = None
    fields: dict[str, Param] | None = None  # a mapping's keys, each checked like a parameter
    #: a mapping's extra check: problems found in a value (``web:`` settings), reported with its line
    check: Callable[[Any], list[str]] | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown Param kind {self.kind!r}")

    def describe(self) -> str:
        if self.kind == "choice":
            return "one of " + ", ".join(self.allowed)
        return {
            "bool": "true or false",
            "int": "an integer",
            "float": "a number",
            "str": "a string",
            "str_list": "a list of strings",
            "wordlist": "a word-list path or a list of strings",
            "regexes": "a list of regular expressions or a path to a file of them",
            "mapping": "a mapping",
            "attributes": "an attribute name or a list of them",
            "predicates": "a list of predicates (names, or {name: {params}})",
        }[self.kind]


def type_name(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):  # cut short: an included file that is one long string is not echoed whole
        return f"the string {value!r}" if len(value) <= 60 else f"a string of {len(value)} characters"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def check_value(param: Param, value: Any) -> str | None:
    """Return a problem description, or None when ``value`` fits ``param`` (file checks come later)."""
    k = param.kind
    ok = True
    if k == "bool":
        ok = isinstance(value, bool)
    elif k == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif k == "float":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif k == "str":
        ok = isinstance(value, str)
    elif k == "str_list":
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        if ok and param.allowed and any(v not in param.allowed for v in value):
            return "choice"  # a list of choices ('stages' of pronoun_salience)
    elif k in ("wordlist", "regexes"):
        ok = isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))
    elif k == "choice":
        if not isinstance(value, str) or value not in param.allowed:
            return "choice"
    elif k == "mapping":
        ok = isinstance(value, dict)
    elif k == "attributes":
        ok = isinstance(value, str) or (isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value))
    elif k == "predicates":
        ok = isinstance(value, list) and all(
            isinstance(v, str) or (isinstance(v, dict) and len(v) == 1 and isinstance(next(iter(v)), str)) for v in value)
    if not ok:
        return "type"
    if k in ("int", "float"):
        return check_number(param, value)
    return None


def check_number(param: Param, value: int | float) -> str | None:
    """"finite" for NaN and infinities (RC123), a range problem, or None: numbers are checked
    the same way in rule files and on the command line."""
    if isinstance(value, float) and not math.isfinite(value):
        return "finite"
    if param.minimum is not None and value < param.minimum:
        return f"must be >= {param.minimum}"
    if param.maximum is not None and value > param.maximum:
        return f"must be <= {param.maximum}"
    if param.maximum is None and abs(value) > MAX_MAGNITUDE:
        return f"must be <= {MAX_MAGNITUDE:,}"
    return None
