"""Hostile rule files stay within 500 MB of memory and 10 s, enforced: the commands run in a child
process whose address space is capped with ``RLIMIT_AS`` and which is killed after the timeout.

Before the limits, the alias bomb ran `rulecoref check` for minutes at 6-7 GB; a recursive alias and
deep nesting ended in a RecursionError traceback. Each case must now end, inside the bounds, in
exit code 2 and its numbered error, with no traceback.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT
from tests.test_yaml_source import alias_bomb

MEMORY_BYTES = 500 * 1024 * 1024
SECONDS = 10


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def hostile_rule_files(root: Path) -> dict[str, tuple[Path, str]]:
    """Every hostile rule-file case of issue 15 (plus size limits): name -> (rule file, expected code)."""
    outside = root / "outside"
    outside.mkdir()
    (outside / "passwd").write_text("".join(f"user{i}:x:{i}:{i}::/home/u{i}:/bin/sh\n" for i in range(100)))
    rules = root / "rules"
    rules.mkdir()
    cases: dict[str, tuple[str | bytes, str]] = {
        "bomb": (alias_bomb(), "RC116"),
        "recursive": ("version: 1\npasses: &a [*a]\n", "RC118"),
        "deep": ("version: 1\npasses: " + "[" * 20_000 + "]" * 20_000 + "\n", "RC117"),
        "latin1": ("version: 1\n# règles\npasses: []\n".encode("latin-1"), "RC119"),
        "include-outside": (f"version: 1\npasses:\n  - include: {outside / 'passwd'}\n", "RC120"),
        "wordlist-escape": ("version: 1\npasses:\n  - kind: relative_pronoun\n    params: {pronouns: "
                            + "../" * (len(rules.parts) + 3) + str(outside / "passwd").lstrip("/") + "}\n", "RC120"),
        "wordlist-binary": ("version: 1\npasses:\n  - kind: relative_pronoun\n    params: {pronouns: binary.txt}\n", "RC121"),
        "wordlist-huge": ("version: 1\npasses:\n  - kind: relative_pronoun\n    params: {pronouns: huge.txt}\n", "RC122"),
        "huge": ("version: 1\npasses: []\n" + "# padding\n" * 30_000, "RC115"),
        "include-device": ("version: 1\npasses:\n  - include: /dev/zero\n", "RC110"),
    }
    (rules / "binary.txt").write_bytes(os.urandom(4096).replace(b"\n", b"\x00"))
    with open(rules / "huge.txt", "wb") as fh:
        fh.truncate(64 * 1024 * 1024)  # sparse
    out = {}
    for name, (text, code) in cases.items():
        path = rules / f"{name}.yaml"
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)
        out[name] = (path, code)
    return out


DRIVER = """
import contextlib, io, json, sys
from rulecoref.cli import main
for path in sys.argv[1:]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["check", path])
    print(json.dumps([path, code, err.getvalue()]), flush=True)
"""


def test_limits_every_hostile_rule_file_in_one_bounded_process(tmp_path: Path) -> None:
    """All cases through ``rulecoref check`` in one child capped at 500 MB that must finish within
    10 s in all (so each case is well inside both bounds)."""
    cases = hostile_rule_files(tmp_path)
    proc = subprocess.run([sys.executable, "-c", DRIVER, *(str(p) for p, _ in cases.values())],
                          preexec_fn=_cap_memory, capture_output=True, text=True, timeout=SECONDS, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = {Path(p).stem: (code, err) for p, code, err in map(json.loads, proc.stdout.splitlines())}
    for name, (_, expected) in cases.items():
        code, err = results[name]
        assert code == 2 and f"[{expected}]" in err and "Traceback" not in err, (name, err[:500])
        assert len(err) < 2000, name  # no file is echoed


@pytest.mark.slow
@pytest.mark.parametrize("command", ["check", "resolve"])
def test_limits_each_hostile_rule_file_through_the_command(tmp_path: Path, command: str) -> None:
    """Each case as its own ``rulecoref check FILE`` / ``rulecoref resolve DATA --rules FILE``
    process, capped at 500 MB and killed after 10 s: exit 2, the numbered error, nothing written."""
    cases = hostile_rule_files(tmp_path)
    data = tmp_path / "data"
    shutil.copytree(ROOT / "resources" / "examples", data, ignore=shutil.ignore_patterns("markup", "chains"))
    for name, (path, expected) in cases.items():
        out = tmp_path / f"out-{name}"
        args = ["check", str(path)] if command == "check" else ["resolve", str(data), "--rules", str(path),
                                                                 "--out", str(out), "--no-progress"]
        proc = subprocess.run([sys.executable, "-m", "rulecoref", *args], preexec_fn=_cap_memory,
                              capture_output=True, text=True, timeout=SECONDS, cwd=ROOT)
        assert proc.returncode == 2 and f"[{expected}]" in proc.stderr, (name, proc.stderr[-1000:])
        assert "Traceback" not in proc.stderr and len(proc.stderr) < 2000, name
        assert not out.exists(), name
