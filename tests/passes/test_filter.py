"""``filter`` (rulecoref/passes/filter.py): each bundled filter of rules/i2b2.yaml after the
exact-string rule, on small documents (seed 001, "Link filtering")."""

from __future__ import annotations

import pytest

from tests.helpers import settings_pipeline
from tests.passes.main_support import bundled, bundled_entry, pairs, removals, run, together

EXACT = "exact-string"


def with_filter(tmp_path, name: str, attributes: dict | None = None, *before: str, **changes):
    """exact-string (and the bundled passes ``before``), then the bundled filter ``name`` changed."""
    entries = [bundled_entry(n) for n in (EXACT, *before)] + [{**bundled_entry(name), **changes}]
    return settings_pipeline(tmp_path, attributes, entries)


# -- different-dates -----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def dates():
    return bundled(EXACT, "different-dates")


def test_filter_different_dates_removes_with_evidence(dates):
    res = run(dates, "[chest x-ray|test] on 3/12 was clear . [chest x-ray|test] on 3/19 showed effusion .")
    assert not together(res, "chest x-ray", "chest x-ray")
    assert removals(res) == ["dates differ: '3/12' near 'chest x-ray', '3/19' near 'chest x-ray'"]
    assert res.explain(0, 1)["removed_by"]["pass"] == "different-dates"


def test_filter_leaves_out_a_test_no_mention_of_the_document_can_meet(tmp_path):
    """dates_conflict needs dates near both mentions: in a document without any it is not asked."""
    pipe = with_filter(tmp_path, "different-dates")
    asked: list[tuple[int, int]] = []
    dated = pipe.passes[1].tests[0]

    def counting(t, i, j):
        asked.append((i, j))
        return dated(t, i, j)

    pipe.passes[1].tests[0] = counting
    assert together(run(pipe, "[chest x-ray|test] was clear . [chest x-ray|test] showed effusion ."),
                    "chest x-ray", "chest x-ray") and asked == []
    res = run(pipe, "[chest x-ray|test] on 3/12 was clear . [chest x-ray|test] on 3/19 showed effusion .")
    assert asked == [(1, 0)] and not together(res, "chest x-ray", "chest x-ray")


@pytest.mark.parametrize("text", [
    "[chest x-ray|test] on 3/12 was clear . repeat [chest x-ray|test] on 03/12/2010 unchanged .",  # one day
    "[CT|test] on March 12 , 2010 ; [CT|test] on 3/12/2010 .",
    "3/12 [chest x-ray|test] clear . 3/19 [chest x-ray|test] effusion .",  # no trigger word beside them
    "[chest x-ray|test] on 3/12 was clear . the [chest x-ray|test] showed nothing .",  # one side undated
    "[CT|test] on ; 3/12 . [CT|test] on 3/19 .",  # a clause end stops the window
])
def test_filter_different_dates_keeps(dates, text):
    res = run(dates, text)
    assert pairs(res) == [(0, 1)] and res.removed == {}


@pytest.mark.parametrize("text", [
    "[the MRI|test] in 2009 was normal ; [the MRI|test] in 2011 showed a mass .",
    "[fever|problem] on POD 2 and [fever|problem] on POD 5 .",
])
def test_filter_different_dates_years_and_hospital_days(dates, text):
    assert len(run(dates, text).removed) == 1


def test_filter_different_dates_scope(tmp_path):
    only_problems = with_filter(tmp_path, "different-dates", applies_to={"types": ["problem"]})
    res = run(only_problems, "[chest x-ray|test] on 3/12 . [chest x-ray|test] on 3/19 .")
    assert together(res, "chest x-ray", "chest x-ray")  # neither end is admitted: not judged


# -- different-location-or-modifier ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def clues():
    return bundled(EXACT, "different-location-or-modifier")


def test_filter_clues_different_locations_removed_with_evidence(clues):
    res = run(clues, "[pain|problem] in the left leg . [pain|problem] in the right arm .")
    assert not together(res, "pain", "pain")
    assert removals(res) == ["locations differ: left, leg near 'pain' vs arm, right near 'pain'"]


