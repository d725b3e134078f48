"""The README and docs/ hold: every ``rulecoref`` command they show names real commands and options
(a whole command line in a code block parses), every YAML block compiles (a rule file or a part of
one) or reads as a type map, the README's tour runs, and no internal name (a seed or issue number, a
machine path) reaches a user's page or ``--help``."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from rulecoref.cli import build_parser
from tests.helpers import ROOT, command_parsers

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
_START = re.compile(r"(?:^|&&\s*|\$\s+)(rulecoref\s+[a-z].*)")
#: words that are internal to the project's history, not a user's concern
_INTERNAL = re.compile(r"(?i)\bseed\b|\bseed 0\d\d|\bissue \d+|/work/|/home/\w|\.\./shared")


def _commands() -> list[tuple[str, str, bool]]:
    """(where, command, from a code block) for every ``rulecoref`` command the pages show."""
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in _FENCE.finditer(text):
            if m.group(1) in ("yaml", "json", "python"):
                continue
            first = text[: m.start()].count("\n") + 2
            for k, line in enumerate(m.group(2).replace("\\\n", " ").splitlines()):
                found = _START.search(line)
                if found:
                    out.append((f"{page.name}:{first + k}", found.group(1), True))
        prose = _FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
        for m in re.finditer(r"`(rulecoref [a-z][^`]*)`", prose):
            out.append((f"{page.name}:{prose[: m.start()].count(chr(10)) + 1}", m.group(1).replace("\\|", "|"), False))
    return out


def _tokens(command: str) -> list[str]:
    """The words of a command: up to a comment, '&&' or a pipe; '[...]' marks and '...' left out."""
    command = re.split(r"\s+#\s|\s&&\s|\s\|\s", command)[0]
    words = []
    for word in shlex.split(command):
        if word.startswith("[") and word.endswith("]"):
            word = word[1:-1]
        while word.startswith("[") and word.count("[") > word.count("]"):
            word = word[1:]
        while word.endswith("]") and word.count("]") > word.count("["):
            word = word[:-1]
        if word and word != "...":
            words.append(word)
    return words


COMMANDS = _commands()
PARSERS = command_parsers()


def _command_of(words: list[str]) -> tuple[str, list[str]]:
    name = words[1]
    if len(words) > 2 and f"{name} {words[2]}" in PARSERS:
        return f"{name} {words[2]}", words[3:]
    return name, words[2:]


@pytest.mark.parametrize(("where", "command", "block"), COMMANDS, ids=[w for w, _, _ in COMMANDS])
def test_docs_commands_name_real_commands_and_options(where: str, command: str, block: bool) -> None:
    words = _tokens(command)
    name, rest = _command_of(words)
    assert name in PARSERS, f"{where}: no command {name!r}"
    parser = PARSERS[name]
    options = {s: a for a in parser._actions for s in a.option_strings}
    for k, word in enumerate(rest):
        if not word.startswith("-") or re.fullmatch(r"-\d.*", word):
            continue
        flag = word.split("=", 1)[0]
        assert flag in options, f"{where}: {name} has no option {flag}"
        action = options[flag]
        value = word.split("=", 1)[1] if "=" in word else (rest[k + 1] if k + 1 < len(rest) else None)
        if action.choices and value is not None and not value.startswith("-") and not value.isupper():
            for choice in value.split("|"):
                assert choice in action.choices, f"{where}: {flag} {choice!r} is not one of {sorted(action.choices)}"
    if block:  # a whole command line: it parses (alternatives: the first one)
        chosen = [w.split("|")[0] if "|" in w and "://" not in w else w for w in words[1:]]
        try:
            build_parser().parse_args(chosen)
        except SystemExit:
            pytest.fail(f"{where}: does not parse: {command}")


def _yaml_blocks() -> list[tuple[str, str]]:
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in _FENCE.finditer(text):
            if m.group(1) == "yaml":
                out.append((f"{page.name}:{text[: m.start()].count(chr(10)) + 2}", textwrap.dedent(m.group(2))))
    return out


YAML = _yaml_blocks()


#: the types a part of a rule file may name: the i2b2, ODIE and LitBank ones
TYPES = ["person", "problem", "treatment", "test", "pronoun", "people", "fac", "gpe", "loc", "org", "per", "veh"]


def _as_rule_file(data: object) -> dict:
    """A rule file from a block that shows one: a whole file, its passes, or a part of its top."""
    if isinstance(data, list):
        return {"version": 1, "types": TYPES, "passes": data}
    assert isinstance(data, dict)
    if "kind" in data or "include" in data:
        return _as_rule_file([data])
    return {"version": 1, "types": TYPES, "passes": [], **data}


@pytest.mark.parametrize(("where", "text"), YAML, ids=[w for w, _ in YAML])
def test_docs_yaml_blocks_compile(where: str, text: str, tmp_path: Path) -> None:
    from rulecoref.io.typemap import read_type_map
    from rulecoref.rules.compiler import compile_rules

    data = yaml.safe_load(text)
    if isinstance(data, dict) and "unmapped" in data | {} and "passes" not in data:  # a type map (docs/formats.md)
        path = tmp_path / "types.yaml"
        path.write_text(text, encoding="utf-8")
        read_type_map(path)
        return
    # beside the bundled rule files and word lists, as a user's file in a checkout would be
    for item in (ROOT / "rules").iterdir():
        (tmp_path / item.name).symlink_to(item)
    (tmp_path / "rules").symlink_to(ROOT / "rules")
    (tmp_path / "resources").symlink_to(ROOT / "resources")
    path = tmp_path / "doc-block.yaml"
    path.write_text(yaml.safe_dump(_as_rule_file(data), sort_keys=False), encoding="utf-8")
    compile_rules(path)  # a RuleFileError names the doc's mistake


def test_docs_readme_tour_runs(tmp_path: Path) -> None:
    """The README's tour, run as written in a folder holding the bundled examples and rules."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    tour = text.split("## A short tour", 1)[1]
    block = _FENCE.search(tour)
    assert block and block.group(1) == "bash"
    for name in ("resources", "rules"):
        (tmp_path / name).symlink_to(ROOT / name)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    for line in block.group(2).splitlines():
        command = line.split("  #", 1)[0].strip()
        if not command:
            continue
        done = subprocess.run(command, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{command}\n{done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_docs_name_no_internal_history_or_machine_path(page: Path) -> None:
    found = [m.group(0) for m in _INTERNAL.finditer(page.read_text(encoding="utf-8"))]
    assert not found, f"{page.name}: {found}"


def test_docs_help_names_no_internal_history_or_machine_path() -> None:
    for name, parser in {"": build_parser(), **PARSERS}.items():
        text = parser.format_help()
        assert not _INTERNAL.search(text), (name, _INTERNAL.search(text).group(0))


def test_docs_readme_starts_with_what_it_does_and_for_whom() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = text.split("\n\n", 2)[1]  # the paragraph after the title
    assert first.startswith("rulecoref ") and "coreference" in first and " for " in first, first


def test_docs_umls_info_shows_the_cui_count(tmp_path: Path, capsys) -> None:
    """docs/umls.md: ``umls info`` shows the row and CUI counts."""
    pytest.importorskip("sqlalchemy")
    from rulecoref.cli import main

    assert "row and CUI counts" in (ROOT / "docs" / "umls.md").read_text(encoding="utf-8")
    db = tmp_path / "u.sqlite"
    assert main(["umls", "load", str(ROOT / "tests" / "fixtures" / "umls" / "MRCONSO.RRF"), "--db", str(db), "-q"]) == 0
    capsys.readouterr()
    assert main(["umls", "info", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    rows = int(re.search(r"^rows: (\d+)$", out, re.M).group(1))
    cuis = int(re.search(r"^cuis: (\d+)$", out, re.M).group(1))
    assert 0 < cuis <= rows


def test_docs_scale_puts_the_umls_database_where_the_compiler_takes_it(tmp_path: Path) -> None:
    """docs/scale.md named ``params: {db: ...}``, which the compiler refuses (RC103)."""
    from rulecoref.rules.compiler import compile_rules

    page = (ROOT / "docs" / "scale.md").read_text(encoding="utf-8")
    assert "params: {db" not in page and "attributes: {umls: {db: ...}}" in page
    path = tmp_path / "r.yaml"
    path.write_text("version: 1\nattributes: {umls: {db: umls.sqlite}}\npasses:\n"
                    "  - {kind: match, name: umls-cui, key: cuis, veto: [overlaps]}\n", encoding="utf-8")
    assert [p.name for p in compile_rules(path).passes] == ["umls-cui"]


def _known_keys() -> set[str]:
    """Every key a rule file, a type map, the spaCy component or the web settings accept, from the
    registries that declare them."""
    import dataclasses

    from rulecoref.attributes import SETTINGS
    from rulecoref.belltree.decoder import BellTreeDecoder
    from rulecoref.finder import SETTINGS as MENTION_SETTINGS
    from rulecoref.passes import get_kind, known_kinds
    from rulecoref.predicates import PREDICATES
    from rulecoref.resources.web import WebSettings
    from rulecoref.rules.schema import TOP_KEYS

    keys = {"version", "name", "description", "types", "pronoun_types", "attributes", "passes", "decoder", "kind",
            "applies_to", "same_type", "exclude_types", "params", "examples", "link", "no_link", "enabled",
            "include", "enable", "unmapped", "coreference"}

    def walk(specs: dict) -> None:
        for key, spec in specs.items():
            keys.add(key)
            if getattr(spec, "fields", None):
                walk(spec.fields)

    walk(SETTINGS)
    walk(MENTION_SETTINGS)
    keys.update(TOP_KEYS)
    walk(BellTreeDecoder.params)
    for kind in known_kinds():
        cls = get_kind(kind)
        walk(cls.params)
        walk(cls.rule_keys)
    for spec in PREDICATES.values():
        walk(spec.params)
    keys.update(f.name for f in dataclasses.fields(WebSettings))
    pytest.importorskip("spacy")
    from rulecoref.spacy_component import DEFAULT_CONFIG

    return keys | set(DEFAULT_CONFIG)


def _inline_yaml() -> list[tuple[str, str]]:
    out = []
    for page in PAGES:
        prose = _FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), page.read_text(encoding="utf-8"))
        for m in re.finditer(r"`([a-z_]+:(?: [^`]*)?)`", prose):
            if not m.group(1).startswith("rulecoref:"):  # a message, not YAML
                out.append((f"{page.name}:{prose[: m.start()].count(chr(10)) + 1}", m.group(1)))
    return out


INLINE = _inline_yaml()
#: what the docs write in the same notation and is no YAML: a Python class attribute
#: (``requires: people_roles``), the text of a brat AnnotatorNotes line (``source: rulecoref``)
NOT_YAML = {"requires", "source"}


@pytest.mark.parametrize(("where", "text"), INLINE, ids=[w for w, _ in INLINE])
def test_docs_inline_yaml_names_real_keys(where: str, text: str) -> None:
    """`key: value` in the prose names keys that something accepts (a rule file, a type map, the
    spaCy component, the web settings); `a: b: c:` is a path of keys. Where each key may stand is
    the YAML blocks' test (they compile) and, for the UMLS database, the scale.md test below."""
    known = _known_keys()
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:  # 'attributes: umls: db:', a path of keys
        data = {k.strip(): None for k in text.split(":") if k.strip()}
    if not isinstance(data, dict):
        return

    def keys_of(value: object, under: str = "") -> list[str]:
        if not isinstance(value, dict) or under in ("types", "label_map", "fields"):
            return []
        return [k for key, v in value.items() for k in (str(key), *keys_of(v, str(key)))]

    unknown = [k for k in keys_of(data) if k not in known | NOT_YAML]
    assert not unknown, f"{where}: {text!r} names no key rulecoref accepts: {unknown}"


def test_docs_readme_lists_the_formats_of_the_registry() -> None:
    """The README's option lists of formats are the formats registry's (io/formats.py), so a new
    format module cannot leave the README behind; its prose names every format too."""
    from rulecoref.io.formats import formats, input_formats, output_formats

    text = (ROOT / "README.md").read_text(encoding="utf-8").replace("\\|", "|")
    want = {"--format": set(output_formats()), "--input-format": set(input_formats())}
    listed = re.findall(r"(--format|--input-format) ([a-z0-9]+(?:\|[a-z0-9]+)+)", text)
    assert {option for option, _ in listed} == set(want)
    assert [(option, names) for option, names in listed if set(names.split("|")) != want[option]] == []
    convert = next(line for line in text.splitlines() if line.startswith("| `rulecoref convert"))
    assert [f.name for f in formats() if f.name not in convert.lower()] == []
