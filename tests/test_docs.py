"""docs/rules.md names every mention attribute, pair predicate, ``attributes:`` setting and kind, so a
rule writer finds each in the reference."""

from __future__ import annotations

import pytest

from rulecoref.attributes import ATTRIBUTES, SETTINGS
from rulecoref.finder import SETTINGS as MENTION_SETTINGS
from rulecoref.io.formats import formats
from rulecoref.passes import known_kinds
from rulecoref.predicates import PREDICATES
from tests.helpers import ROOT

DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def _settings(specs, prefix=""):
    for key, spec in specs.items():
        if spec.fields:
            yield from _settings(spec.fields, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}"


@pytest.mark.parametrize("name", sorted(ATTRIBUTES))
def test_docs_name_every_attribute(name: str) -> None:
    assert f"`{name}`" in DOC


@pytest.mark.parametrize("name", sorted(PREDICATES))
def test_docs_name_every_predicate(name: str) -> None:
    assert f"`{name}`" in DOC


@pytest.mark.parametrize("name", sorted(_settings(SETTINGS)))
def test_docs_name_every_setting(name: str) -> None:
    assert f"`{name}`" in DOC


@pytest.mark.parametrize("name", sorted(MENTION_SETTINGS))
def test_docs_name_every_mentions_setting(name: str) -> None:
    assert f"`mentions.{name}`" in DOC


@pytest.mark.parametrize("kind", known_kinds())
def test_docs_name_every_kind(kind: str) -> None:
    assert f"`{kind}`" in DOC


def test_docs_reference_tables_are_up_to_date() -> None:
    """The tables of docs/rules.md are what scripts/rules_reference.py writes from the registries."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("rules_reference", ROOT / "scripts" / "rules_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.rewritten(DOC) == DOC, "run: python scripts/rules_reference.py"


@pytest.mark.parametrize("name", [f.name for f in formats()])
def test_docs_formats_page_has_a_row_for_every_format(name: str) -> None:
    """A format is one module and its page: docs/formats.md's table names every registered one."""
    page = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    assert any(line.startswith(f"| `{name}`") for line in page.splitlines())
