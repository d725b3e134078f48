"""The tutorial rule file of docs/rules.md ("a new rule in YAML only") compiles, its examples hold,
and it links what it says on a small note: the documentation cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

from rulecoref.engine import Pipeline
from rulecoref.rule_examples import run_examples
from rulecoref.rules.compiler import compile_rules
from tests.helpers import ROOT, linked, resolve, shared_resources

_BLOCK = re.compile(r"<!-- tutorial-rule-file[^>]*-->\s*```yaml\n(.*?)```", re.S)


def _tutorial(tmp_path: Path) -> Path:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    found = _BLOCK.search(text)
    assert found, "docs/rules.md has no tutorial rule file block"
    path = tmp_path / "tutorial.yaml"
    path.write_text(found.group(1), encoding="utf-8")
    return path


def test_tutorial_rule_file_examples_hold(tmp_path: Path) -> None:
    ruleset = compile_rules(_tutorial(tmp_path))
    assert [p.kind for p in ruleset.passes] == ["match"]
    results = run_examples(ruleset, shared_resources())
    assert len(results) == 2 and all(r.ok for r in results), [r.describe() for r in results]


def test_tutorial_rule_links_by_head_base_and_keeps_numbers_apart(tmp_path: Path) -> None:
    pipe = Pipeline(compile_rules(_tutorial(tmp_path)), shared_resources())
    res = resolve(pipe, "[Ulcers|problem] were seen on both feet .\n[An ulcer|problem] on the left heel was deep .\n"
                        "The [ulcer|problem] healed .")
    assert linked(res, "an ulcer", "ulcer")
    assert not linked(res, "ulcers", "ulcer")
    (link,) = res.proposed
    assert link.provenance.evidence == "same head_base 'ulcer'"
