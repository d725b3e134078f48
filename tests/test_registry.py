"""rulecoref/registry.py: one registry mechanism for kinds, formats, decoders, attributes and predicates."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import rulecoref.passes
from rulecoref.registry import Registry, did_you_mean, suggest


def _colours() -> Registry[int]:
    reg: Registry[int] = Registry("colour", code="RC131", hint="colours are listed in the paint box.")
    reg.register("dark_red", 1)
    reg.register("light_blue", 2)
    return reg


@pytest.mark.parametrize("name", ["Red", "dark-red", "dark__red", "_red", "red_", "2red", "", "dark red"])
def test_registry_refuses_a_name_that_is_not_snake_case(name: str) -> None:
    with pytest.raises(ValueError, match="snake_case"):
        _colours().register(name, 3)


def test_registry_refuses_a_name_registered_twice() -> None:
    reg = _colours()
    with pytest.raises(ValueError, match="'dark_red' is registered twice"):
        reg.register("dark_red", 3)
    assert reg["dark_red"] == 1


def test_registry_module_named_entry_lives_in_its_module() -> None:
    reg: Registry[int] = Registry("pass kind", package="rulecoref.passes", module_named=True)
    with pytest.raises(ValueError, match="must live in rulecoref/passes/be_phrase.py, not match.py"):
        reg.register("be_phrase", 1, module="rulecoref.passes.match")
    reg.register("be_phrase", 1, module="rulecoref.passes.be_phrase")


def test_registry_lookup_keeps_registration_order_and_lists_names_sorted() -> None:
    reg = _colours()
    reg.register("amber", 3)
    assert list(reg) == ["dark_red", "light_blue", "amber"]
    assert reg.names() == ["amber", "dark_red", "light_blue"]
    assert reg.get("green") is None and "amber" in reg and "green" not in reg
    with pytest.raises(KeyError, match="no colour 'green'; known: amber, dark_red, light_blue"):
        reg["green"]


def test_registry_miss_is_the_code_with_the_known_names_and_a_suggestion() -> None:
    d = _colours().miss("dark_rde", file="r.yaml", line=4, where="require")
    assert (d.code, d.file, d.line) == ("RC131", "r.yaml", 4)
    assert d.message == "unknown predicate 'dark_rde' in require; known: dark_red, light_blue"
    assert d.hint == "did you mean 'dark_red'? colours are listed in the paint box."


def test_registry_miss_without_a_close_name_gives_the_hint_alone_or_the_codes_own() -> None:
    assert _colours().miss("zzz", where="veto").hint == "colours are listed in the paint box."
    kinds: Registry[int] = Registry("pass kind", code="RC102", field="kind")
    d = kinds.miss("zzz")
    assert d.message == "unknown kind 'zzz'; known: none"
    assert d.hint == "kinds are snake_case and match a module in rulecoref/passes/."
    assert kinds.miss("zzz", hint="a former kind.").hint == "a former kind."


def test_registry_lazy_entry_is_imported_on_first_lookup_and_listed_before() -> None:
    reg: Registry[type] = Registry("decoder", code="RC112", field="kind",
                                   lazy={"missing": "rulecoref.no_such_module_for_tests"})
    assert reg.names() == ["missing"]
    assert reg.get("missing") is None  # known, but its module cannot be imported
    assert "unknown decoder 'missng'; known: missing" in str(reg.miss("missng"))


def test_registry_set_item_registers_and_delete_removes() -> None:
    reg = _colours()
    reg["amber"] = 3
    with pytest.raises(ValueError, match="twice"):
        reg["amber"] = 4
    del reg["amber"]
    assert "amber" not in reg and len(reg) == 2


def test_registry_suggest_reads_dashes_and_capitals_as_snake_case() -> None:
    assert suggest("Head-Family", ["head_family", "head"]) == "head_family"
    assert suggest("xyz", ["head_family"]) is None
    assert did_you_mean("hed", ["head"]) == "did you mean 'head'? "
    assert did_you_mean("xyz", ["head"]) == ""


def test_registry_every_module_of_passes_is_a_kind_or_says_it_is_none() -> None:
    """A module of rulecoref/passes/ registers the kind of its name, or declares ``NOT_A_KIND``
    (shared code, as people.py): nothing is skipped by a list of names."""
    kinds = set(rulecoref.passes.known_kinds())
    modules = [m.name for m in pkgutil.iter_modules(rulecoref.passes.__path__) if not m.name.startswith("_")]
    unclear = [m for m in modules if (m in kinds) == hasattr(importlib.import_module(f"rulecoref.passes.{m}"), "NOT_A_KIND")]
    assert unclear == []
    assert "people" in modules and "people" not in kinds and "match" in kinds
