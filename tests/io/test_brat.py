"""brat standoff: T lines become concepts, coreference relations and equivalences become chains."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulecoref.errors import InputError
from rulecoref.io.brat import annotation_conf, format_brat, read_brat
from rulecoref.io.typemap import TypeMap

TEXT = "Mr. Smith has MRSA.\r\nHe was given vancomycin; it cleared the organism.\r\n"


def write(tmp_path: Path, ann: str, text: str = TEXT) -> tuple[Path, Path]:
    txt, path = tmp_path / "n1.txt", tmp_path / "n1.ann"
    txt.write_bytes(text.encode("utf-8"))
    path.write_text(ann, encoding="utf-8")
    return txt, path


def offsets(words: str) -> str:
    """The span of the first occurrence of ``words`` as whole words."""
    m = re.search(rf"(?<!\w){re.escape(words)}(?!\w)", TEXT)
    assert m
    return f"{m.start()} {m.end()}"


def test_brat_reads_concepts_equivalences_and_coreference_relations(tmp_path: Path) -> None:
    ann = (f"T1\tPerson {offsets('Mr. Smith')}\tMr. Smith\n"
           f"T2\tDisease {offsets('MRSA')}\tMRSA\n"
           f"T3\tPronoun {offsets('He')}\tHe\n"
           f"T4\tDrug {offsets('vancomycin')}\tvancomycin\n"
           f"T5\tPronoun {offsets('it')}\tit\n"
           f"T6\tDisease {offsets('the organism')}\tthe organism\n"
           "*\tCoreference T1 T3\n"
           "R1\tCoref Anaphora:T6 Antecedent:T2\n"
           "R2\tTreats Arg1:T4 Arg2:T2\n"
           "A1\tNegated T2\n#1\tAnnotatorNotes T2\tchecked\n")
    txt, path = write(tmp_path, ann)
    tm = TypeMap({"disease": "problem", "drug": "treatment"}, "keep")
    read = read_brat(txt, path, type_map=tm, abbreviations=frozenset({"mr"}))
    doc = read.document
    assert doc.name == "n1"
    assert [(c.text, c.type) for c in doc.concepts] == [
        ("mr. smith", "person"), ("mrsa", "problem"), ("he", "pronoun"), ("vancomycin", "treatment"),
        ("it", "pronoun"), ("the organism", "problem")]
    assert read.chains == [[0, 2], [1, 5]]  # Treats is no coreference
    assert read.warnings == []


def test_brat_discontinuous_span_is_covered_and_warned(tmp_path: Path) -> None:
    a, b = offsets("Mr."), offsets("Smith")
    txt, path = write(tmp_path, f"T1\tPerson {a.split()[0]} {a.split()[1]};{b}\tMr. Smith\n")
    read = read_brat(txt, path, abbreviations=frozenset({"mr"}))
    assert [c.text for c in read.document.concepts] == ["mr. smith"]
    assert [w.code for w in read.warnings] == ["RC237"]


def test_brat_problems_name_the_ann_line(tmp_path: Path) -> None:
    ann = (f"T1\tPerson {offsets('He')}\tHe\n"
           "T2 Person 0 3 Mr.\n"  # spaces, not tabs
           "*\tCoreference T1 T9\n"
           "X1\twhat\n")
    txt, path = write(tmp_path, ann)
    with pytest.raises(InputError) as err:
        read_brat(txt, path)
    assert [(d.code, d.line) for d in err.value.diagnostics] == [("RC236", 2), ("RC236", 4), ("RC238", 3)]
    assert all(d.file == str(path) for d in err.value.diagnostics)


def test_brat_text_mismatch_and_dropped_types(tmp_path: Path) -> None:
    ann = f"T1\tPerson {offsets('MRSA')}\tMRSE\nT2\tOrg {offsets('He')}\tHe\n*\tCoreference T1 T2\n"
    txt, path = write(tmp_path, ann)
    read = read_brat(txt, path, type_map=TypeMap({"org": None}))
    assert [c.text for c in read.document.concepts] == ["mrsa"]
    assert [w.code for w in read.warnings] == ["RC235"] and read.chains == []


def test_brat_writer_output_reads_back(tmp_path: Path) -> None:
    txt, path = write(tmp_path, f"T1\tperson {offsets('Mr. Smith')}\tMr. Smith\nT2\tpronoun {offsets('He')}\tHe\n"
                                f"T3\tpronoun {offsets('it')}\tit\n*\tCoreference T1 T2\n")
    read = read_brat(txt, path, abbreviations=frozenset({"mr"}))
    text, ann = format_brat(read.document, read.chains)
    assert ann.splitlines()[-1] == "*\tCoreference T1 T2"
    assert ann.splitlines()[0] == "T1\tperson 0 9\tMr. Smith"
    out = tmp_path / "out"
    out.mkdir()
    (out / "n1.txt").write_text(text, encoding="utf-8")
    (out / "n1.ann").write_text(ann, encoding="utf-8")
    again = read_brat(out / "n1.txt", out / "n1.ann", abbreviations=frozenset({"mr"}))
    assert again.document.lines == read.document.lines and again.chains == read.chains
    assert "Coreference\tArg1:<ENTITY>, Arg2:<ENTITY>, <REL-TYPE>:symmetric-transitive" in annotation_conf(["person"])
