"""Numbers are checked as finite and in range, in rule files (the compiler) and on the command line
alike, before any document is read (issue 22)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.cli import main
from rulecoref.cli.sweep import MAX_ALPHAS, parse_log_alphas
from rulecoref.errors import CliError, RuleFileError
from rulecoref.rules.compiler import compile_rules
from tests.helpers import ROOT, write_rules

EXAMPLES = ROOT / "resources" / "examples"


@pytest.mark.parametrize(("value", "code"), [(".nan", "RC123"), (".inf", "RC123"), ("-.inf", "RC123"),
                                             ("2", "RC104"), ("0", "RC104")])
def test_numbers_decoder_alpha_in_a_rule_file(tmp_path: Path, value: str, code: str) -> None:
    """Issue 22: ``alpha: .nan`` passed validation, then every document failed with RC550."""
    rules = write_rules(tmp_path, f"decoder:\n  kind: belltree\n  model: m.json\n  alpha: {value}\n")
    with pytest.raises(RuleFileError) as err:
        compile_rules(rules)
    assert [(d.code, d.line) for d in err.value.diagnostics] == [(code, 4)], err.value


def test_numbers_beam_and_pass_parameters_have_bounds(tmp_path: Path) -> None:
    rules = write_rules(tmp_path, "decoder:\n  kind: belltree\n  model: m.json\n  beam: 100000000000000000000000\n"
                                  "passes:\n  - kind: be_phrase\n    params: {max_words_between: 10000000000000}\n"
                                  "attributes:\n  word_match: {prefix_ratio: .nan}\n")
    with pytest.raises(RuleFileError) as err:
        compile_rules(rules)
    assert sorted((d.code, d.line) for d in err.value.diagnostics) == [("RC104", 4), ("RC104", 7), ("RC123", 9)]


def test_numbers_nan_alpha_stops_resolve_before_any_document(tmp_path: Path, capsys) -> None:
    rules = write_rules(tmp_path, "decoder:\n  kind: belltree\n  model: m.json\n  alpha: .nan\n")
    assert main(["resolve", str(EXAMPLES), "--rules", str(rules), "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert f"{rules}:4: [RC123] decoder.alpha: nan is not a finite number" in err and "RC550" not in err


@pytest.mark.parametrize("text", ["nan", "-inf", "1", "-21", "-1:0:nan", "-1e400:0:1", "0:-1:0.1", ",",
                                  "-1:0:0.0000001", "x"])
def test_numbers_log_alphas_refused(text: str) -> None:
    """Issue 22: nan was a RuntimeError, -1:0:0.0000001 ten million decodings."""
    with pytest.raises(CliError) as err:
        parse_log_alphas(text)
    assert err.value.code == "RC553"


def test_numbers_log_alphas_accepted() -> None:
    assert parse_log_alphas("-1:0:0.5") == [-1.0, -0.5, 0.0]
    assert parse_log_alphas("-2,-0.5") == [-2.0, -0.5]
    assert len(parse_log_alphas(f"-1:0:{1 / (MAX_ALPHAS - 1)}")) == MAX_ALPHAS


@pytest.mark.parametrize("argv", [
    ["sweep", "X", "--beam", "0"], ["sweep", "X", "--window", "-2"], ["sweep", "X", "--beam", "1e9"],
    ["train", "X", "--model", "m.json", "--window", "-2"], ["train", "X", "--model", "m.json", "--c", "nan"],
    ["train", "X", "--model", "m.json", "--c", "0"], ["train", "X", "--model", "m.json", "--max-members", "-1"],
    ["train", "X", "--model", "m.json", "--min-count", "-5"], ["resolve", "X", "--out", "o", "--jobs", "100000"],
    ["convert", "a.conll", "out", "--word-column", "-99"], ["umls", "lookup", "x", "--limit", "-1"],
    ["spark-resolve", "X", "--out", "o", "--partitions", "1000000000000"],
])
def test_numbers_options_are_usage_errors(argv: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "[RC553]" in err and "Traceback" not in err


def test_numbers_explain_with_a_5000_digit_position(capsys) -> None:
    assert main(["explain", str(EXAMPLES), "--doc", "clinical-ex1", "9" * 5000 + ":1",
                 "--rules", str(ROOT / "rules" / "exact.yaml")]) == 2
    err = capsys.readouterr().err
    assert "[RC554]" in err and "(5002 characters)" in err and "Traceback" not in err
