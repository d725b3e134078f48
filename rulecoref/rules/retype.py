"""An included rule file's concept types, as the including file names them.

``rules/people.yaml`` scopes its passes and writes its examples with i2b2's ``person`` and
``pronoun``; ODIE calls both ``people``. ``- include: people.yaml`` with ``types: {person: people,
pronoun: people}`` (rules/odie.yaml) renames them in every pass it splices in, so one file serves
both type systems and its examples are checked as the including file would see them.
"""

from __future__ import annotations

from typing import Any

from ..markup import retype
from ..yaml_source import LDict, LList


def retyped(entry: LDict, types: dict[str, str]) -> LDict:
    """A pass of an included file with the concept types of its scope (``applies_to``) and its
    examples renamed by ``types`` (lowercased names); its lines stay, for messages."""
    out = _like(entry, entry)
    applies, examples = entry.get("applies_to"), entry.get("examples")
    if isinstance(applies, LDict):
        out["applies_to"] = _like(applies, {k: _like(v, list(dict.fromkeys(types.get(t.lower(), t) for t in v)))
                                            if k in ("types", "exclude_types") and _strings(v) else v
                                            for k, v in applies.items()})
    if isinstance(examples, LDict):
        out["examples"] = _like(examples, {k: _like(v, [retype(x, types) for x in v]) if _strings(v) else v
                                           for k, v in examples.items()})
    return out


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def _like(src: Any, value: Any) -> Any:
    """``value`` as a copy of ``src``'s kind (LDict, LList) with its lines."""
    out = type(src)(value)
    if isinstance(src, LDict):
        out.line, out.key_lines = src.line, src.key_lines
    elif isinstance(src, LList):
        out.line, out.item_lines = src.line, src.item_lines
    return out
