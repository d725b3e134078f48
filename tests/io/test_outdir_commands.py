"""Every command that writes (view, convert, train, umls load, resolve's formats) goes through one
output module: never an input, never under a file, a read-only folder or a full disk a numbered
error, a file that rulecoref did not write never replaced or deleted (issue 22).

A full disk is simulated in-process (``disk_full_after``: the writes fail with ENOSPC, as a full
disk makes them fail); ``test_outputs_on_a_real_full_tmpfs`` mounts a 64 kB tmpfs where it may
(root on Linux) and skips elsewhere.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulecoref.cli import main
from rulecoref.io.outdir import MANIFEST
from tests.helpers import ROOT, read_only_folder
from tests.io.test_outdir import disk_full_after

EXAMPLES = ROOT / "resources" / "examples"
EXACT = str(ROOT / "rules" / "exact.yaml")
UMLS = ROOT / "tests" / "fixtures" / "umls" / "MRCONSO.RRF"
READ_ONLY = read_only_folder()


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture()
def data(tmp_path: Path) -> Path:
    """A copy of the examples, which a test may try to damage."""
    shutil.copytree(EXAMPLES, tmp_path / "data", ignore=shutil.ignore_patterns("markup"))
    return tmp_path / "data"


def test_outputs_convert_never_replaces_a_gold_file(data: Path, capsys) -> None:
    """Issue 22: ``convert DATA DATA/concepts/X.txt.con --to jsonl`` replaced the gold concepts."""
    before = files_of(data)
    for target, fmt in ((data / "concepts" / "clinical-ex1.txt.con", "jsonl"), (data / "docs" / "clinical-ex1.txt", "conll"),
                        (data / "concepts" / "new.jsonl", "jsonl")):
        assert main(["convert", str(data), str(target), "--to", fmt, "--overwrite"]) == 2
        err = capsys.readouterr().err
        assert ("[RC522]" in err or "[RC505]" in err) and "Traceback" not in err
    assert main(["convert", str(data), str(data / "chains"), "--to", "brat"]) == 2
    assert "[RC505]" in capsys.readouterr().err
    assert files_of(data) == before


def test_outputs_convert_never_writes_over_a_folder_or_file_it_did_not_write(data: Path, tmp_path: Path, capsys) -> None:
    jsonl = tmp_path / "ex.jsonl"
    assert main(["convert", str(data), str(jsonl), "--to", "jsonl"]) == 0
    gold = tmp_path / "gold"
    shutil.copytree(data, gold)
    before = files_of(gold)
    assert main(["convert", str(jsonl), str(gold)]) == 2  # JSONL -> i2b2 into someone's i2b2 folder
    assert "[RC512]" in capsys.readouterr().err and files_of(gold) == before
    other = tmp_path / "other.jsonl"
    other.write_text("my own notes\n")
    assert main(["convert", str(data), str(other), "--to", "jsonl"]) == 2
    assert "[RC513]" in capsys.readouterr().err and other.read_text() == "my own notes\n"
    assert main(["convert", str(data), str(other), "--to", "jsonl", "--overwrite"]) == 0
    back = tmp_path / "back"
    assert main(["convert", str(jsonl), str(back)]) == 0
    assert main(["convert", str(jsonl), str(back)]) == 2  # an earlier convert's files: --overwrite replaces them
    assert "[RC526]" in capsys.readouterr().err
    assert main(["convert", str(jsonl), str(back), "--overwrite"]) == 0
    assert files_of(back / "concepts") == files_of(data / "concepts")


def test_outputs_view_of_a_document_named_index(tmp_path: Path, capsys) -> None:
    """Issue 22: the index page replaced the page of a document named ``index``."""
    corpus = tmp_path / "corpus"
    for sub, suffix in (("docs", ".txt"), ("concepts", ".txt.con")):
        (corpus / sub).mkdir(parents=True)
        shutil.copy(EXAMPLES / sub / f"clinical-ex1{suffix}", corpus / sub / f"index{suffix}")
        shutil.copy(EXAMPLES / sub / f"clinical-ex2{suffix}", corpus / sub / f"other{suffix}")
    html = tmp_path / "html"
    assert main(["view", str(corpus), "--out", str(html)]) == 0
    assert "2/2 page(s)" in capsys.readouterr().out
    assert sorted(p.name for p in html.iterdir() if p.name != MANIFEST) == ["index.doc.html", "index.html", "other.html"]
    index = (html / "index.html").read_text()
    assert 'href="index.doc.html"' in index and 'href="other.html"' in index
    assert "<h1>index</h1>" in (html / "index.doc.html").read_text()


def test_outputs_view_overwrite_deletes_only_its_own_pages(tmp_path: Path, capsys) -> None:
    """Issue 22: ``view --overwrite`` deleted every .html of the folder, also pages it never wrote."""
    html = tmp_path / "html"
    html.mkdir()
    (html / "mine.html").write_text("<p>my notes</p>")
    assert main(["view", str(EXAMPLES), "--out", str(html)]) == 0
    assert main(["view", str(EXAMPLES), "--out", str(html), "--overwrite"]) == 0
    assert (html / "mine.html").read_text() == "<p>my notes</p>"
    (html / "clinical-ex1.html").unlink()
    (html / "clinical-ex1.html").write_text("<p>a page of my own, by that name</p>")
    assert main(["view", str(EXAMPLES), "--out", str(html), "--overwrite"]) == 2
    assert "[RC512]" in capsys.readouterr().err
    assert (html / "clinical-ex1.html").read_text() == "<p>a page of my own, by that name</p>"


def _writers(out: Path) -> list[list[str]]:
    """A command line of every command that writes, each into ``out``."""
    return [["view", str(EXAMPLES), "--out", str(out)],
            ["convert", str(EXAMPLES), str(out), "--to", "brat"],
            ["convert", str(EXAMPLES), str(out / "x.jsonl"), "--to", "jsonl"],
            ["convert", str(EXAMPLES), str(out / "x.conll")],
            ["train", str(EXAMPLES), "--model", str(out / "m.json"), "--min-count", "1"],
            ["umls", "load", str(UMLS), "--db", str(out / "u.sqlite"), "--no-progress"],
            ["resolve", str(EXAMPLES), "--rules", EXACT, "--out", str(out / "r"), "--format", "brat", "--no-progress"]]


@pytest.mark.parametrize("k", range(7))
def test_outputs_under_a_file_is_a_numbered_error(tmp_path: Path, capsys, k: int) -> None:
    (tmp_path / "afile").write_text("x")
    assert main(_writers(tmp_path / "afile")[k]) in (1, 2)
    err = capsys.readouterr().err
    assert "[RC508]" in err and "Traceback" not in err
    assert (tmp_path / "afile").read_text() == "x"


@pytest.mark.skipif(READ_ONLY is None, reason="needs a folder that cannot be written (/sys/kernel)")
@pytest.mark.parametrize("k", range(7))
def test_outputs_read_only_folder_is_a_numbered_error(capsys, k: int) -> None:
    assert main(_writers(READ_ONLY)[k]) in (1, 2)
    err = capsys.readouterr().err
    assert "[RC509]" in err and "Traceback" not in err


@pytest.mark.parametrize("k", [0, 1, 2, 3, 6])
def test_outputs_full_disk_is_rc510_naming_the_file_and_leaves_no_temporary_file(tmp_path: Path, monkeypatch,
                                                                                 capsys, k: int) -> None:
    out = tmp_path / "out"
    disk_full_after(monkeypatch, 0 if k in (2, 3) else 2)  # a folder's claim and one file get written, then it is full
    assert main(_writers(out)[k]) == 1
    err = capsys.readouterr().err
    assert "[RC510]" in err and "No space left on device" in err and "Traceback" not in err
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp") or p.name == ".rulecoref.lock"]


def test_outputs_brat_annotation_conf_on_a_full_disk(tmp_path: Path, monkeypatch, capsys) -> None:
    """Issue 22: brat output's annotation.conf on a full disk was a traceback."""
    disk_full_after(monkeypatch, 0, only="annotation.conf")
    out = tmp_path / "out"
    assert main(["resolve", str(EXAMPLES), "--rules", EXACT, "--out", str(out), "--format", "brat", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert f"[RC510] cannot write '{out / 'annotation.conf'}'" in err and "Traceback" not in err
    report = json.loads((out / "rulecoref-report.json").read_text())
    assert report["resolved"] == 4 and report["failed"][0]["problems"][0]["code"] == "RC510"


def test_outputs_train_never_replaces_what_is_not_a_model(tmp_path: Path, capsys) -> None:
    notes = tmp_path / "notes.json"
    notes.write_text('{"my": "notes"}')
    assert main(["train", str(EXAMPLES), "--model", str(notes), "--min-count", "1"]) == 2
    assert "[RC512]" in capsys.readouterr().err and notes.read_text() == '{"my": "notes"}'
    assert main(["train", str(EXAMPLES), "--model", str(EXAMPLES / "concepts" / "clinical-ex1.txt.con")]) == 2
    assert "[RC522]" in capsys.readouterr().err
    assert main(["train", str(EXAMPLES), "--model", str(EXAMPLES / "docs" / "new.json")]) == 2
    assert "[RC505]" in capsys.readouterr().err


@pytest.mark.slow
def test_outputs_train_replaces_its_own_model(tmp_path: Path) -> None:
    pytest.importorskip("sklearn", reason="train needs the belltree extra")
    model = tmp_path / "m.json"
    for _ in range(2):  # training again over one's model is the usual thing
        assert main(["train", str(EXAMPLES), "--model", str(model), "--min-count", "1", "-q"]) == 0


@contextlib.contextmanager
def full_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 64 kB tmpfs filled to the last block (root on Linux), or a skip."""
    mnt = tmp_path / "full"
    mnt.mkdir()
    if shutil.which("mount") is None or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)],
                                                         capture_output=True).returncode != 0:
        pytest.skip("needs to mount a tmpfs (root on Linux)")
    try:
        with open(mnt / ".filler", "wb", buffering=0) as fh:
            with contextlib.suppress(OSError):
                while True:
                    fh.write(b"x" * 1024)
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def test_outputs_on_a_real_full_tmpfs(tmp_path: Path, capsys) -> None:
    with full_tmpfs(tmp_path) as full:
        for k in (0, 1, 2, 5, 6):
            code = main(_writers(full / f"w{k}")[k] if k in (0, 1, 6) else _writers(full)[k])
            err = capsys.readouterr().err
            assert code in (1, 2) and ("No space left on device" in err or "disk is full" in err), (k, err)
            assert "Traceback" not in err
            assert not [p for p in full.rglob("*") if p.name.endswith(".tmp")], k


def test_outputs_induce_and_ablate_search_never_write_over_what_they_read(data: Path, tmp_path: Path, capsys) -> None:
    """Issue 23: their --out goes through io/outdir.py's OutputFile like convert's and train's
    (before, only an "exists" check of their own, RC574, so --overwrite replaced the rule file read)."""
    rules = tmp_path / "mine.yaml"
    rules.write_text(Path(EXACT).read_text(encoding="utf-8"), encoding="utf-8")
    before = files_of(data)
    for command in (["ablate", str(data), "--rules", str(rules), "--search", "--out", str(rules), "--overwrite"],
                    ["induce", str(data), "--base", str(rules), "--out", str(rules), "--overwrite"],
                    ["induce", str(data), "--out", str(data / "chains" / "new.yaml")]):
        assert main([*command, "--quiet"]) == 2, command
        err = capsys.readouterr().err
        assert "[RC522]" in err or "[RC505]" in err, (command, err)
    assert rules.read_text(encoding="utf-8") == Path(EXACT).read_text(encoding="utf-8") and files_of(data) == before
    kept = tmp_path / "kept.yaml"
    kept.write_text("keep me", encoding="utf-8")
    assert main(["ablate", str(data), "--search", "--out", str(kept), "--quiet"]) == 2
    assert "[RC513]" in capsys.readouterr().err and kept.read_text(encoding="utf-8") == "keep me"
