"""The clinical pair predicates of rulecoref/predicates/clinical.py: context vetoes, drugs, pronouns for things
(issue 16), and hypothetical mentions, pronoun use, complements, derived heads and abbreviations
(issue 35): what each links or keeps apart, on tiny notes (their attributes are tested in
tests/attributes/test_clinical.py)."""

from __future__ import annotations

import pytest

from rulecoref.engine import Pipeline
from rulecoref.markup import parse_markup
from rulecoref.predicates import PREDICATES
from tests.helpers import ROOT, shared_resources


@pytest.fixture(scope="module")
def pipeline() -> Pipeline:
    return Pipeline.from_file(ROOT / "rules" / "i2b2.yaml", shared_resources())


def ask(pipeline: Pipeline, name: str, markup: str, i: int = -1, j: int = 0, **params) -> str | None:
    """The predicate ``name`` on (mention i, candidate j) of a markup document (default: last, first)."""
    spec = PREDICATES[name]
    doc, _ = parse_markup(markup)
    table = pipeline.table(doc, list(spec.attributes))
    n = len(doc.concepts)
    return spec.bind(params)(table, i % n, j % n)


@pytest.mark.parametrize("markup, holds", [
    ("He denies [fever|problem] .\nHe had [fever|problem] last week .", True),
    ("[Fever|problem] .\nHe had [fever|problem] .", False),
    ("No [fever|problem] .\nNo [fever|problem] .", False),
    # a definite mention names the known thing even when negated
    ("[Foley|treatment] in place .\nHe voided without [the Foley|treatment] .", False),
    ("[Foley|treatment] in place .\nHe voided without [a Foley|treatment] .", True),
])
def test_predicates_negation_differs(pipeline, markup, holds):
    assert (ask(pipeline, "negation_differs", markup) is not None) is holds


def test_predicates_negation_differs_types_limit_it(pipeline):
    markup = "He did not have [a PSA|test] drawn ; [his PSA|test] is high ."
    assert ask(pipeline, "negation_differs", markup) is not None
    assert ask(pipeline, "negation_differs", markup, types=["problem", "treatment"]) is None


@pytest.mark.parametrize("markup, holds", [
    ("NECK :\nNo [masses|problem] .\nABDOMEN :\nNo [masses|problem] .", True),
    ("He takes no [medications|treatment] .\nMEDICATIONS :\nNo [medications|treatment] .", False),
    ("He denies [fever|problem] and denies [chills|problem] .", True),
    ("He denies [fever|problem] .\n[Fever|problem] .", False),  # only one negated: negation_differs' case
])
def test_predicates_negated_apart(pipeline, markup, holds):
    assert (ask(pipeline, "negated_apart", markup) is not None) is holds


CASES = {
    "history_differs": [
        ("no [prior operations|treatment] ; we advise [operation|treatment] .", True),
        ("[prior CT|test] and [prior CT|test] .", False),
    ],
    "new_event": [
        ("[the tube|treatment] fell out , and [another tube|treatment] was placed .", True),
        ("[another tube|treatment] was placed ; [the tube|treatment] drains .", False),
        ("[a second one|test] ... [the second|test] .", False),
    ],
    "generic_mention": [
        ("[swelling|problem] of the knee ; [any swelling|problem] ?", True),
        ("denies [any hematuria|problem] and [hematuria|problem] .", False),
    ],
    "degree_clash": [
        ("[minimal discomfort|problem] ; [significant discomfort|problem] .", True),
        ("[mild pain|problem] ; [the pain|problem] .", False),
    ],
    "site_clash": [
        ("[left knee pain|problem] ; [right knee pain|problem] .", True),
        ("[left knee pain|problem] ; [knee pain|problem] .", False),
    ],
    "family_differs": [
        ("[cancer|problem] .\nFAMILY HISTORY :\nFather with [cancer|problem] .", True),
        ("[cancer|problem] and [cancer|problem] .", False),
    ],
    "same_drug": [
        ("[Claritin|treatment] ; [loratadine|treatment] .", True),
        ("[Claritin|treatment] ; [Zyrtec|treatment] .", False),
    ],
    "clinical_head_matches": [
        ("[sleep apnea|problem] ; [sleep apnea symptoms|problem] .", True),
        ("[chest pain|problem] ; [chest wall|problem] .", False),
    ],
    "clinical_words_covered": [
        ("[sleep apnea|problem] ; [ongoing sleep apnea symptoms|problem] .", True),
        ("[sedation|treatment] ; [propofol sedation|treatment] .", False),
    ],
}

