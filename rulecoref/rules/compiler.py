"""Rule file -> validated, ordered pass configurations (and an optional decoder).

The whole file is checked before anything runs, and every problem is reported at once with the
file, line, pass name and a hint (RC1xx), the way spaCy's schema validation does. A pass entry may
also be ``- include: other.yaml`` to splice another rule file's passes in at that point, so rule
sets can share parts (the people linker is one file used by several sets).

Rule files come from colleagues, so what they may read is confined (docs/security.md): a rule
file, the files it includes and the word lists they name must lie in the top rule file's folder
tree or in the bundled ``resources/`` and ``rules/``; ``allow_paths`` (``--allow-path DIR``) and
``$RULECOREF_ALLOW_PATH`` add folders. Files are read with a size limit and must be UTF-8.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..attributes import SETTINGS
from ..errors import Diagnostic, RuleFileError, diagnostic
from ..markup import MarkupError, parse_markup
from ..passes import REPLACED, PassConfig, TypeScope, get_kind, known_kinds, suggest
from ..resources import data_root
from ..resources.lexicon import WordListError, read_wordlist
from ..rules import schema
from ..rules.schema import Param, check_value, type_name
from .retype import retyped
from .yamlsrc import BadScalar, DuplicateKey, LDict, LList, RecursiveAlias, TooDeep, TooManyNodes, UnsafeTag, load

#: Largest rule file read (the bundled ones are under 8 kB). PyYAML scans a few hundred kB a second,
#: so this bounds the time a file takes to parse, whatever it holds.
MAX_RULE_FILE_BYTES = 256 * 1024
#: Folders (separated by os.pathsep) that rule files may read besides their own tree and the bundled data.
ALLOW_ENV = "RULECOREF_ALLOW_PATH"


@dataclass
class DecoderConfig:
    """``decoder:`` of a rule file: which decoder builds chains, and its settings."""

    kind: str
    params: dict[str, Any]
    rule_file: str = ""
    line: int = 0


@dataclass
class RuleSet:
    """A compiled rule file."""

    path: str
    name: str
    types: tuple[str, ...]
    pronoun_types: frozenset[str]
    passes: list[PassConfig] = field(default_factory=list)
    decoder: DecoderConfig | None = None
    description: str = ""
    #: the ``attributes:`` settings (attributes.SETTINGS), defaults filled in and word lists resolved
    attributes: dict[str, Any] = field(default_factory=dict)


def default_attributes() -> dict[str, Any]:
    """The ``attributes:`` settings of a rule file that gives none (bundled word lists resolved)."""
    chk = _Checker()
    values = _with_defaults(chk, SETTINGS, {})
    if chk.problems:
        raise RuleFileError(chk.problems)
    return values


def _given_fields(chk: _Checker, file: Path, where: str, specs: dict[str, Param], given: Any, line: int) -> dict[str, Any]:
    """The keys a file sets in a settings mapping, checked and resolved, defaults not filled in."""
    if not isinstance(given, dict):
        chk.add("RC104", file, line, where=where, expected="a mapping", got=type_name(given))
        return {}
    if not isinstance(given, LDict):
        given = _subset(LDict(given), dict(given))
    _unknown_keys(chk, file, given, tuple(specs), where)
    out: dict[str, Any] = {}
    for key in specs:
        if key not in given:
            continue
        spec, value, kline = specs[key], given[key], given.line_of(key)
        if spec.fields is not None and isinstance(value, dict):
            out[key] = _given_fields(chk, file, f"{where}.{key}", spec.fields, value, kline)
        else:
            out[key] = _resolve_param(chk, file, f"{where}.{key}", spec, value, kline, None)
    return out


def _merged(layers: list[dict[str, Any]]) -> dict[str, Any]:
    """Settings layered key by key (nested mappings too); later layers win."""
    out: dict[str, Any] = {}
    for layer in layers:
        for key, value in layer.items():
            out[key] = _merged([out[key], value]) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def _with_defaults(chk: _Checker, specs: dict[str, Param], given: dict[str, Any]) -> dict[str, Any]:
    """``given`` with every missing key set to its default (bundled word lists resolved)."""
    out: dict[str, Any] = {}
    for key, spec in specs.items():
        if spec.fields is not None:
            out[key] = _with_defaults(chk, spec.fields, given.get(key) or {})
        elif key in given:
            out[key] = given[key]
        elif spec.kind in ("wordlist", "regexes") and isinstance(spec.default, str):
            out[key] = _resolve_param(chk, bundled_rules(), key, spec, spec.default, 0, None)
        else:
            out[key] = list(spec.default) if isinstance(spec.default, (list, tuple)) else spec.default
    return out


def bundled_rules(name: str = "i2b2") -> Path:
    return data_root() / "rules" / f"{name}.yaml"


def allowed_roots(rule_file: Path, allow_paths: Sequence[str | Path] = ()) -> tuple[Path, ...]:
    """Folders a rule file may read from: its own folder tree, the bundled ``resources/`` and
    ``rules/``, the ``allow_paths`` and those in ``$RULECOREF_ALLOW_PATH`` (all resolved)."""
    extra = [p for p in os.environ.get(ALLOW_ENV, "").split(os.pathsep) if p.strip()]
    roots = [rule_file.resolve().parent, data_root() / "resources", data_root() / "rules",
             *(Path(p).expanduser() for p in (*allow_paths, *extra))]
    return tuple(dict.fromkeys(r.resolve() for r in roots))


def _within(path: Path, roots: Sequence[Path]) -> bool:
    real = path.resolve()  # symbolic links are followed: a link out of the tree is outside it
    return any(real == r or real.is_relative_to(r) for r in roots)


def resolve_resource(value: str, rule_file: Path, roots: Sequence[Path] | None = None,
                     refused: list[Path] | None = None) -> tuple[Path | None, list[str]]:
    """Find a word-list path: beside the rule file, in its parent folder, or in the bundled data.

    With ``roots``, a file outside all of them is passed over (and added to ``refused``).
    """
    p = Path(value).expanduser()
    bases = [Path("/")] if p.is_absolute() else [rule_file.parent, rule_file.parent.parent, data_root()]
    looked = []
    for base in bases:
        cand = base / p
        looked.append(str(cand))
        if cand.is_file():
            if roots is None or _within(cand, roots):
                return cand, looked
            if refused is not None:
                refused.append(cand)
    return None, looked


class _Checker:
    """Collects diagnostics for one rule file (and the files it includes)."""

    def __init__(self, roots: Sequence[Path] | None = None) -> None:
        self.problems: list[Diagnostic] = []
        # folders rule files may read (allowed_roots); by default the bundled data only
        self.roots = tuple(roots) if roots is not None else allowed_roots(bundled_rules())
        self._texts: dict[Path, str | WordListError] = {}  # word lists named by several passes are read once
        self._found: dict[tuple[str, Path], tuple[Path | None, list[str], list[Path]]] = {}

    def add(self, code: str, file: Path, line: int, pass_name: str | None = None, **fields: Any) -> None:
        d = diagnostic(code, file=str(file), line=line, **fields)
        if pass_name:
            d = Diagnostic(d.code, f"pass {pass_name!r}: {d.message}", d.file, d.line, d.hint, d.severity)
        self.problems.append(d)

    def find(self, value: str, file: Path, line: int, pass_name: str | None, missing: str) -> Path | None:
        """A file a rule file names, inside the allowed folders; else RC120 (outside) or ``missing``."""
        found = self._found.get((value, file))
        if found is None:
            refused: list[Path] = []
            path, looked = resolve_resource(value, file, self.roots, refused)
            found = self._found[(value, file)] = (path, looked, refused)
        path, looked, refused = found
        if path is None and refused:
            self.add("RC120", file, line, pass_name, path=value, real=str(refused[0].resolve()),
                     allowed=", ".join(map(str, self.roots)))
        elif path is None and missing == "RC105":
            self.add("RC105", file, line, pass_name, path=value, looked=", ".join(looked))
        elif path is None:
            self.add(missing, file, line, pass_name, path=value, detail="not found in " + ", ".join(looked))
        return path

    def word_list(self, value: str, file: Path, line: int, pass_name: str | None) -> tuple[Path, str] | None:
        """Find a word list and read it as ``Lexicon`` will (RC121 not text, RC122 too large)."""
        path = self.find(value, file, line, pass_name, "RC105")
        if path is None:
            return None
        text = self._texts.get(path)
        if text is None:
            try:
                text = read_wordlist(path)
            except WordListError as exc:
                text = exc
            self._texts[path] = text
        if isinstance(text, WordListError):
            exc = text
            code = "RC122" if exc.kind == "size" else "RC121"
            self.problems.append(diagnostic(code, file=str(path), line=exc.line, path=str(path), detail=exc.detail,
                                            rule=f"{file}:{line}" + (f" (pass {pass_name!r})" if pass_name else "")))
            return None
        return path, text


def _unknown_keys(chk: _Checker, file: Path, mapping: LDict, allowed: tuple[str, ...], where: str, pass_name: str | None = None) -> None:
    for key in mapping:
        if key not in allowed:
            close = suggest(key, allowed)
            hint = f"did you mean {close!r}?" if close else None
            d = diagnostic("RC103", file=str(file), line=mapping.line_of(key), key=key, where=where, allowed=", ".join(allowed), hint=hint)
            if pass_name:
                d = Diagnostic(d.code, f"pass {pass_name!r}: {d.message}", d.file, d.line, d.hint or schema_hint(), d.severity)
            chk.problems.append(d)


def schema_hint() -> str:
    return "every key a kind accepts is listed in docs/rules.md."


def _check_types(chk: _Checker, file: Path, value: Any, line: int, where: str, known: tuple[str, ...], pass_name: str | None = None) -> list[str] | None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        chk.add("RC104", file, line, pass_name, where=where, expected="a list of concept types", got=type_name(value))
        return None
    out = []
    for v in value:
        if v.lower() not in known:
            close = suggest(v.lower(), known)
            chk.problems.append(diagnostic("RC108", file=str(file), line=line, type=v, where=where, known=", ".join(known),
                                           hint=(f"did you mean {close!r}? " if close else "") + "declare it under 'types:'."))
        else:
            out.append(v.lower())
    return out


def _resolve_param(chk: _Checker, file: Path, name: str, spec: Param, value: Any, line: int, pass_name: str | None) -> Any:
    problem = check_value(spec, value)
    if problem == "type":
        chk.add("RC104", file, line, pass_name, where=name, expected=spec.describe(), got=type_name(value))
        return None
    if problem == "choice":
        chk.add("RC109", file, line, pass_name, where=name, value=value, allowed=", ".join(spec.allowed))
        return None
    if problem == "finite":
        chk.add("RC123", file, line, pass_name, where=name, value=repr(value))
        return None
    if problem:
        chk.add("RC104", file, line, pass_name, where=name, expected=f"a value that {problem}", got=repr(value))
        return None
    if spec.kind == "mapping":
        return _resolve_mapping(chk, file, name, spec, value, line, pass_name)
    if spec.kind == "attributes":
        return _resolve_attributes(chk, file, name, value, line, pass_name)
    if spec.kind == "predicates":
        return _resolve_predicates(chk, file, name, value, line, pass_name)
    if spec.kind in ("wordlist", "regexes") and isinstance(value, str):
        found = chk.word_list(value, file, line, pass_name)
        if found is None:
            return None
        path, text = found
        if spec.kind == "wordlist":
            return path  # loaded through Resources so lists are shared between passes
        value = [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
        value = [v for v in value if v]
    if spec.kind == "regexes":
        compiled = []
        for rx in value:
            try:
                compiled.append(re.compile(rx, re.IGNORECASE))
            except re.error as exc:
                chk.add("RC104", file, line, pass_name, where=name, expected="valid regular expressions", got=f"{rx!r} ({exc})")
        return compiled
    if spec.kind == "wordlist":
        return list(value)
    return value


def _resolve_fields(chk: _Checker, file: Path, where: str, specs: dict[str, Param], given: Any, line: int,
                    pass_name: str | None) -> dict[str, Any]:
    """Every key of ``specs`` from the mapping ``given`` (checked) or its default (resolved too)."""
    if not isinstance(given, LDict):
        tmp = LDict(given or {})
        tmp.line, tmp.key_lines = line, {}
        given = tmp
    _unknown_keys(chk, file, given, tuple(specs), where, pass_name)
    out: dict[str, Any] = {}
    for key, spec in specs.items():
        label = f"{where}.{key}"
        if key in given:
            out[key] = _resolve_param(chk, file, label, spec, given[key], given.line_of(key), pass_name)
        elif spec.required:
            chk.add("RC106", file, given.line or line, pass_name, key=key, where=where)
        elif spec.kind in ("wordlist", "regexes") and isinstance(spec.default, str) or spec.fields:
            out[key] = _resolve_param(chk, file, label, spec, spec.default if not spec.fields else {},
                                      given.line or line, pass_name)
        else:
            out[key] = list(spec.default) if isinstance(spec.default, (list, tuple)) else spec.default
    return out


def _resolve_mapping(chk: _Checker, file: Path, name: str, spec: Param, value: Any, line: int,
                     pass_name: str | None) -> Any:
    if spec.check is not None:
        for problem in spec.check(value):
            chk.problems.append(diagnostic("RC310", file=str(file), line=line,
                                           detail=(f"pass {pass_name!r}: " if pass_name else "") + f"{name}: {problem}"))
    if spec.fields is None:
        return value
    return _resolve_fields(chk, file, name, spec.fields, value, line, pass_name)


def _resolve_attributes(chk: _Checker, file: Path, name: str, value: Any, line: int, pass_name: str | None) -> list[str]:
    from ..attributes import ATTRIBUTES

    names = [value] if isinstance(value, str) else list(value)
    for a in names:
        if a not in ATTRIBUTES:
            close = suggest(a, ATTRIBUTES)
            chk.add("RC130", file, line, pass_name, name=a, where=name, hint=(f"did you mean {close!r}? " if close else "")
                    + "the attributes are listed in docs/rules.md, 'Mention attributes'.")
    return names


def _resolve_predicates(chk: _Checker, file: Path, name: str, value: list[Any], line: int,
                        pass_name: str | None) -> list[tuple[str, dict[str, Any]]]:
    from ..predicates import PREDICATES

    out: list[tuple[str, dict[str, Any]]] = []
    items = value.item_lines if isinstance(value, LList) else [line] * len(value)
    for item, iline in zip(value, items):
        pname, given = (item, {}) if isinstance(item, str) else next(iter(item.items()))
        spec = PREDICATES.get(pname)
        if spec is None:
            close = suggest(pname, PREDICATES)
            chk.add("RC131", file, iline, pass_name, name=pname, where=name, known=", ".join(sorted(PREDICATES)),
                    hint=f"did you mean {close!r}?" if close else None)
            continue
        if given is None:
            given = {}
        if not isinstance(given, dict):
            chk.add("RC104", file, iline, pass_name, where=f"{name}.{pname}", expected="a mapping of its settings",
                    got=type_name(given))
            continue
        out.append((pname, _resolve_fields(chk, file, f"{name}.{pname}", spec.params, given, iline, pass_name)))
    return out


def _check_kind(chk: _Checker, file: Path, entry: LDict, label: str | None) -> type | None:
    kind = entry.get("kind")
    if kind is None:
        chk.add("RC106", file, entry.line, label, key="kind", where="a pass")
        return None
    if not isinstance(kind, str):
        chk.add("RC104", file, entry.line_of("kind"), label, where="kind", expected="a string", got=type_name(kind))
        return None
    cls = get_kind(kind)
    if cls is None:
        if kind in REPLACED:
            hint = f"since rule files became data this is a {REPLACED[kind]}; see docs/rules.md, 'Former kinds'."
        else:
            close = suggest(kind, known_kinds())
            hint = (f"did you mean {close!r}? " if close else "") + "kinds are snake_case, like the module name in rulecoref/passes/."
        chk.problems.append(diagnostic("RC102", file=str(file), line=entry.line_of("kind"), kind=kind,
                                       known=", ".join(known_kinds()), hint=hint))
    return cls


def _check_scope(chk: _Checker, file: Path, entry: LDict, name: str, known_types: tuple[str, ...],
                 pronoun_types: frozenset[str]) -> TypeScope:
    types_: frozenset[str] | None = None
    exclude: frozenset[str] = frozenset()
    same_type = True
    applies = entry.get("applies_to")
    if applies is None:
        return TypeScope(pronoun_types=pronoun_types)
    if not isinstance(applies, LDict):
        chk.add("RC104", file, entry.line_of("applies_to"), name, where="applies_to", expected="a mapping", got=type_name(applies))
        return TypeScope(pronoun_types=pronoun_types)
    _unknown_keys(chk, file, applies, schema.APPLIES_TO_KEYS, "applies_to", name)
    if "types" in applies:
        got = _check_types(chk, file, applies["types"], applies.line_of("types"), "applies_to.types", known_types, name)
        types_ = frozenset(got) if got is not None else None
    if "exclude_types" in applies:
        got = _check_types(chk, file, applies["exclude_types"], applies.line_of("exclude_types"), "applies_to.exclude_types", known_types, name)
        exclude = frozenset(got or ())
    if "same_type" in applies:
        if isinstance(applies["same_type"], bool):
            same_type = applies["same_type"]
        else:
            chk.add("RC104", file, applies.line_of("same_type"), name, where="applies_to.same_type", expected="true or false", got=type_name(applies["same_type"]))
    return TypeScope(types=types_, exclude=exclude, same_type=same_type, pronoun_types=pronoun_types)


def _check_examples(chk: _Checker, file: Path, entry: LDict, name: str, known_types: tuple[str, ...]) -> dict[str, list[str]]:
    examples: dict[str, list[str]] = {}
    ex = entry.get("examples")
    if ex is None:
        return examples
    if not isinstance(ex, LDict):
        chk.add("RC104", file, entry.line_of("examples"), name, where="examples", expected="a mapping with link/no_link lists", got=type_name(ex))
        return examples
    _unknown_keys(chk, file, ex, schema.EXAMPLE_KEYS, "examples", name)
    for key in schema.EXAMPLE_KEYS:
        items = ex.get(key, [])
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            chk.add("RC104", file, ex.line_of(key), name, where=f"examples.{key}", expected="a list of strings", got=type_name(items))
            continue
        for i, item in enumerate(items):
            iline = items.item_lines[i] if isinstance(items, LList) else ex.line_of(key)
            try:
                doc, _ = parse_markup(item)
            except MarkupError as exc:
                chk.add("RC111", file, iline, name, example=item, detail=str(exc))
                continue
            if len(doc.concepts) < 2:
                chk.add("RC111", file, iline, name, example=item, detail="an example needs at least two [text|type] concepts")
            for c in doc.concepts:
                if c.type not in known_types:
                    chk.add("RC108", file, iline, name, type=c.type, where="an example", known=", ".join(known_types))
        examples[key] = list(items)
    return examples


def _subset(entry: LDict, keys: dict[str, Any]) -> LDict:
    """The entries of ``keys`` in ``entry``, keeping their lines for messages."""
    out = LDict({k: entry[k] for k in keys if k in entry})
    out.line, out.key_lines = entry.line, {k: entry.line_of(k) for k in out}
    return out


def _check_pass(chk: _Checker, file: Path, entry: LDict, known_types: tuple[str, ...], pronoun_types: frozenset[str],
                names: dict[str, int], enable: frozenset[str] = frozenset()) -> PassConfig | None:
    kind, name = entry.get("kind"), entry.get("name")
    label = name if isinstance(name, str) else (kind if isinstance(kind, str) else None)
    cls = _check_kind(chk, file, entry, label)
    _unknown_keys(chk, file, entry, schema.PASS_KEYS + tuple(cls.rule_keys if cls else ()), "a pass", label)
    if cls is None:
        return None
    if name is None:
        name = kind.replace("_", "-")
    if not isinstance(name, str):
        chk.add("RC104", file, entry.line_of("name"), kind, where="name", expected="a string", got=type_name(name))
        name = kind
    if name in names:
        chk.add("RC107", file, entry.line_of("name"), None, name=name, first=names[name])
    names.setdefault(name, entry.line_of("name"))
    scope = _check_scope(chk, file, entry, name, known_types, pronoun_types)
    params_in = entry.get("params")
    if params_in is not None and not isinstance(params_in, dict):
        chk.add("RC104", file, entry.line_of("params"), name, where="params", expected="a mapping", got=type_name(params_in))
        params_in = None
    params = _resolve_fields(chk, file, f"params of kind {kind!r}", cls.params, params_in, entry.line_of("params"), name)
    rule = _resolve_fields(chk, file, f"a {kind!r} pass", cls.rule_keys, _subset(entry, cls.rule_keys),
                           entry.line, name) if cls.rule_keys else {}
    examples = _check_examples(chk, file, entry, name, known_types)
    enabled = entry.get("enabled", True)
    if not isinstance(enabled, bool):
        chk.add("RC104", file, entry.line_of("enabled"), name, where="enabled", expected="true or false", got=type_name(enabled))
        enabled = True
    if not enabled and name not in enable:  # an include's `enable:` switches a shipped-off pass on
        return None
    return PassConfig(kind=kind, name=name, params=params, scope=scope, rule_file=str(file), line=entry.line,
                      examples=examples, description=str(entry.get("description", "")), rule=rule)


def _read_yaml(chk: _Checker, path: Path) -> Any:
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_RULE_FILE_BYTES + 1)
    except OSError as exc:
        chk.problems.append(diagnostic("RC113", file=str(path), path=str(path), hint=str(exc.strerror or exc)))
        return None
    if len(raw) > MAX_RULE_FILE_BYTES:
        chk.add("RC115", path, 0, limit=MAX_RULE_FILE_BYTES)
        return None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        chk.add("RC119", path, raw.count(b"\n", 0, exc.start) + 1, detail=f"byte {raw[exc.start]:#04x}")
        return None
    try:
        return load(text)
    except (DuplicateKey, UnsafeTag, BadScalar) as exc:
        chk.add("RC101", path, exc.line, detail=str(exc))
    except TooManyNodes as exc:
        chk.add("RC116", path, exc.line, limit=exc.limit)
    except TooDeep as exc:
        chk.add("RC117", path, exc.line, limit=exc.limit)
    except RecursiveAlias as exc:
        chk.add("RC118", path, exc.line, name=exc.name)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        detail = getattr(exc, "problem", None) or str(exc)
        chk.add("RC101", path, (mark.line + 1) if mark else 0, detail=detail)
    return None


@dataclass
class _Collect:
    """What every file of one rule set is checked against while its includes are spliced in."""

    chk: _Checker
    known_types: tuple[str, ...]
    pronoun_types: frozenset[str]
    names: dict[str, int] = field(default_factory=dict)
    attrs: list[dict[str, Any]] = field(default_factory=list)  # the included files' ``attributes:``, in order


def _collect_passes(c: _Collect, path: Path, data: LDict, stack: tuple[Path, ...], enable: frozenset[str] = frozenset(),
                    types: dict[str, str] | None = None) -> list[PassConfig]:
    """The passes of a rule file, includes spliced in; ``types`` renames an included file's concept
    types as the including file names them."""
    chk, out = c.chk, []
    passes = data.get("passes", LList())
    if passes is None:
        return out
    if not isinstance(passes, LList):
        chk.add("RC104", path, data.line_of("passes"), where="passes", expected="a list of passes", got=type_name(passes))
        return out
    for i, entry in enumerate(passes):
        line = passes.item_lines[i]
        if not isinstance(entry, LDict):
            chk.add("RC104", path, line, where=f"passes[{i}]", expected="a mapping with 'kind:'", got=type_name(entry))
        elif "include" in entry:
            out.extend(_include(c, path, entry, line, stack, enable, types or {}))
        else:
            cfg = _check_pass(chk, path, retyped(entry, types) if types else entry, c.known_types, c.pronoun_types,
                              c.names, enable)
            if cfg is not None:
                out.append(cfg)
    return out


def _include(c: _Collect, path: Path, entry: LDict, line: int, stack: tuple[Path, ...], enable: frozenset[str],
             outer: dict[str, str]) -> list[PassConfig]:
    """The passes of an ``- include: other.yaml`` entry (with its ``enable:`` and ``types:``)."""
    chk = c.chk
    extra = [k for k in entry if k not in ("include", "enable", "types")]
    if extra:
        chk.add("RC103", path, entry.line_of(extra[0]), key=extra[0], where="an include entry", allowed="include, enable, types")
    # `enable: [name, ...]` turns on passes the included file ships with `enabled: false`
    # (rules/i2b2-umls.yaml: i2b2.yaml with its UMLS pass on, in its place in the order).
    wanted = entry.get("enable", [])
    if not isinstance(wanted, list) or not all(isinstance(n, str) for n in wanted):
        chk.add("RC104", path, entry.line_of("enable"), where="enable", expected="a list of pass names", got=type_name(wanted))
        wanted = []
    # `types: {person: people}`: the included file's scopes and examples name `person`, this file's
    # mentions are `people` (rules/odie.yaml runs the people linker so)
    renamed = entry.get("types", {})
    if not isinstance(renamed, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in renamed.items()):
        chk.add("RC104", path, entry.line_of("types"), where="types of an include", expected="a mapping of type names",
                got=type_name(renamed))
        renamed = {}
    types = {**outer, **{k.lower(): outer.get(v.lower(), v.lower()) for k, v in renamed.items()}}
    target = chk.find(str(entry["include"]), path, line, None, "RC110")
    if target is None:
        return []
    target = target.resolve()
    if target in stack:
        chk.add("RC110", path, line, path=entry["include"], detail="it includes itself (cycle)")
        return []
    sub = _read_yaml(chk, target)
    if sub is None:
        return []
    if not isinstance(sub, LDict):
        chk.add("RC104", target, 1, where="the included file", expected="a mapping with 'passes:'", got=type_name(sub))
        return []
    # A full rule file may be included (rules/hybrid.yaml includes i2b2.yaml): its name, types and
    # pronoun_types are ignored, the including file's declarations govern; a decoder is not allowed.
    _unknown_keys(chk, target, sub, ("version", "name", "description", "types", "pronoun_types", "attributes",
                                     "passes"), "an included rule file")
    before = set(c.names)
    out = _collect_passes(c, target, sub, stack + (target,), enable | frozenset(wanted), types)
    if sub.get("attributes") is not None:
        c.attrs.append(_given_fields(chk, target, "attributes", SETTINGS, sub["attributes"], sub.line_of("attributes")))
    included = sorted(set(c.names) - before)
    for n in wanted:
        if n not in included:
            chk.add("RC109", path, entry.line_of("enable"), where=f"enable of {entry['include']}", value=n,
                    allowed=", ".join(included) or "(no passes)")
    return out


def compile_rules(path: str | Path, *, decoder_overrides: dict[str, Any] | None = None,
                  allow_paths: Sequence[str | Path] = ()) -> RuleSet:
    """Validate a rule file completely and return its passes in order; raise RuleFileError listing every problem.

    ``allow_paths``: folders outside the rule file's tree that it may include or read word lists from.
    """
    path = Path(path)
    chk = _Checker(allowed_roots(path, allow_paths))
    if not path.is_file():
        raise RuleFileError(diagnostic("RC113", file=str(path), path=str(path), hint="the bundled rule sets are in rules/ (i2b2.yaml, odie.yaml, ...)."))
    data = _read_yaml(chk, path.resolve())
    if chk.problems:
        raise RuleFileError(chk.problems)
    if not isinstance(data, LDict):
        raise RuleFileError(diagnostic("RC104", file=str(path), line=1, where="the rule file", expected="a mapping with 'passes:'", got=type_name(data)))
    _unknown_keys(chk, path, data, schema.TOP_KEYS, "the rule file")
    version = data.get("version", 1)
    if version != 1:
        chk.add("RC109", path, data.line_of("version"), where="version", value=version, allowed="1")
    types: tuple[str, ...] = schema.DEFAULT_TYPES
    if "types" in data:
        tv = data["types"]
        if isinstance(tv, list) and tv and all(isinstance(t, str) for t in tv):
            types = tuple(t.lower() for t in tv)
        else:
            chk.add("RC104", path, data.line_of("types"), where="types", expected="a non-empty list of concept types", got=type_name(tv))
    pronoun_types = frozenset(t for t in ("pronoun",) if t in types)
    if "pronoun_types" in data:
        got = _check_types(chk, path, data["pronoun_types"], data.line_of("pronoun_types"), "pronoun_types", types)
        pronoun_types = frozenset(got or ())
    collect = _Collect(chk, types, pronoun_types)
    passes = _collect_passes(collect, path.resolve(), data, (path.resolve(),))
    given = collect.attrs
    if data.get("attributes") is not None:  # the including file's settings win over its includes'
        given.append(_given_fields(chk, path.resolve(), "attributes", SETTINGS, data["attributes"], data.line_of("attributes")))
    attributes = _with_defaults(chk, SETTINGS, _merged(given))
    _check_order(chk, passes)
    decoder = None
    if "decoder" in data and data["decoder"] is not None:
        decoder = _check_decoder(chk, path, data["decoder"], data.line_of("decoder"), decoder_overrides or {})
    elif decoder_overrides:
        chk.add("RC132", path, 0, path=str(path))
    if chk.problems:
        raise RuleFileError(chk.problems)
    return RuleSet(
        path=str(path),
        name=str(data.get("name", path.stem)),
        types=types,
        pronoun_types=pronoun_types,
        passes=passes,
        decoder=decoder,
        description=str(data.get("description", "")),
        attributes=attributes,
    )


def _check_order(chk: _Checker, passes: list[PassConfig]) -> None:
    """A pass reading what another kind leaves (``requires``) comes after one; ``made_by`` names earlier passes (RC580)."""
    seen: set[str] = set()
    names: list[str] = []
    for cfg in passes:
        cls = get_kind(cfg.kind)
        missing = [k for k in (cls.requires if cls else ()) if k not in seen]
        if missing:
            chk.add("RC133", Path(cfg.rule_file), cfg.line, cfg.name, kind=cfg.kind, needs=", ".join(missing))
        for made_by in (n for n in cfg.rule.get("made_by") or () if n not in names):
            close = f"did you mean {suggest(made_by, names)!r}? " if suggest(made_by, names) else ""
            chk.add("RC580", Path(cfg.rule_file), cfg.line, cfg.name, name=made_by, hint=f"{close}passes before it: {', '.join(names)}")
        seen.add(cfg.kind)
        names.append(cfg.name)


def _check_decoder(chk: _Checker, path: Path, value: Any, line: int, overrides: dict[str, Any]) -> DecoderConfig | None:
    from ..decoders import get_decoder, known_decoders

    if not isinstance(value, LDict):
        chk.add("RC104", path, line, where="decoder", expected="a mapping with 'kind:'", got=type_name(value))
        return None
    kind = value.get("kind")
    cls = get_decoder(kind) if isinstance(kind, str) else None
    if cls is None:
        close = suggest(str(kind), known_decoders())
        chk.problems.append(diagnostic("RC112", file=str(path), line=value.line_of("kind"), kind=kind, known=", ".join(known_decoders()),
                                       hint=f"did you mean {close!r}?" if close else None))
        return None
    params_in = {k: v for k, v in value.items() if k != "kind"}
    params_in.update(overrides)
    allowed = tuple(cls.params)
    params: dict[str, Any] = {}
    for key in params_in:
        if key not in allowed:
            close = suggest(key, allowed)
            chk.problems.append(diagnostic("RC103", file=str(path), line=value.line_of(key), key=key, where=f"decoder {kind!r}",
                                           allowed=", ".join(("kind",) + allowed), hint=f"did you mean {close!r}?" if close else None))
    for pname, spec in cls.params.items():
        if pname in params_in:
            v = params_in[pname]
            if spec.kind == "str" and pname in getattr(cls, "path_params", ()) and isinstance(v, str) and pname not in overrides:
                p = Path(v)
                if not p.is_absolute():
                    cand = path.parent / p
                    v = str(cand if cand.exists() or not (path.parent.parent / p).exists() else path.parent.parent / p)
            # checked as a pass parameter is (a range or NaN reported as such); an override from the
            # command line is reported on the decoder's line
            params[pname] = _resolve_param(chk, path, f"decoder.{pname}", spec, v, value.line_of(pname), None)
        elif spec.required:
            chk.add("RC106", path, value.line, key=pname, where=f"decoder {kind!r}")
        else:
            params[pname] = spec.default
    return DecoderConfig(kind=kind, params=params, rule_file=str(path), line=value.line)
