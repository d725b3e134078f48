"""``filter`` with ``made_by``: a filter that judges only the links of named passes, so a rule file
that includes another refines one of its passes without editing it (issue 24, round 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.engine import Pipeline
from rulecoref.errors import RuleFileError
from rulecoref.markup import parse_markup
from rulecoref.rules.compiler import compile_rules
from tests.helpers import shared_resources, write_rules

BASE = """
version: 1
types: [problem, pronoun]
passes:
  - kind: match
    name: same-words
    key: text_norm
  - kind: match
    name: same-head
    key: head
"""
FILTER = """
  - kind: filter
    name: far-head-links
    {made_by}
    remove_if: [{{sentences_apart: {{more_than: 1}}}}]
"""
# 'the cough' (0) ... two lines ... 'the dry cough' (1): only same-head links them, 3 sentences apart;
# 'a rash' (2) ... 'a rash' (3): same-words and same-head both link them, 3 sentences apart too
DOC = "\n".join(["[the cough|problem] and [a rash|problem] .", "Nothing .", "Nothing .",
                 "[the dry cough|problem] and [a rash|problem] ."])


def kept(tmp_path: Path, made_by: str) -> dict[tuple[int, int], list[str]]:
    path = write_rules(tmp_path, BASE + FILTER.format(made_by=made_by))
    doc, _ = parse_markup(DOC)
    res = Pipeline(compile_rules(path), shared_resources()).run_passes(doc)
    return {pair: sorted(link.provenance.pass_name for link in links) for pair, links in res.kept.items()}


def test_a_filter_without_made_by_judges_every_link(tmp_path: Path):
    assert kept(tmp_path, "") == {}


def test_made_by_judges_only_the_links_the_named_pass_made_alone(tmp_path: Path):
    # the head-only link goes; the pair that same-words linked too stands on same-words' evidence
    assert kept(tmp_path, "made_by: [same-head]") == {(1, 3): ["same-head", "same-words"]}
    # naming both passes judges both pairs again
    assert kept(tmp_path, "made_by: [same-head, same-words]") == {}
    # links only same-words made: there are none, so nothing goes
    assert kept(tmp_path, "made_by: [same-words]") == {(0, 2): ["same-head"], (1, 3): ["same-head", "same-words"]}


def test_made_by_works_across_an_include(tmp_path: Path):
    write_rules(tmp_path, BASE, name="base.yaml")
    path = write_rules(tmp_path, """
        version: 1
        types: [problem, pronoun]
        passes:
          - include: base.yaml
          - kind: filter
            name: far-head-links
            made_by: [same-head]
            remove_if: [{sentences_apart: {more_than: 1}}]
            examples:
              no_link:
                - "[the cough|problem] came .\\nNothing .\\nNothing .\\n[the dry cough|problem] came ."
              link:
                - "[the cough|problem] came .\\n[the dry cough|problem] came ."
    """, name="learned.yaml")
    from rulecoref.rule_examples import run_examples

    results = run_examples(compile_rules(path), shared_resources())
    assert [r.ok for r in results if r.pass_name == "far-head-links"] == [True, True]


@pytest.mark.parametrize("made_by, hint", [
    ("[same-haed]", "did you mean 'same-head'?"),
    ("[later-pass]", "passes before it: same-words, same-head"),  # a pass after the filter is not one before it
])
def test_an_unknown_or_later_pass_in_made_by_is_rc134_with_file_line_and_hint(tmp_path: Path, made_by: str, hint: str):
    text = BASE + FILTER.format(made_by=f"made_by: {made_by}") + """
  - kind: match
    name: later-pass
    key: head
"""
    path = write_rules(tmp_path, text)
    with pytest.raises(RuleFileError) as err:
        compile_rules(path)
    (d,) = err.value.diagnostics
    assert d.code == "RC134" and d.file == str(path) and d.line == 11 and hint in d.hint
    assert "far-head-links" in d.message


def test_made_by_on_the_first_pass_says_no_pass_comes_before_it(tmp_path: Path):
    path = write_rules(tmp_path, "types: [problem]\npasses:\n  - {kind: filter, remove_if: [overlaps], made_by: [x]}\n")
    with pytest.raises(RuleFileError) as err:
        compile_rules(path)
    (d,) = err.value.diagnostics
    assert d.code == "RC134" and d.hint == "passes before it: none"  # was "passes before it: " (nothing)


def test_made_by_must_be_a_list_of_names(tmp_path: Path):
    with pytest.raises(RuleFileError) as err:
        compile_rules(write_rules(tmp_path, BASE + FILTER.format(made_by="made_by: same-head")))
    assert [d.code for d in err.value.diagnostics] == ["RC104"]
