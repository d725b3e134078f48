"""Hostile and broken inputs of the new surfaces (issue 22): JSONL lines, type maps, file lists,
brat ids and input files that are devices. Each ends in a numbered error naming the file (and
line), never a traceback; one bad document never stops the batch."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rulecoref.cli import main
from rulecoref.errors import InputError
from rulecoref.io import jsonl
from rulecoref.io.brat import read_brat
from rulecoref.io.jsonl import read_jsonl_entry, scan_jsonl
from rulecoref.io.layout import iter_file_list
from rulecoref.io.typemap import read_type_map
from tests.helpers import ROOT

EXAMPLES = ROOT / "resources" / "examples"
EXACT = str(ROOT / "rules" / "exact.yaml")
GOOD = {"id": "good", "text": "He is ill. He rests.", "concepts": [{"start": 0, "end": 2, "type": "pronoun"},
                                                                   {"start": 11, "end": 13, "type": "pronoun"}]}


def _resolve(*args: str) -> int:
    return main(["resolve", *args, "--rules", EXACT, "--no-progress", "--types", "auto"])


def test_hostile_jsonl_nested_100000_deep_fails_that_line_only(tmp_path: Path, capsys) -> None:
    """Issue 22: a line nested 100,000 deep was a RecursionError that stopped the whole batch."""
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(GOOD) + "\n" + '{"id": "deep", "text": "x", "concepts": ' + "[" * 100_000
                   + "]" * 100_000 + "}\n", encoding="utf-8")
    out = tmp_path / "out"
    assert _resolve(str(src), "--input-format", "jsonl", "--out", str(out)) == 1
    err = capsys.readouterr().err
    assert f"{src}:2: [RC247]" in err and "nested deeper than 64" in err and "Traceback" not in err
    assert (out / "good.txt.chains").exists()


def test_hostile_jsonl_lone_surrogate_is_rc245_whatever_the_output(tmp_path: Path, capsys) -> None:
    """Issue 22: a lone surrogate in the text was RC550 ("a bug") with --format jsonl."""
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(GOOD) + "\n" + json.dumps({**GOOD, "id": "s", "text": "He is \ud800 ill."}) + "\n",
                   encoding="utf-8")
    for fmt in ("jsonl", "i2b2", "brat"):
        out = tmp_path / fmt
        assert _resolve(str(src), "--input-format", "jsonl", "--out", str(out), "--format", fmt) == 1
        err = capsys.readouterr().err
        assert f"{src}:2: [RC245] text holds a lone surrogate (\\ud800) at character 6" in err, err
        assert "RC550" not in err and not list(out.glob("s.*"))
    assert main(["convert", str(src), str(tmp_path / "c.jsonl"), "--to", "jsonl"]) == 1
    assert "[RC245]" in capsys.readouterr().err


def test_hostile_jsonl_line_over_the_size_limit_is_passed_over(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(jsonl, "MAX_LINE_BYTES", 200)
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(GOOD) + "\n" + json.dumps({**GOOD, "id": "big", "text": "x" * 500}) + "\n"
                   + json.dumps({**GOOD, "id": "after"}) + "\n", encoding="utf-8")
    entries, problems = scan_jsonl(src)
    assert [e.name for e in entries] == ["good", "after"]  # the line after the long one is read
    assert [(p.code, p.line) for p in problems] == [("RC247", 2)]
    assert read_jsonl_entry(src, entries[1]).document.name == "after"


def test_hostile_jsonl_devices_and_non_json_numbers(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    for path in ("/dev/zero", fifo):  # /dev/zero was read whole
        with pytest.raises(InputError) as err:
            scan_jsonl(path)
        assert err.value.code == "RC220"
    src = tmp_path / "nan.jsonl"
    src.write_text('{"id": "n", "text": "He.", "concepts": [{"start": 0, "end": Infinity, "type": "pronoun"}]}\n')
    entry = scan_jsonl(src)[0][0]
    with pytest.raises(InputError) as err:
        read_jsonl_entry(src, entry)
    assert err.value.code == "RC230" and "Infinity is not a JSON number" in str(err.value)


@pytest.mark.parametrize(("text", "code", "line"), [
    ("types: " + "[" * 60 + "]" * 60 + "\n", "RC249", 1),  # deeper than the 50 levels of rule files
    ("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
     "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, "
     "*c, *c, *c, *c, *c]\n", "RC249", 4),  # over the 20,000 nodes
    ("types: &a [*a]\n", "RC249", 1),
    ("types: {a: 1" + "0" * 5000 + "}\n", "RC240", 1),  # an integer Python will not build
])
def test_hostile_type_map_over_the_yaml_limits(tmp_path: Path, text: str, code: str, line: int) -> None:
    """Issue 22: the YAML limits' own exceptions escaped as tracebacks."""
    path = tmp_path / "types.yaml"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        read_type_map(path)
    assert (err.value.code, err.value.diagnostics[0].file, err.value.diagnostics[0].line) == (code, str(path), line)


