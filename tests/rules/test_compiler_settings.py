"""The one settings validator (rules/compiler.py, ``_Settings``): a value that breaks its ``Param``
gets the same code wherever a Param tree is given: a pass's params, a kind's rule keys, a
predicate's settings, an ``attributes:`` block, a decoder's params."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest

from rulecoref import decoders
from rulecoref.errors import RuleFileError
from rulecoref.params import Param
from rulecoref.rules.compiler import compile_rules
from tests.helpers import write_rules


class _Choosy(decoders.UnionFindDecoder):
    """A decoder with a choice and a number, to reach the decoder's params."""

    kind = "choosy"
    params: ClassVar[dict[str, Param]] = {"order": Param("choice", default="left", allowed=("left", "right")),
                                          "weight": Param("float", default=1.0, minimum=0.0, maximum=1.0)}


@pytest.fixture(autouse=True)
def choosy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(decoders.DECODERS, "choosy", _Choosy)  # registered for these tests only


# where a choice, a number and a key are given, in each kind of settings
PLACES = {
    "pass params": "passes:\n  - {{kind: people_roles, params: {{gender_count: {choice}}}}}\n",
    "rule keys": "passes:\n  - {{kind: match, key: text_norm, antecedent: {choice}}}\n",
    "predicate settings": "passes:\n  - {{kind: match, key: text_norm, require: [{{acronym_of: {{acronym: {choice}}}}}]}}\n",
    "attributes": "attributes:\n  clues: {{sides: {choice}}}\npasses: []\n",
    "decoder params": "passes: []\ndecoder: {{kind: choosy, order: {choice}}}\n",
}


def _codes(tmp_path: Path, text: str) -> list[tuple[str, int]]:
    with pytest.raises(RuleFileError) as err:
        compile_rules(write_rules(tmp_path, text))
    return [(d.code, d.line) for d in err.value.diagnostics]


@pytest.mark.parametrize("place", sorted(PLACES))
def test_settings_a_bad_choice_is_rc109_everywhere(tmp_path: Path, place: str) -> None:
    """The decoder's params were once walked by hand, and a bad choice there was RC104."""
    assert _codes(tmp_path, PLACES[place].format(choice="sideways")) == [("RC109", 2)]
    good = {"pass params": "tokens", "rule keys": "all", "predicate settings": "mention", "attributes": "after",
            "decoder params": "right"}[place]
    compile_rules(write_rules(tmp_path, PLACES[place].format(choice=good)))


def test_settings_decoder_params_are_checked_as_pass_params_are(tmp_path: Path) -> None:
    text = "passes: []\ndecoder:\n  kind: choosy\n  weight: {weight}\n  ordr: left\n"
    assert _codes(tmp_path, text.format(weight=".nan")) == [("RC103", 5), ("RC123", 4)]
    assert _codes(tmp_path, text.format(weight="2")) == [("RC103", 5), ("RC104", 4)]
    ruleset = compile_rules(write_rules(tmp_path, "passes: []\ndecoder: {kind: choosy}\n"))
    assert ruleset.decoder is not None and ruleset.decoder.params == {"order": "left", "weight": 1.0}
