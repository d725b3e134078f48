"""Word lists have a total limit, and running out of memory is a numbered error (issue 31, case 9):
14 different 8 MiB lists took 2.5 GB and ended in a MemoryError traceback under a 2 GiB limit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulecoref.errors import RuleFileError
from rulecoref.rules.compiler import compile_rules
from tests.helpers import ROOT, write_rules

SETTINGS = ("negation_cues", "negation_post", "uncertainty_cues", "history_cues", "new_event_cues", "scope_breaks",
            "exam_headings", "family_headings")


def test_wordlist_total_over_the_limit_is_rc126(tmp_path: Path) -> None:
    big = b"".join(b"w%07d\n" % i for i in range(7 * 1024 * 1024 // 9))  # 7 MiB of distinct words
    for i, _ in enumerate(SETTINGS):
        (tmp_path / f"list{i}.txt").write_bytes(big.replace(b"w", b"abcdefgh"[i:i + 1]))
    block = ", ".join(f"{name}: list{i}.txt" for i, name in enumerate(SETTINGS))
    path = write_rules(tmp_path, f"version: 1\nattributes: {{clinical: {{{block}}}}}\npasses: []\n")
    with pytest.raises(RuleFileError) as err:
        compile_rules(path)
    codes = err.value.codes
    assert codes == ["RC126"] and Path(err.value.diagnostics[0].file).name.startswith("list")


MEMORY = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (400 * 1024 * 1024, 400 * 1024 * 1024))
from rulecoref.cli import main
from rulecoref.cli import check
def hungry(args):
    return len(bytearray(1024 * 1024 * 1024))
check.run.__code__ = hungry.__code__
sys.exit(main(["check"]))
"""


def test_wordlist_memory_error_anywhere_is_rc560() -> None:
    proc = subprocess.run([sys.executable, "-c", MEMORY], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2 and "[RC560]" in proc.stderr and "Traceback" not in proc.stderr
