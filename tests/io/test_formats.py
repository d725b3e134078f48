"""Formats in and out: records of every input format, writers, and the round trips the issue asks
for (i2b2 -> JSONL -> i2b2 gives the same files; brat -> i2b2 keeps every concept)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulecoref.cli import main
from rulecoref.io.formats import ReadOptions, default_abbreviations, find_inputs, parse_types, read_record
from rulecoref.io.i2b2 import read_document
from rulecoref.io.outdir import MANIFEST
from tests.helpers import ROOT, SHARED, needs_shared

EXAMPLES = ROOT / "resources" / "examples"


def _same_tree(a: Path, b: Path) -> None:
    for sub in ("docs", "concepts", "chains"):
        names = sorted(p.name for p in (a / sub).iterdir())
        assert names == sorted(p.name for p in (b / sub).iterdir())
        for name in names:
            assert (a / sub / name).read_bytes() == (b / sub / name).read_bytes(), f"{sub}/{name}"


def _concepts(folder: Path) -> dict[str, list[tuple[str, str]]]:
    """Each record's concepts as (text without spaces, type), in text order."""
    out = {}
    for rec in find_inputs([folder])[0]:
        doc = read_document(rec.txt, rec.con).document
        out[rec.name] = [(c.text.replace(" ", ""), c.type) for c in doc.concepts]
    return out


def _chains(folder: Path) -> dict[str, list[list[int]]]:
    out = {}
    for rec in find_inputs([folder])[0]:
        out[rec.name] = read_record(rec, ReadOptions(), with_chains=True).chains or []
    return out


def test_formats_i2b2_to_jsonl_to_i2b2_gives_the_same_files(tmp_path: Path) -> None:
    jsonl, back = tmp_path / "ex.jsonl", tmp_path / "back"
    assert main(["convert", str(EXAMPLES), str(jsonl), "--to", "jsonl"]) == 0
    assert len(jsonl.read_text().splitlines()) == 4
    assert main(["convert", str(jsonl), str(back)]) == 0
    _same_tree(EXAMPLES, back)


def test_formats_brat_to_i2b2_keeps_every_concept_and_chain(tmp_path: Path) -> None:
    brat, back = tmp_path / "brat", tmp_path / "back"
    assert main(["convert", str(EXAMPLES), str(brat), "--to", "brat"]) == 0
    assert sorted(p.name for p in brat.iterdir() if p.name != MANIFEST)[:3] == ["annotation.conf", "clinical-ex1.ann", "clinical-ex1.txt"]
    assert main(["convert", str(brat), str(back)]) == 0
    assert _concepts(back) == _concepts(EXAMPLES)
    assert _chains(back) == _chains(EXAMPLES)


def test_formats_every_pair_converts_to_the_same_conll(tmp_path: Path) -> None:
    """Each format as a stop on the way i2b2 -> X -> CoNLL: the CoNLL file is the same."""
    direct = tmp_path / "direct.conll"
    assert main(["convert", str(EXAMPLES), str(direct)]) == 0
    for fmt, target in (("jsonl", tmp_path / "x.jsonl"), ("brat", tmp_path / "brat"), ("i2b2", tmp_path / "i2b2")):
        src = EXAMPLES if fmt != "i2b2" else tmp_path / "x.jsonl"
        assert main(["convert", str(src), str(target), "--to", fmt]) == 0, fmt
        out = tmp_path / f"via-{fmt}.conll"
        assert main(["convert", str(target), str(out), "--to", "conll"]) == 0, fmt
        assert out.read_text() == direct.read_text(), fmt
    # and CoNLL back to JSONL, typed by the reference's concepts
    again = tmp_path / "again.jsonl"
    assert main(["convert", str(direct), str(again), "--to", "jsonl", "--default-type", "entity"]) == 0
    assert {c["type"] for line in again.read_text().splitlines() for c in json.loads(line)["concepts"]} == {"entity"}


