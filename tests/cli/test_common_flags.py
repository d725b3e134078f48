"""One flag vocabulary: every command's parser is walked, so a flag keeps one meaning, one default
and one help text wherever it appears (``cli/common.py`` declares them), and exit codes agree."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from rulecoref.cli import main
from rulecoref.cli.common import NO_PROGRESS_HELP, QUIET_HELP, TYPES_HELP
from tests.helpers import command_parsers

#: commands that work through documents (or rows): each takes --quiet and --no-progress
DOCUMENT_COMMANDS = {"resolve", "view", "evaluate", "explain", "train", "sweep", "ablate", "induce", "convert",
                     "web", "spark-resolve", "umls load"}
#: the document commands that read concepts against a rule file: each takes --types
TYPED_COMMANDS = {"resolve", "explain", "train", "sweep", "ablate", "induce", "web", "spark-resolve"}
#: commands that read no documents
OTHER_COMMANDS = {"check", "umls", "umls lookup", "umls info"}


commands = command_parsers


def option(parser: argparse.ArgumentParser, flag: str) -> argparse.Action | None:
    return next((a for a in parser._actions if flag in a.option_strings), None)


def test_flags_every_command_is_classified() -> None:
    """A new command must say whether it reads documents (and so takes the shared flags)."""
    assert set(commands()) == DOCUMENT_COMMANDS | OTHER_COMMANDS


@pytest.mark.parametrize("name", sorted(DOCUMENT_COMMANDS))
def test_flags_every_document_command_takes_quiet_and_no_progress(name: str) -> None:
    parser = commands()[name]
    quiet, no_progress = option(parser, "--quiet"), option(parser, "--no-progress")
    assert quiet is not None and no_progress is not None, name
    assert "-q" in quiet.option_strings and quiet.help == QUIET_HELP and quiet.default is False
    assert no_progress.help == NO_PROGRESS_HELP and no_progress.default is False


@pytest.mark.parametrize("name", sorted(DOCUMENT_COMMANDS | OTHER_COMMANDS))
def test_flags_types_has_one_default_and_one_help(name: str) -> None:
    types = option(commands()[name], "--types")
    if name in TYPED_COMMANDS:
        assert types is not None, name
    if types is not None:
        assert name in TYPED_COMMANDS, name
        assert types.default is None and types.help == TYPES_HELP, name


def test_flags_same_meaning_wherever_declared() -> None:
    """--quiet, --no-progress and --types are declared nowhere with another help text."""
    for name, parser in commands().items():
        for flag, text in (("--quiet", QUIET_HELP), ("--no-progress", NO_PROGRESS_HELP), ("--types", TYPES_HELP)):
            action = option(parser, flag)
            assert action is None or action.help == text, (name, flag)


@pytest.mark.parametrize("argv", [
    ["resolve", "{missing}", "--out", "{tmp}/o"], ["view", "{missing}", "--out", "{tmp}/v"],
    ["evaluate", "{missing}", "{missing}"], ["explain", "{missing}", "a"],
    ["train", "{missing}", "--model", "{tmp}/m.json"], ["ablate", "{missing}"],
    ["induce", "{missing}", "--out", "{tmp}/x.yaml"], ["convert", "{missing}", "{tmp}/c"],
    ["web", "{missing}", "--dry-run"], ["umls", "load", "{missing}", "--db", "{tmp}/u.sqlite"],
])
def test_flags_a_missing_input_exits_2_everywhere(argv: list[str], tmp_path: Path, capsys) -> None:
    """Exit 2: the command stopped before it ran (evaluate exited 1 for a missing folder)."""
    pytest.importorskip("sqlalchemy") if argv[0] == "umls" else None
    args = [a.format(missing=tmp_path / "nope", tmp=tmp_path) for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "[RC" in err
