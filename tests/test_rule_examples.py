"""Every ``examples:`` block in rules/*.yaml runs here: a rule edit that breaks its own examples fails."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from rulecoref.attributes import ATTRIBUTES, MentionSettings, closure
from rulecoref.engine import mention_settings
from rulecoref.passes import get_kind
from rulecoref.rule_examples import iter_examples, run_example
from rulecoref.rules.compiler import RuleSet, compile_rules
from tests.helpers import ROOT, shared_resources

RULE_FILES = sorted((ROOT / "rules").glob("*.yaml"))


def _needs_umls(rs: RuleSet) -> bool:
    """The rule file's passes read an attribute that looks concepts up in UMLS (its examples need the
    fixture database of tests/conftest.py)."""
    passes = [get_kind(cfg.kind)(cfg, shared_resources()) for cfg in rs.passes]
    named = closure({a for p in passes for a in p.needed_attributes()})
    return any("umls" in ATTRIBUTES[a].needs for a in named) or any("umls" in p.needs for p in passes)


def _cases():
    for path in RULE_FILES:
        rs = compile_rules(path)
        if rs.decoder is not None and rs.decoder.kind != "union_find":
            continue  # decoder rule sets reuse other files' passes; their examples run there
        umls = _needs_umls(rs)
        for idx, cfg, expect, ex in iter_examples(rs):
            yield pytest.param(path, idx, expect, ex, umls, id=f"{path.stem}:{cfg.name}:{expect}:{ex[:40]}")


CASES = list(_cases())


@functools.cache
def _compiled(path: Path) -> tuple[RuleSet, MentionSettings]:
    """Each rule file compiled once, its attribute settings loaded once, for all its examples."""
    ruleset = compile_rules(path)
    return ruleset, mention_settings(ruleset, shared_resources())


@pytest.mark.parametrize("path,idx,expect,example,umls", CASES)
def test_rule_examples(path: Path, idx: int, expect: str, example: str, umls: bool,
                       request: pytest.FixtureRequest) -> None:
    if umls:
        request.getfixturevalue("umls_fixture_database")
    ruleset, settings = _compiled(path)
    result = run_example(ruleset, idx, expect, example, shared_resources(), settings)
    assert result.ok, result.describe()


def test_every_rule_file_has_examples() -> None:
    assert CASES, "rules/*.yaml carry no examples"