def test_formats_convert_bad_document_is_reported_and_the_rest_written(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in.jsonl"
    good = {"id": "a", "text": "Chest pain .", "concepts": [{"start": 0, "end": 10, "type": "problem"}]}
    src.write_text(json.dumps(good) + "\n" + json.dumps({**good, "id": "b", "concepts": [{"start": 0, "end": 99, "type": "problem"}]}) + "\n")
    assert main(["convert", str(src), str(tmp_path / "out")]) == 1
    assert "RC202" in capsys.readouterr().err
    assert sorted(p.name for p in (tmp_path / "out" / "docs").iterdir()) == ["a.txt"]


def test_formats_convert_refuses_to_write_over_its_source(tmp_path: Path, capsys) -> None:
    brat = tmp_path / "brat"
    assert main(["convert", str(EXAMPLES), str(brat), "--to", "brat"]) == 0
    before = {p.name: p.read_bytes() for p in brat.iterdir()}
    assert main(["convert", str(brat), str(brat), "--to", "brat"]) == 2
    assert "RC522" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in brat.iterdir()} == before


def test_formats_convert_source_of_no_known_format_is_rc520(tmp_path: Path, capsys) -> None:
    """A folder holding no file of any format: RC520 says what it looked for and how to name one."""
    (tmp_path / "mystery").mkdir()
    (tmp_path / "mystery" / "notes.bin").write_bytes(b"\x00\x01")
    assert main(["convert", str(tmp_path / "mystery"), str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "[RC520] cannot tell the format of" in err and "Hint: name it with --from (i2b2, " in err
    assert not (tmp_path / "out").exists()


def test_formats_brat_records_report_a_missing_partner(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x\n")
    (tmp_path / "a.ann").write_text("")
    (tmp_path / "b.ann").write_text("")
    records, problems = find_inputs([tmp_path], "brat")
    assert [r.name for r in records] == ["a"] and [d.code for d in problems] == ["RC239"]


def test_formats_brat_output_keeps_texts_it_did_not_write(tmp_path: Path, capsys) -> None:
    """A brat output folder's own .txt files go with their .ann; another .txt is kept, and one that
    a document's text would replace stops the run (RC512)."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    args = ["resolve", str(EXAMPLES), "--out", str(out), "--format", "brat", "--rules", str(ROOT / "rules" / "exact.yaml"),
            "--no-progress"]
    assert main(args) == 0 and main([*args, "--overwrite"]) == 0
    assert (out / "notes.txt").read_text() == "mine" and (out / "clinical-ex1.ann").exists()
    (out / "clinical-ex1.txt").unlink()
    (out / "clinical-ex1.txt").write_text("my own text by that name")
    assert main([*args, "--overwrite"]) == 2
    assert "[RC512]" in capsys.readouterr().err and (out / "clinical-ex1.txt").read_text() == "my own text by that name"


def test_formats_default_abbreviations_are_the_bundled_list() -> None:
    abbr = default_abbreviations()
    assert {"dr", "mr"} <= abbr and all(w == w.lower() for w in abbr)


@pytest.mark.shared
@needs_shared("corpora")
@pytest.mark.parametrize("corpus", ["mtsamples", "gum", "litbank", "craft", "gap"])
def test_formats_corpus_slice_round_trips(tmp_path: Path, corpus: str) -> None:
    """Three documents of each development corpus: i2b2 -> JSONL -> i2b2 is byte-identical, and
    i2b2 -> brat -> i2b2 keeps every concept (text and type) and every chain."""
    src = tmp_path / "src"
    for sub, suffix in (("docs", ".txt"), ("concepts", ".txt.con"), ("chains", ".txt.chains")):
        (src / sub).mkdir(parents=True)
        for path in sorted((SHARED / "corpora" / corpus / sub).glob(f"*{suffix}"))[:3]:
            shutil.copy(path, src / sub / path.name)
    assert main(["convert", str(src), str(tmp_path / "x.jsonl"), "--to", "jsonl"]) == 0
    assert main(["convert", str(tmp_path / "x.jsonl"), str(tmp_path / "back")]) == 0
    _same_tree(src, tmp_path / "back")
    assert main(["convert", str(src), str(tmp_path / "brat"), "--to", "brat"]) == 0
    assert main(["convert", str(tmp_path / "brat"), str(tmp_path / "back2")]) == 0
    assert _concepts(tmp_path / "back2") == _concepts(src)
    assert _chains(tmp_path / "back2") == _chains(src)


@pytest.mark.parametrize(("value", "accepted"), [
    (None, ("person", "problem")),  # omitted: the rule file's types
    ("auto", None), (" AUTO ", None),  # any type
    ("Problem, TEST,,", ("problem", "test")),
    (["Problem", " test ", ""], ("problem", "test")),  # the Python API's list, read the same way
])
def test_formats_parse_types_one_reading_for_the_commands_and_the_api(value, accepted) -> None:
    assert parse_types(value, ("person", "problem")) == accepted