@pytest.mark.parametrize("text", [
    "[the infarct|problem] is old . [the infarct|problem] is new .",  # modifiers
    "the left leg is [the site|problem] . the right arm is [the site|problem] .",  # before a trigger word
])
def test_filter_clues_removes(clues, text):
    assert len(run(clues, text).removed) == 1


@pytest.mark.parametrize("text", [
    "[pain|problem] in the left leg . the [pain|problem] in the leg improved .",  # one contains the other
    "[pain|problem] in the left leg . [pain|problem] is new .",  # a location and a modifier: no contradiction
    "left leg [pain|problem] . right arm [pain|problem] .",  # no trigger word
    "[nodules|problem] in the lungs . [nodules|problem] in the lung .",  # a listed plural is its singular
])
def test_filter_clues_keeps(clues, text):
    res = run(clues, text)
    assert pairs(res) == [(0, 1)] and res.removed == {}


def test_filter_clues_sides_after(tmp_path):
    after = with_filter(tmp_path, "different-location-or-modifier", {"clues": {"sides": "after"}})
    res = run(after, "the left leg is [the site|problem] . the right arm is [the site|problem] .")
    assert together(res, "the site", "the site")  # the words before "is" are not searched


def test_filter_clues_word_lists_inline(tmp_path):
    wards = with_filter(tmp_path, "different-location-or-modifier",
                        {"clues": {"locations": ["ward a", "ward b"], "modifiers": [], "triggers": ["on"]}})
    assert not together(run(wards, "[fever|problem] on ward a . [fever|problem] on ward b ."), "fever", "fever")


def test_filter_clues_categories_setting(tmp_path):
    places = with_filter(tmp_path, "different-location-or-modifier", remove_if=[{"clues_conflict": {"categories": ["locations"]}}])
    assert together(run(places, "[the infarct|problem] is old . [the infarct|problem] is new ."),
                    "the infarct", "the infarct")


def test_filter_clues_removes_the_direct_link_only(clues):
    # 0 ~ 1 and 1 ~ 2 agree; 0 and 2 conflict but were never linked directly, so one chain remains
    res = run(clues, "[pain|problem] in the left leg . [pain|problem] again . [pain|problem] in the right arm .")
    assert res.removed == {} and together(res, "pain", "pain")


# -- adjective-only-mention --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def adjectives():
    return bundled(EXACT, "adjective-only-mention")


def test_filter_adjective_only_removes_with_evidence(adjectives):
    res = run(adjectives, "she was [febrile|problem] on admission and remained [febrile|problem] .")
    assert not together(res, "febrile", "febrile")
    assert removals(res) == ["'febrile' is an adjective with no noun (WordNet)"]


@pytest.mark.parametrize("text", [
    "she has [a cold|problem] ; the [cold|problem] resolved .",
    "[painful swelling|problem] ; [painful swelling|problem] .",
    "[MRSA|problem] ; [MRSA|problem] .",  # unknown words might be names
])
def test_filter_adjective_only_keeps(adjectives, text):
    res = run(adjectives, text)
    assert pairs(res) == [(0, 1)] and res.removed == {}


def test_filter_adjective_only_removes_every_link_of_the_mention(tmp_path):
    # made_by=[]: the filter judging every pass's links (the bundled file names the word-matching passes)
    pipe = with_filter(tmp_path, "adjective-only-mention", None, "x-is-y", made_by=[])
    res = run(pipe, "[the patient 's state|problem] is [febrile|problem] ; [febrile|problem] again .")
    assert not together(res, "the patient 's state", "febrile")
    assert len(res.removed) == 2


def test_filter_either_end_admitted(tmp_path):
    # "which" is a pronoun, outside the filter's scope, but its antecedent is admitted: the link is judged
    pipe = with_filter(tmp_path, "adjective-only-mention", None, "which-that-after-concept", made_by=[])
    res = run(pipe, "she was [febrile|problem] , [which|pronoun] worried us .")
    assert len(res.proposed) == 1 and not together(res, "febrile", "which")
    # a link with neither end admitted is not judged
    people = with_filter(tmp_path, "adjective-only-mention", made_by=[])
    assert together(run(people, "[Febrile|person] came ; [Febrile|person] left ."), "febrile", "febrile")