def test_hostile_type_map_size_and_devices(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("types:\n" + "".join(f"  T{i}: problem\n" for i in range(70_000)))
    with pytest.raises(InputError) as err:
        read_type_map(big)
    assert err.value.code == "RC249" and "bytes" in str(err.value)
    for path in ("/dev/zero", tmp_path):
        with pytest.raises(InputError) as err:
            read_type_map(path)
        assert err.value.code == "RC240"


@pytest.mark.parametrize(("content", "line", "says"), [
    (None, None, "no such file"), (b"/tmp/a\n\x00\x01\x02", 2, "NUL byte"), (b"caf\xe9\n", 1, "not UTF-8"),
    (b"x" * 5000 + b"\n", 1, "a line longer than 4,096 bytes"), ("/dev/zero", None, "a character device"),
])
def test_hostile_file_list(tmp_path: Path, content, line, says) -> None:
    """Issue 22: --file-list missing or binary was a traceback, /dev/zero was read whole (23 GB)."""
    path = tmp_path / "list.txt"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path = Path(content)
    with pytest.raises(InputError) as err:
        list(iter_file_list(path))
    d = err.value.diagnostics[0]
    assert (d.code, d.file, d.line) == ("RC218", str(path), line) and says in d.message, d


def test_hostile_file_list_on_the_command_line(tmp_path: Path, capsys) -> None:
    for command in (["resolve", "--out", str(tmp_path / "o")], ["view", "--out", str(tmp_path / "v")],
                    ["train", "--model", str(tmp_path / "m.json")], ["web", "--dry-run"]):
        assert main([command[0], "--file-list", "/dev/zero", *command[1:]]) == 2
        err = capsys.readouterr().err
        assert "[RC218]" in err and "Traceback" not in err, command


def test_hostile_brat_repeated_ids(tmp_path: Path) -> None:
    """Issue 22: a second T1 was accepted in silence (and a relation to T1 meant either)."""
    (tmp_path / "a.txt").write_text("He said he was ill.\n")
    for ann, line, aid in (("T1\tpronoun 0 2\tHe\nT1\tpronoun 8 10\the\n*\tCoreference T1 T1\n", 2, "T1"),
                           ("T1\tpronoun 0 2\tHe\nT2\tpronoun 8 10\the\nR1\tCoreference Arg1:T1 Arg2:T2\n"
                            "R1\tCoreference Arg1:T2 Arg2:T1\n", 4, "R1")):
        (tmp_path / "a.ann").write_text(ann)
        with pytest.raises(InputError) as err:
            read_brat(tmp_path / "a.txt", tmp_path / "a.ann")
        assert [(d.code, d.line) for d in err.value.diagnostics] == [("RC246", line)] and aid in str(err.value)


def test_hostile_input_files_that_are_devices_or_too_large(tmp_path: Path, capsys, monkeypatch) -> None:
    from rulecoref.io import i2b2

    data = tmp_path / "data"
    (data / "docs").mkdir(parents=True)
    (data / "concepts").mkdir()
    for name in ("clinical-ex1", "clinical-ex2"):
        (data / "docs" / f"{name}.txt").write_bytes((EXAMPLES / "docs" / f"{name}.txt").read_bytes())
    (data / "concepts" / "clinical-ex1.txt.con").write_bytes((EXAMPLES / "concepts" / "clinical-ex1.txt.con").read_bytes())
    (data / "concepts" / "clinical-ex2.txt.con").symlink_to("/dev/zero")
    assert main(["resolve", str(data), "--rules", EXACT, "--out", str(tmp_path / "out"), "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "[RC220]" in err and "a character device" in err and (tmp_path / "out" / "clinical-ex1.txt.chains").exists()
    monkeypatch.setattr(i2b2, "MAX_INPUT_BYTES", 100)
    with pytest.raises(InputError) as big:
        i2b2.read_text(data / "docs" / "clinical-ex1.txt")
    assert big.value.code == "RC219"
