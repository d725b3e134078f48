"""``rulecoref resolve --format`` / ``--input-format`` / ``--type-map`` end to end."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulecoref.cli import main
from rulecoref.io.brat import read_brat
from tests.helpers import ROOT, SHARED, needs_shared

EXAMPLES = ROOT / "resources" / "examples"
EXACT = str(ROOT / "rules" / "exact.yaml")


def resolve(*args: str) -> int:
    return main(["resolve", "--rules", EXACT, "--no-progress", *args])


def test_resolve_formats_write_the_same_chains_in_every_format(tmp_path: Path) -> None:
    outs = {}
    for fmt in ("i2b2", "jsonl", "brat", "conll"):
        outs[fmt] = tmp_path / fmt
        assert resolve(str(EXAMPLES), "--out", str(outs[fmt]), "--format", fmt) == 0
    chains = {}
    for line in (outs["jsonl"] / "clinical-ex1.jsonl").read_text().splitlines():
        obj = json.loads(line)
        chains["jsonl"] = [c["mentions"] for c in obj["chains"]]
    read = read_brat(outs["brat"] / "clinical-ex1.txt", outs["brat"] / "clinical-ex1.ann")
    chains["brat"] = read.chains
    assert chains["jsonl"] == chains["brat"] and chains["jsonl"]
    assert len(chains["jsonl"]) == len((outs["i2b2"] / "clinical-ex1.txt.chains").read_text().splitlines())
    assert (outs["brat"] / "annotation.conf").is_file()
    assert (outs["conll"] / "clinical-ex1.conll").read_text().startswith("#begin document (clinical-ex1); part 000")


def test_resolve_formats_jsonl_and_brat_inputs_give_the_i2b2_chains(tmp_path: Path) -> None:
    assert resolve(str(EXAMPLES), "--out", str(tmp_path / "ref")) == 0
    assert resolve(str(EXAMPLES), "--out", str(tmp_path / "j"), "--format", "jsonl") == 0
    assert resolve(str(EXAMPLES), "--out", str(tmp_path / "b"), "--format", "brat") == 0
    for fmt, src in (("jsonl", tmp_path / "j"), ("brat", tmp_path / "b")):
        out = tmp_path / f"from-{fmt}"
        assert resolve(str(src), "--input-format", fmt, "--out", str(out)) == 0, fmt
        for ref in sorted((tmp_path / "ref").glob("*.txt.chains")):
            assert (out / ref.name).read_text() == ref.read_text(), (fmt, ref.name)


def test_resolve_formats_type_map_and_a_bad_line_fail_only_that_document(tmp_path: Path, capsys) -> None:
    data = tmp_path / "notes.jsonl"
    note = {"id": "n1", "text": "Chest pain today. The chest pain resolved.",
            "concepts": [{"start": 0, "end": 10, "type": "Disease"}, {"start": 18, "end": 32, "type": "Disease"}]}
    data.write_text(json.dumps(note) + "\nnot json\n" + json.dumps({**note, "id": "n1"}) + "\n")
    tmap = tmp_path / "map.yaml"
    tmap.write_text("types: {Disease: problem}\n")
    out = tmp_path / "out"
    code = resolve(str(data), "--input-format", "jsonl", "--type-map", str(tmap), "--out", str(out))
    assert code == 1
    err = capsys.readouterr().err
    assert "[RC230]" in err and "[RC233]" in err
    assert (out / "n1.txt.chains").read_text() == 'c="chest pain" 1:0 1:1||c="the chest pain" 2:0 2:2||t="coref problem"\n'
    report = json.loads((out / "rulecoref-report.json").read_text())
    assert report["resolved"] == 1 and len(report["failed"]) == 2
    # without the map the type is not declared: RC244, exit 1, nothing written for it
    assert resolve(str(data), "--input-format", "jsonl", "--out", str(tmp_path / "o2")) == 1
    assert "[RC244]" in capsys.readouterr().err


def test_resolve_formats_bad_type_map_stops_before_work(tmp_path: Path, capsys) -> None:
    tmap = tmp_path / "map.yaml"
    tmap.write_text("typos: {}\n")
    assert resolve(str(EXAMPLES), "--type-map", str(tmap), "--out", str(tmp_path / "o")) == 2
    assert "[RC241]" in capsys.readouterr().err and not (tmp_path / "o").exists()


def test_resolve_formats_output_folder_policy(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    assert resolve(str(EXAMPLES), "--out", str(out), "--format", "jsonl") == 0
    assert resolve(str(EXAMPLES), "--out", str(out), "--format", "jsonl") == 2
    assert "[RC526]" in capsys.readouterr().err
    assert resolve(str(EXAMPLES), "--out", str(out), "--format", "jsonl", "--overwrite") == 0
    # brat output never writes over the brat input's texts
    brat = tmp_path / "brat"
    assert resolve(str(EXAMPLES), "--out", str(brat), "--format", "brat") == 0
    before = {p.name: p.read_bytes() for p in brat.iterdir()}
    assert resolve(str(brat), "--input-format", "brat", "--out", str(brat), "--format", "brat", "--overwrite") == 2
    assert "[RC522]" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in brat.iterdir()} == before


@pytest.mark.shared
@needs_shared("corpora", "gum")
def test_resolve_formats_corpus_slice_as_brat_and_jsonl(tmp_path: Path) -> None:
    """Three GUM documents resolved from i2b2, from brat (rulecoref tokenises the text) and from
    JSONL: the same concepts and links, and the JSONL output holds every concept."""
    src = tmp_path / "gum"
    for sub, suffix in (("docs", ".txt"), ("concepts", ".txt.con"), ("chains", ".txt.chains")):
        (src / sub).mkdir(parents=True)
        for path in sorted((SHARED / "corpora" / "gum" / sub).glob(f"*{suffix}"))[:3]:
            shutil.copy(path, src / sub / path.name)
    assert main(["convert", str(src), str(tmp_path / "brat"), "--to", "brat"]) == 0
    assert main(["convert", str(src), str(tmp_path / "gum.jsonl"), "--to", "jsonl"]) == 0
    reports = {}
    for fmt, data in (("i2b2", src), ("brat", tmp_path / "brat"), ("jsonl", tmp_path / "gum.jsonl")):
        out = tmp_path / f"out-{fmt}"
        assert resolve(str(data), "--input-format", fmt, "--types", "auto", "--format", "jsonl", "--out", str(out)) == 0
        reports[fmt] = json.loads((out / "rulecoref-report.json").read_text())
        written = [json.loads(p.read_text()) for p in sorted(out.glob("*.jsonl"))]
        assert len(written) == 3 and sum(len(d["concepts"]) for d in written) == reports[fmt]["concepts"]
    counts = {fmt: (r["concepts"], r["links"], r["chains"]) for fmt, r in reports.items()}
    assert counts["brat"] == counts["i2b2"] == counts["jsonl"], counts
