"""``rulecoref resolve`` end to end: outputs, a corrupt document in a batch, the output-folder policy."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulecoref.cli import main
from rulecoref.io.i2b2 import read_chains, read_document
from tests.helpers import ROOT

EXAMPLES = ROOT / "resources" / "examples"
EXACT = str(ROOT / "rules" / "exact.yaml")


def copy_examples(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(EXAMPLES, data, ignore=shutil.ignore_patterns("markup", "chains"))
    return data


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_resolve_writes_one_parseable_chain_file_per_document(tmp_path: Path, jobs: str, capsys) -> None:
    out = tmp_path / "out"
    assert main(["resolve", str(EXAMPLES), "--rules", EXACT, "--out", str(out), "--jobs", jobs, "--no-progress"]) == 0
    summary = capsys.readouterr().out
    assert "4/4 docs" in summary and "chains" in summary
    for con in sorted((EXAMPLES / "concepts").glob("*.con")):
        name = con.name.split(".")[0]
        doc = read_document(EXAMPLES / "docs" / f"{name}.txt", con).document
        concept_lines = {c.i2b2() for c in doc.concepts}
        chains_file = out / f"{name}.txt.chains"
        chains = read_chains(chains_file)
        for line in chains_file.read_text().splitlines():  # mention offsets match the concept file exactly
            assert all(part in concept_lines for part in line.split("||")[:-1])
        assert all(len(ch) >= 2 for ch in chains.chains)
    report = json.loads((out / "rulecoref-report.json").read_text())
    assert report["resolved"] == 4 and report["failed"] == []


def test_resolve_corrupt_document_does_not_stop_the_batch(tmp_path: Path, capsys) -> None:
    data = copy_examples(tmp_path)
    bad = data / "concepts" / "clinical-ex2.txt.con"
    bad.write_text(bad.read_text() + 'c="ghost" 99:0 99:0||t="problem"\n')
    (data / "concepts" / "orphan.txt.con").write_text('c="x" 1:0 1:0||t="problem"\n')
    before = {p: p.read_bytes() for p in data.rglob("*") if p.is_file()}
    out = tmp_path / "out"
    code = main(["resolve", str(data), "--rules", EXACT, "--out", str(out), "--no-progress"])
    assert code == 1
    err = capsys.readouterr().err
    assert f"{bad}:" in err and "[RC202]" in err and "[RC204]" in err
    written = sorted(p.name for p in out.glob("*.txt.chains"))
    assert written == ["clinical-ex1.txt.chains", "clinical-ex3.txt.chains", "clinical-ex4.txt.chains"]
    report = json.loads((out / "rulecoref-report.json").read_text())
    assert sorted(f["document"] for f in report["failed"]) == ["clinical-ex2", "orphan"]
    line = len(bad.read_text().splitlines())
    assert {"code": "RC202", "line": line} .items() <= report["failed"][0]["problems"][0].items()
    assert before == {p: p.read_bytes() for p in data.rglob("*") if p.is_file()}  # inputs untouched


def test_resolve_refuses_to_mix_with_stale_outputs(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["resolve", str(EXAMPLES), "--rules", EXACT, "--out", str(out), "--no-progress"]) == 0
    (out / "notes.md").write_text("keep me\n")
    assert main(["resolve", str(EXAMPLES), "--rules", EXACT, "--out", str(out), "--no-progress"]) == 2
    assert "[RC501]" in capsys.readouterr().err  # an earlier run's chains are not mixed with this run's
    assert main(["resolve", str(EXAMPLES), "--rules", EXACT, "--out", str(out), "--overwrite", "--no-progress"]) == 0
    assert (out / "notes.md").exists()
    (out / "clinical-ex1.txt.chains").write_text("my corrections\n")  # edited since: the user's, not the run's
    assert main(["resolve", str(EXAMPLES), "--rules", EXACT, "--out", str(out), "--overwrite", "--no-progress"]) == 2
    assert "[RC512]" in capsys.readouterr().err and (out / "clinical-ex1.txt.chains").read_text() == "my corrections\n"


def test_resolve_never_replaces_or_deletes_chains_it_did_not_write(tmp_path: Path, capsys) -> None:
    """Chains of another origin in OUT (a copy of the gold, another system's) are never deleted by
    --overwrite nor scored with the run's: RC512 with or without it, and the file is kept."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "old-record.txt.chains").write_text("someone's\n")
    for extra in ([], ["--overwrite"]):
        assert main(["resolve", str(EXAMPLES), "--rules", EXACT, "--out", str(out), "--no-progress", *extra]) == 2
        err = capsys.readouterr().err
        assert "[RC512]" in err and "old-record.txt.chains" in err and "Traceback" not in err
    assert (out / "old-record.txt.chains").read_text() == "someone's\n"


def test_resolve_rule_file_error_exits_2_before_running(tmp_path: Path, capsys) -> None:
    rules = tmp_path / "bad.yaml"
    rules.write_text("passes:\n  - kind: be_phrsae\n")
    assert main(["resolve", str(EXAMPLES), "--rules", str(rules), "--out", str(tmp_path / "o"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert f"{rules}:2: [RC102]" in err and "did you mean 'be_phrase'?" in err
    assert not (tmp_path / "o").exists()


def test_resolve_explicit_files_and_types_option(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    txt = EXAMPLES / "docs" / "clinical-ex1.txt"
    assert main(["resolve", str(txt), "--rules", EXACT, "--out", str(out), "--no-progress", "--types", "person,pronoun"]) == 1
    assert "[RC208]" in capsys.readouterr().err
    assert main(["resolve", str(txt), "--rules", EXACT, "--out", str(out), "--no-progress", "--types", "auto", "--overwrite"]) == 0
    assert (out / "clinical-ex1.txt.chains").exists()


def test_resolve_provenance_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["resolve", str(EXAMPLES), "--rules", EXACT, "--out", str(out), "--provenance", "--no-progress"]) == 0
    data = json.loads((out / "clinical-ex1.links.json").read_text())
    assert data["links"] and data["links"][0]["pass"] == "exact-string"


def test_version_and_help(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and "rulecoref" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["resolve", "--help"])
    assert "--rules" in capsys.readouterr().out
