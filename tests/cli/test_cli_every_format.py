"""Every command reads every format: the input format is found from the file or folder when
--input-format is not given, gold chains come from JSONL ``chains`` or brat coreference, and
--type-map is accepted wherever concepts are read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulecoref.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture(scope="module")
def gold(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The examples as JSONL with gold chains (and the brat copy beside it)."""
    folder = tmp_path_factory.mktemp("gold")
    assert main(["convert", str(EXAMPLES), str(folder / "gold.jsonl"), "--to", "jsonl"]) == 0
    assert main(["convert", str(EXAMPLES), str(folder / "brat"), "--to", "brat"]) == 0
    return folder


def conll_f1(out: str) -> float:
    return float(next(line for line in out.splitlines() if line.startswith("CoNLL F1")).split()[2])


def test_resolve_and_evaluate_jsonl_without_input_format(gold: Path, tmp_path: Path, capsys) -> None:
    assert main(["resolve", str(EXAMPLES), "--out", str(tmp_path / "i2b2"), "--no-progress", "-q"]) == 0
    assert main(["evaluate", str(EXAMPLES), str(tmp_path / "i2b2")]) == 0
    reference = conll_f1(capsys.readouterr().out)
    for fmt in ("jsonl", "i2b2", "brat"):
        out = tmp_path / f"out-{fmt}"
        assert main(["resolve", str(gold / "gold.jsonl"), "--out", str(out), "--format", fmt, "--no-progress", "-q"]) == 0
        assert "4/4 docs" in capsys.readouterr().out
        assert main(["evaluate", str(gold / "gold.jsonl"), str(out)]) == 0, fmt
        assert conll_f1(capsys.readouterr().out) == reference, fmt


def test_evaluate_brat_gold_and_a_jsonl_system_file(gold: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["resolve", str(gold / "brat"), "--out", str(out), "--format", "brat", "--no-progress", "-q"]) == 0
    assert main(["evaluate", str(gold / "brat"), str(out)]) == 0
    brat = conll_f1(capsys.readouterr().out)
    assert main(["evaluate", str(gold / "gold.jsonl"), str(gold / "gold.jsonl")]) == 0
    assert conll_f1(capsys.readouterr().out) == 1.0  # the gold against itself
    assert brat > 0.8


def test_inputs_of_two_formats_are_one_error(gold: Path, tmp_path: Path, capsys) -> None:
    assert main(["resolve", str(gold / "gold.jsonl"), str(gold / "brat"), "--out", str(tmp_path / "o")]) == 2
    assert "[RC251]" in capsys.readouterr().err


def test_explain_view_and_learning_commands_read_jsonl(gold: Path, tmp_path: Path, capsys) -> None:
    data = str(gold / "gold.jsonl")
    assert main(["explain", data, "--doc", "clinical-ex3", "mrsa", "methicillin-resistant staphylococcus aureus",
                 "--json"]) == 0
    why = json.loads(capsys.readouterr().out)
    assert why["same_chain"] is True
    assert main(["ablate", data, "--no-progress", "--json"]) == 0
    assert "acronym-initials" in capsys.readouterr().out
    one = tmp_path / "one.jsonl"
    one.write_text((gold / "gold.jsonl").read_text().splitlines()[2] + "\n")
    assert main(["train", str(one), "--model", str(tmp_path / "m.json"), "-q"]) == 0
    assert "from 1/1 docs" in capsys.readouterr().out
    assert main(["sweep", str(one), "--rules", "rules/belltree.yaml", "--model", str(tmp_path / "m.json"),
                 "--log-alphas=0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["documents"] == 1
    assert main(["sweep", str(one), "--rules", "rules/i2b2.yaml", "--log-alphas=0"]) == 2
    assert "[RC556] the rule file's decoder is 'union_find', not belltree" in capsys.readouterr().err
    textless = tmp_path / "textless"  # concepts without their text: nothing to sweep or train on
    (textless / "concepts").mkdir(parents=True)
    (textless / "concepts" / "a.txt.con").write_text('c="pain" 1:0 1:0||t="problem"\n')
    assert main(["sweep", str(textless), "--rules", "rules/belltree.yaml", "--model", str(tmp_path / "m.json"),
                 "--log-alphas=0"]) == 2
    assert "[RC557] no readable documents in" in capsys.readouterr().err
    (tmp_path / "empty.jsonl").write_text("")
    assert main(["train", str(tmp_path / "empty.jsonl"), "--model", str(tmp_path / "m2.json"), "-q"]) == 2
    assert "[RC605] cannot train: no readable documents in" in capsys.readouterr().err
    assert not (tmp_path / "m2.json").exists()
    assert main(["view", data, "--out", str(tmp_path / "html")]) == 0
    assert (tmp_path / "html" / "clinical-ex3.html").is_file()


def test_induce_reads_brat_gold_with_a_type_map(gold: Path, tmp_path: Path, capsys) -> None:
    upper = tmp_path / "brat"
    upper.mkdir()
    for f in (gold / "brat").iterdir():  # labels as another tool writes them
        text = f.read_text()
        if f.suffix == ".ann":
            text = "".join(line.replace("\tproblem ", "\tDISORDER ") + "\n" for line in text.splitlines())
        (upper / f.name).write_text(text)
    type_map = tmp_path / "map.yaml"
    type_map.write_text("types:\n  DISORDER: problem\n")
    assert main(["induce", str(upper), "--type-map", str(type_map), "--out", str(tmp_path / "new.yaml"),
                 "--holdout", "0", "--max-rules", "1", "--no-progress", "-q"]) == 0
    assert (tmp_path / "new.yaml").is_file()
    assert main(["ablate", str(upper), "--type-map", str(type_map), "--no-progress", "--json"]) == 0
