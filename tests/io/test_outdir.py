"""The output folder: checked before any work, locked for a run, stale locks reported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulecoref.errors import CliError, OutputError
from rulecoref.io.outdir import (
    LOCK,
    MANIFEST,
    Inputs,
    OutputFile,
    OutputFolder,
    OutputLock,
    check_out_dir,
    make_out_dir,
)
from tests.helpers import read_only_folder

READ_ONLY = read_only_folder()
needs_read_only = pytest.mark.skipif(READ_ONLY is None, reason="needs a folder that cannot be written (/sys/kernel)")


def code_of(fn, *args) -> str:
    with pytest.raises(CliError) as err:  # OutputError is a CliError
        fn(*args)
    return err.value.code


def test_outdir_under_a_file_and_a_file(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    assert code_of(check_out_dir, tmp_path / "afile" / "out") == "RC508"
    assert code_of(check_out_dir, tmp_path / "afile") == "RC508"
    check_out_dir(tmp_path / "new" / "deeper")  # a folder that can be made is fine
    assert not (tmp_path / "new").exists()  # and checking makes nothing


@needs_read_only
def test_outdir_read_only(tmp_path: Path) -> None:
    assert code_of(check_out_dir, READ_ONLY) == "RC509"
    assert code_of(make_out_dir, READ_ONLY / "new-out") == "RC509"


def test_outdir_refuses_input_folders(tmp_path: Path) -> None:
    data = tmp_path / "data"
    inputs = ({data, data / "chains", data / "docs"}, {data / "chains", data / "docs"})
    for bad in (data, data / "chains", data / "chains" / "sub", data / "docs"):
        assert code_of(check_out_dir, bad, inputs) == "RC505", bad
    check_out_dir(data / "out", inputs)  # beside the inputs, not among them
    check_out_dir(tmp_path / "out", inputs)


def test_outdir_lock_is_exclusive_and_released(tmp_path: Path) -> None:
    first = OutputLock(tmp_path).acquire()
    holder = json.loads((tmp_path / LOCK).read_text())
    assert holder["pid"] == os.getpid()
    with pytest.raises(CliError) as err:
        OutputLock(tmp_path).acquire()
    assert err.value.code == "RC506" and f"pid {os.getpid()}" in str(err.value)
    first.release()
    assert not (tmp_path / LOCK).exists()
    with OutputLock(tmp_path):
        assert (tmp_path / LOCK).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no temporary file left either


def test_outdir_stale_lock_is_reported_with_the_command_that_clears_it(tmp_path: Path) -> None:
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(gone.stdout)
    lock = OutputLock(tmp_path)
    lock.acquire()
    data = json.loads(lock.path.read_text())
    lock.path.write_text(json.dumps({**data, "pid": pid, "token": "x"}))  # as a killed run leaves it
    lock.held = False
    with pytest.raises(CliError) as err:
        OutputLock(tmp_path).acquire()
    d = err.value.diagnostics[0]
    assert d.code == "RC507" and f"rm {tmp_path / LOCK}" in d.hint
    (tmp_path / LOCK).unlink()  # the command the hint gives
    OutputLock(tmp_path).acquire().release()


def test_outdir_release_leaves_another_runs_lock(tmp_path: Path) -> None:
    lock = OutputLock(tmp_path).acquire()
    lock.path.write_text(json.dumps({"pid": 1, "token": "someone else"}))
    lock.release()
    assert lock.path.exists()


# -- writing: one atomic writer, folders and files that never touch what rulecoref did not write ----

def disk_full_after(monkeypatch: pytest.MonkeyPatch, n: int, only: str | None = None) -> list[str]:
    """Make writes fail with ENOSPC after ``n`` of them (or the writes of files named ``only``), as a
    full disk does; the file system is untouched (a real full tmpfs is in tests/io/test_outdir_commands.py)."""
    import errno

    from rulecoref.io import outdir

    real = outdir._write_fd
    done: list[str] = []

    def write(fd: int, data: bytes) -> None:
        name = os.readlink(f"/proc/self/fd/{fd}") if os.path.exists(f"/proc/self/fd/{fd}") else ""
        if (only is None and len(done) >= n) or (only is not None and f".{only}." in name):
            os.close(fd)
            raise OSError(errno.ENOSPC, "No space left on device")
        done.append(name)
        real(fd, data)

    monkeypatch.setattr(outdir, "_write_fd", write)
    return done


def test_outdir_write_atomic_full_disk_is_rc510_and_leaves_the_old_file(tmp_path: Path, monkeypatch) -> None:
    from rulecoref.io.outdir import write_atomic

    target = tmp_path / "a.txt.chains"
    write_atomic(target, "old\n")
    disk_full_after(monkeypatch, 0)
    with pytest.raises(OutputError) as err:
        write_atomic(target, "new\n")
    d = err.value.diagnostics[0]
    assert d.code == "RC510" and d.file == str(target) and "No space left" in d.message
    assert target.read_text() == "old\n" and sorted(p.name for p in tmp_path.iterdir()) == ["a.txt.chains"]
    with pytest.raises(OutputError) as bad:  # a character no file can hold: nothing is created
        write_atomic(tmp_path / "b.txt", "\ud800")
    assert bad.value.code == "RC510" and not (tmp_path / "b.txt").exists()


def _folder(path: Path, **kw) -> OutputFolder:
    return OutputFolder(path, "view", what="page(s)", **kw)


def test_outdir_folder_claims_refuse_foreign_files_and_overwrite_only_its_own(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with _folder(out).open(["a.html", "index.html"]) as first:
        first.write("a.html", "a")
        first.write("index.html", "i")
    assert (out / MANIFEST).read_text().count("\n") == 3  # the header and the two files
    (out / "mine.html").write_text("someone's page")
    with pytest.raises(OutputError) as stale:  # an earlier run's pages: refused without --overwrite
        _folder(out).open(["a.html", "index.html"])
    assert stale.value.code == "RC526" and not (out / LOCK).exists()
    with _folder(out, overwrite=True).open(["b.html", "index.html"]) as again:
        assert not (out / "a.html").exists()  # the earlier run's, deleted
        again.write("b.html", "b")
    assert (out / "mine.html").read_text() == "someone's page"  # never its to delete
    with pytest.raises(OutputError) as foreign:  # a page of the same name that rulecoref did not write
        _folder(out, overwrite=True).open(["mine.html"])
    assert foreign.value.code == "RC512" and (out / "mine.html").read_text() == "someone's page"


def test_outdir_folder_never_writes_an_input_nor_follows_a_forged_manifest(tmp_path: Path) -> None:
    gold = tmp_path / "gold.txt.chains"
    gold.write_text("gold\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "x.txt.chains").symlink_to(gold)
    with pytest.raises(OutputError) as err:
        OutputFolder(out, "resolve:i2b2", inputs=Inputs([gold])).open(["x.txt.chains"])
    assert err.value.code == "RC522"
    (out / "x.txt.chains").unlink()
    (tmp_path / "precious").write_text("keep")
    (out / MANIFEST).write_text('["view", "../precious"]\n["view", "/etc/hostname"]\n[1, 2]\n{"a": \n')
    with _folder(out, overwrite=True).open(["index.html"]):
        pass
    assert (tmp_path / "precious").read_text() == "keep"


def test_outdir_folder_exclusive_suffix_and_adopting_an_older_folder(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "other.txt.chains").write_text("another system's\n")
    resolve = {"exclusive": (".txt.chains",), "replaceable": ("rulecoref-report.json",), "adopt": "rulecoref-report.json"}
    with pytest.raises(OutputError) as err:  # never mixed with the run's chains, even with --overwrite
        OutputFolder(out, "resolve:i2b2", overwrite=True, **resolve).open(["a.txt.chains"])
    assert err.value.code == "RC512" and (out / "other.txt.chains").exists()
    (out / "rulecoref-report.json").write_text("{}")  # an older rulecoref wrote this folder, with no manifest
    with OutputFolder(out, "resolve:i2b2", overwrite=True, **resolve).open(["a.txt.chains"]):
        assert not (out / "other.txt.chains").exists()


def test_outdir_file_checks(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text("{}\n")
    assert code_of(lambda: OutputFile(src, inputs=Inputs([src])).check()) == "RC522"
    assert code_of(lambda: OutputFile(tmp_path).check()) == "RC558"
    assert code_of(lambda: OutputFile(Path("/dev/null"), overwrite=True).check()) == "RC558"
    assert code_of(lambda: OutputFile(src).check()) == "RC513"
    assert code_of(lambda: OutputFile(src, ours=lambda p: False, what="a model").check()) == "RC512"
    OutputFile(src, overwrite=True).check()
    (tmp_path / "afile").write_text("x")
    assert code_of(lambda: OutputFile(tmp_path / "afile" / "out.jsonl").check()) == "RC508"
