"""filter_modifier: linked mentions placed or described differently are two things (seed 001)."""

from __future__ import annotations

import pytest

from tests.passes.main_support import MAIN, pipeline, removals, run, together


@pytest.fixture()
def pipe(tmp_path):
    return pipeline(tmp_path, {"kind": "exact_match", "applies_to": MAIN}, {"kind": "filter_modifier", "applies_to": MAIN})


def test_filter_modifier_different_locations(pipe):
    res = run(pipe, "[pain|problem] in the left leg . [pain|problem] in the right arm .")
    assert not together(res, "pain", "pain")
    assert removals(res) == ["locations differ: left, leg near 'pain' vs arm, right near 'pain'"]


def test_filter_modifier_compatible_locations(pipe):
    res = run(pipe, "[pain|problem] in the left leg . the [pain|problem] in the leg improved .")
    assert together(res, "pain", "pain")


def test_filter_modifier_different_modifiers(pipe):
    res = run(pipe, "[the infarct|problem] is old . [the infarct|problem] is new .")
    assert not together(res, "the infarct", "the infarct")


def test_filter_modifier_categories_are_separate(pipe):
    # a location on one side and a modifier on the other do not contradict each other
    res = run(pipe, "[pain|problem] in the left leg . [pain|problem] is new .")
    assert together(res, "pain", "pain")


def test_filter_modifier_needs_trigger_word(pipe):
    res = run(pipe, "left leg [pain|problem] . right arm [pain|problem] .")
    assert together(res, "pain", "pain")  # modifiers outside the mention but with no trigger word


def test_filter_modifier_before_trigger(pipe):
    res = run(pipe, "the left leg is [the site|problem] . the right arm is [the site|problem] .")
    assert not together(res, "the site", "the site")


def test_filter_modifier_custom_lists(tmp_path):
    pipe = pipeline(tmp_path, {"kind": "exact_match", "applies_to": MAIN},
                    {"kind": "filter_modifier", "applies_to": MAIN,
                     "params": {"locations": ["ward a", "ward b"], "modifiers": [], "triggers": ["on"]}})
    res = run(pipe, "[fever|problem] on ward a . [fever|problem] on ward b .")
    assert not together(res, "fever", "fever")


def test_filter_modifier_plural_keyword_is_its_singular(pipe):
    res = run(pipe, "[nodules|problem] in the lungs . [nodules|problem] in the lung .")
    assert together(res, "nodules", "nodules")


def test_filter_modifier_sides(tmp_path):
    text = "the left leg is [the site|problem] . the right arm is [the site|problem] ."
    after = pipeline(tmp_path, {"kind": "exact_match", "applies_to": MAIN},
                     {"kind": "filter_modifier", "applies_to": MAIN, "params": {"sides": "after"}})
    assert together(run(after, text), "the site", "the site")  # the words before "is" are not searched
