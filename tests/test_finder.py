"""The mention finder (rulecoref/finder.py): what it adds to NER-style concepts, what it must not,
and that every way in (the engine, the command line, a rule-file setting) finds the same mentions."""

from __future__ import annotations

from functools import cache

import pytest

from rulecoref.cli import main
from rulecoref.document import Fact
from rulecoref.engine import Pipeline
from rulecoref.errors import ResourceError, RuleFileError
from rulecoref.markup import parse_markup
from rulecoref.rules.compiler import compile_rules
from tests.helpers import ROOT, shared_resources, write_rules


@cache
def _pipeline(mode: str | None = None) -> Pipeline:
    return Pipeline(compile_rules(ROOT / "rules" / "i2b2.yaml"), shared_resources(), find_mentions=mode)


def found(markup: str, mode: str | None = None) -> list[str]:
    """The words the finder adds to a one-line document, in text order."""
    doc, _ = parse_markup(markup)
    new, _ = _pipeline(mode).finder.complete(doc)
    return [c.text for c in new.concepts if c.added]


@pytest.mark.parametrize("markup, words", [
    ("[The patient|person] says he hurt his knee himself .", ["he", "his", "himself"]),
    ("[Mrs. Finch|person] and her husband say they saw us and me .", ["her", "they", "us", "me"]),
    ("I saw [the patient|person] with my nurse ; we agreed .", ["i", "my", "we"]),
    ("[An 85-year-old man|person] who is afebrile .", ["who"]),
    ("She has [MRSA|problem] , which is resistant .", ["she", "which"]),
    ("[hematuria|problem] that began last night .", ["that"]),
    ("a [lesion|problem] that the patient noticed .", ["that"]),
    ("She takes [Restasis|treatment] for this .", ["she", "this"]),
    ("This started a day earlier ; these have resolved .", ["this", "these"]),
    ("She used [Allegra|treatment] and that might be cheaper .", ["she", "that"]),
])
def test_finder_adds_pronouns_ner_leaves_out(markup, words):
    assert found(markup) == words


@pytest.mark.parametrize("markup", [
    "It is not clear where [the lesion|problem] came from .",
    "it was three months before [the pain|problem] returned .",
    "It seems that [the rash|problem] resolved .",
    "it was decided to stop [aspirin|treatment] .",
    "It is important to continue [Zyrtec|treatment] .",
])
def test_finder_leaves_out_pleonastic_it(markup):
    assert "it" not in found(markup)


@pytest.mark.parametrize("markup, words", [
    ("This is [a 66-year-old gentleman|person] .", []),  # presentational: the guideline marks the person only
    ("We discussed with [Mr. Barker|person] that he has [a urologist|person] .", ["we", "he"]),
    ("HE HAS NO [ALLERGIES|problem] .", ["he"]),  # a line in capitals: no abbreviation
    ("RENAL US : [normal|problem] .", []),
])
def test_finder_conventions_of_clinical_notes(markup, words):
    assert found(markup) == words


@pytest.mark.parametrize("markup", [
    "[Allegra|treatment] was tried .\nIt does not appear to be working .",
    "[a lesion|problem] ; it is most likely sexually transmitted .",
    "[a lesion|problem] ; It is very obvious and apparent .",
])
def test_finder_keeps_referring_it(markup):
    assert found(markup) == ["it"]


@pytest.mark.parametrize("markup", [
    "He came at this time with [pain|problem] .",  # a determiner before its noun
    "At which time [the pain|problem] resolved .",
    "He states that he has [pain|problem] .",  # a conjunction before a subject
    "We found that his [culture|test] grew Pseudomonas .",
    "Seen this morning for [pain|problem] .",
    "Check this [lesion|problem] again .",  # a determiner of the concept after it
    "[Ultrasound|test] ; US of the kidneys ; IT department .",  # capitals: abbreviations
    "[type I diabetes|problem] , type I disease .",  # a roman numeral
])
def test_finder_does_not_add_determiners_conjunctions_abbreviations(markup):
    assert not set(found(markup)) & {"this", "which", "that", "us", "it", "i"}


def test_finder_never_overlaps_a_given_concept():
    doc, _ = parse_markup("[his pain|problem] and [this lesion|problem] ; [he|person] said so .")
    new, given = _pipeline("on").finder.complete(doc)
    assert new is doc and given == [0, 1, 2]


def test_finder_auto_is_off_when_a_pronoun_concept_is_given_and_on_adds_the_rest():
    markup = "[The patient|person] said [he|pronoun] hurt his knee ."
    assert found(markup) == [] and found(markup, "off") == []
    assert found(markup, "on") == ["his"]
    assert found("[The patient|person] said he hurt his knee .", "off") == []


def test_finder_marks_added_concepts_and_keeps_the_given_ones_in_order():
    doc, _ = parse_markup("[The patient|person] says he has [pain|problem] in his [knee|problem] .")
    doc.facts = {2: {"negation": Fact(True, "test")}}
    res = _pipeline().resolve(doc)
    assert [(c.text, c.added) for c in res.doc.concepts] == [
        ("the patient", False), ("he", True), ("pain", False), ("his", True), ("knee", False)]
    assert [c.index for c in res.doc.concepts] == [0, 1, 2, 3, 4]
    assert res.input_index == [0, 2, 4] and list(res.doc.facts) == [4]
    assert [sorted(m) for m, t in res.chains() if t == "person"] == [[0, 1, 3]]
    assert doc.concepts[1].text == "pain"  # the input document is not changed


