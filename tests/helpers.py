"""Small helpers for tests: compile a rule file from a string, resolve markup, ask about links."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import textwrap
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulecoref.document import Document
from rulecoref.engine import Pipeline, Resolution
from rulecoref.markup import parse_markup
from rulecoref.mentions import MentionTable
from rulecoref.resources import Resources
from rulecoref.rules.compiler import RuleSet, compile_rules
from rulecoref.syntax import Parse

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"  # small copies the suite owns (tests/fixtures/README.md)
#: The development corpora beside a project checkout; a user's clone has none, and the tests that need
#: them skip (``needs_shared``). CI points RULECOREF_SHARED at them for its second step.
SHARED = Path(os.environ.get("RULECOREF_SHARED") or ROOT.parent / "shared")


#: tests of the umls extra (the UMLS loader and pass, and the web lookup's SQLite cache): skipped without it
needs_sqlalchemy = pytest.mark.skipif(importlib.util.find_spec("sqlalchemy") is None,
                                      reason="needs SQLAlchemy (pip install 'rulecoref[umls]')")


def needs_shared(*parts: str) -> pytest.MarkDecorator:
    """Mark a test that reads ``SHARED/parts...``; it skips, saying why, when that is absent."""
    path = SHARED.joinpath(*parts)
    return pytest.mark.skipif(not path.exists(), reason=f"needs {path} (the development corpora; set RULECOREF_SHARED)")


@contextlib.contextmanager
def memory_bound(megabytes: float) -> Iterator[None]:
    """Fail if the block's Python allocations peak above ``megabytes`` (tracemalloc), for the
    fuzz tests' stated memory bounds."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    try:
        yield
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        if started:
            tracemalloc.stop()
    assert peak <= megabytes * 1024 * 1024, f"peak {peak / 2**20:.1f} MB over the {megabytes} MB bound"


def read_only_folder() -> Path | None:
    """A folder no one can create files in, even root (sysfs's /sys/kernel on Linux), or None."""
    folder = Path("/sys/kernel")
    try:
        (folder / "rulecoref-probe").touch()
    except OSError:
        return folder if folder.is_dir() else None
    (folder / "rulecoref-probe").unlink()
    return None


_RESOURCES: Resources | None = None


def shared_resources() -> Resources:
    """One Resources per test session, so WordNet loads once."""
    global _RESOURCES
    if _RESOURCES is None:
        _RESOURCES = Resources()
    return _RESOURCES


def write_rules(tmp_path: Path, text: str, name: str = "rules.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def compile_text(tmp_path: Path, text: str) -> RuleSet:
    return compile_rules(write_rules(tmp_path, text))


def pipeline_from_entries(tmp_path: Path, entries: list[dict], types: list[str] | None = None,
                          name: str = "test-rules.yaml") -> Pipeline:
    """A pipeline from pass entries given as Python dicts (written as YAML and compiled, so the
    compiler's validation runs too). Bundled word lists resolve as in the shipped rule files."""
    import yaml

    data: dict = {"version": 1, "passes": entries}
    if types:
        data["types"] = types
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    if not (tmp_path / "resources").exists():
        (tmp_path / "resources").symlink_to(ROOT / "resources")
    return Pipeline(compile_rules(path), shared_resources())


def single_pass(kind: str, params: dict | None = None, applies_to: dict | None = None,
                types: list[str] | None = None, *, tmp_path: Path) -> Pipeline:
    """A pipeline holding just one pass of ``kind`` (params given as Python values); its rule file
    is written to ``tmp_path`` (pytest's, so nothing is left behind)."""
    entry: dict = {"kind": kind, "name": f"test-{kind.replace('_', '-')}"}
    if params:
        entry["params"] = params
    if applies_to:
        entry["applies_to"] = applies_to
    return pipeline_from_entries(tmp_path, [entry], types, name=f"{kind}.yaml")


def settings_pipeline(tmp_path: Path | None = None, attributes: dict | None = None,
                      entries: list[dict] | None = None) -> Pipeline:
    """A pipeline whose rule file sets ``attributes:`` (the mention-table settings) and holds
    ``entries`` (no passes by default); without ``tmp_path`` the bundled defaults, no file."""
    if tmp_path is None:
        return Pipeline(RuleSet(path="", name="defaults", types=("person", "problem", "treatment", "test", "pronoun"),
                                pronoun_types=frozenset({"pronoun"})), shared_resources())
    import yaml

    path = tmp_path / "settings.yaml"
    data: dict = {"version": 1, "attributes": attributes or {}, "passes": entries or []}
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return Pipeline(compile_rules(path), shared_resources())


def mention_table(markup: str, *names: str, pipeline: Pipeline | None = None) -> MentionTable:
    """The mention table of a markup document with the attributes ``names`` (and what they need)."""
    doc, _ = parse_markup(markup)
    return (pipeline or settings_pipeline()).table(doc, list(names))


def resolve(pipeline: Pipeline, markup: str) -> Resolution:
    doc, _ = parse_markup(markup)
    return pipeline.resolve(doc)


def same_chain(res: Resolution, a: int, b: int) -> bool:
    owner = res.cluster_of()
    return owner[a] == owner[b]


def find(res: Resolution, text: str, nth: int = 0) -> int:
    """Index of the nth concept whose text is ``text`` (lowercase)."""
    hits = [c.index for c in res.doc.concepts if c.text == text.lower()]
    return hits[nth]


def linked(res: Resolution, a: str, b: str, nth_a: int = 0, nth_b: int | None = None) -> bool:
    """Whether the concepts with texts a and b ended in one chain (b defaults to its last occurrence)."""
    ia = find(res, a, nth_a)
    hits = [c.index for c in res.doc.concepts if c.text == b.lower() and c.index != ia]
    ib = hits[-1] if nth_b is None else hits[nth_b]
    return same_chain(res, ia, ib)


def parsed(markup: str, arcs: str) -> Document:
    """A markup document with a hand-written dependency parse, so syntax tests need no model.

    ``arcs`` gives each token ``label:head`` in text order, lines separated by ``|``, the head a
    token index within its line (the root names itself): "[He|pronoun] left ." ->
    ``"nsubj:1 ROOT:1 punct:1"``.
    """
    doc, _ = parse_markup(markup)
    heads, deps = [], []
    for li, line in enumerate(arcs.split("|"), 1):
        for arc in line.split():
            label, head = arc.rsplit(":", 1)
            heads.append(doc.line_offsets[li] + int(head))
            deps.append(label)
    assert len(heads) == len(doc.flat_tokens), "one arc per token"
    doc.parse = Parse(tuple(heads), tuple(deps), ("",) * len(heads), source="test")
    return doc


def command_parsers() -> dict[str, argparse.ArgumentParser]:
    """Every command's parser by its name ('umls load' for a subcommand): what the flag and docs
    tests walk."""
    from rulecoref.cli import build_parser

    out: dict[str, argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, prefix: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    out[f"{prefix}{name}"] = sub
                    walk(sub, f"{prefix}{name} ")

    walk(build_parser(), "")
    return out
