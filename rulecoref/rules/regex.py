"""Regular expressions from rule files, bounded before they are compiled (docs/security.md).

Python's ``re`` has no time limit: ``(a+)+$`` against a 35-character token backtracks for
minutes, 600 nested groups end in a RecursionError and ``a{4294967295}`` in an OverflowError. A
rule file comes from a colleague, so its patterns are read by a small parser of their own first
(not ``re``'s private one) and refused, with the reason, when they hold:

- a repeated group (``*``, ``+``, ``{2,}``, ``{3}``: anything repeated more than once) that itself
  holds a variable repetition (``(a+)+``, ``(\\d{1,2}/){2}``) or alternatives (``(a|ab)*``): the
  shapes whose backtracking grows exponentially (or with a large power) in the token's length;
- groups nested deeper than ``MAX_REGEX_DEPTH``;
- a repeat count above ``MAX_REPEAT``;
- more than ``MAX_REGEX_CHARS`` characters.

The bundled ``date_patterns.txt`` passes: a group it makes optional (``(?:[/-]\\d{2,4})?``) is
repeated at most once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import diagnostic

#: Deepest nesting of groups (the bundled patterns nest 3).
MAX_REGEX_DEPTH = 20
#: Largest repeat count in ``{m,n}`` (the bundled patterns use at most 4).
MAX_REPEAT = 1000
#: Longest pattern (the bundled month pattern has 230 characters).
MAX_REGEX_CHARS = 2000


class RegexRefused(ValueError):
    """A pattern outside the bounds above; the message says which."""


@dataclass
class _Group:
    """What a group holds so far: a variable repetition, alternatives."""

    varies: bool = False
    alternatives: bool = False


_BRACE = re.compile(r"\{(\d*)(?:(,)(\d*))?\}")
_INF = float("inf")


def _skip_class(rx: str, i: int) -> int:
    """The index after the character class that starts at ``rx[i] == '['``."""
    i += 1
    if i < len(rx) and rx[i] == "^":
        i += 1
    if i < len(rx) and rx[i] == "]":  # a ']' first is a literal
        i += 1
    while i < len(rx) and rx[i] != "]":
        i += 2 if rx[i] == "\\" else 1
    return i + 1


def _skip_escape(rx: str, i: int) -> int:
    """The index after the escape at ``rx[i] == '\\'`` (``\\N{NAME}`` whole)."""
    if rx.startswith("\\N{", i):
        end = rx.find("}", i)
        return len(rx) if end < 0 else end + 1
    return i + 2


def _quantifier(rx: str, i: int) -> tuple[int, float, int] | None:
    """(min, max, end index) of a quantifier at ``rx[i]``, or None when there is none."""
    c = rx[i]
    if c in "*+?":
        lo, hi, end = (0, _INF, i + 1) if c == "*" else (1, _INF, i + 1) if c == "+" else (0, 1, i + 1)
    else:
        m = _BRACE.match(rx, i)
        if c != "{" or m is None or (not m.group(1) and not m.group(3) and m.group(2)) or not (m.group(1) or m.group(2)):
            return None
        lo = int(m.group(1)) if m.group(1) else 0
        hi = lo if not m.group(2) else int(m.group(3)) if m.group(3) else _INF
        if lo > MAX_REPEAT or (hi != _INF and hi > MAX_REPEAT):
            raise RegexRefused(f"a repeat count above {MAX_REPEAT} ({m.group(0)[:30]})")
        end = m.end()
    if end < len(rx) and rx[end] in "?+":  # lazy or possessive
        end += 1
    return lo, hi, end


def check_regex(rx: str) -> None:
    """Raise RegexRefused when ``rx`` is outside the bounds (module docstring); else return."""
    if len(rx) > MAX_REGEX_CHARS:
        raise RegexRefused(f"more than {MAX_REGEX_CHARS} characters")
    stack = [_Group()]
    last: _Group | None = None  # the group just closed, when the next quantifier applies to it
    i = 0
    while i < len(rx):
        c = rx[i]
        if c == "\\":
            i, last = _skip_escape(rx, i), None
        elif c == "[":
            i, last = _skip_class(rx, i), None
        elif c == "(" and rx.startswith("(?#", i):
            end = rx.find(")", i)
            i, last = (len(rx) if end < 0 else end + 1), None
        elif c == "(":
            stack.append(_Group())
            if len(stack) - 1 > MAX_REGEX_DEPTH:
                raise RegexRefused(f"groups nested deeper than {MAX_REGEX_DEPTH} levels")
            i, last = i + 1, None
        elif c == ")" and len(stack) > 1:
            last = stack.pop()
            stack[-1].varies |= last.varies
            stack[-1].alternatives |= last.alternatives
            i += 1
        elif c == "|":
            stack[-1].alternatives = True
            i, last = i + 1, None
        elif (q := _quantifier(rx, i)) is not None:
            lo, hi, i = q
            if hi > 1 and last is not None and (last.varies or last.alternatives):
                what = "a variable repetition" if last.varies else "alternatives"
                raise RegexRefused(f"a repeated group holds {what} (nested quantifiers backtrack without end)")
            if hi > 1 and lo != hi:
                stack[-1].varies = True
            last = None
        else:
            i, last = i + 1, None


def compile_regex(rx: str, flags: int = re.IGNORECASE) -> re.Pattern:
    """``rx`` checked (``check_regex``) and compiled; RegexRefused says why it is not usable
    (a syntax error too, or a shape ``re`` itself cannot compile)."""
    check_regex(rx)
    try:
        return re.compile(rx, flags)
    except re.error as exc:
        raise RegexRefused(str(exc)) from exc
    except (RecursionError, OverflowError, ValueError, MemoryError) as exc:
        raise RegexRefused(f"{type(exc).__name__}: {str(exc)[:60]}") from exc


def regexes(rep: Any, name: str, given: str | list[str], where: int | Path) -> list[re.Pattern]:
    """The patterns of a ``regexes`` setting, compiled; each refused one is RC104 through the
    compiler's ``Reporter`` ``rep``. ``given`` is a YAML list (``where``: its line) or the text of a
    file of patterns, one a line, ``#`` comments (``where``: the file, and the message names its line)."""
    if isinstance(given, str):
        items = [(n, v) for n, v in ((n, ln.split("#", 1)[0].strip()) for n, ln in enumerate(_lines(given), 1)) if v]
    else:
        items = [(where, v) for v in given]
    compiled = []
    for line, rx in items:
        try:
            compiled.append(compile_regex(rx))
        except RegexRefused as exc:
            got = f"{rx[:60]!r}{'...' if len(rx) > 60 else ''} ({exc})"
            if isinstance(where, Path):
                rep.chk.problems.append(diagnostic("RC104", file=str(where), line=line, where=name, got=got,
                                                   expected="a bounded regular expression (docs/security.md)",
                                                   hint=REGEX_HINT))
            else:
                rep.add("RC104", line, where=name, expected="a bounded regular expression (docs/security.md)",
                        got=got, hint=REGEX_HINT)
    return compiled


#: the hint of a refused pattern
REGEX_HINT = ("write the repetition once ('a+' for '(a+)+'), keep counts and nesting small; "
              "the limits are in docs/security.md.")


def _lines(text: str) -> list[str]:
    """A file's lines split at newlines only: a lone carriage return inside a line is kept."""
    return text.split("\n")