def write_note(folder, text: str, con: str) -> None:
    folder.mkdir()
    (folder / "note.txt").write_text(text, encoding="utf-8")
    (folder / "note.txt.con").write_text(con, encoding="utf-8")


NOTE = "The patient is a 60 year old man .\nHe was admitted for his pain .\n"
NER = 'c="the patient" 1:0 1:1||t="person"\nc="pain" 2:6 2:6||t="problem"\n'


def test_finder_resolve_finds_by_default_and_the_option_or_rule_file_turns_it_off(tmp_path):
    write_note(tmp_path / "in", NOTE, NER)
    assert main(["resolve", str(tmp_path / "in"), "--out", str(tmp_path / "a"), "--no-progress", "--quiet"]) == 0
    chains = (tmp_path / "a" / "note.txt.chains").read_text(encoding="utf-8")
    assert chains == 'c="the patient" 1:0 1:1||c="he" 2:0 2:0||c="his" 2:4 2:4||t="coref person"\n'
    assert main(["resolve", str(tmp_path / "in"), "--out", str(tmp_path / "b"), "--no-progress", "--quiet",
                 "--find-mentions", "off"]) == 0
    assert (tmp_path / "b" / "note.txt.chains").read_text(encoding="utf-8") == ""
    rules = write_rules(tmp_path, f"version: 1\nmentions: {{find: 'off'}}\npasses:\n  - include: {ROOT / 'rules' / 'i2b2.yaml'}\n")
    assert main(["resolve", str(tmp_path / "in"), "--out", str(tmp_path / "c"), "--no-progress", "--quiet",
                 "--rules", str(rules), "--allow-path", str(ROOT)]) == 0
    assert (tmp_path / "c" / "note.txt.chains").read_text(encoding="utf-8") == ""
    assert main(["resolve", str(tmp_path / "in"), "--out", str(tmp_path / "d"), "--no-progress", "--quiet",
                 "--rules", str(rules), "--allow-path", str(ROOT), "--find-mentions", "auto"]) == 0
    assert (tmp_path / "d" / "note.txt.chains").read_text(encoding="utf-8") == chains


def test_finder_explain_can_name_a_found_mention(tmp_path, capsys):
    write_note(tmp_path / "in", NOTE, NER)
    assert main(["explain", str(tmp_path / "in"), "--doc", "note", "the patient", "his", "--json"]) == 0
    assert '"same_chain": true' in capsys.readouterr().out


@pytest.mark.parametrize("block, code", [
    ("{find: sometimes}", "RC109"),
    ("{find: auto, pronouns: x.txt}", "RC103"),
    ("{type: anaphor}", "RC109"),
    ("{personal: no/such/list.txt}", "RC105"),
    ("[auto]", "RC104"),
])
def test_finder_rule_file_setting_is_validated(tmp_path, block, code):
    path = write_rules(tmp_path, f"version: 1\nmentions: {block}\npasses: []\n")
    with pytest.raises(RuleFileError) as err:
        compile_rules(path)
    assert code in err.value.codes


def test_finder_rule_file_words_and_mode_are_used(tmp_path):
    path = write_rules(tmp_path, "version: 1\nmentions: {find: 'on', personal: [he], possessive: []}\npasses: []\n")
    pipe = Pipeline(compile_rules(path), shared_resources())
    doc, _ = parse_markup("[The patient|person] said [she|pronoun] and he hurt his knee .")
    new, _ = pipe.finder.complete(doc)
    assert [c.text for c in new.concepts if c.added] == ["he"]


def test_finder_bad_mode_is_rc564():
    with pytest.raises(ResourceError) as err:
        Pipeline(compile_rules(ROOT / "rules" / "i2b2.yaml"), shared_resources(), find_mentions="always")
    assert err.value.code == "RC564"


def test_finder_nothing_to_type_without_a_pronoun_type():
    pipe = Pipeline(compile_rules(ROOT / "rules" / "odie.yaml"), shared_resources(), find_mentions="on")
    doc, _ = parse_markup("[The patient|people] said he hurt his knee .")
    assert pipe.finder.complete(doc)[0] is doc


def test_finder_view_shows_the_chains_of_found_mentions(tmp_path, capsys):
    write_note(tmp_path / "in", NOTE, NER)
    assert main(["resolve", str(tmp_path / "in"), "--out", str(tmp_path / "out"), "--no-progress", "--quiet",
                 "--provenance"]) == 0
    assert main(["view", str(tmp_path / "in"), "--system", str(tmp_path / "out"), "--out", str(tmp_path / "html")]) == 0
    assert "RC525" not in capsys.readouterr().err
    assert (tmp_path / "html" / "note.html").read_text(encoding="utf-8").count('data-chain="0"') == 3
