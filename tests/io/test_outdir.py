"""The output folder: checked before any work, locked for a run, stale locks reported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulecoref.errors import CliError
from rulecoref.io.outdir import LOCK, OutputLock, check_out_dir, make_out_dir
from tests.helpers import read_only_folder

READ_ONLY = read_only_folder()
needs_read_only = pytest.mark.skipif(READ_ONLY is None, reason="needs a folder that cannot be written (/sys/kernel)")


def code_of(fn, *args) -> str:
    with pytest.raises(CliError) as err:
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
