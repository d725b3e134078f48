"""The formats registry (io/formats.py): each format module registers itself, and the commands'
choices and detection come from it, not from lists of names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulecoref.cli import main
from rulecoref.io.formats import Format, formats, get_format, input_formats, output_formats, register_format
from tests.helpers import ROOT

EXAMPLES = ROOT / "resources" / "examples"


def test_registry_every_format_lives_in_its_own_module() -> None:
    names = [f.name for f in formats()]
    assert names[0] == "i2b2" and names[-1] == "conll" and {"brat", "jsonl"} <= set(names)  # detection order
    assert all(type(f).__module__ == f"rulecoref.io.{f.name}" for f in formats())
    assert {"i2b2", "brat", "jsonl"} <= set(input_formats()) and "conll" not in input_formats()  # no types: convert only
    assert {"i2b2", "brat", "jsonl", "conll"} <= set(output_formats())
    with pytest.raises(ValueError, match="rulecoref/io/tsv.py"):
        register_format("tsv")(type("Tsv", (Format,), {}))


def test_registry_gives_the_commands_their_choices(capsys) -> None:
    for command in (["resolve", "--help"], ["convert", "--help"], ["spark-resolve", "--help"]):
        with pytest.raises(SystemExit):
            main(command)
        text = " ".join(capsys.readouterr().out.split())
        assert "brat" in text and "jsonl" in text, command
    with pytest.raises(SystemExit):
        main(["resolve", "x", "--out", "y", "--input-format", "conll"])
    assert "invalid choice: 'conll'" in capsys.readouterr().err


def test_registry_convert_knows_a_source_by_what_each_format_claims(tmp_path: Path) -> None:
    """A concept file is i2b2, an .ann file brat (before the registry, any file but .jsonl was
    read as CoNLL)."""
    brat = tmp_path / "brat"
    assert main(["convert", str(EXAMPLES), str(brat), "--to", "brat"]) == 0
    first = sorted(brat.glob("*.ann"))[0]
    assert main(["convert", str(first), str(tmp_path / "one.jsonl"), "--to", "jsonl"]) == 0
    con = sorted((EXAMPLES / "concepts").glob("*.con"))[0]
    assert main(["convert", str(con), str(tmp_path / "two.jsonl"), "--to", "jsonl"]) == 0
    one, two = (json.loads((tmp_path / f).read_text()) for f in ("one.jsonl", "two.jsonl"))
    # the brat document comes back with its T ids (and its .txt's final newline): the same concepts and chains
    assert [{k: c[k] for k in ("start", "end", "type", "text")} for c in one["concepts"]] == two["concepts"]
    assert [c["id"] for c in one["concepts"]] == [f"T{k + 1}" for k in range(len(two["concepts"]))]
    assert [c["mentions"] for c in one["chains"]] == [c["mentions"] for c in two["chains"]]
    assert one["text"] == two["text"] + "\n"
    assert get_format("conll").detect(tmp_path / "one.jsonl") is True  # any file, asked last
    assert get_format("jsonl").detect(tmp_path / "one.jsonl") is True


def test_registry_convert_from_conll_goes_on_after_a_document_without_reference(tmp_path: Path, capsys) -> None:
    """One document that cannot be converted is reported and the others are written, for every
    pair (CoNLL -> i2b2 used to stop at the first)."""
    conll = tmp_path / "all.conll"
    assert main(["convert", str(EXAMPLES), str(conll)]) == 0
    reference = tmp_path / "reference"
    for sub in ("docs", "concepts"):
        (reference / sub).mkdir(parents=True)
    names = sorted(p.name[: -len(".txt.con")] for p in (EXAMPLES / "concepts").glob("*.con"))
    for name in names[1:]:
        (reference / "docs" / f"{name}.txt").write_bytes((EXAMPLES / "docs" / f"{name}.txt").read_bytes())
        (reference / "concepts" / f"{name}.txt.con").write_bytes((EXAMPLES / "concepts" / f"{name}.txt.con").read_bytes())
    out = tmp_path / "back"
    capsys.readouterr()
    assert main(["convert", str(conll), str(out), "--reference", str(reference)]) == 1
    assert "[RC715]" in capsys.readouterr().err
    assert sorted(p.name for p in (out / "chains").iterdir()) == [f"{n}.txt.chains" for n in names[1:]]
    for name in names[1:]:
        assert (out / "chains" / f"{name}.txt.chains").read_bytes() == (EXAMPLES / "chains" / f"{name}.txt.chains").read_bytes()


@pytest.mark.parametrize("fmt", [f.name for f in formats() if f.reads and f.writes])
def test_registry_every_format_that_reads_and_writes_round_trips_the_gold_chains(tmp_path: Path, fmt: str) -> None:
    """Asked of the registry, so a new format is tested without naming it here: i2b2 -> FMT -> i2b2
    gives back every concept and gold chain file of the examples."""
    there, back = tmp_path / f"examples.{fmt}", tmp_path / "back"
    if not get_format(fmt).one_file:
        there = tmp_path / fmt
    assert main(["convert", str(EXAMPLES), str(there), "--to", fmt]) == 0
    assert main(["convert", str(there), str(back), "--from", fmt, "--to", "i2b2"]) == 0
    for sub, suffix in (("concepts", ".con"), ("chains", ".chains")):
        for gold in sorted((EXAMPLES / sub).glob(f"*{suffix}")):
            assert sorted((back / sub / gold.name).read_text().splitlines()) == sorted(gold.read_text().splitlines())


@pytest.mark.parametrize("fmt", output_formats())
def test_registry_resolve_writes_the_files_each_output_format_declares(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / "out"
    assert main(["resolve", str(EXAMPLES), "--out", str(out), "--format", fmt, "--no-progress", "-q"]) == 0
    names = sorted(p.name[: -len(".txt.con")] for p in (EXAMPLES / "concepts").glob("*.con"))
    for name in names:
        for suffix in get_format(fmt).suffixes:
            assert (out / f"{name}{suffix}").is_file(), (fmt, name, suffix)
    for extra in get_format(fmt).finish_names:
        assert (out / extra).is_file()


def test_registry_convert_of_a_source_no_format_claims_names_every_format_from(tmp_path: Path, capsys) -> None:
    """RC520's hint lists the formats --from takes, from the registry (it was written by hand)."""
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["convert", str(empty), str(tmp_path / "out")]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "[RC520]" in err
    assert f"Hint: name it with --from ({', '.join(f.name for f in formats())})." in err
    assert "conll" in err and "brat" in err
