"""``rulecoref ablate`` (what each pass adds) and ``ablate --search`` (moves, switches off and numbers,
written as edits of the original file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from rulecoref.cli import main
from rulecoref.errors import RuleFileError
from rulecoref.io.outdir import OutputFile
from rulecoref.learn.ablate import ablate, dependents
from rulecoref.learn.corpus import load_gold
from rulecoref.learn.rewrite import RuleText
from rulecoref.learn.search import search_rules, steps
from rulecoref.rules.compiler import compile_rules
from tests.helpers import ROOT, SHARED, needs_shared, shared_resources, write_rules

TWO_PASSES = """
    version: 1
    name: two
    passes:
      # the same words
      - kind: match
        name: exact-string
        key: text_norm

      # the same head word, any distance
      - kind: match
        name: same-head
        key: head
        veto: [overlaps]
"""


def test_ablate_counts_each_pass_links_and_its_precision(supported: Path, unsupported: Path, tmp_path: Path):
    rules = compile_rules(write_rules(tmp_path, TWO_PASSES))
    good = ablate(load_gold([supported])[0], rules, shared_resources())
    head = next(p for p in good.passes if p.name == "same-head")
    assert (head.links, head.correct, head.only_it) == (24, 24, 24) and head.precision == 1.0
    assert head.conll_f1_without < good.conll_f1
    bad = ablate(load_gold([unsupported])[0], rules, shared_resources())
    head = next(p for p in bad.passes if p.name == "same-head")
    assert (head.links, head.correct, head.only_it) == (24, 0, 0) and head.precision == 0.0
    assert head.conll_f1_without > bad.conll_f1
    assert [p["name"] for p in bad.to_dict()["passes"]] == ["exact-string", "same-head"]


def test_ablate_leaves_out_the_passes_that_need_a_pass_with_it():
    rs = compile_rules(ROOT / "rules" / "i2b2.yaml")
    assert "pronoun-salience" in dependents(rs.passes, "people-roles")
    assert dependents(rs.passes, "exact-string") == []


def test_ablate_command_prints_a_table_and_json(supported: Path, capsys):
    assert main(["ablate", str(supported), "--rules", str(ROOT / "rules" / "exact.yaml"), "--json", "-q"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["passes"][0]["name"] == "exact-string" and report["documents"] == 12
    assert main(["ablate", str(supported), "--rules", str(ROOT / "rules" / "exact.yaml"), "-q"]) == 0
    assert "F1 without" in capsys.readouterr().out


def test_search_switches_off_a_pass_that_hurts_and_says_why(unsupported: Path, tmp_path: Path):
    path = write_rules(tmp_path, TWO_PASSES)
    result = search_rules(path, compile_rules(path), load_gold([unsupported])[0], shared_resources())
    assert [c.describe() for c in result.changes][:1] == ["switched off 'same-head'"]
    assert result.final_f1 > result.start_f1 and result.held_final_f1 > result.held_start_f1
    out = tmp_path / "out" / "searched.yaml"
    result.write(OutputFile(out))
    text = out.read_text()
    assert "# ablate --search: switched off 'same-head'" in text and "# the same head word" in text
    assert [p.name for p in compile_rules(out).passes] == ["exact-string"]


def test_search_keeps_a_file_whose_passes_all_help(supported: Path, tmp_path: Path):
    path = write_rules(tmp_path, TWO_PASSES)
    result = search_rules(path, compile_rules(path), load_gold([supported])[0], shared_resources())
    assert result.changes == [] and result.final_f1 == result.start_f1


def test_rewrite_moves_blocks_sets_numbers_and_fixes_paths(tmp_path: Path):
    text = RuleText(ROOT / "rules" / "i2b2.yaml")
    blocks = text.blocks
    x_is_y = next(b.index for b in blocks if b.entry.get("name") == "x-is-y")
    head = next(b.index for b in blocks if b.entry.get("name") == "head-and-synonym")
    people = next(b.index for b in blocks if b.include)
    order = [k for k in range(len(blocks)) if k != x_is_y] + [x_is_y]
    out = tmp_path / "moved.yaml"
    out.write_text(text.render(order, dropped={people}, numbers={(x_is_y, ("params", "max_words_between")): 3,
                                                                 (head, ("window", "sentences")): 10},
                               notes={x_is_y: ["moved to the end"]}, out=out))
    rs = compile_rules(out)
    names = [p.name for p in rs.passes]
    assert names[-1] == "x-is-y" and "pronoun-salience" not in names
    assert rs.passes[-1].params["max_words_between"] == 3
    assert next(p for p in rs.passes if p.name == "head-and-synonym").rule["window"] == {"sentences": 10}
    assert "# ablate --search: moved to the end" in out.read_text()
    assert yaml.safe_load(out.read_text())["attributes"]["common_words"] == "resources/lexicons/common_words.txt"


@pytest.mark.parametrize("value,kind,lo,hi,window,want", [
    (4, "int", 1, None, False, [2, 3, 5, 6, 8]),
    (1, "int", 0, None, False, [0, 2, 3]),
    (0, "int", 0, None, True, [1, 3, 10]),
    (-1, "int", -1, None, False, [0, 1, 2, 5, 10]),
    (0.8, "float", 0.1, 1.0, False, [0.7, 0.75, 0.85, 0.9]),
])
def test_search_steps_stay_in_the_declared_range(value, kind, lo, hi, window, want):
    assert steps(value, kind, lo, hi, window=window) == want


@pytest.mark.slow
@pytest.mark.shared
@needs_shared("corpora", "gum")
def test_ablate_gum_prints_the_per_pass_table(capsys):
    assert main(["ablate", str(SHARED / "corpora" / "gum"), "--types", "auto", "--json", "-q"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = {p["name"]: p for p in report["passes"]}
    assert report["documents"] == 35 and 0.7 < report["conll_f1"] < 0.8
    assert rows["exact-string"]["links"] > 1000 and 0.5 < rows["exact-string"]["precision"] <= 1
    assert rows["exact-string"]["conll_f1_without"] < report["conll_f1"]


def test_rewrite_refuses_a_file_it_cannot_edit_line_by_line_rc578(tmp_path: Path):
    """--search rewrites passes written as '- key: value' blocks; a flow mapping or no passes: list
    stops it with RC578 rather than a rewrite that loses text."""
    flow = write_rules(tmp_path, "passes:\n  - {kind: match, key: text_norm}\n", "flow.yaml")
    with pytest.raises(RuleFileError) as err:
        RuleText(flow)
    assert err.value.codes == ["RC578"] and err.value.diagnostics[0].line == 2
    with pytest.raises(RuleFileError) as err:
        RuleText(write_rules(tmp_path, "types: [problem]\n", "none.yaml"))
    assert err.value.codes == ["RC578"] and "no passes: list" in str(err.value)


ANCHORED = """
    version: 1
    name: anchored
    passes:
      - kind: match
        name: exact-string
        key: text_norm
        veto: [{negation_differs: {types: &findings [problem, treatment]}}]

      - kind: match
        name: same-head
        key: head
        veto: [overlaps, {negation_differs: {types: *findings}}]  # 'quoted *not_an_alias'

      - kind: filter
        name: far-apart
        remove_if: [{sentences_apart: {more_than: 3}}]
"""


def test_search_never_moves_a_pass_above_the_anchor_it_uses(tmp_path: Path):
    """``*findings`` before ``&findings`` is a YAML error: such an order is no candidate, any other is."""
    from rulecoref.learn.search import Config, candidates, units_of

    path = write_rules(tmp_path, ANCHORED)
    text = RuleText(path)
    assert [(sorted(b.anchors), sorted(b.aliases)) for b in text.blocks] == [
        (["findings"], []), ([], ["findings"]), ([], [])]
    assert text.loads_in([0, 2, 1]) and text.loads_in([2, 0, 1]) and not text.loads_in([1, 0, 2])
    units = units_of(compile_rules(path), text)
    orders = {ch.config.order for ch in candidates(units, Config((0, 1, 2)), text) if ch.what == "move"}
    assert (0, 2, 1) in orders and (1, 2, 0) not in orders  # same-head after the filter; exact-string not
    assert all(o.index(0) < o.index(1) for o in orders)
    for order in orders:  # every candidate order writes a file that loads
        out = tmp_path / "moved.yaml"
        out.write_text(text.render(list(order), out=out))
        compile_rules(out)
