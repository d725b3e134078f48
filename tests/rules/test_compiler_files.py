"""What a rule file may read: its encoding and size, includes and word lists confined to its folder
tree and the bundled data (docs/security.md), and errors that never echo another file's content."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulecoref.errors import RuleFileError
from rulecoref.resources import lexicon
from rulecoref.rules import files
from rulecoref.rules.compiler import compile_rules
from tests.helpers import ROOT, write_rules

EXACT_WITH = "version: 1\npasses:\n  - kind: relative_pronoun\n    params: {{pronouns: {path}}}\n"


def diagnostics(path: Path, **kwargs) -> list:
    with pytest.raises(RuleFileError) as err:
        compile_rules(path, **kwargs)
    return err.value.diagnostics


def test_compiler_latin1_rule_file_names_the_line(tmp_path: Path) -> None:
    """Case 2: a Latin-1 rule file is RC119 on the line of the first non-UTF-8 byte."""
    path = tmp_path / "latin1.yaml"
    path.write_bytes("version: 1\n# règles du café\npasses: []\n".encode("latin-1"))
    (d,) = diagnostics(path)
    assert (d.code, d.line, d.file) == ("RC119", 2, str(path)) and "0xe8" in d.message


def test_compiler_binary_rule_file(tmp_path: Path) -> None:
    path = tmp_path / "binary.yaml"
    path.write_bytes(bytes(range(256)) * 4)
    assert diagnostics(path)[0].code in ("RC119", "RC101")


def test_compiler_refuses_a_rule_file_over_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("version: 1\npasses: []\n" + "#" * files.MAX_RULE_FILE_BYTES + "\n")
    assert [d.code for d in diagnostics(path)] == ["RC115"]


def test_compiler_include_outside_the_tree_is_refused_without_echo(tmp_path: Path) -> None:
    """Cases 3 and 4: ``include: /etc/passwd`` is RC120 and the message holds none of its lines."""
    secret = tmp_path / "elsewhere" / "passwd"
    secret.parent.mkdir()
    secret.write_text("".join(f"user{i}:x:{i}:{i}:secret line {i}:/home/u{i}:/bin/sh\n" for i in range(200)))
    rules = tmp_path / "rules"
    rules.mkdir()
    path = write_rules(rules, f"version: 1\npasses:\n  - include: {secret}\n")
    (d,) = diagnostics(path)
    assert (d.code, d.line) == ("RC120", 3) and "secret line" not in str(d) and "--allow-path" in d.hint
    path = write_rules(rules, "version: 1\npasses:\n  - include: ../elsewhere/passwd\n")
    assert [(d.code, d.line) for d in diagnostics(path)] == [("RC120", 3)]


def test_compiler_include_of_a_non_yaml_file_does_not_echo_it(tmp_path: Path) -> None:
    """Case 3 with the file allowed: the include is read, is not a rule file, and the message
    quotes at most a few dozen characters of it."""
    secret = tmp_path / "notes.txt"
    secret.write_text(" ".join(f"secret{i}" for i in range(2000)) + "\n")
    path = write_rules(tmp_path, "version: 1\npasses:\n  - include: notes.txt\n")
    (d,) = diagnostics(path)
    assert d.code == "RC104" and len(str(d)) < 300 and "secret1999" not in str(d)


def test_compiler_word_list_escaping_the_tree_is_refused(tmp_path: Path) -> None:
    """Case 4: ``../../../../etc/passwd`` and an absolute path outside are RC120, and so is a
    symbolic link inside the tree that points out of it."""
    outside = tmp_path / "outside.txt"
    outside.write_text("word\n")
    rules = tmp_path / "a" / "b"
    rules.mkdir(parents=True)
    deep = "../" * (len(rules.parts) + 2) + str(outside).lstrip("/")
    for value in (deep, str(outside)):
        path = write_rules(rules, EXACT_WITH.format(path=value))
        assert [(d.code, d.line) for d in diagnostics(path)] == [("RC120", 4)], value
    (rules / "link.txt").symlink_to(outside)
    path = write_rules(rules, EXACT_WITH.format(path="link.txt"))
    assert [d.code for d in diagnostics(path)] == ["RC120"]


def test_compiler_allow_path_option_and_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading outside the tree is an explicit opt-in: ``allow_paths`` (``--allow-path``) or $RULECOREF_ALLOW_PATH."""
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "stop.txt").write_text("the\n")
    rules = tmp_path / "rules"
    rules.mkdir()
    path = write_rules(rules, EXACT_WITH.format(path=shared / "stop.txt"))
    assert [d.code for d in diagnostics(path)] == ["RC120"]
    rs = compile_rules(path, allow_paths=[shared])
    assert Path(rs.passes[0].params["pronouns"]) == shared / "stop.txt"
    monkeypatch.setenv(files.ALLOW_ENV, os.pathsep.join(["/nonexistent", str(shared)]))
    assert compile_rules(path).passes[0].params["pronouns"] == shared / "stop.txt"


