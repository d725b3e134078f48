"""Bounded readers: every file a user hands rulecoref is read with a size cap, and JSON with a depth
and a value cap, so that a hostile or broken file ends in the caller's numbered error, never in a
RecursionError, a MemoryError or a read that never ends (``/dev/zero``).

The callers own the codes: a JSONL line over a limit is RC247, a model RC606, a file list RC218
(docs/security.md lists every limit). This module only says which limit was hit and where.

JSON values are counted before parsing, from the characters that start or separate them
(``,`` ``:`` ``[`` ``{``, also those inside strings, so the count is an upper bound): parsing
allocates tens of bytes per value, so a short line of ``[[],[],...]`` could otherwise need a
gigabyte. Depth is checked after parsing by an iterative walk; a nesting too deep for Python's own
decoder (about a thousand levels) is the same error.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

#: Deepest nesting of JSON lists and objects (a JSONL document nests 4 levels, a model 3).
MAX_JSON_DEPTH = 64


class Limit(Exception):
    """A file or value is over one of the limits: ``kind`` is size, line, depth or values."""

    def __init__(self, kind: str, limit: int, line: int | None = None):
        self.kind, self.limit, self.line = kind, limit, line
        what = {"size": f"more than {limit:,} bytes", "line": f"a line longer than {limit:,} bytes",
                "depth": f"lists and objects nested deeper than {limit} levels",
                "values": f"more than {limit:,} JSON values"}[kind]
        super().__init__(what)


class NotRegular(Exception):
    """The path is a device, a pipe, a socket or a folder: reading it could block or never end."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def file_kind(mode: int) -> str | None:
    """None for a regular file, else what it is ("a folder", "a character device", ...)."""
    if stat.S_ISREG(mode):
        return None
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a named pipe"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def open_regular(path: str | Path) -> IO[bytes]:
    """Open a file for reading in binary, refusing anything but a regular file (NotRegular).

    The file is opened first and checked with ``fstat``, so a path swapped between check and open
    cannot slip through; a named pipe is opened without blocking."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        kind = file_kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise NotRegular(kind)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | Path, limit: int) -> bytes:
    """The whole content of a regular file of at most ``limit`` bytes (Limit "size" beyond)."""
    with open_regular(path) as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > limit:
            raise Limit("size", limit)
        data = fh.read(size + 1)  # never a buffer of ``limit`` bytes for a small file
        while len(data) == size + 1 and len(data) <= limit:  # it grew meanwhile: on, up to the limit
            more = fh.read(min(1 << 20, limit + 1 - len(data)))
            if not more:
                break
            data += more
            size = len(data) - 1
    if len(data) > limit:
        raise Limit("size", limit)
    return data


def lines(fh: IO[bytes], max_line: int, max_bytes: int | None = None, *,
          skip_long: bool = False) -> Iterator[tuple[int, int, bytes | None]]:
    """(line number, byte offset, raw line) of a binary file, each line at most ``max_line`` bytes
    and the whole at most ``max_bytes``; beyond either, Limit with the line it was met on. With
    ``skip_long`` a longer line is passed over (read in chunks, never held) and given as None:
    only for regular files, whose size bounds the skipping (``open_regular``)."""
    offset = 0
    lineno = 0
    while True:
        raw = fh.readline(max_line + 1)
        if not raw:
            return
        lineno += 1
        start = offset
        offset += len(raw)
        if len(raw) > max_line and not raw.endswith(b"\n"):
            if not skip_long:
                raise Limit("line", max_line, lineno)
            while raw and not raw.endswith(b"\n"):
                raw = fh.readline(1 << 20)
                offset += len(raw)
            raw = None
        if max_bytes is not None and offset > max_bytes:
            raise Limit("size", max_bytes, lineno)
        yield lineno, start, raw


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def json_loads(text: str, *, max_values: int, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` within limits: Limit ("values", "depth") or ValueError for text that is not
    strict JSON (NaN and Infinity are not accepted)."""
    upper = text.count(",") + text.count(":") + text.count("[") + text.count("{") + 1
    if upper > max_values:
        raise Limit("values", max_values)
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise Limit("depth", max_depth) from None
    check_depth(value, max_depth)
    return value


def check_depth(value: Any, max_depth: int) -> None:
    """Limit "depth" when lists and dicts in ``value`` nest deeper than ``max_depth`` (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > max_depth:
            raise Limit("depth", max_depth)
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))


def lone_surrogate(text: str) -> int | None:
    """The position of the first lone surrogate in ``text`` (JSON's ``"\\ud800"``), or None: such
    a string is not Unicode text, and no file can be written with it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None
