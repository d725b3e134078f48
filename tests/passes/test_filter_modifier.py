"""filter_modifier: linked mentions placed or described differently are two things (seed 001)."""

from __future__ import annotations

import pytest

from rulecoref.passes.predicates import clues_conflict
from tests.passes.main_support import (
    MAIN,
    pipeline,
    random_doc_and_links,
    removals,
    removals_against_reference,
    run,
    together,
)


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


# --- the bulk search removes exactly the links the former link-by-link loop removed -----------------

def _reference(p, doc, links):
    from tests.passes.test_filter_date import _reference_windows

    windows = _reference_windows(doc, p.triggers, p.window, p.look_before)
    concepts = doc.concepts
    checked = {t for t in doc.types if p.scope.admits_type(t)}
    out, cache = [], {}

    def clues(i):
        if i not in cache:
            cache[i] = p._window_clues(windows(i)) if windows(i) else [frozenset() for _ in p.categories]
        return cache[i]

    for a, b in links:
        if concepts[a].type not in checked or concepts[b].type not in checked:
            continue
        ca = clues(a)
        if not any(ca):
            continue
        cb = clues(b)
        for (name, _, _), xa, xb in zip(p.categories, ca, cb):
            if clues_conflict(xa, xb):
                out.append(((a, b), f"{name} differ: {', '.join(sorted(xa))} near '{concepts[a].text}' vs "
                                    f"{', '.join(sorted(xb))} near '{concepts[b].text}'"))
                break
    return out


_WORDS = ["in", "In", "IN", "iN", "on", "the", "pain", ".", ";", "left", "Left", "right", "leg", "legs", "arm", "lung",
          "lungs", "new", "old", "lower", "back", "is", "and"]


def _random_doc_and_links(rng):
    return random_doc_and_links(rng, _WORDS, "pain", ["problem", "problem", "test", "person", "pronoun"])


@pytest.mark.parametrize("params", [
    {},
    {"sides": "after", "window": 2},
    {"locations": ["left leg", "lower back", "arm", "arms", "lung"], "modifiers": ["new", "old"], "window": 6},
    {"locations": [], "modifiers": ["new", "old"], "triggers": ["in", "\u00e0"]},
    {"locations": [], "modifiers": []},
])
@pytest.mark.parametrize("applies_to", [None, MAIN])
def test_filter_modifier_same_removals_as_reference(tmp_path, params, applies_to):
    import random

    from tests.helpers import single_pass

    p = single_pass("filter_modifier", params, applies_to, types=["problem", "test", "person", "pronoun"],
                    tmp_path=tmp_path).passes[0]
    rng = random.Random(repr(params) + repr(applies_to))
    removed = removals_against_reference(p, rng, _random_doc_and_links, _reference)
    assert removed or not p.categories or "triggers" in params
