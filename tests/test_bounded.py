"""The bounded readers (rulecoref/bounded.py): every limit is a Limit or NotRegular, never a
RecursionError, a MemoryError or a read without end."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from rulecoref.bounded import Limit, NotRegular, json_loads, lines, lone_surrogate, read_bytes


def test_bounded_json_depth_values_and_constants() -> None:
    assert json_loads('{"a": [1, {"b": 2}]}', max_values=100) == {"a": [1, {"b": 2}]}
    with pytest.raises(Limit) as deep:  # Python's own decoder would raise RecursionError here
        json_loads("[" * 100_000 + "]" * 100_000, max_values=10**6)
    assert deep.value.kind == "depth"
    with pytest.raises(Limit) as fairly_deep:  # within the decoder's reach, beyond the limit of 64
        json_loads("[" * 70 + "]" * 70, max_values=1000)
    assert fairly_deep.value.kind == "depth"
    json_loads("[" * 64 + "]" * 64, max_values=1000)
    with pytest.raises(Limit) as many:  # counted before parsing: no list of a million lists is built
        json_loads("[" + ",".join(["[]"] * 1_000_000) + "]", max_values=100_000)
    assert many.value.kind == "values"
    for constant in ("NaN", "[Infinity]", '{"w": -Infinity}'):
        with pytest.raises(ValueError):
            json_loads(constant, max_values=10)


def test_bounded_read_bytes_size_and_devices(tmp_path: Path) -> None:
    small = tmp_path / "small"
    small.write_bytes(b"abc")
    assert read_bytes(small, 3) == b"abc"
    with pytest.raises(Limit):
        read_bytes(small, 2)
    with pytest.raises(NotRegular) as dev:
        read_bytes("/dev/zero", 10)
    assert dev.value.kind == "a character device"
    with pytest.raises(NotRegular) as folder:
        read_bytes(tmp_path, 10)
    assert folder.value.kind == "a folder"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(NotRegular) as pipe:  # opened without blocking, then refused
        read_bytes(fifo, 10)
    assert pipe.value.kind == "a named pipe"


def test_bounded_lines_stop_or_skip_a_line_without_end() -> None:
    zeros = io.BytesIO(b"\0" * 10_000)
    with pytest.raises(Limit) as err:
        list(lines(zeros, 100))
    assert (err.value.kind, err.value.line) == ("line", 1)
    data = io.BytesIO(b"a\n" + b"x" * 500 + b"\nb\n")
    assert [(n, off, raw) for n, off, raw in lines(data, 100, skip_long=True)] == [
        (1, 0, b"a\n"), (2, 2, None), (3, 503, b"b\n")]
    with pytest.raises(Limit) as total:
        list(lines(io.BytesIO(b"a\n" * 100), 10, max_bytes=50))
    assert total.value.kind == "size"


def test_bounded_lone_surrogate() -> None:
    assert lone_surrogate("fine \U0001f600") is None
    assert lone_surrogate("ab\ud800c") == 2
