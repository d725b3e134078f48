"""Rule file -> validated, ordered pass configurations (and an optional decoder).

The whole file is checked before anything runs, and every problem is reported at once with the
file, line, pass name and a hint (RC1xx), the way spaCy's schema validation does. A pass entry may
also be ``- include: other.yaml`` to splice another rule file's passes in at that point, so rule
sets can share parts (the people linker is one file used by several sets).

Every setting a file gives (pass params, a kind's rule keys, predicate settings, ``attributes:``
blocks, decoder params) is a ``Param`` tree checked by one validator, ``_Settings``, which reports
through a ``Reporter``: the file (and pass) that the problems are in.

What a rule file may read, and how it is read, is ``rules/files.py`` (docs/security.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..attributes import SETTINGS
from ..candidates import TypeScope
from ..errors import Diagnostic, RuleFileError, diagnostic
from ..finder import SETTINGS as MENTION_SETTINGS
from ..markup import MarkupError, parse_markup
from ..params import Param, check_value, type_name
from ..passes import KINDS, REPLACED, PassConfig, get_kind
from ..registry import suggest
from ..resources import named_file
from ..resources.lexicon import WordListError, check_phrases
from ..yaml_source import LDict, LList
from . import schema
from .files import RuleFiles, allowed_roots, bundled_rules, missing_rule_file, read_rule_yaml, rule_set_inputs
from .regex import regexes
from .retype import retyped


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
    #: every pass in order, the ones switched off (``enabled: false``) too: ``explain`` lists them
    every_pass: tuple[PassConfig, ...] = ()
    decoder: DecoderConfig | None = None
    description: str = ""
    #: the ``attributes:`` settings (attributes.SETTINGS), defaults filled in and word lists resolved
    attributes: dict[str, Any] = field(default_factory=dict)
    #: the ``mentions:`` settings (finder.SETTINGS): which mentions the finder adds, and when
    mentions: dict[str, Any] = field(default_factory=dict)
    #: every file the rule set reads (itself, includes, word lists, the model, a UMLS SQLite file),
    #: resolved: inputs that ``induce`` and ``ablate --search`` never overwrite (RC522)
    inputs: tuple[Path, ...] = ()


def default_attributes(specs: dict[str, Param] = SETTINGS) -> dict[str, Any]:
    """The ``attributes:`` (or another settings block's) settings of a rule file that gives none
    (bundled word lists resolved)."""
    chk = _Checker()
    values = _Settings(chk.reporter(bundled_rules())).complete(specs, {})
    if chk.problems:
        raise RuleFileError(_unique(chk.problems))
    return values


def default_mentions() -> dict[str, Any]:
    """The ``mentions:`` settings of a rule file that gives none."""
    return default_attributes(MENTION_SETTINGS)


def _unique(problems: list[Diagnostic]) -> list[Diagnostic]:
    """Each problem once: a file reached by two include paths is checked twice, and its problems
    (the same code, file, line and message) were printed twice."""
    return list(dict.fromkeys(problems))


def _merged(layers: list[dict[str, Any]]) -> dict[str, Any]:
    """Settings layered key by key (nested mappings too); later layers win."""
    out: dict[str, Any] = {}
    for layer in layers:
        for key, value in layer.items():
            out[key] = _merged([out[key], value]) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


class _Checker:
    """Collects diagnostics for one rule file (and the files it includes)."""

    def __init__(self, roots: Sequence[Path] | None = None) -> None:
        self.problems: list[Diagnostic] = []
        self.files = RuleFiles(roots)

    def reporter(self, file: Path) -> Reporter:
        return Reporter(self, file)


@dataclass(frozen=True)
class Reporter:
    """Where the problems met in one rule file go: each names the file, and within a pass its
    message starts with the pass's name."""

    chk: _Checker
    file: Path
    pass_name: str | None = None

    def for_pass(self, name: str | None) -> Reporter:
        return replace(self, pass_name=name)

    def add(self, code: str, line: int, **fields: Any) -> None:
        self.report(diagnostic(code, file=str(self.file), line=line, **fields))

    def report(self, d: Diagnostic) -> None:
        """A problem made elsewhere (a registry's ``miss``), the pass's name put in front."""
        if self.pass_name:
            d = Diagnostic(d.code, f"pass {self.pass_name!r}: {d.message}", d.file, d.line, d.hint, d.severity)
        self.chk.problems.append(d)

    def unknown_keys(self, mapping: LDict, allowed: Sequence[str], where: str) -> None:
        for key in mapping:
            if key not in allowed:
                close = suggest(key, allowed)
                hint = f"did you mean {close!r}?" if close else None
                if not allowed:  # "allowed: none" alone reads as a riddle
                    hint = f"nothing goes under {where}; docs/rules.md lists each kind's settings."
                self.add("RC103", mapping.line_of(key), key=key, where=where, allowed=", ".join(allowed), hint=hint)

    def find(self, value: str, line: int, missing: str) -> Path | None:
        """A file the rule file names, inside the allowed folders; else RC120 (outside) or ``missing``."""
        path, looked, refused = self.chk.files.locate(value, self.file)
        if path is None and refused:
            self.add("RC120", line, path=value, real=str(refused[0].resolve()), allowed=", ".join(map(str, self.chk.files.roots)))
        elif path is None and missing == "RC105":
            self.add("RC105", line, path=value, looked=", ".join(looked))
        elif path is None:
            self.add(missing, line, path=value, detail="not found in " + ", ".join(looked))
        return path

    def word_list(self, value: str, line: int, phrases: bool = False) -> tuple[Path, str] | None:
        """Find a word list and read it as ``Lexicon`` will (RC121 not text, RC122 too large;
        ``phrases``: RC125 for an entry of too many words)."""
        path = self.find(value, line, "RC105")
        if path is None:
            return None
        text = self.chk.files.text(path)
        if phrases and not isinstance(text, WordListError):
            try:
                check_phrases(text.split("\n"))
            except WordListError as exc:
                text = exc
        if isinstance(text, WordListError) and text.kind == "total-again":
            return None  # the one RC126 names the list that passed the total
        if isinstance(text, WordListError):
            code = {"size": "RC122", "phrase": "RC125", "total": "RC126"}.get(text.kind, "RC121")
            self.chk.problems.append(diagnostic(code, file=str(path), line=text.line, path=str(path), detail=text.detail,
                                                rule=f"{self.file}:{line}" + (f" (pass {self.pass_name!r})" if self.pass_name else "")))
            return None
        return path, text


def _ldict(given: Any, line: int) -> LDict:
    """``given`` as an LDict that knows its lines (a default or an override knows none: ``line``)."""
    if isinstance(given, LDict):
        return given
    out = LDict(given or {})
    out.line, out.key_lines = line, {}
    return out


@dataclass(frozen=True)
class _Settings:
    """The one settings validator: a tree of ``Param`` specs against what a file gives (pass
    params, rule keys, predicate settings, ``attributes:`` blocks, decoder params).

    ``fill``: give every missing key its default (resolved, word lists found). An ``attributes:``
    block is checked without (files are layered first, ``complete`` fills the result).
    """

    rep: Reporter
    fill: bool = True

    def fields(self, where: str, specs: dict[str, Param], given: Any, line: int, *,
               label: str | None = None, also: tuple[str, ...] = ()) -> dict[str, Any]:
        """Every key of ``specs`` from the mapping ``given``, checked (RC103 for others but
        ``also``, RC106 for a missing required one); ``label`` prefixes each key's name in messages."""
        given = _ldict(given, line)
        self.rep.unknown_keys(given, also + tuple(specs), where)
        out: dict[str, Any] = {}
        for key, spec in specs.items():
            name = f"{label or where}.{key}"
            if key in given:
                out[key] = self.value(name, spec, given[key], given.line_of(key))
            elif not self.fill:
                continue
            elif spec.required:
                self.rep.add("RC106", given.line or line, key=key, where=where)
            else:
                out[key] = self.default(name, spec, given.line or line)
        return out

    def default(self, name: str, spec: Param, line: int) -> Any:
        """A missing key's value: its default, word lists found and nested mappings filled in."""
        if spec.fields or spec.kind in ("wordlist", "regexes") and isinstance(spec.default, str):
            return self.value(name, spec, spec.default if not spec.fields else {}, line)
        return list(spec.default) if isinstance(spec.default, (list, tuple)) else spec.default

    def complete(self, specs: dict[str, Param], given: dict[str, Any]) -> dict[str, Any]:
        """Checked settings (``fill=False`` layers, merged) with every missing key's default."""
        return {key: self.complete(spec.fields, given.get(key) or {}) if spec.fields is not None
                else given[key] if key in given else self.default(key, spec, 0)
                for key, spec in specs.items()}

    def value(self, name: str, spec: Param, value: Any, line: int) -> Any:
        rep = self.rep
        problem = check_value(spec, value)
        if problem == "type":
            rep.add("RC104", line, where=name, expected=spec.describe(), got=type_name(value))
        elif problem == "choice":
            rep.add("RC109", line, where=name, value=value, allowed=", ".join(spec.allowed))
        elif problem == "finite":
            rep.add("RC123", line, where=name, value=repr(value))
        elif problem:
            rep.add("RC104", line, where=name, expected=f"a value that {problem}", got=repr(value))
        elif spec.kind == "mapping":
            for found in spec.check(value) if spec.check is not None else ():
                rep.add("RC135", line, where=name, detail=found)
            return value if spec.fields is None else self.fields(name, spec.fields, value, line)
        elif spec.kind == "attributes":
            return self.attributes(name, value, line)
        elif spec.kind == "predicates":
            return self.predicates(name, value, line)
        elif spec.kind in ("wordlist", "regexes"):
            return self.words(name, spec, value, line)
        else:
            return value
        return None

    def words(self, name: str, spec: Param, value: str | list[str], line: int) -> Any:
        """A word list (its path, loaded through Resources so that passes share it) or regular
        expressions (a file of them read here), compiled."""
        if isinstance(value, str):
            found = self.rep.word_list(value, line, phrases=spec.kind == "wordlist")
            if found is None:
                return None
            path, text = found
            if spec.kind == "wordlist":
                return path
            return regexes(self.rep, name, text, path)
        if spec.kind == "wordlist":
            try:
                check_phrases(value)
            except WordListError as exc:
                self.rep.add("RC125", line, path=name, detail=f"entry {exc.line}: {exc.detail}", rule=f"{self.rep.file}:{line}")
            return list(value)
        return regexes(self.rep, name, value, line)

    def attributes(self, name: str, value: str | list[str], line: int) -> list[str]:
        from ..attributes import ATTRIBUTES

        names = [value] if isinstance(value, str) else list(value)
        for a in names:
            if a not in ATTRIBUTES:
                self.rep.report(ATTRIBUTES.miss(a, file=str(self.rep.file), line=line, where=name))
        return names

    def predicates(self, name: str, value: list[Any], line: int) -> list[tuple[str, dict[str, Any]]]:
        from ..predicates import PREDICATES

        out: list[tuple[str, dict[str, Any]]] = []
        items = value.item_lines if isinstance(value, LList) else [line] * len(value)
        for item, iline in zip(value, items):
            pname, given = (item, {}) if isinstance(item, str) else next(iter(item.items()))
            spec = PREDICATES.get(pname)
            if spec is None:
                self.rep.report(PREDICATES.miss(pname, file=str(self.rep.file), line=iline, where=name))
            elif given is not None and not isinstance(given, dict):
                self.rep.add("RC104", iline, where=f"{name}.{pname}", expected="a mapping of its settings",
                             got=type_name(given))
            else:
                out.append((pname, self.fields(f"{name}.{pname}", spec.params, given, iline)))
        return out


def _check_types(rep: Reporter, value: Any, line: int, where: str, known: tuple[str, ...]) -> list[str] | None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        rep.add("RC104", line, where=where, expected="a list of concept types", got=type_name(value))
        return None
    out = []
    for v in value:
        if v.lower() not in known:
            close = suggest(v.lower(), known)
            rep.chk.problems.append(diagnostic("RC108", file=str(rep.file), line=line, type=v, where=where, known=", ".join(known),
                                               hint=(f"did you mean {close!r}? " if close else "") + "declare it under 'types:'."))
        else:
            out.append(v.lower())
    return out


def _check_kind(rep: Reporter, entry: LDict) -> type | None:
    kind = entry.get("kind")
    if kind is None:
        rep.add("RC106", entry.line, key="kind", where="a pass")
        return None
    if not isinstance(kind, str):
        rep.add("RC104", entry.line_of("kind"), where="kind", expected="a string", got=type_name(kind))
        return None
    cls = get_kind(kind)
    if cls is None:
        former = REPLACED.get(kind)
        rep.chk.problems.append(KINDS.miss(kind, file=str(rep.file), line=entry.line_of("kind"), hint=former and (
            f"since rule files became data this is a {former}; see docs/rules.md, 'Former kinds'.")))
    return cls


def _check_scope(rep: Reporter, entry: LDict, known_types: tuple[str, ...], pronoun_types: frozenset[str]) -> TypeScope:
    types_: frozenset[str] | None = None
    exclude: frozenset[str] = frozenset()
    same_type = True
    applies = entry.get("applies_to")
    if applies is None:
        return TypeScope(pronoun_types=pronoun_types)
    if not isinstance(applies, LDict):
        rep.add("RC104", entry.line_of("applies_to"), where="applies_to", expected="a mapping", got=type_name(applies))
        return TypeScope(pronoun_types=pronoun_types)
    rep.unknown_keys(applies, schema.APPLIES_TO_KEYS, "applies_to")
    if "types" in applies:
        got = _check_types(rep, applies["types"], applies.line_of("types"), "applies_to.types", known_types)
        types_ = frozenset(got) if got is not None else None
    if "exclude_types" in applies:
        got = _check_types(rep, applies["exclude_types"], applies.line_of("exclude_types"), "applies_to.exclude_types", known_types)
        exclude = frozenset(got or ())
    if "same_type" in applies:
        if isinstance(applies["same_type"], bool):
            same_type = applies["same_type"]
        else:
            rep.add("RC104", applies.line_of("same_type"), where="applies_to.same_type", expected="true or false",
                    got=type_name(applies["same_type"]))
    return TypeScope(types=types_, exclude=exclude, same_type=same_type, pronoun_types=pronoun_types)


def _check_examples(rep: Reporter, entry: LDict, known_types: tuple[str, ...]) -> dict[str, list[str]]:
    examples: dict[str, list[str]] = {}
    ex = entry.get("examples")
    if ex is None:
        return examples
    if not isinstance(ex, LDict):
        rep.add("RC104", entry.line_of("examples"), where="examples", expected="a mapping with link/no_link lists", got=type_name(ex))
        return examples
    rep.unknown_keys(ex, schema.EXAMPLE_KEYS, "examples")
    for key in schema.EXAMPLE_KEYS:
        items = ex.get(key, [])
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            rep.add("RC104", ex.line_of(key), where=f"examples.{key}", expected="a list of strings", got=type_name(items))
            continue
        for i, item in enumerate(items):
            iline = items.item_lines[i] if isinstance(items, LList) else ex.line_of(key)
            try:
                doc, _ = parse_markup(item)
            except MarkupError as exc:
                rep.add("RC111", iline, example=item, detail=str(exc))
                continue
            if len(doc.concepts) < 2:
                rep.add("RC111", iline, example=item, detail="an example needs at least two [text|type] concepts")
            for c in doc.concepts:
                if c.type not in known_types:
                    rep.add("RC108", iline, type=c.type, where="an example", known=", ".join(known_types))
        examples[key] = list(items)
    return examples


def _subset(entry: LDict, keys: dict[str, Any]) -> LDict:
    """The entries of ``keys`` in ``entry``, keeping their lines for messages."""
    out = LDict({k: entry[k] for k in keys if k in entry})
    out.line, out.key_lines = entry.line, {k: entry.line_of(k) for k in out}
    return out


def _check_pass(rep: Reporter, entry: LDict, known_types: tuple[str, ...], pronoun_types: frozenset[str],
                names: dict[str, int], enable: frozenset[str] = frozenset()) -> PassConfig | None:
    kind, name = entry.get("kind"), entry.get("name")
    label = rep.for_pass(name if isinstance(name, str) else (kind if isinstance(kind, str) else None))
    cls = _check_kind(label, entry)
    label.unknown_keys(entry, schema.PASS_KEYS + tuple(cls.rule_keys if cls else ()), "a pass")
    if cls is None:
        return None
    if name is None:
        name = kind.replace("_", "-")
    if not isinstance(name, str):
        rep.for_pass(kind).add("RC104", entry.line_of("name"), where="name", expected="a string", got=type_name(name))
        name = kind
    if name in names:
        rep.add("RC107", entry.line_of("name"), name=name, first=names[name])
    names.setdefault(name, entry.line_of("name"))
    prep = rep.for_pass(name)
    scope = _check_scope(prep, entry, known_types, pronoun_types)
    params_in = entry.get("params")
    if params_in is not None and not isinstance(params_in, dict):
        prep.add("RC104", entry.line_of("params"), where="params", expected="a mapping", got=type_name(params_in))
        params_in = None
    settings = _Settings(prep)
    params = settings.fields(f"params of kind {kind!r}", cls.params, params_in, entry.line_of("params"))
    rule = settings.fields(f"a {kind!r} pass", cls.rule_keys, _subset(entry, cls.rule_keys), entry.line) if cls.rule_keys else {}
    examples = _check_examples(prep, entry, known_types)
    enabled = entry.get("enabled", True)
    if not isinstance(enabled, bool):
        prep.add("RC104", entry.line_of("enabled"), where="enabled", expected="true or false", got=type_name(enabled))
        enabled = True
    return PassConfig(kind=kind, name=name, params=params, scope=scope, rule_file=str(rep.file), line=entry.line,
                      examples=examples, description=str(entry.get("description", "")), rule=rule,
                      enabled=enabled or name in enable)  # an include's `enable:` switches a shipped-off pass on


def _read_yaml(rep: Reporter) -> Any:
    data, problem = read_rule_yaml(rep.file)
    if problem is not None:
        rep.chk.problems.append(problem)
    return data


def _attributes_block(rep: Reporter, data: LDict, key: str = "attributes",
                      specs: dict[str, Param] = SETTINGS) -> dict[str, Any] | None:
    """A file's ``attributes:`` (or ``mentions:``) settings, checked, defaults not filled in (files
    are layered first)."""
    given = data.get(key)
    if given is None:
        return None
    if not isinstance(given, dict):
        rep.add("RC104", data.line_of(key), where=key, expected="a mapping", got=type_name(given))
        return {}
    return _Settings(rep, fill=False).fields(key, specs, given, data.line_of(key))


@dataclass
class _Collect:
    """What every file of one rule set is checked against while its includes are spliced in."""

    chk: _Checker
    known_types: tuple[str, ...]
    pronoun_types: frozenset[str]
    names: dict[str, int] = field(default_factory=dict)
    attrs: list[dict[str, Any]] = field(default_factory=list)  # the included files' ``attributes:``, in order
    mentions: list[dict[str, Any]] = field(default_factory=list)  # and their ``mentions:``
    included: dict[Path, str] = field(default_factory=dict)  # file -> "including file:line" of its first include
    repeated: set[Path] = field(default_factory=set)  # files included again, reported once (RC107)


#: Deepest chain of includes (rules/hybrid.yaml -> i2b2.yaml -> people.yaml is 2); deeper is RC124.
MAX_INCLUDE_DEPTH = 20


def _collect_passes(c: _Collect, rep: Reporter, data: LDict, stack: tuple[Path, ...], enable: frozenset[str] = frozenset(),
                    types: dict[str, str] | None = None) -> list[PassConfig]:
    """The passes of a rule file, includes spliced in; ``types`` renames an included file's concept
    types as the including file names them."""
    out: list[PassConfig] = []
    passes = data.get("passes", LList())
    if passes is None:
        return out
    if not isinstance(passes, LList):
        rep.add("RC104", data.line_of("passes"), where="passes", expected="a list of passes", got=type_name(passes))
        return out
    for i, entry in enumerate(passes):
        line = passes.item_lines[i]
        if not isinstance(entry, LDict):
            rep.add("RC104", line, where=f"passes[{i}]", expected="a mapping with 'kind:'", got=type_name(entry))
        elif "include" in entry:
            out.extend(_include(c, rep, entry, line, stack, enable, types or {}))
        else:
            cfg = _check_pass(rep, retyped(entry, types) if types else entry, c.known_types, c.pronoun_types,
                              c.names, enable)
            if cfg is not None:
                out.append(cfg)
    return out


def _include(c: _Collect, rep: Reporter, entry: LDict, line: int, stack: tuple[Path, ...], enable: frozenset[str],
             outer: dict[str, str]) -> list[PassConfig]:
    """The passes of an ``- include: other.yaml`` entry (with its ``enable:`` and ``types:``)."""
    extra = [k for k in entry if k not in ("include", "enable", "types")]
    if extra:
        rep.add("RC103", entry.line_of(extra[0]), key=extra[0], where="an include entry", allowed="include, enable, types")
    # `enable: [name, ...]` turns on passes the included file ships with `enabled: false`
    # (rules/i2b2-umls.yaml: i2b2.yaml with its UMLS pass on, in its place in the order).
    wanted = entry.get("enable", [])
    if not isinstance(wanted, list) or not all(isinstance(n, str) for n in wanted):
        rep.add("RC104", entry.line_of("enable"), where="enable", expected="a list of pass names", got=type_name(wanted))
        wanted = []
    # `types: {person: people}`: the included file's scopes and examples name `person`, this file's
    # mentions are `people` (rules/odie.yaml runs the people linker so)
    renamed = entry.get("types", {})
    if not isinstance(renamed, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in renamed.items()):
        rep.add("RC104", entry.line_of("types"), where="types of an include", expected="a mapping of type names",
                got=type_name(renamed))
        renamed = {}
    types = {**outer, **{k.lower(): outer.get(v.lower(), v.lower()) for k, v in renamed.items()}}
    target = rep.find(str(entry["include"]), line, "RC110")
    if target is None:
        return []
    target = target.resolve()
    if target in stack:
        rep.add("RC110", line, path=entry["include"], detail="it includes itself (cycle)")
        return []
    if len(stack) > MAX_INCLUDE_DEPTH:
        rep.add("RC124", line, path=entry["include"], limit=MAX_INCLUDE_DEPTH)
        return []
    first = c.included.setdefault(target, f"{rep.file}:{line}")
    mark = len(c.chk.problems)
    sub_rep = c.chk.reporter(target)
    sub = _read_yaml(sub_rep)
    if sub is None:
        return []
    if not isinstance(sub, LDict):
        sub_rep.add("RC104", 1, where="the included file", expected="a mapping with 'passes:'", got=type_name(sub))
        return []
    # A full rule file may be included (rules/hybrid.yaml includes i2b2.yaml): its name, types and
    # pronoun_types are ignored, the including file's declarations govern; a decoder is not allowed.
    sub_rep.unknown_keys(sub, ("version", "name", "description", "types", "pronoun_types", "attributes", "mentions",
                               "passes"), "an included rule file")
    before = set(c.names)
    out = _collect_passes(c, sub_rep, sub, stack + (target,), enable | frozenset(wanted), types)
    block = _attributes_block(sub_rep, sub)
    if block is not None:
        c.attrs.append(block)
    block = _attributes_block(sub_rep, sub, "mentions", MENTION_SETTINGS)
    if block is not None:
        c.mentions.append(block)
    if first != f"{rep.file}:{line}":
        _one_repeat(c, rep, line, target, first, mark)
    included = sorted(set(c.names) - before)
    for n in wanted:
        if n not in included:
            rep.add("RC109", entry.line_of("enable"), where=f"enable of {entry['include']}", value=n,
                    allowed=", ".join(included) or "(no passes)")
    return out


def _one_repeat(c: _Collect, rep: Reporter, line: int, target: Path, first: str, mark: int) -> None:
    """A file included a second time repeats its pass names: one RC107 on the including file's
    line for that file (not one per pass and per include: a file included 1,000 times is one line)."""
    dup = [d for d in c.chk.problems[mark:] if d.code == "RC107"]
    c.chk.problems[mark:] = [d for d in c.chk.problems[mark:] if d.code != "RC107"]
    if dup and target not in c.repeated:
        c.repeated.add(target)
        name = next((n for n in c.names if f"duplicate pass name {n!r}" in dup[0].message), "?")
        rep.add("RC107", line, name=name, first=c.names.get(name), hint=f"{target} is included again here (first by "
                f"{first}); include a file once.")


def _declared_types(rep: Reporter, data: LDict) -> tuple[tuple[str, ...], frozenset[str]]:
    """The concept types a rule file declares (``types:``) and its ``pronoun_types``."""
    types: tuple[str, ...] = schema.DEFAULT_TYPES
    if "types" in data:
        tv = data["types"]
        if isinstance(tv, list) and tv and all(isinstance(t, str) for t in tv):
            types = tuple(t.lower() for t in tv)
        else:
            rep.add("RC104", data.line_of("types"), where="types", expected="a non-empty list of concept types", got=type_name(tv))
    pronoun_types = frozenset(t for t in ("pronoun",) if t in types)
    if "pronoun_types" in data:
        got = _check_types(rep, data["pronoun_types"], data.line_of("pronoun_types"), "pronoun_types", types)
        pronoun_types = frozenset(got or ())
    return types, pronoun_types


def compile_rules(path: str | Path, *, decoder_overrides: dict[str, Any] | None = None,
                  allow_paths: Sequence[str | Path] = ()) -> RuleSet:
    """Validate a rule file completely and return its passes in order; raise RuleFileError listing every problem.

    ``allow_paths``: folders outside the rule file's tree that it may include or read word lists from.
    ``path`` may name a bundled rule set ("i2b2-umls", "odie"): a file of that name wins, else
    ``rules/NAME.yaml`` of this installation, from any folder (``resources.named_file``, the lookup
    of the spaCy component and Spark).
    """
    path = named_file(path, "rules", ".yaml")
    chk = _Checker(allowed_roots(path, allow_paths))
    problem = missing_rule_file(path)
    if problem is not None:
        raise RuleFileError(problem)
    rep, top = chk.reporter(path), chk.reporter(path.resolve())
    data = _read_yaml(top)
    if chk.problems:
        raise RuleFileError(_unique(chk.problems))
    if not isinstance(data, LDict):
        raise RuleFileError(diagnostic("RC104", file=str(path), line=1, where="the rule file", expected="a mapping with 'passes:'", got=type_name(data)))
    rep.unknown_keys(data, schema.TOP_KEYS, "the rule file")
    version = data.get("version", 1)
    if version != 1:
        rep.add("RC109", data.line_of("version"), where="version", value=version, allowed="1")
    types, pronoun_types = _declared_types(rep, data)
    collect = _Collect(chk, types, pronoun_types)
    every_pass = _collect_passes(collect, top, data, (path.resolve(),))
    passes = [cfg for cfg in every_pass if cfg.enabled]
    block = _attributes_block(top, data)  # the including file's settings win over its includes'
    attributes = _Settings(chk.reporter(bundled_rules())).complete(
        SETTINGS, _merged(collect.attrs + ([block] if block is not None else [])))
    mentions = _mentions(chk, top, data, collect, types)
    _check_order(chk, passes)
    decoder = None
    if "decoder" in data and data["decoder"] is not None:
        decoder = _check_decoder(rep, data["decoder"], data.line_of("decoder"), decoder_overrides or {})
    elif decoder_overrides:
        rep.add("RC561", 0, path=str(path))
    if chk.problems:
        raise RuleFileError(_unique(chk.problems))
    return RuleSet(
        inputs=rule_set_inputs(path, chk.files.read, attributes, decoder),
        path=str(path),
        name=str(data.get("name", path.stem)),
        types=types,
        pronoun_types=pronoun_types,
        passes=passes,
        every_pass=tuple(every_pass),
        decoder=decoder,
        description=str(data.get("description", "")),
        attributes=attributes,
        mentions=mentions,
    )


def _mentions(chk: _Checker, rep: Reporter, data: LDict, collect: _Collect, types: tuple[str, ...]) -> dict[str, Any]:
    """The ``mentions:`` settings (the including file's over its includes'), defaults filled in;
    the type of the mentions found must be one the file declares."""
    block = _attributes_block(rep, data, "mentions", MENTION_SETTINGS)
    values = _Settings(chk.reporter(bundled_rules())).complete(
        MENTION_SETTINGS, _merged(collect.mentions + ([block] if block is not None else [])))
    if values.get("type") and values["type"] not in types:
        given = data.get("mentions")
        line = given.line_of("type") if isinstance(given, LDict) and "type" in given else data.line_of("mentions")
        rep.add("RC109", line, where="mentions.type", value=values["type"], allowed=", ".join(types))
    return values


def _check_order(chk: _Checker, passes: list[PassConfig]) -> None:
    """A pass reading what another kind leaves (``requires``) comes after one; ``made_by`` names earlier passes (RC134)."""
    seen: set[str] = set()
    names: list[str] = []
    for cfg in passes:
        cls = get_kind(cfg.kind)
        missing = [k for k in (cls.requires if cls else ()) if k not in seen]
        if missing:
            chk.reporter(Path(cfg.rule_file)).for_pass(cfg.name).add("RC133", cfg.line, kind=cfg.kind, needs=", ".join(missing))
        for made_by in (n for n in cfg.rule.get("made_by") or () if n not in names):
            close = suggest(made_by, names)
            chk.reporter(Path(cfg.rule_file)).for_pass(cfg.name).add("RC134", cfg.line, name=made_by, hint=(
                f"did you mean {close!r}? " if close else "") + f"passes before it: {', '.join(names) or 'none'}")
        seen.add(cfg.kind)
        names.append(cfg.name)


def _check_decoder(rep: Reporter, value: Any, line: int, overrides: dict[str, Any]) -> DecoderConfig | None:
    """``decoder:``: its kind, and its params checked as a pass's are; an override from the
    command line (``--model``) is checked too, and reported on the decoder's line."""
    from ..decoders import DECODERS, get_decoder

    if not isinstance(value, LDict):
        rep.add("RC104", line, where="decoder", expected="a mapping with 'kind:'", got=type_name(value))
        return None
    kind = value.get("kind")
    cls = get_decoder(kind) if isinstance(kind, str) else None
    if cls is None:
        rep.chk.problems.append(DECODERS.miss(kind, file=str(rep.file), line=value.line_of("kind")))
        return None
    given = LDict({k: v for k, v in value.items() if k != "kind"} | overrides)
    given.line, given.key_lines = value.line, value.key_lines
    base = rep.file.parent
    for pname in getattr(cls, "path_params", ()):  # relative to the rule file (or its parent folder)
        v = given.get(pname)
        if isinstance(v, str) and pname not in overrides and not Path(v).is_absolute():
            cand = base / v
            given[pname] = str(cand if cand.exists() or not (base.parent / v).exists() else base.parent / v)
    params = _Settings(rep).fields(f"decoder {kind!r}", cls.params, given, value.line, label="decoder", also=("kind",))
    return DecoderConfig(kind=kind, params=params, rule_file=str(rep.file), line=value.line)
