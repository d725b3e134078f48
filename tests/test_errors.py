"""The numbered messages (rulecoref/errors.py): one sorted table, every code raised somewhere in the
package and no "[RCnnn]" text built outside it, every template and hint formats, and a Diagnostic
reads as file:line: [code] message Hint: ..."""

from __future__ import annotations

import re
import string

import pytest

from rulecoref.errors import ERRORS, RENUMBERED, Diagnostic, RuleFileError, argument_message, diagnostic, format_message
from tests.helpers import ROOT

PACKAGE = ROOT / "rulecoref"
MESSAGES = {code: entry.message for code, entry in ERRORS.items()}
HINTS = {code: entry.hint for code, entry in ERRORS.items() if entry.hint is not None}


def _sources() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
            for p in sorted(PACKAGE.rglob("*.py")) if p.name != "errors.py"}


def fields(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def test_errors_codes_are_numbered_and_sorted():
    assert all(re.fullmatch(r"RC[1-7]\d\d", code) for code in ERRORS)
    assert list(ERRORS) == sorted(ERRORS)


def test_errors_every_code_is_raised_in_the_package():
    """A code in the table that no module names is a message no user can get (RC114 and RC503 were)."""
    source = "\n".join(_sources().values())
    raised = {code for code in ERRORS if re.search(rf"""["']{code}["']""", source)}
    assert sorted(set(ERRORS) - raised) == []


def test_errors_every_code_is_named_by_a_test():
    """A code no test names is a message no test has seen raised; this file and the table's own
    checks do not count (they name every code by looping)."""
    tests = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests").rglob("*.py"))
                      if p.name != "test_errors.py")
    assert sorted(code for code in ERRORS if not re.search(rf"\b{code}\b", tests)) == []


def test_errors_renumbered_codes_are_retired_and_mapped_in_the_docs():
    """An old number never comes back with a new meaning, every new one exists, and docs/errors.md
    lists the map code for code (a user with an old log looks there)."""
    assert set(RENUMBERED).isdisjoint(ERRORS)
    assert all(new in ERRORS for news in RENUMBERED.values() for new in news)
    rows = re.findall(r"^\| (RC\d{3}) \| (RC\d{3}(?:, RC\d{3})*) \|", (ROOT / "docs" / "errors.md").read_text(encoding="utf-8"), re.M)
    assert {old: tuple(new.split(", ")) for old, new in rows} == RENUMBERED


def test_errors_each_code_sits_in_the_range_its_comment_names():
    """The table's block comments ("-- models (RC6xx): ... (RC601-RC607) --") state ranges that the
    codes under them keep, within one hundred: a comment cannot drift from what it heads."""
    span = None
    for line in (PACKAGE / "errors.py").read_text(encoding="utf-8").splitlines():
        if m := re.search(r"# -- .*\(RC(\d{3})-RC(\d{3})\) --", line):
            span = (int(m.group(1)), int(m.group(2)))
            assert span[0] // 100 == span[1] // 100, line
        elif m := re.match(r'\s+"RC(\d{3})": Entry', line):
            assert span is not None and span[0] <= int(m.group(1)) <= span[1], line


def test_errors_no_literal_code_outside_the_table():
    """"[RC553] expected ..." written by hand in cli/common.py bypassed the table; codes are named
    bare ("RC553") and the "[code]" text comes from errors.py."""
    found = {path: re.findall(r"\[RC\d{3}\]", text) for path, text in _sources().items()}
    assert {path: codes for path, codes in found.items() if codes} == {}


def test_errors_argument_message_is_the_template_after_the_option():
    assert argument_message("RC553", detail="expected a whole number, got 'x'") == "[RC553] expected a whole number, got 'x'"
    with pytest.raises(ValueError):
        argument_message("RC113", path="x")


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_errors_template_and_hint_format_with_their_fields(code):
    given = {name: f"<{name}>" for name in fields(MESSAGES[code]) | fields(HINTS.get(code, ""))}
    message = MESSAGES[code].format(**given)  # a KeyError or ValueError here is a broken template
    assert format_message(code, **given) == message
    assert all(f"<{name}>" in message for name in fields(MESSAGES[code]))
    if code in HINTS:
        HINTS[code].format(**given)
    # "line" in RC402/RC405 is a template field that diagnostic() keeps for the location (umls/load.py formats those)
    own = {k: v for k, v in given.items() if k not in ("file", "line", "hint", "severity")}
    d = diagnostic(code, file="f.yaml", line=3, **own)
    assert str(d).startswith(f"f.yaml:3: [{code}] ")


def test_errors_missing_field_shows_its_name_instead_of_crashing():
    assert format_message("RC105", path="x.txt") == "word list 'x.txt' not found (looked in {looked})"


def test_errors_diagnostic_text_and_dict():
    d = diagnostic("RC102", file="r.yaml", line=4, kind="be-phrase", known="be_phrase", hint="did you mean 'be_phrase'?")
    assert str(d) == "r.yaml:4: [RC102] unknown kind 'be-phrase'; known: be_phrase. Hint: did you mean 'be_phrase'?"
    assert d.to_dict() == {"code": "RC102", "severity": "error", "file": "r.yaml", "line": 4,
                           "message": "unknown kind 'be-phrase'; known: be_phrase", "hint": "did you mean 'be_phrase'?"}
    assert str(Diagnostic("RC205", "empty file", file="a.txt")) == "a.txt: [RC205] empty file"
    assert diagnostic("RC501", path="o", count=2).hint == ERRORS["RC501"].hint  # the table's hint by default


def test_errors_exception_carries_every_diagnostic():
    err = RuleFileError([diagnostic("RC113", path="a"), diagnostic("RC101", detail="x")])
    assert err.code == "RC113" and err.codes == ["RC113", "RC101"] and str(err).count("\n") == 1


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_errors_hint_follows_a_full_stop_and_no_list_is_empty(code):
    """Every message, its fields empty: "Hint:" comes after a full stop ("...earlier run Hint: pass
    --overwrite" ran on), and a list field reads "none" ("allowed:  Hint:" listed nothing)."""
    empty = {name: "" for name in fields(MESSAGES[code]) if name not in ("file", "line", "hint", "severity")}
    text = str(diagnostic(code, hint="do this.", **empty))
    assert re.search(r"[.!?] Hint: do this\.$", text), text
    assert not re.search(r":\s*(\)|;|,|\.?$)", text.split(" Hint: ")[0]), text


def test_errors_hint_keeps_a_full_stop_the_message_has():
    assert str(Diagnostic("RC501", "stop.", hint="go")) == "[RC501] stop. Hint: go"
    assert str(Diagnostic("RC501", "files (x)", hint="go")) == "[RC501] files (x). Hint: go"
