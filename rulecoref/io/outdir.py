"""Every output rulecoref writes goes through this module: one way to check, lock and write.

``write_atomic`` writes one file whole or not at all (a temporary file beside it, then a rename);
any failure, a full disk included, is RC510 naming the file, and the temporary file is removed.

``OutputFolder`` is a folder a command writes into (``resolve``, ``spark-resolve``, ``view``,
``convert`` to i2b2 or brat). Before any work, ``check`` refuses with one numbered error a folder
that cannot hold the outputs (it is a file, lies under one, or cannot be written: RC508, RC509) or
that is an input folder (RC505). ``open`` creates it, takes its lock, and claims the files the run
will write: a claimed file that is an input is RC522, one that exists and that no rulecoref run
wrote is RC512 (it is never replaced or deleted), and the files an earlier run of the same kind
wrote are RC501/RC526 unless ``--overwrite`` (which deletes those, and only those) or ``--resume``
(which keeps them: ``intact`` names them, and the caller skips the work they hold). What each run
wrote is kept in ``OUT/.rulecoref-outputs``, one JSON ``[group, file]`` a line, so that a later
``--overwrite`` knows which files are rulecoref's; it is rewritten only when what it says changes.

``OutputFile`` is a single file a command writes (``convert`` to one JSONL or CoNLL file, ``train
--model``): never an input, never a folder, never under a file; an existing file is replaced only
with ``--overwrite`` or when it is recognisably the command's own (a rulecoref model).

``OutputLock`` makes two runs into one folder safe: the lock file ``OUT/.rulecoref.lock`` is
created atomically (written under a temporary name, then hard-linked into place, which fails if
it exists), so exactly one run holds it; the other stops at once naming the holder (RC506). A
lock whose process is gone (the run was killed) is reported as stale with the command that
clears it (RC507); it is never taken over silently, since a second run that guessed wrong would
mix two batches.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import shlex
import socket
import stat
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from ..bounded import Limit, NotRegular, file_kind, json_loads, lines, open_regular, read_bytes
from ..errors import CliError, OutputError, diagnostic

LOCK = ".rulecoref.lock"
MANIFEST = ".rulecoref-outputs"
_MANIFEST_HEAD = "# rulecoref outputs: the files rulecoref runs wrote here, one JSON [group, file, size, mtime_ns] a line\n"
#: Bounds on reading the lock and the manifest (files in the output folder, so not trusted either).
_LOCK_BYTES = 8192
_MANIFEST_LINE = 8192
#: Files of one group that an error names before it says "and N more".
_SHOWN = 3
#: ``write_atomic``'s temporary file for NAME (group 1), which a killed run leaves behind.
_TEMP = re.compile(r"^\.(.+)\.[0-9a-f]{12}\.tmp$")


def check_out_dir(out: Path, inputs: tuple[set[Path], set[Path]] = (set(), set())) -> None:
    """Raise CliError unless ``out`` can be (created and) written and is no input folder.

    ``inputs`` is ``io.formats.input_folders``: folders ``out`` may not be, folders it may not be inside.
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
            data = json_loads(read_bytes(self.path, _LOCK_BYTES).decode("utf-8"), max_values=100)
        except (OSError, ValueError, Limit, NotRegular):
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
        if not held:  # garbage, a folder, a device: no run to wait for can be named, so name the lock
            kind = "a folder" if self.path.is_dir() and not self.path.is_symlink() else "not a lock rulecoref wrote"
            raise CliError(diagnostic("RC506", **fields, hint=(
                f"the lock {self.path} cannot be read ({kind}); if no rulecoref run uses the folder, remove it: "
                f"rm -r {shlex.quote(str(self.path))}")))
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