def check(pipeline, name: str, markup: str, holds: bool) -> None:
    evidence = ask(pipeline, name, markup)
    assert (evidence is not None) is holds
    assert evidence is None or evidence.strip()


@pytest.mark.parametrize("markup, holds", CASES["history_differs"])
def test_predicates_history_differs(pipeline, markup, holds):
    check(pipeline, "history_differs", markup, holds)


@pytest.mark.parametrize("markup, holds", CASES["new_event"])
def test_predicates_new_event(pipeline, markup, holds):
    check(pipeline, "new_event", markup, holds)


@pytest.mark.parametrize("markup, holds", CASES["generic_mention"])
def test_predicates_generic_mention(pipeline, markup, holds):
    check(pipeline, "generic_mention", markup, holds)


@pytest.mark.parametrize("markup, holds", CASES["degree_clash"])
def test_predicates_degree_clash(pipeline, markup, holds):
    check(pipeline, "degree_clash", markup, holds)


@pytest.mark.parametrize("markup, holds", CASES["site_clash"])
def test_predicates_site_clash(pipeline, markup, holds):
    check(pipeline, "site_clash", markup, holds)


@pytest.mark.parametrize("markup, holds", CASES["family_differs"])
def test_predicates_family_differs(pipeline, markup, holds):
    check(pipeline, "family_differs", markup, holds)


@pytest.mark.parametrize("markup, holds", CASES["same_drug"])
def test_predicates_same_drug(pipeline, markup, holds):
    check(pipeline, "same_drug", markup, holds)


@pytest.mark.parametrize("markup, holds", CASES["clinical_head_matches"])
def test_predicates_clinical_head_matches(pipeline, markup, holds):
    check(pipeline, "clinical_head_matches", markup, holds)


@pytest.mark.parametrize("markup, holds", CASES["clinical_words_covered"])
def test_predicates_clinical_words_covered(pipeline, markup, holds):
    check(pipeline, "clinical_words_covered", markup, holds)


@pytest.mark.parametrize("markup, holds", [
    ("She used [Allegra|treatment] .\n[It|pronoun] helps .", True),
    ("He has [allergies|problem] and [they|pronoun] are worse .", True),
    ("He has [lesions|problem] and [it|pronoun] is sore .", False),
    ("He has no [rash|problem] and [it|pronoun] is fine .", False),
    ("He needs no [daily medication|treatment] for [this|pronoun] .", False),
    ("[Ann|person] said [it|pronoun] hurts .", False),
    ("[It|pronoun] works , so [it|pronoun] stays .", True),
    # a plural pronoun needs a mention marked plural; one of unknown number ('unable to walk') is no such one
    ("He was [unable to walk|problem] .\nBecause of this , [they|pronoun] called .", False),
    ("He was [unable to walk|problem] .\n[It|pronoun] passed .", True),
])
def test_predicates_thing_antecedent(pipeline, markup, holds):
    assert (ask(pipeline, "thing_antecedent", markup) is not None) is holds


def test_predicates_types_keep_a_veto_to_clinical_mentions(pipeline):
    markup = "[left knee pain|problem] ; [right knee pain|problem] ."
    assert ask(pipeline, "site_clash", markup, types=["problem"]) is not None
    assert ask(pipeline, "site_clash", markup, types=["test"]) is None


@pytest.mark.parametrize(("first", "second", "holds"), [
    (False, None, False),  # neither is in the family history: an unknown is no difference
    (None, None, False),
    (True, None, True),
    (True, False, True),
])
def test_predicates_family_differs_reads_given_facts_as_in_or_not(pipeline, first, second, holds):
    """A caller's facts (Document.facts, e.g. medspaCy's sectionizer) may give None for 'no section
    known'; family_differs compares in-the-family-history or not, so None and False are the same."""
    from rulecoref.document import Fact

    doc, _ = parse_markup("[cancer|problem] .\n[cancer|problem] .")
    doc.facts = {0: {"family_section": Fact(first, "a test")}, 1: {"family_section": Fact(second, "a test")}}
    table = pipeline.table(doc, list(PREDICATES["family_differs"].attributes))
    assert bool(PREDICATES["family_differs"].bind({})(table, 1, 0)) is holds


# -- issue 35 ------------------------------------------------------------------------------------------------
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
