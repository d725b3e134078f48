"""Entity types of other tools -> the concept types a rule file declares (``--type-map FILE``).

An NER tool or a brat project names its types its own way ("Disease_or_Syndrome", "PER"); the
rules speak of problem, person, pronoun. A small YAML file says how one maps to the other, so the
input is never edited by hand:

    types:                 # input type -> rule type (input types match case-insensitively)
      Disease: problem
      Drug: treatment
      Organization: null   # not a mention: its annotations are dropped
    unmapped: keep         # types not listed: keep (lowercased, the default), drop, or error
    coreference: [Coreference, Coref]   # brat relation types that mean "same entity"

The file is read with the project's safe YAML loader (``yaml_source.py``), so every mistake is a
numbered error naming its line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..bounded import Limit, NotRegular, read_bytes
from ..errors import Diagnostic, InputError, diagnostic
from ..yaml_source import (
    BadScalar,
    DuplicateKey,
    LDict,
    LList,
    RecursiveAlias,
    TooDeep,
    TooManyNodes,
    UnsafeTag,
    load,
)

UNMAPPED = ("keep", "drop", "error")
#: Largest type map read; its YAML is also held to the rule files' node and depth limits
#: (``yaml_source``: 20,000 nodes, 50 levels), RC249 beyond (docs/security.md).
MAX_TYPE_MAP_BYTES = 1024 * 1024
KEYS = ("version", "types", "unmapped", "coreference")
#: brat relation and equivalence types read as coreference when the type map names none
#: (brat's own examples say Coref, the BioNLP 2011 coreference task Coreference, BioNLP Equiv)
DEFAULT_COREFERENCE = frozenset({"coreference", "coref", "equiv", "identity", "anaphora"})


@dataclass(frozen=True)
class TypeMap:
    """How input types become concept types; the default keeps every type, lowercased."""

    types: dict[str, str | None] = field(default_factory=dict)  # lowercased input type -> rule type or None
    unmapped: str = "keep"
    coreference: frozenset[str] = DEFAULT_COREFERENCE
    path: str = ""

    def known(self, raw: str) -> bool:
        """Whether ``raw`` may appear: listed, or any type unless ``unmapped: error``."""
        return self.unmapped != "error" or raw.strip().lower() in self.types

    def map_type(self, raw: str) -> str | None:
        """The rule type for an input type, or None when its concepts are dropped."""
        key = raw.strip().lower()
        if key in self.types:
            return self.types[key]
        return None if self.unmapped == "drop" else key

    def is_coreference(self, relation: str) -> bool:
        return relation.strip().lower() in self.coreference


def read_type_map(path: str | Path) -> TypeMap:
    """Read and check a type map; every problem is reported at once (InputError, RC240-RC242)."""
    path = Path(path)
    file = str(path)
    data = _load_mapping(path)
    problems: list[Diagnostic] = []
    for key in data:
        if key not in KEYS:
            problems.append(diagnostic("RC241", file=file, line=data.line_of(key), key=key, where="the type map",
                                       allowed=", ".join(KEYS)))
    if "version" in data and data["version"] != 1:
        problems.append(diagnostic("RC242", file=file, line=data.line_of("version"), where="version",
                                   detail=f"this rulecoref reads version 1, got {data['version']!r}"))
    types = _read_types(data, file, problems)
    unmapped = data.get("unmapped", "keep")
    if unmapped not in UNMAPPED:
        problems.append(diagnostic("RC242", file=file, line=data.line_of("unmapped"), where="unmapped",
                                   detail=f"{unmapped!r} is not one of {', '.join(UNMAPPED)}"))
        unmapped = "keep"
    coreference = _read_coreference(data, file, problems)
    if problems:
        raise InputError(problems)
    return TypeMap(types, unmapped, coreference, file)


def _load_mapping(path: Path) -> LDict:
    """The file as safe-loaded YAML with line numbers; unreadable YAML (RC240) or anything but a
    mapping at the top (RC242) stops at once, since nothing else in it can be checked."""
    file = str(path)
    try:
        text = read_bytes(path, MAX_TYPE_MAP_BYTES).decode("utf-8-sig")
    except NotRegular as exc:
        raise InputError(diagnostic("RC240", file=file, detail=f"it is {exc.kind}, not a file")) from exc
    except Limit as exc:
        raise InputError(diagnostic("RC249", file=file, detail=str(exc))) from exc
    except UnicodeDecodeError as exc:
        raise InputError(diagnostic("RC240", file=file, detail=f"not UTF-8 text (byte at {exc.start})")) from exc
    except OSError as exc:
        raise InputError(diagnostic("RC240", file=file, detail=exc.strerror or str(exc))) from exc
    try:
        data = load(text)
    except (DuplicateKey, UnsafeTag, BadScalar) as exc:
        raise InputError(diagnostic("RC240", file=file, line=exc.line, detail=str(exc))) from exc
    except (TooManyNodes, TooDeep, RecursiveAlias) as exc:
        raise InputError(diagnostic("RC249", file=file, line=exc.line, detail=str(exc))) from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise InputError(diagnostic("RC240", file=file, line=mark.line + 1 if mark else None,
                                    detail=str(getattr(exc, "problem", None) or exc))) from exc
    if not isinstance(data, LDict):
        raise InputError(diagnostic("RC242", file=file, line=getattr(data, "line", None) or 1, where="the file",
                                    detail="expected a mapping with 'types:'"))
    return data


def _read_types(data: LDict, file: str, problems: list[Diagnostic]) -> dict[str, str | None]:
    """``types:`` as lowercased input type -> rule type (one word, lowercased) or None (dropped).
    Input types match case-insensitively, so two keys that differ only in case are an error."""
    types: dict[str, str | None] = {}
    raw_types = data.get("types", LDict())
    if not isinstance(raw_types, LDict):
        problems.append(diagnostic("RC242", file=file, line=data.line_of("types"), where="types",
                                   detail=f"expected a mapping of input type -> rule type, got {_kind(raw_types)}"))
        raw_types = LDict()
    first: dict[str, str] = {}
    for key, value in raw_types.items():
        line = raw_types.line_of(key)
        low = key.strip().lower()
        if not low:
            problems.append(diagnostic("RC242", file=file, line=line, where="types", detail="an empty input type"))
            continue
        if low in first:
            problems.append(diagnostic("RC242", file=file, line=line, where=f"types.{key}",
                                       detail=f"same type as {first[low]!r} (input types match case-insensitively)"))
            continue
        first[low] = key
        if value is None:
            types[low] = None
        elif isinstance(value, str) and value.strip() and not any(ch.isspace() for ch in value.strip()):
            types[low] = value.strip().lower()
        else:
            problems.append(diagnostic("RC242", file=file, line=line, where=f"types.{key}",
                                       detail=f"expected a rule type (one word) or null, got {value!r}"))
    return types


def _read_coreference(data: LDict, file: str, problems: list[Diagnostic]) -> frozenset[str]:
    """``coreference:`` as lowercased relation types (one name or a list); the defaults when absent or wrong."""
    if "coreference" not in data:
        return DEFAULT_COREFERENCE
    value = data["coreference"]
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        problems.append(diagnostic("RC242", file=file, line=data.line_of("coreference"), where="coreference",
                                   detail=f"expected a list of relation types, got {_kind(value)}"))
        return DEFAULT_COREFERENCE
    return frozenset(v.strip().lower() for v in value)


def _kind(value: object) -> str:
    if isinstance(value, LDict):
        return "a mapping"
    if isinstance(value, LList):
        return "a list"
    return repr(value)
