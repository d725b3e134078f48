"""``syntax.Parse``: heads of spans, roles through conjuncts and appositions, depth (issue 35)."""

from __future__ import annotations

import pytest

from rulecoref.syntax import Parse

# "When Bo left , Cy Ode and Ann sang ."
WHEN = Parse(heads=(2, 2, 8, 8, 5, 8, 5, 5, 8, 8), deps=("advmod", "nsubj", "advcl", "punct", "compound", "nsubj",
                                                      "cc", "conj", "ROOT", "punct"), tags=("",) * 10)


def test_syntax_head_of_a_span():
    assert WHEN.head_of(4, 5) == 5  # "Cy [Ode]"
    assert WHEN.head_of(8, 8) == 8  # the root is its own head


def test_syntax_role_climbs_conjuncts():
    assert [WHEN.role(k) for k in (1, 5, 7, 8, 0)] == ["subject", "subject", "subject", "root", "other"]


def test_syntax_depth_is_prominence():
    assert WHEN.depth(5) == 1 and WHEN.depth(7) == 1 and WHEN.depth(4) == 1  # main subjects, a conjunct, a compound
    assert WHEN.depth(1) == 2  # the subordinate clause's subject lies deeper


def test_syntax_parse_checks_its_shape():
    with pytest.raises(ValueError):
        Parse(heads=(0, 5), deps=("ROOT", "dep"), tags=("", ""))
    with pytest.raises(ValueError):
        Parse(heads=(0,), deps=("ROOT", "dep"), tags=("",))
