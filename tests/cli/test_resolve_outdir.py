"""``rulecoref resolve`` with hostile data and output folders (issue 15, cases 6-11): every case ends
in a numbered error or a true report, inputs are never changed, and two runs never mix outputs."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulecoref.cli import main
from tests.helpers import ROOT, read_only_folder

EXAMPLES = ROOT / "resources" / "examples"
EXACT = str(ROOT / "rules" / "exact.yaml")
LOCK = ".rulecoref.lock"


def release(tmp_path: Path, name: str = "data") -> Path:
    data = tmp_path / name
    shutil.copytree(EXAMPLES, data, ignore=shutil.ignore_patterns("markup"))
    return data


def snapshot(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def resolve(*args: str) -> int:
    return main(["resolve", *args, "--rules", EXACT, "--no-progress"])


@pytest.mark.parametrize("layout", ["flat", "release"])
def test_resolve_text_without_concepts_fails_that_document(tmp_path: Path, layout: str, capsys) -> None:
    """Case 6: exit 1, RC216 naming the text, in the report as an input problem; the other documents are written."""
    data = release(tmp_path)
    if layout == "flat":
        flat = tmp_path / "flat"
        flat.mkdir()
        for f in (*data.glob("docs/*"), *data.glob("concepts/*")):
            shutil.copy(f, flat)
        data = flat
    orphan = (data if layout == "flat" else data / "docs") / "orphan.txt"
    orphan.write_text("lonely text .\n")
    out = tmp_path / "out"
    assert resolve(str(data), "--out", str(out)) == 1
    captured = capsys.readouterr()
    assert f"error: {orphan}: [RC216]" in captured.err and "1 input problem(s)" in captured.out
    report = json.loads((out / "rulecoref-report.json").read_text())
    assert (report["documents"], report["resolved"]) == (4, 4)
    assert [(p["code"], p["file"]) for f in report["failed"] for p in f["problems"]] == [("RC216", str(orphan))]
    assert len(list(out.glob("*.txt.chains"))) == 4


def test_resolve_same_document_name_in_two_inputs(tmp_path: Path, capsys) -> None:
    """Case 7: exit 2 with RC217 before any work; nothing is written."""
    a, b = release(tmp_path, "a"), release(tmp_path, "b")
    (b / "docs" / "clinical-ex1.txt").write_text((b / "docs" / "clinical-ex1.txt").read_text() + "One more line .\n")
    out = tmp_path / "out"
    assert resolve(str(a), str(b), "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert "[RC217]" in err and "clinical-ex1" in err and not out.exists()


@pytest.mark.parametrize("sub", ["chains", "concepts", "docs", "chains/inner", "."])
def test_resolve_never_writes_into_an_input(tmp_path: Path, sub: str, capsys) -> None:
    """Case 8: ``--out DATA/chains --overwrite`` (and docs/, concepts/, below them, or a flat input
    folder itself) is RC505, exit 2, and every input file is unchanged."""
    data = release(tmp_path)
    if sub == ".":
        data = tmp_path / "flat"
        data.mkdir()
        for f in (*EXAMPLES.glob("docs/*"), *EXAMPLES.glob("concepts/*"), *EXAMPLES.glob("chains/*")):
            shutil.copy(f, data)
    before = snapshot(data)
    assert resolve(str(data), "--out", str(data / sub), "--overwrite") == 2
    assert "[RC505]" in capsys.readouterr().err
    assert snapshot(data) == before


def test_resolve_output_beside_the_inputs_is_fine(tmp_path: Path) -> None:
    data = release(tmp_path)
    assert resolve(str(data), "--out", str(data / "system")) == 0
    assert len(list((data / "system").glob("*.txt.chains"))) == 4


def test_resolve_output_under_a_file(tmp_path: Path, capsys) -> None:
    """Case 10: exit 2 with one RC508 before any work, no traceback, no report."""
    (tmp_path / "afile").write_text("x")
    assert resolve(str(EXAMPLES), "--out", str(tmp_path / "afile" / "out")) == 2
    err = capsys.readouterr().err
    assert err.count("[RC508]") == 1 and "Traceback" not in err and "clinical-ex" not in err


def test_resolve_read_only_output(capsys) -> None:
    """Case 10: a folder that cannot be written is one RC509 (not a document error blamed on a .con)."""
    read_only = read_only_folder()
    if read_only is None:
        pytest.skip("needs a folder that cannot be written (/sys/kernel)")
    for out in (read_only, read_only / "new-out"):
        assert resolve(str(EXAMPLES), "--out", str(out)) == 2
        err = capsys.readouterr().err
        assert err.count("[RC509]") == 1 and ".con" not in err, err


def test_resolve_unknown_encoding_is_a_usage_error(tmp_path: Path, capsys) -> None:
    """Case 11: ``--encoding bogus`` exits 2 before any work (RC511), not once per document."""
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exc:
        resolve(str(EXAMPLES), "--out", str(out), "--encoding", "bogus")
    assert exc.value.code == 2 and "[RC511]" in capsys.readouterr().err and not out.exists()
    assert resolve(str(EXAMPLES), "--out", str(out), "--encoding", "latin-1") == 0


def test_resolve_locked_output_folder_is_refused_at_once(tmp_path: Path, capsys) -> None:
    """Case 9: a second run into a locked folder stops (RC506 naming the holder) and writes nothing."""
    from rulecoref.io.outdir import OutputLock

    out = tmp_path / "out"
    out.mkdir()
    with OutputLock(out):
        assert resolve(str(EXAMPLES), "--out", str(out), "--overwrite") == 2
        err = capsys.readouterr().err
        assert "[RC506]" in err and "pid " in err
        assert sorted(p.name for p in out.iterdir()) == [LOCK]
    assert resolve(str(EXAMPLES), "--out", str(out)) == 0
    assert not (out / LOCK).exists()


def many_documents(tmp_path: Path, copies: int) -> Path:
    """``copies`` x the four examples under new names: a batch long enough for two runs to overlap."""
    data = tmp_path / "many"
    for sub in ("docs", "concepts"):
        (data / sub).mkdir(parents=True)
    for i in range(copies):
        for f in (EXAMPLES / "docs").glob("*.txt"):
            shutil.copy(f, data / "docs" / f"d{i:03d}{f.name.split('.')[0][-4:]}.txt")
        for f in (EXAMPLES / "concepts").glob("*.con"):
            shutil.copy(f, data / "concepts" / f"d{i:03d}{f.name.split('.')[0][-4:]}.txt.con")
    return data


def start(data: Path, rules: str, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "rulecoref", "resolve", str(data), "--rules", rules, "--out", str(out),
                             "--no-progress", *extra], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.slow
@pytest.mark.parametrize("overwrite", [False, True])
def test_resolve_two_concurrent_runs_never_lose_or_mix_outputs(tmp_path: Path, overwrite: bool) -> None:
    """Case 9 with real processes: two runs of 120 documents started together into one empty
    folder, three times. The two rule files cost the same to start (so the runs really overlap;
    on the code before the lock, 1 to 3 of 8 tries lost or mixed outputs) and link different types (so
    each chains file shows which run wrote it). Each run that exits 0 wrote its whole batch and
    says so; the other exits 2 with RC506 (or RC501 when it came second without --overwrite); the
    folder ends holding one run's batch, none lost, none mixed, and the report is that run's."""
    data = many_documents(tmp_path, 30)
    names = sorted(p.name.split(".")[0] for p in (data / "docs").glob("*.txt"))
    rules = {}
    for key, ctype in (("person", "person"), ("problem", "problem")):
        rules[key] = tmp_path / f"{key}.yaml"
        rules[key].write_text(f"version: 1\npasses:\n  - kind: match\n    key: text_norm\n    applies_to: {{types: [{ctype}]}}\n")
    expected = {}  # what each run writes alone
    for key, path in rules.items():
        ref = tmp_path / f"ref-{key}"
        assert main(["resolve", str(data), "--rules", str(path), "--out", str(ref), "--no-progress"]) == 0
        expected[key] = {p.name: p.read_bytes() for p in ref.glob("*.txt.chains")}
    assert expected["person"] != expected["problem"]
    extra = ("--overwrite",) if overwrite else ()
    for attempt in range(3):
        out = tmp_path / f"out{attempt}"
        runs = {key: start(data, str(path), out, *extra) for key, path in rules.items()}
        results = {k: (p.wait(timeout=120), *p.communicate()) for k, p in runs.items()}
        winners = [k for k, (code, _, _) in results.items() if code == 0]
        assert len(winners) == 1 or (overwrite and len(winners) == 2), results
        for k, (code, stdout, stderr) in results.items():
            if code == 0:
                assert f"{len(names)}/{len(names)} docs" in stdout, (k, stdout)
            else:
                assert code == 2 and ("[RC506]" in stderr or "[RC501]" in stderr), (k, stderr)
        got = {p.name: p.read_bytes() for p in out.glob("*.txt.chains")}
        owners = [k for k, files in expected.items() if got == files]
        assert len(owners) == 1, f"attempt {attempt}: {len(got)} files, mixed or lost"
        assert owners[0] in winners
        report = json.loads((out / "rulecoref-report.json").read_text())
        assert report["resolved"] == len(names) and Path(report["rules"]).stem == owners[0]
        assert not (out / LOCK).exists()


@pytest.mark.slow
def test_resolve_killed_run_leaves_a_stale_lock_that_is_reported(tmp_path: Path) -> None:
    """A run killed with SIGKILL keeps its lock; the next run says it is stale (RC507) and gives the
    command that clears it; after that command the run works."""
    data = many_documents(tmp_path, 50)
    out = tmp_path / "out"
    run = start(data, EXACT, out)
    deadline = time.monotonic() + 60
    while not (out / LOCK).exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    run.send_signal(signal.SIGKILL)
    run.wait()
    assert (out / LOCK).exists()
    done = subprocess.run([sys.executable, "-m", "rulecoref", "resolve", str(data), "--rules", EXACT, "--out", str(out),
                           "--overwrite", "--no-progress"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and "[RC507]" in done.stderr and f"rm {out / LOCK}" in done.stderr
    subprocess.run(["rm", str(out / LOCK)], check=True)
    again = subprocess.run([sys.executable, "-m", "rulecoref", "resolve", str(data), "--rules", EXACT, "--out", str(out),
                            "--overwrite", "--no-progress"], cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
