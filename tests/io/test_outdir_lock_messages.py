"""An unreadable lock names itself (issue 31, case 14): a garbage or folder ``.rulecoref.lock`` gave
RC506 "wait for that run" without the lock's path."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.errors import CliError
from rulecoref.io.outdir import LOCK, OutputLock


@pytest.mark.parametrize("kind", ["garbage", "folder"])
def test_lock_messages_unreadable_lock_names_its_path(tmp_path: Path, kind: str) -> None:
    lock = tmp_path / LOCK
    if kind == "folder":
        lock.mkdir()
    else:
        lock.write_bytes(b"\x00\xffnot json")
    with pytest.raises(CliError) as err:
        OutputLock(tmp_path).acquire()
    d = err.value.diagnostics[0]
    assert d.code == "RC506" and str(lock) in d.hint and "rm -r" in d.hint
