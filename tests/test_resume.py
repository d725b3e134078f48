"""``resolve --resume`` (issue 33): a batch killed part way is finished, not redone; over a finished
folder it changes nothing. The kill is a real SIGKILL of a subprocess's whole process group."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from rulecoref.cli import main
from rulecoref.io.outdir import LOCK, MANIFEST
from tests.helpers import ROOT

EXAMPLES = ROOT / "resources" / "examples"
EXACT = str(ROOT / "rules" / "exact.yaml")
REPORT = "rulecoref-report.json"


def _flat_batch(folder: Path, copies: int) -> Path:
    """``copies`` x the four example notes, as a flat folder of NAME.txt + NAME.txt.con."""
    folder.mkdir()
    for k in range(copies):
        for txt in sorted((EXAMPLES / "docs").glob("*.txt")):
            shutil.copyfile(txt, folder / f"c{k}-{txt.name}")
            shutil.copyfile(EXAMPLES / "concepts" / f"{txt.name}.con", folder / f"c{k}-{txt.name}.con")
    return folder


def _files(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.name != REPORT and p.name != MANIFEST}


def _stamps(out: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(out.iterdir())}


def _resolve(*args: str) -> int:
    return main(["resolve", *args, "--rules", EXACT, "--no-progress", "--quiet"])


def test_resume_over_a_finished_folder_redoes_and_changes_nothing(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    assert _resolve(str(EXAMPLES), "--out", str(out), "--provenance") == 0
    before = _stamps(out)
    time.sleep(0.01)  # a rewrite would show in the mtimes
    capsys.readouterr()
    assert _resolve(str(EXAMPLES), "--out", str(out), "--provenance", "--resume") == 0
    assert "4/4 docs done by an earlier run, nothing to resume" in capsys.readouterr().out
    assert _stamps(out) == before and not (out / LOCK).exists()


def test_resume_skips_the_documents_done_and_resolves_the_rest(tmp_path: Path, capsys) -> None:
    """A folder where one document's chains are missing (as after a kill) and a document gained
    --provenance: both are resolved, the other two skipped and left as they were."""
    clean, out = tmp_path / "clean", tmp_path / "out"
    assert _resolve(str(EXAMPLES), "--out", str(clean), "--provenance") == 0
    assert _resolve(str(EXAMPLES), "--out", str(out), "--provenance") == 0
    (out / "clinical-ex2.txt.chains").unlink()
    (out / "clinical-ex3.links.json").unlink()
    kept = (out / "clinical-ex1.txt.chains").stat().st_mtime_ns
    (out / ".clinical-ex2.txt.chains.0123456789ab.tmp").write_text("half a fi", encoding="utf-8")
    (out / ".notes.txt.0123456789ab.tmp").write_text("not rulecoref's", encoding="utf-8")  # no file it names
    assert _resolve(str(EXAMPLES), "--out", str(out), "--provenance", "--resume") == 0
    assert "4/4 docs" in capsys.readouterr().out
    report = json.loads((out / REPORT).read_text(encoding="utf-8"))
    assert (report["documents"], report["resolved"], report["skipped"], report["temporary_files_removed"]) == (4, 4, 2, 1)
    assert (out / "clinical-ex1.txt.chains").stat().st_mtime_ns == kept
    assert {k: v for k, v in _files(out).items() if k != ".notes.txt.0123456789ab.tmp"} == _files(clean)
    assert (out / ".notes.txt.0123456789ab.tmp").exists()


def test_resume_refuses_overwrite_and_an_edited_output(tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    assert _resolve(str(EXAMPLES), "--out", str(out), "--resume", "--overwrite") == 2
    assert "[RC553] --resume" in capsys.readouterr().err
    assert _resolve(str(EXAMPLES), "--out", str(out)) == 0
    (out / "clinical-ex1.txt.chains").write_text("edited by hand\n", encoding="utf-8")
    assert _resolve(str(EXAMPLES), "--out", str(out), "--resume") == 2
    assert "[RC512]" in capsys.readouterr().err  # someone's edit is theirs: never skipped nor replaced
    assert (out / "clinical-ex1.txt.chains").read_text(encoding="utf-8") == "edited by hand\n"


KILLABLE = """
    import sys, time
    from rulecoref import batch
    real = batch.resolve_record
    def slow(*args, **kw):
        time.sleep(0.15)
        return real(*args, **kw)
    batch.resolve_record = slow
    from rulecoref.cli import main
    sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="Linux process groups")
def test_resume_after_sigkill_mid_batch_gives_the_outputs_of_one_clean_run(tmp_path: Path, capsys) -> None:
    data = _flat_batch(tmp_path / "data", 10)  # 40 documents
    clean, out = tmp_path / "clean", tmp_path / "out"
    assert _resolve(str(data), "--out", str(clean), "--provenance") == 0
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(KILLABLE), "resolve", str(data), "--rules", EXACT,
                             "--out", str(out), "--provenance", "--jobs", "2", "--no-progress"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    end = time.monotonic() + 120
    while len(list(out.glob("*.txt.chains"))) < 10 and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)  # the parent and its workers: no finally block runs anywhere
    proc.communicate(timeout=30)
    written = len(list(out.glob("*.txt.chains")))
    assert proc.returncode == -signal.SIGKILL and 10 <= written < 40
    assert not (out / REPORT).exists()
    (out / ".c9-clinical-ex4.txt.chains.0123456789ab.tmp").write_text("half", encoding="utf-8")  # a write cut short
    capsys.readouterr()
    assert _resolve(str(data), "--out", str(out), "--provenance", "--resume") == 2
    err = capsys.readouterr().err
    assert "[RC507]" in err and f"rm {out / LOCK}" in err  # the stale lock, and how to clear it
    (out / LOCK).unlink()
    assert _resolve(str(data), "--out", str(out), "--provenance", "--resume") == 0
    summary = capsys.readouterr().out
    report = json.loads((out / REPORT).read_text(encoding="utf-8"))
    assert report["documents"] == report["resolved"] == 40 and report["failed"] == []
    assert written - 2 <= report["skipped"] <= written and f"{report['skipped']} skipped" in summary
    assert _files(out) == _files(clean)  # chains and links byte for byte, and no temporary file left
