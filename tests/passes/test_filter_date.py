"""filter_date: linked mentions dated differently are two events (seed 001, link filtering)."""

from __future__ import annotations

import pytest

from rulecoref.passes.predicates import dates_compatible
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


# --- the bulk search removes exactly the links the former link-by-link loop removed -----------------

def _reference_windows(doc, triggers, window, look_before):
    """ClueWindows as it was (its conditions, then trigger_windows), concept by concept."""
    from rulecoref.passes.predicates import trigger_windows

    spellings = triggers | {t.title() for t in triggers} | {t.upper() for t in triggers}
    at = {k for k, tok in enumerate(doc.flat_tokens) if tok in spellings}

    def windows(i):
        c = doc.concepts[i]
        start, end = doc.start_of(c), doc.end_of(c)
        after = end + 1 in at and c.end[1] + 1 < len(doc.lines[c.end[0] - 1])
        before = look_before and c.start[1] > 0 and start - 1 in at
        if not (after or before):
            return []
        hit = trigger_windows((), doc.after(c, window + 1), triggers, window)
        if look_before:
            hit = hit + trigger_windows(doc.before(c, window + 1), (), triggers, window)
        return hit

    return windows


def _reference(p, doc, links):
    windows = _reference_windows(doc, p.triggers, p.window, p.look_before)
    concepts = doc.concepts
    checked = {t for t in doc.types if p.scope.admits_type(t)}
    out, cache = [], {}

    def dates(i):
        if i not in cache:
            cache[i] = [] if p.date_rx is None else [
                m.group(0) for w in windows(i) for m in p.date_rx.finditer(" ".join(w))]
        return cache[i]

    for a, b in links:
        if concepts[a].type not in checked or concepts[b].type not in checked:
            continue
        da = dates(a)
        if not da:
            continue
        db = dates(b)
        if db and not any(dates_compatible(x, y) for x in da for y in db):
            out.append(((a, b), f"dates differ: '{da[0]}' near '{concepts[a].text}', '{db[0]}' near '{concepts[b].text}'"))
    return out


_WORDS = ["in", "In", "IN", "iN", "on", "dated", "the", "CT", "x-ray", ".", ";", "3/12", "03/12/2010", "3/19", "2009",
          "March", "12", ",", "2010", "POD", "5", "was", "is", "clear"]


def _random_doc_and_links(rng):
    return random_doc_and_links(rng, _WORDS, "CT", ["test", "test", "problem", "person", "pronoun"])


@pytest.mark.parametrize("params", [{}, {"sides": "after"}, {"window": 1}, {"window": 7, "triggers": ["in", "dated"]},
                                    {"dates": []}, {"triggers": ["\u00e0"]}])
@pytest.mark.parametrize("applies_to", [None, MAIN])
def test_filter_date_same_removals_as_reference(tmp_path, params, applies_to):
    import random

    from tests.helpers import single_pass

    p = single_pass("filter_date", params, applies_to, types=["test", "problem", "person", "pronoun"],
                    tmp_path=tmp_path).passes[0]
    rng = random.Random(repr(params) + repr(applies_to))
    removed = removals_against_reference(p, rng, _random_doc_and_links, _reference)
    assert removed or params.get("dates") == [] or params.get("triggers") == ["\u00e0"]