def write_atomic(path: str | Path, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` whole or not at all: a temporary file in the same folder, then a
    rename, so a reader never sees half a file. Any failure (a full disk, a read-only folder, a
    character the encoding cannot hold) is OutputError RC510 naming the file; the temporary file
    is removed however the write ends (an interrupt too).

    The temporary file is created with mode 0666 less the user's umask, as ``open()`` would create
    the file itself (``tempfile.mkstemp`` makes it 0600, which a colleague in the group cannot read)."""
    path = Path(path)
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError as exc:
        raise OutputError(diagnostic("RC510", file=str(path), path=str(path), detail=(
            f"the text holds {text[exc.start]!r} at character {exc.start}, which {encoding} cannot encode"))) from exc
    tmp = path.parent / temp_name(path.name)
    created = False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        created = True  # before the open: a signal right after it still removes the file (O_EXCL: ours)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
        _write_fd(fd, data)
        os.replace(tmp, path)
        created = False
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:  # that document's error, not the disk's
            raise OutputError(diagnostic("RC510", file=str(path), path=str(path), detail=(
                f"its name is {len(path.name.encode('utf-8', 'surrogateescape'))} bytes, longer than the file "
                "system holds"), hint="give the document a shorter name (the part before the first '.').")) from exc
        raise OutputError(diagnostic("RC510", file=str(path), path=str(path),
                                     detail=exc.strerror or str(exc))) from exc
    finally:
        if created:
            try:
                os.unlink(tmp)
            except OSError:
                pass


#: Longest file name most file systems hold (ext4, XFS, tmpfs, NTFS: 255 bytes)
NAME_MAX = 255


#: ``.NAME.TOKEN.tmp``: a temporary file of ``write_atomic``
_TEMP = re.compile(r"^\.(.+)\.[0-9a-f]{12}\.tmp$", re.DOTALL)


def temp_stem(name: str) -> str:
    """The part of ``name`` its temporary file keeps: all of it, or its first bytes (whole UTF-8
    characters) so that the temporary name is no longer than NAME_MAX bytes when ``name`` itself
    fits (a 230-character document once failed because its temporary file's name was too long)."""
    room = NAME_MAX - 1 - len(".000000000000.tmp")
    raw = name.encode("utf-8", "surrogateescape")
    return raw[:room].decode("utf-8", "ignore") if len(raw) > room else name


def temp_name(name: str) -> str:
    """The temporary file for ``name``: ``.NAME.TOKEN.tmp`` (``temp_stem``)."""
    return f".{temp_stem(name)}.{secrets.token_hex(6)}.tmp"


def _write_fd(fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd`` and close it (a full disk is an OSError here, or at close)."""
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def write_all(folder: Path, files: Sequence[tuple[str, str]]) -> None:
    """Write several files of one document into ``folder`` atomically, one after the other: all of
    them, or (when one fails) none that this call wrote."""
    done: list[Path] = []
    try:
        for name, text in files:
            write_atomic(folder / name, text)
            done.append(folder / name)
    except BaseException:
        for path in done:
            path.unlink(missing_ok=True)
        raise


class Inputs:
    """What an output must never touch: input files, and folders it may not be or lie in
    (``io.formats.input_folders``); all resolved (symbolic links followed)."""

    def __init__(self, files: Iterable[str | Path | None] = (),
                 folders: tuple[set[Path], set[Path]] = (set(), set())):
        self.files: dict[Path, Path] = {}
        for f in files:
            if f is not None:
                self.files.setdefault(Path(f).resolve(), Path(f))
        self.exact, self.inside = folders

    def input_at(self, path: Path) -> Path | None:
        """The input file ``path`` is (a link to), or None."""
        return self.files.get(path.resolve())

    def folder_holding(self, path: Path) -> Path | None:
        """The input folder (docs/, concepts/, chains/ of an i2b2 release) that ``path`` lies in, or None."""
        real = path.resolve()
        return next((f for f in sorted(self.inside) if real.is_relative_to(f)), None)


def _few(names: Sequence[str]) -> str:
    shown = ", ".join(names[:_SHOWN])
    return shown + (f" and {len(names) - _SHOWN} more" if len(names) > _SHOWN else "")


class OutputFolder:
    """A folder one command writes into; see the module docstring for what it refuses.

    Args:
        group: the kind of output ("resolve:i2b2", "view", "convert:brat"): ``--overwrite`` deletes
            the files of this group only, never another command's.
        exclusive: suffixes of which every file in the folder must be this group's (resolve: its
            output format's, so that chains of another origin are never scored with the run's).
        replaceable: names an earlier run's file of which is replaced without ``--overwrite``
            (the report, brat's annotation.conf).
        adopt: a file that marks a folder written before the manifest existed (resolve's report):
            then the existing files with the ``exclusive`` suffixes count as the group's.
        stale_code: the code for earlier outputs without ``--overwrite`` (RC526, resolve's RC501).
    """

    def __init__(self, path: Path, group: str, *, overwrite: bool = False, inputs: Inputs | None = None,
                 exclusive: Sequence[str] = (), replaceable: Sequence[str] = (), adopt: str | None = None,
                 stale_code: str = "RC526", what: str = "output file(s)", resume: bool = False):
        self.path, self.group, self.overwrite, self.resume = Path(path), group, overwrite, resume
        self.inputs = inputs or Inputs()
        self.exclusive, self.replaceable, self.adopt = tuple(exclusive), frozenset(replaceable), adopt
        self.stale_code, self.what = stale_code, what
        self.lock = OutputLock(self.path)
        self.owners: dict[str, str] = {}  # file (relative) -> group that wrote it
        self.stamps: dict[str, tuple[int, int]] = {}  # file -> (size, mtime_ns) when its run ended
        self.planned: set[str] = set()
        #: with ``resume``: the group's files of earlier runs, present and unchanged since (``open``)
        self.intact: set[str] = set()
        self.opened = False

    def check(self) -> OutputFolder:
        """Before any work: RC505 (an input folder), RC508 (a file or under one), RC509 (not writable)."""
        check_out_dir(self.path, (self.inputs.exact, self.inputs.inside))
        return self

    def open(self, names: Iterable[str] = ()) -> OutputFolder:
        """Create the folder, lock it (RC506, RC507) and claim ``names`` (``plan``)."""
        self.check()
        make_out_dir(self.path)
        self.lock.acquire()
        try:
            self.owners, self.stamps = self._read_manifest()
            if self.resume:  # before the claim, while ``owner`` still compares the stamps
                self.intact = {n for n in self.owners if self.owner(n) == self.group
                               and os.path.lexists(self.path / n) and not os.path.isdir(self.path / n)}
            self.plan(names, first=True)
        except BaseException:
            self.lock.release()
            raise
        self.opened = True
        return self

    def plan(self, names: Iterable[str], *, first: bool = False) -> None:
        """Claim files the run will write, all checked before any is written: RC522 (an input),
        RC512 (a file no rulecoref run wrote), RC501/RC526 (an earlier run's, without --overwrite).
        The first plan also looks at the group's earlier files (refused, or deleted with
        --overwrite), and the manifest names every claimed file before the run writes any, so a
        killed run's files stay known as rulecoref's."""
        new = [n for n in dict.fromkeys(names) if n not in self.planned]
        foreign, stale = self._clashes(new)
        earlier: list[str] = []
        if first:
            foreign += self._foreign_of_kind(set(new))
            earlier = [n for n in sorted(self.owners) if self.owner(n) == self.group and n not in self.replaceable
                       and _a_file(self.path / n) and not self.resume]
        if foreign:
            detail = (f"not named in {self.path / MANIFEST}" if len(foreign) == 1 else
                      f"{len(foreign)} files in {self.path} that no rulecoref run wrote: {_few(foreign)}")
            raise OutputError(diagnostic("RC512", path=str(self.path / foreign[0]), detail=detail))
        if not self.overwrite and (stale or earlier):
            raise OutputError(diagnostic(self.stale_code, path=str(self.path), count=len(set(stale) | set(earlier)),
                                         what=self.what))
        for name in earlier:  # never an input, whatever the manifest says
            given = self.inputs.input_at(self.path / name)
            if given is not None:
                raise OutputError(diagnostic("RC522", path=str(self.path / name), input=str(given)))
        for name in earlier:  # only with --overwrite: the group's own files of an earlier run
            path = self.path / name
            if path.is_symlink() or path.resolve().is_relative_to(self.path.resolve()):
                try:
                    path.unlink(missing_ok=True)  # a link itself is removed, never what it points to
                except OSError as exc:
                    raise OutputError(diagnostic("RC510", path=str(path), detail=exc.strerror or str(exc))) from exc
        for name in new:
            self.owners[name] = self.group
            self.planned.add(name)
        if first:  # the claim; a name claimed later is recorded when the run ends (``close``)
            self._write_manifest(prune=False)

    def _clashes(self, names: Sequence[str]) -> tuple[list[str], list[str]]:
        """Claimed names that exist: those no rulecoref run wrote, and those an earlier run did."""
        foreign, stale = [], []
        for name in names:
            path = self.path / name
            given = self.inputs.input_at(path)
            if given is not None:
                raise OutputError(diagnostic("RC522", path=str(path), input=str(given)))
            folder = self.inputs.folder_holding(path)
            if folder is not None:
                raise OutputError(diagnostic("RC505", path=str(path.parent), input=str(folder)))
            if not os.path.lexists(path):
                continue
            if path.is_dir() and not path.is_symlink():
                raise OutputError(diagnostic("RC558", path=str(path), detail="is a folder, where this run writes a file"))
            if self.owner(name) is None:
                foreign.append(name)
            elif not (self.overwrite or self.resume) and name not in self.replaceable:
                stale.append(name)
        return foreign, stale

    def _foreign_of_kind(self, claimed: set[str]) -> list[str]:
        """Files with an ``exclusive`` suffix that no rulecoref run of this group wrote (and that are not claimed)."""
        out = []
        for suffix in self.exclusive:
            for path in sorted(self.path.glob(f"*{suffix}")):
                if path.name not in claimed and self.owner(path.name) != self.group:
                    out.append(path.name)
        return out

    def adopt_written(self, names: Iterable[str]) -> None:
        """Record files this run wrote without claiming them first (Spark executors name them from
        rows the driver never sees); only sound for ``exclusive`` suffixes, whose foreign files
        ``open`` refused."""
        for name in names:
            self.owners[name] = self.group
            self.planned.add(name)

    def write(self, name: str, text: str) -> Path:
        """Write one claimed file (a name not claimed yet is claimed now); OutputError on failure."""
        if name not in self.planned:
            self.plan([name])
        path = self.path / name
        write_atomic(path, text)
        return path

    def write_set(self, files: Sequence[tuple[str, str]]) -> None:
        """Write several files of one document (``write_all``), claiming those not claimed yet."""
        self.plan([name for name, _ in files if name not in self.planned])
        write_all(self.path, files)

    def close(self) -> None:
        """Record what the run wrote (claimed files that exist) and release the lock."""
        if not self.opened:
            return
        self.opened = False
        try:
            self._remove_temporaries()
            self._write_manifest(prune=True)
        except OutputError:
            pass  # a full disk: the claim written at the start still names every file
        finally:
            self.lock.release()

    def _remove_temporaries(self) -> None:
        """Remove the temporary files (``temp_name``) of files this run claimed: a worker process
        stopped while it wrote (SIGTERM, or SIGKILL past its grace time) leaves one, and only this
        run, holding the lock, can have made it. Other files are never touched."""
        stems: dict[Path, set[str]] = {}
        for name in self.planned:  # a claimed name may lie in a subfolder (convert: docs/NAME.txt)
            path = self.path / name
            stems.setdefault(path.parent, set()).add(temp_stem(path.name))
        for folder, names in stems.items():
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                m = _TEMP.match(entry.name)
                if m and m.group(1) in names and not entry.is_dir(follow_symlinks=False):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)

    def __enter__(self) -> OutputFolder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def owner(self, name: str) -> str | None:
        """The group whose run wrote ``name``, or None: not in the manifest, or changed since that
        run ended (another size or time: someone's edit or copy, which is theirs now)."""
        group = self.owners.get(name)
        stamp = self.stamps.get(name)
        if group is None or stamp is None or name in self.planned:
            return group
        try:
            st = os.lstat(self.path / name)
        except OSError:
            return group
        return group if (st.st_size, st.st_mtime_ns) == stamp else None

    def _read_manifest(self) -> tuple[dict[str, str], dict[str, tuple[int, int]]]:
        """The folder's manifest: file -> group, file -> stamp. A folder that has none but holds
        ``adopt`` was written by a rulecoref that kept no manifest: its files with ``exclusive``
        suffixes are its own."""
        path = self.path / MANIFEST
        owners: dict[str, str] = {}
        stamps: dict[str, tuple[int, int]] = {}
        if not os.path.lexists(path):
            if self.adopt and (self.path / self.adopt).is_file():
                for suffix in self.exclusive:
                    owners.update((p.name, self.group) for p in self.path.glob(f"*{suffix}"))
            return owners, stamps
        try:
            with open_regular(path) as fh:
                for _, _, raw in lines(fh, _MANIFEST_LINE):
                    entry = _manifest_entry(raw or b"")
                    if entry is not None:
                        owners[entry[1]] = entry[0]
                        if entry[2] is not None:
                            stamps[entry[1]] = entry[2]
        except (OSError, Limit, NotRegular):
            pass  # what could be read stands; files it does not name count as no rulecoref run's
        return owners, stamps

    def _write_manifest(self, *, prune: bool) -> None:
        """The claim (before the run: names only) or the record (after it: names with their size
        and time, so a file someone changes afterwards is theirs)."""
        lines_out = []
        for name, group in sorted(self.owners.items()):
            stamp = self.stamps.get(name)
            if prune:
                try:
                    st = os.lstat(self.path / name)
                except OSError:
                    continue
                if name in self.planned:
                    stamp = (st.st_size, st.st_mtime_ns)
            lines_out.append(json.dumps([group, name, *stamp] if stamp else [group, name], ensure_ascii=False) + "\n")
        if prune and not lines_out:  # the run wrote nothing (Spark did not start): the folder holds no manifest
            with contextlib.suppress(OSError):
                os.unlink(self.path / MANIFEST)
            return
        text = _MANIFEST_HEAD + "".join(lines_out)
        if not _holds(self.path / MANIFEST, text.encode("utf-8")):  # a resumed run with nothing to do changes nothing
            write_atomic(self.path / MANIFEST, text)

    def clean_temps(self) -> list[str]:
        """Remove the temporary files that a killed run's ``write_atomic`` left for files the
        manifest names (the caller holds the lock, so no live run is writing them); returns their names."""
        removed = []
        known = set(self.owners) | {MANIFEST}
        for entry in sorted(os.listdir(self.path)):
            match = _TEMP.match(entry)
            if match and match.group(1) in known and not os.path.isdir(self.path / entry):
                os.unlink(self.path / entry)
                removed.append(entry)
        return removed


def _holds(path: Path, data: bytes) -> bool:
    """Whether the regular file ``path`` holds exactly ``data``."""
    try:
        return read_bytes(path, len(data) + 1) == data
    except (OSError, Limit, NotRegular):
        return False


def _a_file(path: Path) -> bool:
    """Whether ``path`` is what a run writes: a regular file, or a link (removed itself). A manifest
    entry naming a folder, a device or nothing is damage, never deleted: the manifest is checked
    entry by entry before ``--overwrite`` deletes anything."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) or stat.S_ISLNK(mode)


def _manifest_entry(raw: bytes) -> tuple[str, str, tuple[int, int] | None] | None:
    """One manifest line as (group, file, stamp); None for anything else (a comment, a damaged
    line, a file outside the folder)."""
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not (isinstance(value, list) and len(value) in (2, 4) and all(isinstance(v, str) for v in value[:2])):
        return None
    name = Path(value[1])
    if not value[1] or name.is_absolute() or ".." in name.parts:  # only files inside the folder
        return None
    stamp = value[2:]
    if stamp and not all(isinstance(v, int) and not isinstance(v, bool) for v in stamp):
        return None
    return value[0], value[1], (stamp[0], stamp[1]) if stamp else None


class OutputFile:
    """One file a command writes (see the module docstring)."""

    def __init__(self, path: Path, *, overwrite: bool = False, inputs: Inputs | None = None,
                 ours: Callable[[Path], bool] | None = None, what: str = "output"):
        self.path, self.overwrite, self.inputs, self.ours, self.what = Path(path), overwrite, inputs or Inputs(), ours, what

    def check(self) -> OutputFile:
        """Before any work: RC522 (an input), RC505 (inside an input folder), RC558 (a folder),
        RC508/RC509 (under a file, not writable), RC513/RC512 (exists and may not be replaced)."""
        given = self.inputs.input_at(self.path)
        if given is not None:
            raise OutputError(diagnostic("RC522", path=str(self.path), input=str(given)))
        folder = self.inputs.folder_holding(self.path)
        if folder is not None:
            raise OutputError(diagnostic("RC505", path=str(self.path.parent), input=str(folder)))
        if self.path.is_dir():
            raise OutputError(diagnostic("RC558", path=str(self.path), detail=f"is a folder; {self.what} is one file"))
        kind = file_kind(os.stat(self.path).st_mode) if self.path.exists() else None
        if kind is not None:  # /dev/stdout, a pipe: a rename would replace the device's name, not write to it
            raise OutputError(diagnostic("RC558", path=str(self.path), detail=f"is {kind}; {self.what} is a regular file"))
        check_out_dir(self.path.parent)
        if os.path.lexists(self.path) and not self.overwrite:
            if self.ours is None:
                raise OutputError(diagnostic("RC513", path=str(self.path)))
            if not self.ours(self.path):
                raise OutputError(diagnostic("RC512", path=str(self.path), detail=f"it is not {self.what}"))
        return self

    def write(self, text: str) -> None:
        write_atomic(self.path, text)
