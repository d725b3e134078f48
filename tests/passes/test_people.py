"""people.py helpers: word normalisation, word sets and the chain-level keep_apart."""

from __future__ import annotations

import pytest

from rulecoref.passes.people import WordSet, keep_apart, norm_word
from rulecoref.resources.lexicon import Lexicon


@pytest.mark.parametrize("token,expected", [
    ("Dr.", "dr"), ("M.D.", "md"), ("Smith's", "smith"), ("nurses'", "nurses"), (",", ""), ("PA-C", "pa-c"),
    ("Smith\u2019s", "smith"),
])
def test_people_norm_word(token, expected):
    assert norm_word(token) == expected


def test_people_wordset_phrases_first():
    ws = WordSet.of(Lexicon(["social worker", "worker", "Dr."]))
    assert ws.first(["the", "social", "worker"]) == "social worker"
    assert "dr" in ws


def test_people_keep_apart_whole_chains():
    # 0 = mother (family), 1 = she, 2 = patient: 0~1 first, then 1~2 would close the chain
    cut = list(keep_apart([(0, 1), (1, 2), (2, 3)], side_a={2}, side_b={0}))
    assert [pair for pair, _, _ in cut] == [(1, 2)]
    assert cut[0][1:] == (2, 0)


def test_people_keep_apart_order_decides():
    cut = list(keep_apart([(1, 2), (0, 1)], side_a={2}, side_b={0}))
    assert [pair for pair, _, _ in cut] == [(0, 1)]


def test_people_keep_apart_unrelated_links_pass():
    assert list(keep_apart([(0, 5), (5, 6), (2, 3)], side_a={2}, side_b={0})) == []


def test_people_linking_pass_without_people_roles_says_why(tmp_path):
    from tests.helpers import single_pass
    from tests.passes.people_support import run

    pipe = single_pass("patient_mention", tmp_path=tmp_path)
    with pytest.raises(RuntimeError, match="needs a 'people_roles' pass"):
        run(pipe, "[Ms. Alvarez|person] and [the patient|person] .")
