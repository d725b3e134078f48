"""``rulecoref induce``: a rule is learned when the gold chains support it and not when they do not;
the learned file is an ordinary rule file that passes ``rulecoref check`` and copies no training text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from rulecoref.cli import main
from rulecoref.engine import Pipeline
from rulecoref.io.outdir import OutputFile
from rulecoref.learn.ablate import corpus_f1
from rulecoref.learn.corpus import load_gold
from rulecoref.learn.induce import Settings, induce
from rulecoref.learn.writer import write_learned
from rulecoref.markup import parse_markup
from rulecoref.rule_examples import run_examples
from rulecoref.rules.compiler import compile_rules
from tests.helpers import ROOT, shared_resources

from .conftest import head_documents, write_corpus

EXACT = str(ROOT / "rules" / "exact.yaml")


def learn(gold: Path, out: Path, examples: bool = True) -> dict:
    """induce + write_learned as the command runs them, with the session's WordNet."""
    resources = shared_resources()
    base = compile_rules(EXACT)
    docs, _ = load_gold([gold], base.types)
    result = induce(docs, Pipeline(base, resources), Settings())
    return write_learned(result, docs, Path(EXACT), base, OutputFile(out), resources, examples=examples).to_dict()


@pytest.fixture(scope="module")
def learned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict]:
    folder = write_corpus(tmp_path_factory.mktemp("supported"), head_documents(True))
    out = folder.parent / "learned.yaml"
    return folder, out, learn(folder, out)


def test_induce_learns_a_head_rule_the_data_supports(learned):
    supported, out, summary = learned
    learned = [p for p in summary["passes"] if p["kind"] == "match"]
    assert learned and learned[0]["key"] in ("head", "head_base", "head_word", "head_family", "clinical_head_keys")
    assert summary["f1"] > summary["base_f1"] and summary["held_f1"] > summary["held_base_f1"]
    # an ordinary rule file: it compiles, runs in the engine and links what the rule says
    docs, _ = load_gold([supported])
    resources = shared_resources()
    assert corpus_f1(Pipeline(compile_rules(out), resources), docs) > corpus_f1(
        Pipeline(compile_rules(EXACT), resources), docs)


def test_induce_learns_nothing_where_the_data_says_same_heads_differ(unsupported: Path, tmp_path: Path):
    summary = learn(unsupported, tmp_path / "learned.yaml")
    assert [p for p in summary["passes"] if p["kind"] == "match"] == []
    assert summary["f1"] == pytest.approx(summary["base_f1"])


def test_learned_file_passes_check_and_reads_as_plain_rules(learned):
    _, out, _ = learned
    text = out.read_text()
    data = yaml.safe_load(text)
    assert data["passes"][0] == {"include": "rules/exact.yaml"}
    learned = data["passes"][1:]
    assert learned and all(set(p) <= {"kind", "name", "description", "applies_to", "key", "antecedent_key", "require",
                                      "veto", "window", "direction", "remove_if", "made_by", "examples"} for p in learned)
    assert all(re.fullmatch(r"[a-z0-9-]+", p["name"]) and p["description"] for p in learned)
    assert "held back" in text and "doc" in text.split("Held back:")[1].splitlines()[1]  # the split is recorded
    rs = compile_rules(out)
    results = run_examples(rs, shared_resources())
    assert results and all(r.ok for r in results)


def test_examples_are_generated_not_copied_from_training_text(learned, tmp_path: Path):
    supported, out, _ = learned
    training = {c.text for gd in load_gold([supported])[0] for c in gd.doc.concepts}
    examples = [ex for p in yaml.safe_load(out.read_text())["passes"][1:] for group in p.get("examples", {}).values()
                for ex in group]
    assert examples
    for ex in examples:
        doc, _ = parse_markup(ex)
        assert not {c.text for c in doc.concepts} & training
    none = tmp_path / "none.yaml"
    learn(supported, none, examples=False)
    assert "examples:" not in none.read_text()


def test_induce_command_writes_a_file_check_accepts(supported: Path, tmp_path: Path, capsys):
    out = tmp_path / "cli.yaml"
    assert main(["induce", str(supported), "--base", EXACT, "--out", str(out), "--json", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["passes"] and summary["held_back"] and summary["f1"] > summary["base_f1"]
    assert "command: rulecoref" in out.read_text()


def test_induce_refuses_bad_options_and_an_existing_output(supported: Path, tmp_path: Path, capsys):
    out = tmp_path / "x.yaml"
    out.write_text("keep me")
    assert main(["induce", str(supported), "--out", str(out), "--quiet"]) == 2
    assert "[RC513]" in capsys.readouterr().err and out.read_text() == "keep me"  # io/outdir.py's code (was RC574)
    assert main(["induce", str(supported), "--out", str(tmp_path / "y.yaml"), "--min-precision", "1.5"]) == 2
    assert "[RC577]" in capsys.readouterr().err
    empty = tmp_path / "empty"
    (empty / "concepts").mkdir(parents=True)
    (empty / "docs").mkdir()
    (empty / "docs" / "a.txt").write_text("a b\n")
    (empty / "concepts" / "a.txt.con").write_text('c="a" 1:0 1:0||t="problem"\n')
    assert main(["induce", str(empty), "--out", str(tmp_path / "z.yaml"), "--quiet"]) == 2
    assert "[RC571]" in capsys.readouterr().err
    assert main(["induce", str(supported), "--base", str(ROOT / "rules" / "belltree.yaml"),
                 "--out", str(tmp_path / "w.yaml"), "--quiet"]) == 2
    assert "[RC572]" in capsys.readouterr().err
    one = write_corpus(tmp_path / "one", head_documents(True, n=1))
    assert main(["induce", str(one), "--out", str(tmp_path / "v.yaml"), "--quiet"]) == 2
    assert "[RC573] 1 document(s) are too few to hold some back (at least 2 are needed)" in capsys.readouterr().err
    assert main(["induce", str(one), "--out", str(tmp_path / "v.yaml"), "--quiet", "--holdout", "0"]) == 0


def test_induce_learned_file_failing_a_base_example_is_rc576(supported: Path, tmp_path: Path, monkeypatch):
    """A learned pass's failing example is dropped; any other failing example means the learned file
    would not pass ``rulecoref check``: RC576 (a bug to report), and no file is written."""
    from rulecoref.errors import RulecorefError
    from rulecoref.learn import writer
    from rulecoref.rule_examples import ExampleResult

    failed = ExampleResult("exact.yaml", 3, "not-a-learned-pass", "link", "[a|problem] and [a|problem]", False)
    monkeypatch.setattr(writer, "run_examples", lambda ruleset, resources: [failed])
    out = tmp_path / "learned.yaml"
    with pytest.raises(RulecorefError) as err:
        learn(supported, out)
    assert err.value.codes == ["RC576"] and "does not pass its own check" in str(err.value) and not out.exists()
