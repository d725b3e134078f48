"""rulecoref.io.conll: the reference scorer's reading rules, the writer, and i2b2 <-> CoNLL."""

from __future__ import annotations

import pytest

from rulecoref.errors import InputError
from rulecoref.io.conll import (
    conll_to_document,
    document_to_conll,
    format_conll,
    parse_coref_field,
    read_conll,
    record_name,
)


def write(tmp_path, text: str, name: str = "f.conll"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_conll_parse_field_order_and_glued_parts():
    assert parse_coref_field("-") == ([], [], [])
    assert parse_coref_field("(1|(2)|3)") == ([2], [1], [3])
    assert parse_coref_field("(1(3(3") == ([], [1, 3, 3], [])  # no '|' between parts (test case A9)
    assert parse_coref_field("3)3)1)") == ([], [], [3, 3, 1])
    assert parse_coref_field("(4+5)|(6)") == ([6], [], [])  # double antecedents are discarded
    with pytest.raises(ValueError):
        parse_coref_field("(x)")


def test_conll_read_nested_mentions_and_doc_id(tmp_path):
    path = write(tmp_path, (
        "#begin document (d1); part 000  \n"
        "d1\t0\t0\tthe\t(1|(2\n"
        "d1\t0\t1\tman\t2)\n"
        "\n"
        "d1\t0\t0\the\t1)|(2)\n"
        "#end document\n"
    ))
    [doc] = read_conll(path)
    assert doc.doc_id == "(d1); part 000  "  # everything after 'begin document ', trailing spaces kept
    assert doc.entities == {1: [(0, 2)], 2: [(0, 1), (2, 2)]}
    assert doc.sentences == [["the", "man"], ["he"]]


def test_conll_read_two_column_files_use_the_last_field(tmp_path):
    path = write(tmp_path, "#begin document (x); part 000\nx (7\nx 7)\nx (7)\n#end document\n")
    [doc] = read_conll(path)
    assert doc.clusters() == [[(0, 1), (2, 2)]]
    assert doc.sentences == [["_", "_", "_"]]


def test_conll_read_keeps_duplicates_for_the_scorer(tmp_path):
    """The reader keeps a repeated span; scoring drops the later copy (first wins)."""
    path = write(tmp_path, "#begin document a\nt\t(1)|(2)\nt\t(1)\n#end document\n")
    [doc] = read_conll(path)
    assert doc.clusters() == [[(0, 0), (1, 1)], [(0, 0)]]


@pytest.mark.parametrize("text, code", [
    ("#begin document a\nt\t(1\n#end document\n", "RC708"),
    ("#begin document a\nt\t1)\n#end document\n", "RC708"),
    ("#begin document a\nt\t-\n#end document\n#begin document a\nt\t-\n#end document\n", "RC709"),
    ("t\t-\n", "RC707"),
    ("#begin document a\nt\t-\n", "RC707"),
    ("#begin document a\nt\t(x)\n#end document\n", "RC707"),
])
def test_conll_read_errors_name_the_line(tmp_path, text, code):
    with pytest.raises(InputError) as err:
        read_conll(write(tmp_path, text))
    assert code in err.value.codes
    assert all(d.line for d in err.value.diagnostics)


def test_conll_format_round_trip_nested_and_same_start(tmp_path):
    clusters = [[(0, 3), (5, 5)], [(0, 1), (1, 1)], [(2, 3)]]
    text, crossing = format_conll("(doc); part 000", [["a", "b", "c", "d"], ["e", "f"]], clusters)
    assert crossing == []
    [doc] = read_conll(write(tmp_path, text))
    assert sorted(sorted(c) for c in doc.clusters()) == sorted(sorted(c) for c in clusters)
    assert doc.sentences == [["a", "b", "c", "d"], ["e", "f"]]


def test_conll_format_reports_crossing_mentions_of_one_entity():
    _, crossing = format_conll("d", [["a", "b", "c", "d"]], [[(0, 2), (1, 3)]])
    assert crossing == [(0, (0, 2), (1, 3))]


def test_conll_document_with_crossing_chain_mentions_warns_rc713(tmp_path):
    """i2b2 chains may hold crossing spans; CoNLL's brackets cannot, so the writer says which two."""
    from rulecoref.io.i2b2 import read_document

    txt = write(tmp_path, "the chest pain .\n", "n.txt")
    con = write(tmp_path, 'c="the chest" 1:0 1:1||t="problem"\nc="chest pain" 1:1 1:2||t="problem"\n', "n.txt.con")
    doc = read_document(txt, con).document
    _, warnings = document_to_conll(doc, [[c.span for c in doc.concepts]])
    assert [w.code for w in warnings] == ["RC713"] and "cross" in warnings[0].message


def test_conll_record_name():
    assert record_name("(clinical-12); part 000") == "clinical-12"
    assert record_name("(nw/xinhua/00/chtb_0009); part 002") == "nw_xinhua_00_chtb_0009_part002"
    assert record_name("(LuoTestCase); ") == "LuoTestCase"


def test_conll_i2b2_round_trip_keeps_line_numbers_with_reference(tmp_path):
    """Blank lines vanish in CoNLL; with the original record as reference the spans come back."""
    from rulecoref.document import Concept, Document

    concepts = [Concept(0, "the patient", "person", (1, 0), (1, 1)), Concept(1, "he", "pronoun", (3, 0), (3, 0))]
    doc = Document("rec", [["The", "patient", "came", "."], [], ["He", "left"]], concepts)
    text, warnings = document_to_conll(doc, [[(1, 0, 1, 1), (3, 0, 3, 0)]])
    assert warnings == []
    [cdoc] = read_conll(write(tmp_path, text))
    assert cdoc.doc_id == "(rec); part 000"
    back, chains, warns = conll_to_document(cdoc, reference=doc)
    assert warns == []
    assert [c.span for c in back.concepts] == [(1, 0, 1, 1), (3, 0, 3, 0)]
    assert [c.type for c in back.concepts] == ["person", "pronoun"]
    assert chains == [[0, 1]]
    plain, chains2, _ = conll_to_document(cdoc, default_type="mention")
    assert [c.span for c in plain.concepts] == [(1, 0, 1, 1), (2, 0, 2, 0)]  # sentences become lines
    assert [c.text for c in plain.concepts] == ["the patient", "he"]
    assert {c.type for c in plain.concepts} == {"mention"}
    assert chains2 == [[0, 1]]


def test_conll_to_document_warns_on_mentions_outside_the_reference(tmp_path):
    from rulecoref.document import Concept, Document

    ref = Document("r", [["a", "b", "c"]], [Concept(0, "a", "person", (1, 0), (1, 0))])
    [cdoc] = read_conll(write(tmp_path, "#begin document (r); part 000\nr\t0\t0\ta\t(1)\nr\t0\t1\tb\t(1)\nr\t0\t2\tc\t-\n#end document\n"))
    doc, chains, warns = conll_to_document(cdoc, reference=ref, default_type="other")
    assert [w.code for w in warns] == ["RC714"]
    assert [(c.span, c.type) for c in doc.concepts] == [((1, 0, 1, 0), "person"), ((1, 1, 1, 1), "other")]
    assert chains == [[0, 1]]


def test_conll_to_document_token_count_mismatch_is_an_error(tmp_path):
    from rulecoref.document import Document

    ref = Document("r", [["a", "b"]], [])
    [cdoc] = read_conll(write(tmp_path, "#begin document (r); part 000\nr\t0\t0\ta\t-\n#end document\n"))
    with pytest.raises(InputError) as err:
        conll_to_document(cdoc, reference=ref)
    assert err.value.code == "RC717"
