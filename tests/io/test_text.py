"""Plain text with character-offset concepts becomes an i2b2-shaped Document, and back."""

from __future__ import annotations

import pytest

from rulecoref.errors import InputError
from rulecoref.io.text import document_from_text, document_text, tokenize

ABBR = frozenset({"dr", "mr", "b.i.d"})


def _words(text: str, **kw) -> list[list[str]]:
    return [[text[a:b] for a, b in line] for line in tokenize(text, **kw)]


def test_text_tokenize_splits_punctuation_and_sentences() -> None:
    assert _words("Pain, 3.5 cm; methicillin-resistant S. aureus. He's better!", abbreviations=ABBR) == [
        ["Pain", ",", "3.5", "cm", ";", "methicillin-resistant", "S.", "aureus", "."],
        ["He", "'s", "better", "!"],
    ]


def test_text_tokenize_splits_clitics_as_i2b2_text_does() -> None:
    # the people linker reads "'s" as a possessor's mark; "O'Brien" and a quote's apostrophe are not clitics
    assert _words("Smith's wife doesn't know O'Brien's 'new' dog; they'd go. WON'T stop") == [
        ["Smith", "'s", "wife", "does", "n't", "know", "O'Brien", "'s", "'", "new", "'", "dog", ";", "they", "'d",
         "go", "."],
        ["WO", "N'T", "stop"],
    ]
    assert _words("Smith 's wife") == [["Smith", "'s", "wife"]]  # already split: the same tokens


def test_text_tokenize_sentence_keeps_its_closing_quotes_and_brackets() -> None:
    text = 'He said "stop." She left. "Why?!" (Twice.) Wait... then go -- now. "Any hurry?" he asked.'
    assert [" ".join(line) for line in _words(text)] == [
        'He said " stop . "', "She left .", '" Why ? ! "', "( Twice . )", "Wait ... then go -- now .",
        '" Any hurry ? " he asked .']


def test_text_tokenize_dotted_acronyms_keep_their_dot_and_end_no_sentence() -> None:
    assert _words("Seen in the U.S. at 3 p.m. by a Ph.D. student. Done 3.5. Next") == [
        ["Seen", "in", "the", "U.S.", "at", "3", "p.m.", "by", "a", "Ph.D.", "student", "."], ["Done", "3.5", "."],
        ["Next"]]


def test_text_tokenize_keeps_abbreviations_and_initials_whole() -> None:
    assert _words("Dr. Smith gave it b.i.d. to J. Doe.", abbreviations=ABBR) == [
        ["Dr.", "Smith", "gave", "it", "b.i.d.", "to", "J.", "Doe", "."]]


def test_text_tokenize_never_crosses_a_concept_edge() -> None:
    # "MRSA" is a concept inside the word "MRSA-positive": the token splits at its end
    assert _words("MRSA-positive culture", spans=[(0, 4)]) == [["MRSA", "-positive", "culture"]]


def test_text_tokenize_no_sentence_end_inside_a_concept() -> None:
    text = "seen by Dr. Smith today"
    assert _words(text, spans=[(8, 17)]) == [["seen", "by", "Dr", ".", "Smith", "today"]]


def test_text_tokenized_mode_keeps_lines_and_fields() -> None:
    assert _words("The patient .\n\nHe left .", tokenized=True) == [["The", "patient", "."], [], ["He", "left", "."]]


def test_text_document_places_concepts_and_maps_back() -> None:
    text = "Mr. Smith has MRSA. He was given vancomycin."
    td = document_from_text("n1", text, [(0, 9, "person"), (14, 18, "Problem"), (20, 22, "pronoun")], abbreviations=ABBR)
    doc = td.document
    assert doc.lines == [["Mr.", "Smith", "has", "MRSA", "."], ["He", "was", "given", "vancomycin", "."]]
    assert [(c.text, c.type, c.span) for c in doc.concepts] == [
        ("mr. smith", "person", (1, 0, 1, 1)), ("mrsa", "problem", (1, 3, 1, 3)), ("he", "pronoun", (2, 0, 2, 0))]
    assert [text[slice(*td.char_span(c))] for c in doc.concepts] == ["Mr. Smith", "MRSA", "He"]


def test_text_round_trip_through_i2b2_text_is_exact() -> None:
    text = "Mr. Smith has MRSA. He was given vancomycin , which helped."
    first = document_from_text("n1", text, [(0, 9, "person"), (14, 18, "problem"), (45, 50, "pronoun")], abbreviations=ABBR)
    back = document_text(first.document)
    again = document_from_text("n1", back.text, [(*back.char_span(c), c.type) for c in first.document.concepts],
                               tokenized=True)
    assert again.document.lines == first.document.lines
    assert [c.span for c in again.document.concepts] == [c.span for c in first.document.concepts]


def test_text_bad_spans_are_reported_together() -> None:
    with pytest.raises(InputError) as err:
        document_from_text("n1", "chest pain today", [(0, 99, "problem"), (3, 3, "problem"), (2, 8, "problem")],
                           tokenized=True, source="n1.jsonl")
    assert err.value.codes == ["RC202", "RC202"]
    with pytest.raises(InputError) as err:
        document_from_text("n1", "chest pain today", [(2, 8, "problem")], tokenized=True, source="n1.jsonl")
    assert err.value.codes == ["RC215"]
    assert err.value.diagnostics[0].file == "n1.jsonl"


def test_text_concept_of_maps_input_positions_and_repeated_spans() -> None:
    text = "He has MRSA . MRSA"
    td = document_from_text("n1", text, [(14, 18, "problem"), (0, 2, "pronoun"), (7, 11, "problem"), (7, 11, "test")],
                            tokenized=True)
    assert [c.text for c in td.document.concepts] == ["he", "mrsa", "mrsa"]
    assert td.concept_of == [2, 0, 1, 1]  # input position -> Document concept; the repeat points at the first
    assert td.duplicates == [(3, 2)]
    assert td.document.concepts[1].type == "problem"  # the first of two equal spans is kept
