"""Issue 35's clinical predicates: what each links or keeps apart, on tiny notes (their attributes are
tested in tests/attributes/test_clinical.py)."""

from __future__ import annotations

import pytest

from rulecoref.engine import Pipeline
from tests.helpers import ROOT, shared_resources
from tests.test_clinical_predicates import ask


@pytest.fixture(scope="module")
def pipeline() -> Pipeline:
    return Pipeline.from_file(ROOT / "rules" / "i2b2.yaml", shared_resources())


@pytest.mark.parametrize("markup, holds", [
    ("We discussed the risks of surgery including [bleeding|problem] and [infection|problem] .\n"
     "He had [bleeding|problem] after the biopsy .", True),
    ("He meets the criteria for [a cyst|problem] .\n[The cyst|problem] is small .", True),
    ("He had [bleeding|problem] .\n[The bleeding|problem] stopped .", False),
    # the cue's scope ends at a clause break
    ("There is a risk of stones but [bleeding|problem] is seen .\n[Bleeding|problem] persists .", False),
    # a definite mention in a risk list names the known thing ("that the torsion could occur again")
    ("He has [torsion|problem] .\nThe risks include that [the torsion|problem] could recur .", False),
])
def test_predicates_hypothetical_mention(pipeline, markup, holds):
    assert (ask(pipeline, "hypothetical_mention", markup) is not None) is holds


@pytest.mark.parametrize("markup, holds", [
    ("He has [hematuria|problem] [that|pronoun] began today .", True),
    ("She had [the surgery|treatment] .\nShe understands [this|pronoun] .", True),
    ("She had [the surgery|treatment] .\n[It|pronoun] went well .", False),
])
def test_predicates_pronoun_use(pipeline, markup, holds):
    assert (ask(pipeline, "pronoun_use", markup) is not None) is holds


@pytest.mark.parametrize("markup, j, holds", [
    # the last concept (i) and candidate j
    ("An [ultrasound|test] showed [increased flow|problem] .\n[This|pronoun] was reviewed .", 1, True),
    ("An [ultrasound|test] showed [increased flow|problem] .\n[This|pronoun] was reviewed .", 0, False),
    ("[HPV|problem] caused [warts|problem] , and [this|pronoun] is viral .", 1, False),  # the same sentence
    ("She used [Allegra|treatment] and began using [it|pronoun] .\n[It|pronoun] helps .", 1, False),  # a pronoun
])
def test_predicates_distant_not_first(pipeline, markup, j, holds):
    assert (ask(pipeline, "distant_not_first", markup, j=j) is not None) is holds


@pytest.mark.parametrize("markup, note_types, holds", [
    ("He regained [the weight|problem] .\nIt took months before he lost [it|pronoun] .", [], True),
    ("He regained [the weight|problem] .\nIt took months before he lost [it|pronoun] .", ["problem"], True),
    ("He regained [the weight|object] .\nIt took months before he lost [it|pronoun] .", ["problem"], False),
    ("She used [Allegra|treatment] .\n[It|pronoun] helps .", [], False),  # a subject
    ("She used [Allegra|treatment] and stopped [it|pronoun] .", [], False),  # the same sentence
])
def test_predicates_distant_object(pipeline, markup, note_types, holds):
    assert (ask(pipeline, "distant_object", markup, note_types=note_types) is not None) is holds


@pytest.mark.parametrize("markup, holds", [
    ("He takes [hydrochlorothiazide|treatment] for [this|pronoun] .", True),
    ("She has [asthma|problem] but needs no medication for [this|pronoun] .", False),  # 'but' opens a clause
    ("She has [asthma|problem] , [which|pronoun] is mild .", False),  # a comma
    ("Regarding [the lesion|problem] [itself|pronoun] , we talked .", False),  # a reflexive
    ("He takes [Motrin|treatment] .\nHe takes [it|pronoun] daily .", False),  # another sentence
])
def test_predicates_same_clause(pipeline, markup, holds):
    assert (ask(pipeline, "same_clause", markup) is not None) is holds


@pytest.mark.parametrize("markup, holds", [
    ("He had [treatment|treatment] of a fracture .\nHe had [treatment|treatment] of an infection .", True),
    ("[injury|problem] to the esophagus ; [injury|problem] to the small intestine .", True),
    ("[injury|problem] to the esophagus ; [the injury|problem] to his esophagus .", False),
    ("[injury|problem] to the esophagus ; [the injury|problem] .", False),
])
def test_predicates_complement_clash(pipeline, markup, holds):
    assert (ask(pipeline, "complement_clash", markup) is not None) is holds



@pytest.mark.parametrize("markup, holds", [
    ("He is [catheterizing|treatment] daily .\nWe reviewed the technique of [catheterization|treatment] .", True),
    ("The kidney was [obstructed|problem] .\nThe [obstruction|problem] resolved .", True),
    ("He is [catheterizing|treatment] daily , changing [his catheter|treatment] weekly .", False),
    ("He is [catheterizing|treatment] daily .\n[Bladder catheterization|treatment] failed .", False),  # adds a word
])
def test_predicates_derived_heads_match(pipeline, markup, holds):
    assert (ask(pipeline, "derived_heads_match", markup) is not None) is holds


@pytest.mark.parametrize("markup, holds", [
    ("He has [hypertension|problem] .\n[HTN|problem] .", True),
    ("[DM|problem] , on insulin .\n[Diabetes mellitus|problem] .", True),
    ("[SOB|problem] on exertion ; [chest pain|problem] .", False),
    ("[HTN|problem] and [hypertensive crisis|problem] .", False),
])
def test_predicates_abbreviation_of(pipeline, markup, holds):
    assert (ask(pipeline, "abbreviation_of", markup) is not None) is holds


@pytest.mark.parametrize("markup, holds", [
    ("[He|pronoun] is [sluggish|problem] .", True),
    ("[This|pronoun] is likely [molluscum contagiosum|problem] .", False),
])
def test_predicates_no_thing_pronoun(pipeline, markup, holds):
    assert (ask(pipeline, "no_thing_pronoun", markup) is not None) is holds
