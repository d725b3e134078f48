"""Clues beside a mention and adjectives that name no thing (rulecoref/attributes/clues.py)."""

from __future__ import annotations

from rulecoref.attributes import trigger_windows
from tests.attributes.helpers import column
from tests.helpers import settings_pipeline


def test_attributes_clue_windows(tmp_path):
    text = ("[pain|problem] in the left leg . the left leg is [the site|problem] . [CT|test] on ; 3/12 . "
            "left leg [pain|problem] .")
    got = column(text, "clue_windows")
    # after a following trigger, before a preceding one; a clause end stops a window; no trigger, no window
    assert got == [(("the", "left", "leg"),), (("the", "left", "leg"),), (), ()]
    after = settings_pipeline(tmp_path, {"clues": {"sides": "after", "window": 2}})
    assert column(text, "clue_windows", pipeline=after) == [(("the", "left"),), (), (), ()]


def test_attributes_trigger_windows_function():
    triggers = frozenset({"in", "is"})
    assert trigger_windows(["the"], ["in", "the", "left", "leg", ".", "x"], triggers, 4, True) == [["the", "left", "leg"]]
    assert trigger_windows(["the", "left", "leg", "is"], ["."], triggers, 4, True) == [["the", "left", "leg"]]
    assert trigger_windows(["the", "left", "leg", "is"], ["."], triggers, 4, False) == []
    assert trigger_windows(["left"], ["leg"], triggers, 4, True) == []


def test_attributes_dates():
    got = column("[x-ray|test] on 3/12 . [CT|test] on March 12 , 2010 . [MRI|test] was clear .", "dates")
    assert got[0] == ("3/12",) and got[2] == ()
    assert got[1] and all("12" in d for d in got[1])


def test_attributes_locations():
    got = column("[pain|problem] in the left leg . [nodules|problem] in the lungs . [fever|problem] is new .", "locations")
    assert got == [{"left", "leg"}, {"lung"}, set()]  # a listed plural counts as its listed singular


def test_attributes_modifiers():
    got = column("[the infarct|problem] is new . [pain|problem] in the left leg .", "modifiers")
    assert got == [{"new"}, set()]


def test_attributes_adjective_only():
    got = column("[febrile|problem] [very painful|problem] [mrsa|problem] [a cold|problem] [painful swelling|problem] "
                 "[the|problem]", "adjective_only")
    # unknown words ("mrsa") might be names; a noun ("cold", "swelling") keeps a mention; no word, no adjective
    assert got == [True, True, False, False, False, False]
