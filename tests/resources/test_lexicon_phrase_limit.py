"""Word-list phrases are bounded (issue 31, case 8): one 200,001-word negation cue made phrase
search run for minutes on a long line; an entry of more than MAX_PHRASE_WORDS words is RC125."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from rulecoref.errors import ResourceError, RuleFileError
from rulecoref.resources.lexicon import MAX_PHRASE_WORDS, Lexicon
from rulecoref.rules.compiler import compile_rules
from tests.helpers import write_rules


def test_phrase_limit_long_negation_cue_is_rc125_with_its_line(tmp_path: Path) -> None:
    (tmp_path / "cues.txt").write_text("no\ndenies\n" + " ".join(["x"] * 200_001) + "\n")
    path = write_rules(tmp_path, "version: 1\nattributes: {clinical: {negation_cues: cues.txt}}\npasses: []\n")
    started = time.perf_counter()
    with pytest.raises(RuleFileError) as err:
        compile_rules(path)
    (d,) = err.value.diagnostics
    assert (d.code, d.file, d.line) == ("RC125", str(tmp_path / "cues.txt"), 3)
    assert time.perf_counter() - started < 5


def test_phrase_limit_inline_list(tmp_path: Path) -> None:
    words = " ".join(["x"] * (MAX_PHRASE_WORDS + 1))
    path = write_rules(tmp_path, f"version: 1\npasses:\n  - kind: relative_pronoun\n    params:\n      pronouns: [which, '{words}']\n")
    with pytest.raises(RuleFileError) as err:
        compile_rules(path)
    assert [(d.code, d.line) for d in err.value.diagnostics] == [("RC125", 5)]


def test_phrase_limit_at_the_limit_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "cues.txt").write_text("no\n" + " ".join(["x"] * MAX_PHRASE_WORDS) + "\n")
    path = write_rules(tmp_path, "version: 1\nattributes: {clinical: {negation_cues: cues.txt}}\npasses: []\n")
    compile_rules(path)


def test_phrase_limit_lexicon_from_file_refuses_too(tmp_path: Path) -> None:
    (tmp_path / "cues.txt").write_text(" ".join(["x"] * (MAX_PHRASE_WORDS + 1)) + "\n")
    with pytest.raises(ResourceError) as err:
        Lexicon.from_file(tmp_path / "cues.txt")
    assert err.value.code == "RC302" and err.value.diagnostics[0].line == 1


def test_phrase_limit_find_keeps_longest_first() -> None:
    lex = Lexicon(["no", "no evidence of", "evidence"])
    assert lex.find("there was no evidence of x".split()) == "no evidence of"
    assert lex.find("evidence no".split()) == "evidence"
