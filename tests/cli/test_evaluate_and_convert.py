"""``rulecoref evaluate`` and ``rulecoref convert`` end to end (exit codes, table, JSON)."""

from __future__ import annotations

import json
import shutil

from rulecoref.cli import main
from rulecoref.io.outdir import MANIFEST
from tests.helpers import FIXTURES

BASE = FIXTURES / "scorer-cases" / "i2b2"


def gold_copy(tmp_path):
    """The synthetic i2b2 key as one i2b2 folder (docs/, concepts/, chains/)."""
    gold = tmp_path / "gold"
    shutil.copytree(BASE / "docs", gold / "docs")
    shutil.copytree(BASE / "concepts", gold / "concepts")
    shutil.copytree(BASE / "gold" / "chains", gold / "chains")
    return gold


def test_cli_evaluate_table(tmp_path, capsys):
    code = main(["evaluate", str(gold_copy(tmp_path)), str(BASE / "responses" / "S2")])
    out = capsys.readouterr().out
    assert code == 0
    assert "MUC" in out and "CoNLL F1" in out and "0.737" in out


def test_cli_evaluate_json_i2b2_by_type(tmp_path, capsys):
    code = main(["evaluate", str(gold_copy(tmp_path)), str(BASE / "responses" / "S2"), "--mode", "i2b2", "--by-type", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["i2b2_overall"] == 0.764
    assert data["official_xml"]["MucEvaluation"]["precision"] == 0.7
    assert set(data["by_type"]) == {"person", "problem", "test", "treatment"}
    assert set(data["metrics"]) == {"muc", "bcub", "ceafm", "ceafe", "blanc", "pairwise", "exact_links"}


def test_cli_evaluate_concepts_option(capsys):
    code = main(["evaluate", str(BASE / "gold"), str(BASE / "responses" / "S4"), "--concepts", str(BASE / "concepts"),
                 "--mode", "i2b2", "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["i2b2_overall"] == 0.835


def test_cli_evaluate_error_exits_1(tmp_path, capsys):
    gold = gold_copy(tmp_path)
    system = tmp_path / "sys"
    system.mkdir()
    (system / "synth-1.txt.chains").write_text('c="x" 1:0 1:0||c="the patient" 2:0 2:1||t="coref person"\n', encoding="utf-8")
    code = main(["evaluate", str(gold), str(system)])
    err = capsys.readouterr().err
    assert code == 1
    assert "RC701" in err and "synth-1.txt.chains:1" in err


def test_cli_evaluate_missing_system_file_warns(tmp_path, capsys):
    gold = gold_copy(tmp_path)
    system = tmp_path / "sys"
    system.mkdir()
    shutil.copy(BASE / "responses" / "S1" / "chains" / "synth-1.txt.chains", system)
    code = main(["evaluate", str(gold), str(system)])
    captured = capsys.readouterr()
    assert code == 0
    assert "RC703" in captured.err and "synth-2" in captured.err


def test_cli_evaluate_conll_files(capsys):
    cases = FIXTURES / "scorer-cases" / "conll" / "data"
    code = main(["evaluate", str(cases / "TC-A.key"), str(cases / "TC-A-4.response"), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["metrics"]["ceafe"]["recall"] == 2.2 / 3


def test_cli_convert_round_trip(tmp_path, capsys):
    gold = gold_copy(tmp_path)
    key = tmp_path / "key.conll"
    assert main(["convert", str(gold), str(key)]) == 0
    assert key.read_text(encoding="utf-8") == (BASE / "conll" / "key.conll").read_text(encoding="utf-8")
    response = tmp_path / "s2.conll"
    assert main(["convert", str(gold), str(response), "--chains", str(BASE / "responses" / "S2")]) == 0
    assert response.read_text(encoding="utf-8") == (BASE / "conll" / "S2.response.conll").read_text(encoding="utf-8")
    back = tmp_path / "back"
    assert main(["convert", str(response), str(back), "--reference", str(gold)]) == 0
    assert sorted(p.name for p in back.iterdir() if p.name != MANIFEST) == ["chains"]
    capsys.readouterr()
    assert main(["evaluate", str(gold), str(back), "--mode", "i2b2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["i2b2_overall"] == 0.764


def test_cli_convert_without_reference_writes_a_full_folder(tmp_path, capsys):
    out = tmp_path / "plain"
    assert main(["convert", str(BASE / "conll" / "key.conll"), str(out), "--default-type", "entity"]) == 0
    assert sorted(p.name for p in out.iterdir() if p.name != MANIFEST) == ["chains", "concepts", "docs"]
    assert (out / "docs" / "synth-1.txt").read_text(encoding="utf-8") == (BASE / "docs" / "synth-1.txt").read_text(encoding="utf-8")
    assert 't="coref entity"' in (out / "chains" / "synth-1.txt.chains").read_text(encoding="utf-8")
    # The folder is a valid gold folder: it scores itself perfectly.
    capsys.readouterr()
    assert main(["evaluate", str(out), str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["conll_f1"] == 1.0


def test_cli_convert_bad_input_exits_1(tmp_path, capsys):
    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document x\nt\t(1\n#end document\n", encoding="utf-8")
    assert main(["convert", str(bad), str(tmp_path / "out")]) == 1
    assert "RC708" in capsys.readouterr().err


def test_cli_evaluate_does_not_import_passes():
    """Architecture rule: evaluate (and its commands) never import rulecoref.passes."""
    import subprocess
    import sys

    code = ("import sys, rulecoref.evaluate, rulecoref.cli.evaluate, rulecoref.io.conll; "
            "sys.exit(1 if any(m.startswith('rulecoref.passes') for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_cli_evaluate_warns_on_a_gold_mention_with_other_text(tmp_path, capsys):
    """Case 14 end to end: the warning names the gold chains file and line; the exit code stays 0."""
    from tests.helpers import ROOT

    gold = tmp_path / "gold"
    shutil.copytree(ROOT / "resources" / "examples", gold, ignore=shutil.ignore_patterns("markup", "docs"))
    chains = gold / "chains" / "clinical-ex1.txt.chains"
    lines = chains.read_text().splitlines(keepends=True)
    assert 'c="mr. tom baker"' in lines[0]
    lines[0] = lines[0].replace('c="mr. tom baker"', 'c="something else"', 1)
    chains.write_text("".join(lines))
    assert main(["evaluate", str(gold), str(gold)]) == 0
    assert f"{chains}:1: [RC718]" in capsys.readouterr().err
