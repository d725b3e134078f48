"""A lone carriage return inside a line of a newline file is no line break (issue 31, case 14): it
split the line, and RC203 then blamed the concept file."""

from __future__ import annotations

from pathlib import Path

from rulecoref.io.i2b2 import read_document, read_text_lines


def test_lone_cr_inside_a_line_keeps_the_line(tmp_path: Path) -> None:
    txt, con = tmp_path / "d.txt", tmp_path / "d.txt.con"
    txt.write_bytes(b"the patient\rhas pain .\r\nhe is well .\n")
    con.write_text('c="pain" 1:3 1:3||t="problem"\nc="he" 2:0 2:0||t="pronoun"\n')
    read = read_document(txt, con, name="d")
    assert read.warnings == [] and [c.text for c in read.document.concepts] == ["pain", "he"]
    assert len(read.document.lines) == 2


def test_lone_cr_file_without_newlines_breaks_at_cr(tmp_path: Path) -> None:
    path = tmp_path / "old.txt"
    path.write_bytes(b"a b\rc d\r")
    assert read_text_lines(path) == ["a b", "c d"]
