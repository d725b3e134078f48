"""Reader/writer round trips and every bad-input case, each naming file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.errors import InputError
from rulecoref.io.i2b2 import format_chains, read_chains, read_document, read_text_lines
from rulecoref.io.outdir import write_atomic

TEXT = "The patient is a 67 year old man with chest pain .\nHe was given aspirin and his chest pain resolved .\n"
CON = (
    'c="the patient" 1:0 1:1||t="person"\n'
    'c="a 67 year old man" 1:3 1:7||t="person"\n'
    'c="chest pain" 1:9 1:10||t="problem"\n'
    'c="he" 2:0 2:0||t="pronoun"\n'
    'c="aspirin" 2:3 2:3||t="treatment"\n'
    'c="his" 2:5 2:5||t="pronoun"\n'
    'c="chest pain" 2:6 2:7||t="problem"\n'
)


def write_pair(tmp_path: Path, text: str = TEXT, con: str = CON, *, raw: bytes | None = None) -> tuple[Path, Path]:
    txt = tmp_path / "rec-1.txt"
    txt.write_text(text, encoding="utf-8", newline="")
    conp = tmp_path / "rec-1.txt.con"
    if raw is not None:
        conp.write_bytes(raw)
    else:
        conp.write_text(con, encoding="utf-8", newline="")
    return txt, conp


def test_i2b2_read_document_positions_and_order(tmp_path: Path) -> None:
    doc = read_document(*write_pair(tmp_path)).document
    assert doc.name == "rec-1"
    assert [c.text for c in doc.concepts][:3] == ["the patient", "a 67 year old man", "chest pain"]
    c = doc.concepts[2]
    assert (c.start, c.end, c.type) == ((1, 9), (1, 10), "problem")
    assert doc.tokens(c) == ["chest", "pain"]
    assert doc.between(doc.concepts[0], doc.concepts[1]) == ["is"]


def test_i2b2_chains_round_trip(tmp_path: Path) -> None:
    doc = read_document(*write_pair(tmp_path)).document
    text = format_chains(doc, [[6, 2], [0, 1, 3, 5]], ["problem", "person"])
    lines = text.splitlines()
    # chains ordered by first mention, mentions in text order
    assert lines[0].startswith('c="the patient" 1:0 1:1||c="a 67 year old man" 1:3 1:7||c="he" 2:0 2:0')
    assert lines[0].endswith('||t="coref person"')
    out = tmp_path / "rec-1.txt.chains"
    write_atomic(out, text)
    back = read_chains(out)
    assert back.chains == [[(1, 0, 1, 1), (1, 3, 1, 7), (2, 0, 2, 0), (2, 5, 2, 5)], [(1, 9, 1, 10), (2, 6, 2, 7)]]
    assert back.types == ["person", "problem"]
    assert format_chains(doc, [[doc.by_span()[s].index for s in ch] for ch in back.chains], back.types) == text


def test_i2b2_tolerates_crlf_bom_and_trailing_blank_lines(tmp_path: Path) -> None:
    txt, con = write_pair(tmp_path, text=TEXT.replace("\n", "\r\n") + "\r\n\r\n",
                          raw=b"\xef\xbb\xbf" + CON.replace("\n", "\r\n").encode() + b"\r\n")
    doc = read_document(txt, con).document
    assert doc.n_lines == 2 and len(doc.concepts) == 7


def test_i2b2_cross_line_mention(tmp_path: Path) -> None:
    doc = read_document(*write_pair(tmp_path, con='c="chest pain . he" 1:9 2:0||t="problem"\n')).document
    assert doc.tokens(doc.concepts[0]) == ["chest", "pain", ".", "He"]


@pytest.mark.parametrize(
    "con,code,line",
    [
        ('c="the patient" 1:0 1:1||t="person"\nc="oops 1:0||t="person"\n', "RC201", 2),
        ('c="x" 9:0 9:0||t="person"\n', "RC202", 1),
        ('c="the patient" 1:0 1:1||t="person"\n\nc="x" 1:99 1:99||t="person"\n', "RC202", 3),
        ('c="x" 1:5 1:2||t="person"\n', "RC211", 1),
        ('c="the patient" 1:0 1:1||t="persn"\n', "RC208", 1),
    ],
)
def test_i2b2_bad_concepts_name_file_and_line(tmp_path: Path, con: str, code: str, line: int) -> None:
    txt, conp = write_pair(tmp_path, con=con)
    with pytest.raises(InputError) as err:
        read_document(txt, conp, types=("person", "problem", "treatment", "test", "pronoun"))
    d = err.value.diagnostics[0]
    assert (d.code, d.line, d.file) == (code, line, str(conp))
    assert f"{conp}:{line}: [{code}]" in str(err.value)


def test_i2b2_reports_every_bad_line_at_once(tmp_path: Path) -> None:
    txt, conp = write_pair(tmp_path, con='bad\nc="x" 9:0 9:0||t="person"\nc="the patient" 1:0 1:1||t="person"\n')
    with pytest.raises(InputError) as err:
        read_document(txt, conp)
    assert [(d.code, d.line) for d in err.value.diagnostics] == [("RC201", 1), ("RC202", 2)]


def test_i2b2_text_mismatch_is_warning_or_error(tmp_path: Path) -> None:
    txt, conp = write_pair(tmp_path, con='c="the doctor" 1:0 1:1||t="person"\n')
    res = read_document(txt, conp)
    assert [(w.code, w.line, w.severity) for w in res.warnings] == [("RC203", 1, "warning")]
    with pytest.raises(InputError) as err:
        read_document(txt, conp, strict_text=True)
    assert err.value.code == "RC203"


def test_i2b2_empty_text_is_an_error_empty_concepts_a_warning(tmp_path: Path) -> None:
    txt, conp = write_pair(tmp_path, text="\n\n", con="")
    with pytest.raises(InputError) as err:
        read_document(txt, conp)
    assert err.value.code == "RC205" and err.value.diagnostics[0].file == str(txt)
    txt, conp = write_pair(tmp_path, con="")
    res = read_document(txt, conp)
    assert res.document.concepts == [] and res.warnings[0].code == "RC205"


def test_i2b2_undecodable_bytes_name_the_line(tmp_path: Path) -> None:
    txt, conp = write_pair(tmp_path, raw=CON.encode() + b'c="caf\xe9" 1:0 1:0||t="person"\n')
    with pytest.raises(InputError) as err:
        read_document(txt, conp)
    d = err.value.diagnostics[0]
    assert (d.code, d.line) == ("RC206", 8)
    # the user can say which encoding the file really has
    assert read_text_lines(conp, "latin-1")[-1].startswith('c="café"')


def test_i2b2_duplicate_span_keeps_first_with_warning(tmp_path: Path) -> None:
    txt, conp = write_pair(tmp_path, con='c="the patient" 1:0 1:1||t="person"\nc="the patient" 1:0 1:1||t="problem"\n')
    res = read_document(txt, conp)
    assert len(res.document.concepts) == 1 and res.document.concepts[0].type == "person"
    assert [(w.code, w.line) for w in res.warnings] == [("RC212", 2)]


def test_i2b2_malformed_chain_lines(tmp_path: Path) -> None:
    bad = tmp_path / "x.txt.chains"
    bad.write_text('c="a" 1:0 1:0||c="b" 1:2 1:2\nc="a" 1:0 1:0||t="coref person"\n', encoding="utf-8")
    with pytest.raises(InputError) as err:
        read_chains(bad)
    assert (err.value.code, err.value.diagnostics[0].line) == ("RC207", 1)
    dup = tmp_path / "y.txt.chains"
    dup.write_text('c="a" 1:0 1:0||c="b" 1:2 1:2||t="coref person"\nc="a" 1:0 1:0||c="c" 1:4 1:4||t="coref person"\n')
    with pytest.raises(InputError) as err:
        read_chains(dup)
    assert (err.value.code, err.value.diagnostics[0].line) == ("RC214", 2)


def test_i2b2_write_atomic_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "out" / "a.txt.chains"
    write_atomic(target, "x\n")
    write_atomic(target, "y\n")
    assert target.read_text() == "y\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["a.txt.chains"]


@pytest.mark.parametrize("umask,mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_i2b2_write_atomic_respects_the_umask(tmp_path, umask: int, mode: int) -> None:
    """Outputs are created as ``open()`` would create them: 0666 less the user's umask."""
    import os
    import stat

    old = os.umask(umask)
    try:
        write_atomic(tmp_path / "a.txt.chains", "x\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.txt.chains").stat().st_mode) == mode
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt.chains"]  # no temp file left


