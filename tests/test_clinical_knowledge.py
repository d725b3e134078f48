"""Issue 35's clinical predicates and attributes: what each links or keeps apart, on tiny notes."""

from __future__ import annotations

import pytest

from rulecoref.engine import Pipeline
from rulecoref.markup import parse_markup
from tests.helpers import ROOT, shared_resources
from tests.test_clinical_predicates import ask


@pytest.fixture(scope="module")
def pipeline() -> Pipeline:
    return Pipeline.from_file(ROOT / "rules" / "i2b2.yaml", shared_resources())


def column(pipeline: Pipeline, name: str, markup: str) -> list:
    doc, _ = parse_markup(markup)
    return list(pipeline.table(doc, [name])[name])


@pytest.mark.parametrize("markup, holds", [
    ("We discussed the risks of surgery including [bleeding|problem] and [infection|problem] .\n"
     "He had [bleeding|problem] after the biopsy .", True),
    ("He meets the criteria for [a cyst|problem] .\n[The cyst|problem] is small .", True),
    ("He had [bleeding|problem] .\n[The bleeding|problem] stopped .", False),
    # the cue's scope ends at a clause break
    ("There is a risk of stones but [bleeding|problem] is seen .\n[Bleeding|problem] persists .", False),
])
def test_predicates_hypothetical_mention(pipeline, markup, holds):
    assert (ask(pipeline, "hypothetical_mention", markup) is not None) is holds


def test_attributes_hypothetical(pipeline):
    markup = "the potential complications of [surgery|treatment] including [bleeding|problem] ; [pain|problem] ."
    assert column(pipeline, "hypothetical", markup) == ["potential complications", "potential complications", None]


def test_attributes_number_singular_nouns_are_not_plurals(pipeline):
    markup = "[diabetes|problem] , [ascites|problem] , [lesions|problem] and [herpes|problem] ."
    assert column(pipeline, "number", markup) == ["singular", "singular", "plural", "singular"]


def test_attributes_number_singular_nouns_is_a_list_a_user_edits(tmp_path):
    (tmp_path / "singular.txt").write_text("lesions\n", encoding="utf-8")
    rules = tmp_path / "r.yaml"
    rules.write_text("version: 1\ntypes: [problem, pronoun]\npronoun_types: [pronoun]\n"
                     "attributes: {singular_nouns: singular.txt}\n"
                     "passes: [{kind: match, name: same, key: text_norm}]\n", encoding="utf-8")
    pipe = Pipeline.from_file(rules, shared_resources())
    assert column(pipe, "number", "[lesions|problem] and [diabetes|problem] .") == ["singular", "plural"]


def test_attributes_pronoun_use(pipeline):
    markup = ("He has [hematuria|problem] [that|pronoun] began today , [which|pronoun] worries him .\n"
              "She understands [this|pronoun] and the patient tells me [this|pronoun] is new ; [it|pronoun] is .")
    assert column(pipeline, "pronoun_use", markup) == [None, "relative", None, "clause", "clause", None]


@pytest.mark.parametrize("markup, holds", [
    ("He has [hematuria|problem] [that|pronoun] began today .", True),
    ("She had [the surgery|treatment] .\nShe understands [this|pronoun] .", True),
    ("She had [the surgery|treatment] .\n[It|pronoun] went well .", False),
])
def test_predicates_pronoun_use(pipeline, markup, holds):
    assert (ask(pipeline, "pronoun_use", markup) is not None) is holds


def test_attributes_complement(pipeline):
    markup = "[treatment|treatment] of an imperforate anus ; [injury|problem] to the esophagus , and [pain|problem] ."
    assert column(pipeline, "complement", markup) == [{"anus"}, {"esophagus"}, set()]  # adjectives are dropped


@pytest.mark.parametrize("markup, holds", [
    ("He had [treatment|treatment] of a fracture .\nHe had [treatment|treatment] of an infection .", True),
    ("[injury|problem] to the esophagus ; [injury|problem] to the small intestine .", True),
    ("[injury|problem] to the esophagus ; [the injury|problem] to his esophagus .", False),
    ("[injury|problem] to the esophagus ; [the injury|problem] .", False),
])
def test_predicates_complement_clash(pipeline, markup, holds):
    assert (ask(pipeline, "complement_clash", markup) is not None) is holds
