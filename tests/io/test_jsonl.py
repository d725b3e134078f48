"""JSONL documents: text plus character-offset concepts in, the i2b2 text with offsets out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulecoref.document import Concept, Document
from rulecoref.errors import InputError
from rulecoref.io.jsonl import format_jsonl, parse_jsonl_object, read_jsonl_entry, safe_name, scan_jsonl
from rulecoref.io.typemap import TypeMap

ABBR = frozenset({"mr", "dr"})
NOTE = {"id": "n1", "text": "Mr. Smith has MRSA. He was given vancomycin.",
        "concepts": [{"start": 14, "end": 18, "type": "Problem", "text": "MRSA"},
                     {"start": 0, "end": 9, "type": "person"},
                     {"start": 20, "end": 22, "type": "pronoun"}],
        "chains": [{"type": "person", "mentions": [1, 2]}]}


def test_jsonl_parse_tokenises_and_renumbers_chains_to_text_order() -> None:
    read = parse_jsonl_object(NOTE, abbreviations=ABBR)
    doc = read.document
    assert doc.name == "n1"
    assert doc.lines == [["Mr.", "Smith", "has", "MRSA", "."], ["He", "was", "given", "vancomycin", "."]]
    assert [(c.text, c.type) for c in doc.concepts] == [("mr. smith", "person"), ("mrsa", "problem"), ("he", "pronoun")]
    assert read.chains == [[0, 2]] and read.chain_types == ["person"]
    assert read.warnings == []


def test_jsonl_reports_every_problem_of_a_line_at_once() -> None:
    bad = {"id": "", "text": 3, "concepts": [{"start": "0", "end": 2, "type": "x"}, {"start": 0, "end": 2}, 7]}
    with pytest.raises(InputError) as err:
        parse_jsonl_object(bad, file="in.jsonl", line=4)
    assert err.value.codes == ["RC231"] * 5
    assert all(d.file == "in.jsonl" and d.line == 4 for d in err.value.diagnostics)


def test_jsonl_chain_errors_and_unknown_keys() -> None:
    obj = {**NOTE, "tokenised": True, "chains": [{"mentions": [0, 9]}, {"mentions": [0, 1]}]}
    with pytest.raises(InputError) as err:
        parse_jsonl_object(obj)
    assert err.value.codes == ["RC234", "RC234"]  # 9 is out of range; concept 0 is in two chains
    read = parse_jsonl_object({**NOTE, "tokenised": True})
    assert [w.code for w in read.warnings] == ["RC232"]


def test_jsonl_concept_text_mismatch_warns_or_fails_when_strict() -> None:
    obj = {**NOTE, "concepts": [{"start": 14, "end": 18, "type": "problem", "text": "MRSE"}], "chains": []}
    assert [w.code for w in parse_jsonl_object(obj).warnings] == ["RC235"]
    with pytest.raises(InputError) as err:
        parse_jsonl_object(obj, strict_text=True)
    assert err.value.codes == ["RC235"]


def test_jsonl_type_map_renames_drops_and_checks_declared_types() -> None:
    tm = TypeMap({"problem": "problem", "person": None}, "keep")
    read = parse_jsonl_object(NOTE, type_map=tm)
    assert [c.type for c in read.document.concepts] == ["problem", "pronoun"]
    assert read.chains == []  # the person chain lost a mention to the map: one is left, no chain
    with pytest.raises(InputError) as err:
        parse_jsonl_object(NOTE, types=("problem", "pronoun"))
    assert err.value.codes == ["RC244"]
    with pytest.raises(InputError) as err:
        parse_jsonl_object(NOTE, type_map=TypeMap({"problem": "problem"}, "error", path="m.yaml"))
    assert err.value.codes == ["RC243", "RC243"]


def test_jsonl_repeated_span_keeps_the_first_and_warns() -> None:
    obj = {**NOTE, "concepts": NOTE["concepts"] + [{"start": 14, "end": 18, "type": "problem"}],
           "chains": [{"mentions": [0, 3]}]}
    read = parse_jsonl_object(obj, abbreviations=ABBR)
    assert len(read.document.concepts) == 3
    assert [w.code for w in read.warnings] == ["RC212"]
    assert read.chains == []  # both positions name one concept


def test_jsonl_repeated_concept_id_warns_rc250() -> None:
    """Chains join back to concepts by id: a repeated id is a warning naming both positions."""
    concepts = [{**c, "id": "c1"} for c in NOTE["concepts"][:2]]
    read = parse_jsonl_object({**NOTE, "concepts": concepts, "chains": []}, abbreviations=ABBR)
    assert [w.code for w in read.warnings] == ["RC250"] and "repeats the id of concept 0" in read.warnings[0].message
    assert len(read.document.concepts) == 2  # both concepts are kept


def test_jsonl_scan_names_lines_skips_repeated_ids_and_reads_by_offset(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    lines = [json.dumps(NOTE), "", "{not json", json.dumps({**NOTE, "id": "n 2.b"}), json.dumps(NOTE)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    entries, problems = scan_jsonl(path)
    assert [(e.name, e.line) for e in entries] == [("n1", 1), ("notes-line3", 3), ("n_2_b", 4)]
    assert [(d.code, d.line) for d in problems] == [("RC233", 5)]
    assert read_jsonl_entry(path, entries[2], abbreviations=ABBR).document.name == "n_2_b"
    with pytest.raises(InputError) as err:
        read_jsonl_entry(path, entries[1])
    assert err.value.codes == ["RC230"] and err.value.diagnostics[0].line == 3


def test_jsonl_safe_name() -> None:
    assert safe_name("note 1.a/b") == "note_1_a_b" and safe_name(42) == "42" and safe_name("..") == "document"


def test_jsonl_writer_round_trips_through_the_reader() -> None:
    doc = Document("d1", [["The", "patient", "."], [], ["He", "left", "."]], [
        Concept(0, "the patient", "person", (1, 0), (1, 1)), Concept(1, "he", "pronoun", (3, 0), (3, 0))])
    line = format_jsonl(doc, [[0, 1]], ["person"])
    obj = json.loads(line)
    assert obj["text"] == "The patient .\n\nHe left ." and obj["tokenized"] is True
    assert [(c["start"], c["end"], c["text"]) for c in obj["concepts"]] == [(0, 11, "The patient"), (15, 17, "He")]
    assert obj["chains"] == [{"type": "person", "mentions": [0, 1]}]
    back = parse_jsonl_object(obj)
    assert back.document.lines == doc.lines
    assert [c.span for c in back.document.concepts] == [c.span for c in doc.concepts]
    assert back.chains == [[0, 1]]