def test_chain_mentions_that_are_no_concept_are_rc209_a_warning_for_gold_an_error_for_chains(tmp_path: Path) -> None:
    """A gold chain file cut from a larger annotation names mentions the concept file lacks: the
    learner and the trainer leave them out with a warning naming the line; a chains file that is
    read as this document's chains (convert, view) refuses them."""
    from rulecoref.io.i2b2 import chain_members, chains_by_index

    txt, con, chains = tmp_path / "n.txt", tmp_path / "n.txt.con", tmp_path / "n.txt.chains"
    txt.write_text("The patient came .\nHe left .\n", encoding="utf-8")
    con.write_text('c="the patient" 1:0 1:1||t="person"\nc="he" 2:0 2:0||t="pronoun"\n', encoding="utf-8")
    chains.write_text('c="the patient" 1:0 1:1||c="he" 2:0 2:0||c="left" 2:1 2:1||t="coref person"\n',
                      encoding="utf-8")
    doc = read_document(txt, con).document
    members, warnings = chain_members(doc, chains)
    assert members == [[0, 1]]
    assert [(w.code, w.line, w.severity) for w in warnings] == [("RC209", 1, "warning")]
    with pytest.raises(InputError) as err:
        chains_by_index(doc, chains)
    assert [(d.code, d.line) for d in err.value.diagnostics] == [("RC209", 1)]
