"""Offset- and id-faithful outputs (io/faithful.py): JSONL and brat come back as they went in, the
text, every concept's id, offsets and label, their order and the record's other keys, with the
system's chains added by position and id; mentions rulecoref adds are marked."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

from rulecoref.cli import main
from rulecoref.io.brat import format_brat, read_brat
from rulecoref.io.jsonl import format_jsonl, parse_jsonl_object

TEXT = ("Mr. Baker was admitted with CHF (EF 35%). The patient was given furosemide.\n"
        "His CHF improved; the furosemide was continued. Mr. Baker went home.")
TYPE_MAP = "types:\n  PERSON: person\n  PROBLEM: problem\n  DRUG: treatment\n  TEST: test\n"


def _span(text: str, words: str, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = text.index(words, start + 1)
    return start, start + len(words)


def ner_record() -> dict:
    """A record as an NER tool writes it: raw text, ids, upper-case labels, shuffled, a metadata key."""
    spans = [("Mr. Baker", 0, "PERSON"), ("CHF", 0, "PROBLEM"), ("EF", 0, "TEST"), ("The patient", 0, "PERSON"),
             ("furosemide", 0, "DRUG"), ("His CHF", 0, "PROBLEM"), ("the furosemide", 0, "DRUG"),
             ("Mr. Baker", 1, "PERSON")]
    concepts = []
    for k, (words, nth, label) in enumerate(spans):
        start, end = _span(TEXT, words, nth)
        concepts.append({"id": f"ner-{k + 7}", "start": start, "end": end, "type": label, "text": words,
                         "score": 0.9})
    random.Random(3).shuffle(concepts)
    return {"id": "note-1", "patient_mrn": "000123", "text": TEXT, "concepts": concepts}


def resolve(tmp_path: Path, src: Path, fmt: str, *extra: str) -> Path:
    out = tmp_path / f"out-{fmt}-{src.stem}"
    assert main(["resolve", str(src), "--out", str(out), "--format", fmt, "--type-map", str(tmp_path / "map.yaml"),
                 "--no-progress", "-q", *extra]) == 0
    return out


def test_jsonl_output_gives_the_record_back_with_chains_by_position_and_id(tmp_path: Path, capsys) -> None:
    record = ner_record()
    (tmp_path / "map.yaml").write_text(TYPE_MAP)
    src = tmp_path / "notes.jsonl"
    src.write_text(json.dumps(record) + "\n")
    out = resolve(tmp_path, src, "jsonl", "--input-format", "jsonl")
    assert "RC232" not in capsys.readouterr().err  # a metadata key is data, not a warning
    got = json.loads((out / "note-1.jsonl").read_text())
    assert list(got) == ["id", "patient_mrn", "text", "concepts", "chains"]
    assert got["text"] == TEXT and got["patient_mrn"] == "000123"
    assert got["concepts"] == record["concepts"]  # ids, offsets, labels, order and other keys as given
    assert got["chains"], "the two Mr. Baker mentions at least are linked"
    for chain in got["chains"]:
        assert chain["ids"] == [got["concepts"][k]["id"] for k in chain["mentions"]]
        starts = [got["concepts"][k]["start"] for k in chain["mentions"]]
        assert starts == sorted(starts)  # a chain reads in text order, whatever the concepts' order
    ids = {got["concepts"][k]["text"]: got["concepts"][k]["id"] for c in got["chains"] for k in c["mentions"]}
    assert ids["Mr. Baker"] in ("ner-7", "ner-14")


def test_jsonl_output_is_independent_of_the_concepts_order(tmp_path: Path) -> None:
    record = ner_record()
    (tmp_path / "map.yaml").write_text(TYPE_MAP)
    chains = []
    for seed in (1, 2):
        shuffled = dict(record, concepts=random.Random(seed).sample(record["concepts"], len(record["concepts"])))
        src = tmp_path / f"notes{seed}.jsonl"
        src.write_text(json.dumps(shuffled) + "\n")
        got = json.loads((resolve(tmp_path, src, "jsonl", "--input-format", "jsonl") / "note-1.jsonl").read_text())
        assert got["concepts"] == shuffled["concepts"]
        chains.append(sorted(sorted(c["ids"]) for c in got["chains"]))
    assert chains[0] == chains[1]


def test_round_trip_jsonl_i2b2_jsonl_keeps_text_offsets_and_chains(tmp_path: Path) -> None:
    """i2b2 has no place for ids: JSONL -> i2b2 -> JSONL keeps the text, offsets, types and
    chains of i2b2-shaped ("tokenized") JSONL; the JSONL -> JSONL output keeps the ids too."""
    first = tmp_path / "first.jsonl"
    assert main(["convert", "resources/examples", str(first), "--to", "jsonl"]) == 0
    records = [json.loads(line) for line in first.read_text().splitlines()]
    for r in records:  # ids of its own on every concept
        r["concepts"] = [{"id": f"c{k}", **c} for k, c in enumerate(r["concepts"])]
    src = tmp_path / "ids.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert main(["convert", str(src), str(tmp_path / "i2b2"), "--to", "i2b2"]) == 0
    assert main(["convert", str(tmp_path / "i2b2"), str(tmp_path / "back.jsonl"), "--to", "jsonl"]) == 0
    back = [json.loads(line) for line in (tmp_path / "back.jsonl").read_text().splitlines()]
    assert [r["text"] for r in back] == [r["text"] for r in records]
    strip = [[{k: v for k, v in c.items() if k != "id"} for c in r["concepts"]] for r in records]
    assert [r["concepts"] for r in back] == strip
    assert [r["chains"] for r in back] == [r["chains"] for r in first_lines(first)]
    assert main(["convert", str(src), str(tmp_path / "same.jsonl"), "--to", "jsonl"]) == 0
    same = [json.loads(line) for line in (tmp_path / "same.jsonl").read_text().splitlines()]
    assert [r["concepts"] for r in same] == [r["concepts"] for r in records]
    assert [[c["ids"] for c in r["chains"]] for r in same] == [
        [[f"c{k}" for k in c["mentions"]] for c in r["chains"]] for r in records]


def first_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


BRAT_TEXT = "Mr. Baker has CHF.\r\nHe was given furosemide; his CHF improved.\r\n"
BRAT_ANN = ("T3\tPERSON 0 9\tMr. Baker\n"
            "T1\tPROBLEM 14 17\tCHF\n"
            "T7\tPERSON 20 22\tHe\n"
            "T2\tDRUG 33 43\tfurosemide\n"
            "T9\tPROBLEM 45 52\this CHF\n"
            "A1\tNegated T1\n"
            "R1\tTreats Arg1:T2 Arg2:T1\n"
            "R2\tCoreference Anaphora:T7 Antecedent:T3\n"
            "#1\tAnnotatorNotes T3\tthe patient\n")


def test_brat_round_trip_keeps_text_ids_labels_and_other_annotations(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "n1.txt").write_bytes(BRAT_TEXT.encode())
    (src / "n1.ann").write_text(BRAT_ANN)
    (tmp_path / "map.yaml").write_text(TYPE_MAP + "  PRONOUN: pronoun\n")
    out = resolve(tmp_path, src, "brat", "--input-format", "brat")
    assert (out / "n1.txt").read_bytes() == BRAT_TEXT.encode()
    lines = (out / "n1.ann").read_text().splitlines()
    kept = [line for line in BRAT_ANN.splitlines() if "Coreference" not in line]
    assert lines[:len(kept)] == kept  # every annotation as given, the input's coreference replaced
    chains = [line.split("\t")[1].split()[1:] for line in lines[len(kept):]]
    assert ["T1", "T9"] in chains  # CHF ... his CHF, by the input's T ids
    again = resolve(tmp_path, out, "brat", "--input-format", "brat")
    assert (again / "n1.ann").read_text() == (out / "n1.ann").read_text()
    assert (again / "n1.txt").read_bytes() == BRAT_TEXT.encode()


def test_added_mentions_are_marked_and_get_ids_no_input_concept_has() -> None:
    text = "Mr. Baker has CHF. He is better."
    obj = {"id": "n", "text": text, "concepts": [{"id": "rulecoref-1", "start": 0, "end": 9, "type": "person"},
                                                 {"start": 14, "end": 17, "type": "problem"}]}
    read = parse_jsonl_object(obj, abbreviations=frozenset({"mr"}))
    doc = read.document
    he = _span(text, "He")
    with_he = parse_jsonl_object({**obj, "concepts": [*obj["concepts"], {"start": he[0], "end": he[1],
                                                                          "type": "pronoun"}]},
                                 abbreviations=frozenset({"mr"})).document
    # what the mention finder hands on: the given document's origin, one more concept marked added
    doc = replace(with_he, concepts=[replace(c, added=c.type == "pronoun") for c in with_he.concepts],
                  origin=doc.origin)
    got = json.loads(format_jsonl(doc, [[0, 2]], ["person"]))
    assert got["concepts"][:2] == obj["concepts"]
    added = got["concepts"][2]
    assert added == {"id": "rulecoref-2", "start": he[0], "end": he[1], "type": "pronoun", "text": "He",
                     "source": "rulecoref"}
    assert got["chains"] == [{"type": "person", "mentions": [0, 2], "ids": ["rulecoref-1", "rulecoref-2"]}]
    txt, ann = format_brat(doc, [[0, 2]])
    assert txt == text
    assert ann.splitlines() == ["T1\tperson 0 9\tMr. Baker", "T2\tproblem 14 17\tCHF",
                                f"T3\tpronoun {he[0]} {he[1]}\tHe", "#1\tAnnotatorNotes T3\tsource: rulecoref",
                                "*\tCoreference T1 T3"]


def test_brat_reader_keeps_dropped_concepts_for_the_output(tmp_path: Path) -> None:
    txt, ann = tmp_path / "n.txt", tmp_path / "n.ann"
    txt.write_text("Mr. Baker at Mercy has CHF.")
    ann.write_text("T1\tPerson 0 9\tMr. Baker\nT2\tOrg 13 18\tMercy\nT3\tDisease 23 26\tCHF\n")
    from rulecoref.io.typemap import TypeMap

    read = read_brat(txt, ann, type_map=TypeMap({"org": None}))
    assert [c.type for c in read.document.concepts] == ["person", "disease"]
    origin = read.document.origin
    assert origin is not None and [(g.id, g.label, g.span is None) for g in origin.concepts] == [
        ("T1", "Person", False), ("T2", "Org", True), ("T3", "Disease", False)]
    _, out = format_brat(read.document, [])
    assert out.splitlines() == ann.read_text().splitlines()


def test_outputs_keep_the_input_when_the_finder_makes_a_new_document() -> None:
    """The mention finder makes a new Document with the pronouns it adds; resolve_one keeps the
    input's origin on it, so the output is still the input's, with the added mention marked."""
    from rulecoref.batch import resolve_one
    from rulecoref.document import Concept, Document
    from rulecoref.engine import Resolution

    class Finding:  # a pipeline whose finder adds "He" and links it to Mr. Baker
        def resolve(self, doc: Document) -> Resolution:
            he = Concept(index=2, text="he", type="pronoun", start=(2, 0), end=(2, 0), added=True)
            new = Document(name=doc.name, lines=doc.lines, concepts=[*doc.concepts, he])
            return Resolution(new, clusters=[[0, 2], [1]], types=["person", "problem"])

    text = "Mr. Baker has CHF. He is better."
    obj = {"id": "n", "text": text, "meta": 1, "concepts": [{"id": "a", "start": 0, "end": 9, "type": "person"},
                                                            {"id": "b", "start": 14, "end": 17, "type": "problem"}]}
    done, problems = resolve_one(Finding(), lambda: parse_jsonl_object(obj, abbreviations=frozenset({"mr"})), "n",
                                 lambda d: format_jsonl(d.doc, [c for c, _ in d.chains], [t for _, t in d.chains]))
    assert problems == [] and done is not None
    got = json.loads(done.emitted)
    assert got["text"] == text and got["meta"] == 1 and got["concepts"][:2] == obj["concepts"]
    assert got["concepts"][2] == {"id": "rulecoref-1", "start": 19, "end": 21, "type": "pronoun", "text": "He",
                                  "source": "rulecoref"}
    assert got["chains"] == [{"type": "person", "mentions": [0, 2], "ids": ["a", "rulecoref-1"]}]
