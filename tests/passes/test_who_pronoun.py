"""who_pronoun: "who" -> the previous person mention that is not a pronoun."""

from __future__ import annotations

from tests.passes.people_support import people_pipeline, run, together


def test_who_pronoun_previous_person(tmp_path):
    res = run(people_pipeline(tmp_path, {"kind": "who_pronoun"}),
              "[Ms. Alvarez|person] lives with [her daughter|person] , [who|pronoun] cooks .")
    assert together(res, "her daughter", "who")
    assert not together(res, "ms. alvarez", "who")


def test_who_pronoun_skips_pronouns(tmp_path):
    res = run(people_pipeline(tmp_path, {"kind": "who_pronoun"}), "[Ms. Alvarez|person] and [she|pronoun] , [who|pronoun] .")
    assert together(res, "ms. alvarez", "who")


def test_who_pronoun_distance_limit(tmp_path):
    pipe = people_pipeline(tmp_path, {"kind": "who_pronoun", "params": {"max_tokens_between": 1}})
    res = run(pipe, "[Ms. Alvarez|person] came in today and asked [who|pronoun] called .")
    assert not together(res, "ms. alvarez", "who")
