"""filter_date: linked mentions dated differently are two events (seed 001, link filtering)."""

from __future__ import annotations

import pytest

from tests.passes.main_support import MAIN, pipeline, removals, run, together


@pytest.fixture()
def pipe(tmp_path):
    return pipeline(tmp_path, {"kind": "exact_match", "applies_to": MAIN}, {"kind": "filter_date", "applies_to": MAIN})


def test_filter_date_different_dates(pipe):
    res = run(pipe, "[chest x-ray|test] on 3/12 was clear . [chest x-ray|test] on 3/19 showed effusion .")
    assert not together(res, "chest x-ray", "chest x-ray")
    assert removals(res) == ["dates differ: '3/12' near 'chest x-ray', '3/19' near 'chest x-ray'"]


def test_filter_date_same_day_written_differently(pipe):
    res = run(pipe, "[chest x-ray|test] on 3/12 was clear . repeat [chest x-ray|test] on 03/12/2010 unchanged .")
    assert together(res, "chest x-ray", "chest x-ray")
    res = run(pipe, "[CT|test] on March 12 , 2010 ; [CT|test] on 3/12/2010 .")
    assert together(res, "ct", "ct")


def test_filter_date_years_and_hospital_days(pipe):
    res = run(pipe, "[the MRI|test] in 2009 was normal ; [the MRI|test] in 2011 showed a mass .")
    assert not together(res, "the mri", "the mri")
    res = run(pipe, "[fever|problem] on POD 2 and [fever|problem] on POD 5 .")
    assert not together(res, "fever", "fever")


def test_filter_date_only_after_trigger_words(pipe):
    # "3/12 chest x-ray": no trigger word next to the mention, so no clue is searched
    res = run(pipe, "3/12 [chest x-ray|test] clear . 3/19 [chest x-ray|test] effusion .")
    assert together(res, "chest x-ray", "chest x-ray")


def test_filter_date_one_side_undated(pipe):
    res = run(pipe, "[chest x-ray|test] on 3/12 was clear . the [chest x-ray|test] showed nothing .")
    assert together(res, "chest x-ray", "chest x-ray")


def test_filter_date_clause_end_stops_the_window(pipe):
    res = run(pipe, "[CT|test] on ; 3/12 . [CT|test] on 3/19 .")
    assert together(res, "ct", "ct")


def test_filter_date_respects_scope(tmp_path):
    pipe = pipeline(tmp_path, {"kind": "exact_match", "applies_to": MAIN},
                    {"kind": "filter_date", "applies_to": {"types": ["problem"]}})
    res = run(pipe, "[chest x-ray|test] on 3/12 . [chest x-ray|test] on 3/19 .")
    assert together(res, "chest x-ray", "chest x-ray")
