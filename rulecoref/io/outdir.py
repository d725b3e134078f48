"""The output folder of a batch: checked before any work, and locked for the whole run.

``check_out_dir`` refuses, with one numbered error, a folder that cannot hold the outputs (it is a
file, lies under one, or cannot be written: RC508, RC509) or that would mix outputs into the
inputs (it is an input folder, or inside an i2b2 release's ``docs/``, ``concepts/`` or
``chains/``: RC505), so a bad ``--out`` never costs the start-up, never blames a document, and
never overwrites gold chains.

``OutputLock`` makes two runs into one folder safe: the lock file ``OUT/.rulecoref.lock`` is
created atomically (written under a temporary name, then hard-linked into place, which fails if
it exists), so exactly one run holds it; the other stops at once naming the holder (RC506). A
lock whose process is gone (the run was killed) is reported as stale with the command that
clears it (RC507); it is never taken over silently, since a second run that guessed wrong would
mix two batches.
"""

from __future__ import annotations

import json
import os
import secrets
import shlex
import socket
import sys
import time
from pathlib import Path
from typing import Any

from ..errors import CliError, diagnostic

LOCK = ".rulecoref.lock"


def check_out_dir(out: Path, inputs: tuple[set[Path], set[Path]] = (set(), set())) -> None:
    """Raise CliError unless ``out`` can be (created and) written and is no input folder.

    ``inputs`` is ``io.layout.input_folders``: folders ``out`` may not be, folders it may not be inside.
    """
    exact, inside = inputs
    real = out.resolve()
    for folder in sorted(exact):
        if real == folder or (folder in inside and real.is_relative_to(folder)):
            raise CliError(diagnostic("RC505", path=str(out), input=str(folder)))
    if out.exists():
        if not out.is_dir():
            raise CliError(diagnostic("RC508", path=str(out), detail="it is a file, not a folder"))
        probe = out / f".rulecoref-probe-{secrets.token_hex(6)}"  # os.access() says yes to root on read-only folders
        try:
            os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            os.unlink(probe)
        except OSError as exc:
            raise CliError(diagnostic("RC509", path=str(out), detail=exc.strerror or str(exc))) from exc
        return
    parent = out.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise CliError(diagnostic("RC508", path=str(out), detail=f"{parent} is a file, not a folder"))
    if not os.access(parent, os.W_OK | os.X_OK):
        raise CliError(diagnostic("RC509", path=str(out), detail=f"it cannot be created in {parent} (permissions or a read-only file system)"))


def make_out_dir(out: Path) -> None:
    """Create ``out`` (and its parents); an OSError becomes RC509."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CliError(diagnostic("RC509", path=str(out), detail=exc.strerror or str(exc))) from exc


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


class OutputLock:
    """An exclusive lock on an output folder, held from ``acquire`` to ``release`` (or the ``with`` block)."""

    def __init__(self, out: Path):
        self.out = out
        self.path = out / LOCK
        self.token = secrets.token_hex(8)
        self.held = False

    def holder(self) -> dict[str, Any]:
        """What the lock file says about its holder (``{}`` when it cannot be read)."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def acquire(self) -> OutputLock:
        info = {"pid": os.getpid(), "host": socket.gethostname(), "token": self.token,
                "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "command": " ".join(sys.argv)[:500]}
        tmp = self.out / f"{LOCK}.{self.token}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(info) + "\n")
            try:
                os.link(tmp, self.path)  # atomic, and fails if the lock exists: a reader never sees half a lock
            except FileExistsError:
                self._refuse()
            except OSError:  # no hard links on this file system: create the lock in place instead
                self._create_in_place(info)
        except OSError as exc:
            raise CliError(diagnostic("RC509", path=str(self.out), detail=exc.strerror or str(exc))) from exc
        finally:
            tmp.unlink(missing_ok=True)
        self.held = True
        return self

    def _create_in_place(self, info: dict[str, Any]) -> None:
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            self._refuse()
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(info) + "\n")

    def _refuse(self) -> None:
        held = self.holder()
        pid = held.get("pid")
        fields = {"path": str(self.out), "pid": pid if pid is not None else "unknown",
                  "host": held.get("host", "unknown host"), "started": held.get("started", "at an unknown time"),
                  "command": held.get("command", "?"), "lock": shlex.quote(str(self.path))}
        if isinstance(pid, int) and held.get("host") == socket.gethostname() and not _alive(pid):
            raise CliError(diagnostic("RC507", **fields))
        raise CliError(diagnostic("RC506", **fields))

    def release(self) -> None:
        """Remove the lock file if it is still this run's."""
        if self.held and self.holder().get("token") == self.token:
            self.path.unlink(missing_ok=True)
        self.held = False

    def __enter__(self) -> OutputLock:
        return self.acquire() if not self.held else self

    def __exit__(self, *exc: object) -> None:
        self.release()