def test_compiler_bundled_data_and_own_tree_stay_readable(tmp_path: Path) -> None:
    """The bundled rule sets, a user file including a bundled one, and a word list in a subfolder all compile."""
    for name in ("i2b2", "odie", "hybrid", "i2b2-umls", "exact", "belltree"):
        compile_rules(ROOT / "rules" / f"{name}.yaml")
    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "stop.txt").write_text("the\n")
    path = write_rules(tmp_path, "version: 1\npasses:\n  - kind: relative_pronoun\n    params: {pronouns: lists/stop.txt}\n"
                                 "  - include: rules/people.yaml\n")
    assert len(compile_rules(path).passes) > 1


def test_compiler_binary_word_list_is_found_at_compile_time(tmp_path: Path) -> None:
    """Case 5: a binary word list is RC121 from the compiler (so ``check`` finds it) naming the
    word list's line, and the rule file's line in the message."""
    (tmp_path / "binary.txt").write_bytes(b"fine\nwords\n\x89PNG\r\n\x1a\n\x00\x00")
    path = write_rules(tmp_path, EXACT_WITH.format(path="binary.txt"))
    (d,) = diagnostics(path)
    assert (d.code, d.file, d.line) == ("RC121", str(tmp_path / "binary.txt"), 3)
    assert f"{path}:4" in d.message
    (tmp_path / "binary.txt").write_bytes(b"ok\n" + b"\x00" * 10)
    (d,) = diagnostics(path)
    assert (d.code, d.line) == ("RC121", 2)


def test_compiler_oversized_word_list(tmp_path: Path) -> None:
    with open(tmp_path / "big.txt", "wb") as fh:
        fh.truncate(lexicon.MAX_WORDLIST_BYTES + 1)  # sparse: no disk used
    path = write_rules(tmp_path, EXACT_WITH.format(path="big.txt"))
    assert [d.code for d in diagnostics(path)] == ["RC122"]


def test_compiler_regex_list_that_is_not_text(tmp_path: Path) -> None:
    """A ``regexes`` setting read from a file goes through the same checks (no UnicodeDecodeError)."""
    (tmp_path / "dates.txt").write_bytes("\\d+ d\u00e9c\n".encode("latin-1"))
    path = write_rules(tmp_path, "version: 1\nattributes: {clues: {dates: dates.txt}}\npasses: []\n")
    assert [d.code for d in diagnostics(path)] == ["RC121"]


def test_compiler_allow_path_on_the_command_line(tmp_path: Path, capsys) -> None:
    """``rulecoref check --allow-path DIR`` is the command-line form of the opt-in."""
    from rulecoref.cli import main

    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "stop.txt").write_text("the\n")
    rules = tmp_path / "rules"
    rules.mkdir()
    path = write_rules(rules, EXACT_WITH.format(path=shared / "stop.txt"))
    assert main(["check", str(path)]) == 2
    assert "[RC120]" in capsys.readouterr().err
    assert main(["check", str(path), "--allow-path", str(shared)]) == 0
