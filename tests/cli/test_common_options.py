"""Every option of every command says what it does, shows its default, and is spelt the same way
in every command that has it."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from rulecoref.cli import build_parser, main


def _commands(parser: argparse.ArgumentParser, prefix: str = "") -> Iterator[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:  # argparse offers no public walk over sub-commands
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield f"{prefix}{name}", sub
                yield from _commands(sub, f"{prefix}{name} ")


COMMANDS = list(_commands(build_parser()))


def _options(sub: argparse.ArgumentParser) -> Iterator[argparse.Action]:
    for action in sub._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)) or action.help == argparse.SUPPRESS:
            continue
        yield action


@pytest.mark.parametrize("name,sub", COMMANDS, ids=[n for n, _ in COMMANDS])
def test_options_every_option_has_help(name: str, sub: argparse.ArgumentParser) -> None:
    missing = [a.option_strings[0] if a.option_strings else a.dest for a in _options(sub) if not (a.help or "").strip()]
    assert not missing, f"rulecoref {name}: options without help text: {missing}"


@pytest.mark.parametrize("name,sub", COMMANDS, ids=[n for n, _ in COMMANDS])
def test_options_defaults_are_shown(name: str, sub: argparse.ArgumentParser) -> None:
    """An option whose default is a value (not off, not 'none given') says it in its help."""
    hidden = [a.option_strings[0] for a in _options(sub)
              if a.option_strings and a.default not in (None, False, [], argparse.SUPPRESS)
              and "default" not in (a.help or "").lower()]
    assert not hidden, f"rulecoref {name}: defaults not shown in --help: {hidden}"


#: commands whose --out is one rule file, not a folder: their metavar says so (NEW.yaml)
FILE_OUT = {"ablate", "induce"}


def test_options_same_option_same_spelling_everywhere() -> None:
    """An option shared by commands has one metavar and one set of aliases (``--out``/``-o``)."""
    seen: dict[str, tuple[str, tuple[str, ...], str]] = {}
    clashes = []
    for name, sub in COMMANDS:
        for a in _options(sub):
            for opt in a.option_strings:
                if not opt.startswith("--"):
                    continue
                got = (str(a.metavar), tuple(sorted(a.option_strings)))
                if opt == "--out" and name in FILE_OUT:
                    assert a.metavar == "NEW.yaml", f"rulecoref {name}: --out writes a rule file"
                    got = (seen.get(opt, ("OUT_DIR",))[0], got[1])
                first = seen.setdefault(opt, (*got, name))
                if first[:2] != got:
                    clashes.append(f"{opt}: {first[2]} has {first[:2]}, {name} has {got}")
    assert not clashes, "\n".join(clashes)


def test_options_positional_inputs_are_data_everywhere() -> None:
    """Commands reading documents call them DATA (GOLD for gold-chain inputs)."""
    for name, sub in COMMANDS:
        for a in _options(sub):
            if not a.option_strings and a.dest in ("inputs", "data"):
                assert a.metavar in ("DATA", "GOLD_DIR"), f"rulecoref {name}: {a.dest} shown as {a.metavar}"


@pytest.mark.parametrize("value", ["0", "-1", "two"])
def test_options_jobs_below_one_is_a_usage_error(value: str, tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["resolve", "resources/examples", "--out", str(tmp_path / "out"), "--jobs", value])
    assert exc.value.code == 2
    assert "--jobs" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
