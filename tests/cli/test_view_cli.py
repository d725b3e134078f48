"""``rulecoref view`` end to end: pages and index, exit codes, the output-folder policy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulecoref.cli import main
from rulecoref.extras import missing
from rulecoref.io.outdir import MANIFEST
from tests.helpers import ROOT
from tests.view.cases import write_case

EXAMPLES = ROOT / "resources" / "examples"
EXACT = str(ROOT / "rules" / "exact.yaml")


def test_view_cli_writes_a_page_per_document_and_a_scored_index(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["resolve", str(EXAMPLES), "--rules", EXACT, "--out", str(out), "--provenance", "--no-progress"]) == 0
    html = tmp_path / "html"
    assert main(["view", str(EXAMPLES), "--system", str(out), "--out", str(html)]) == 0
    assert sorted(p.name for p in html.iterdir() if p.name != MANIFEST) == [
        "clinical-ex1.html", "clinical-ex2.html", "clinical-ex3.html", "clinical-ex4.html", "index.html"]
    index = (html / "index.html").read_text()
    assert index.count('href="clinical-ex') == 4
    if not missing("eval"):
        assert "CoNLL F1: MUC" in index and "need the eval extra" not in index
    page = (html / "clinical-ex1.html").read_text()
    first = json.loads((out / "clinical-ex1.links.json").read_text())["links"][0]  # the page carries provenance
    assert f'"{first["pass"]}","{first["kind"]}","exact.yaml:{first["rule_line"]}"' in page
    assert "http://" not in page and "https://" not in page  # nothing to fetch
    # again: the old pages are not mixed with new ones unless asked
    assert main(["view", str(EXAMPLES), "--out", str(html)]) == 2
    assert "[RC526]" in capsys.readouterr().err
    assert main(["view", str(EXAMPLES), "--out", str(html), "--overwrite"]) == 0


def test_view_cli_without_eval_says_so_on_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data, system = write_case(tmp_path)
    monkeypatch.setattr("rulecoref.view.build.missing", lambda extra: ["numpy"])
    assert main(["view", str(data), "--system", str(system), "--out", str(tmp_path / "html")]) == 0
    index = (tmp_path / "html" / "index.html").read_text()
    assert "need the eval extra" in index and 'data-v="1">1</td>' in index  # the link counts are still there


def test_view_cli_bad_document_is_listed_and_exit_1(tmp_path: Path, capsys) -> None:
    data, system = write_case(tmp_path)
    (data / "docs" / "bad.txt").write_text("x\n")
    (data / "concepts" / "bad.txt.con").write_text('c="y" 9:0 9:0||t="problem"\n')
    html = tmp_path / "html"
    assert main(["view", str(data), "--system", str(system), "--out", str(html)]) == 1
    err = capsys.readouterr().err
    assert "[RC202]" in err
    assert sorted(p.name for p in html.iterdir() if p.name != MANIFEST) == ["case.html", "index.html"]
    assert "not shown: RC202" in (html / "index.html").read_text()


def test_view_cli_missing_system_folder_is_a_usage_error(tmp_path: Path, capsys) -> None:
    assert main(["view", str(EXAMPLES), "--system", str(tmp_path / "nope"), "--out", str(tmp_path / "h")]) == 2
    assert "[RC521]" in capsys.readouterr().err


def test_view_cli_reads_jsonl_input_with_gold_and_jsonl_system(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["resolve", str(EXAMPLES), "--rules", EXACT, "--out", str(out), "--format", "jsonl",
                 "--no-progress"]) == 0
    gold = tmp_path / "gold.jsonl"
    assert main(["convert", str(EXAMPLES), str(gold), "--to", "jsonl"]) == 0
    html = tmp_path / "html"
    assert main(["view", str(gold), "--input-format", "jsonl", "--system", str(out), "--out", str(html)]) == 0
    page = (html / "clinical-ex3.html").read_text()
    assert 'data-diff="missing"' in page and "system chains" in page
