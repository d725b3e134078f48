"""What ``rulecoref resolve`` imports (issue 26): the default rules need none of the heavy libraries,
so a user with every extra installed does not pay for them before the first note."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import ROOT

HEAVY = ("nltk", "scipy", "numpy", "sklearn", "sqlalchemy", "spacy", "pyspark")


def test_startup_resolve_imports_no_heavy_library(tmp_path):
    code = ("import sys\n"
            "from rulecoref.cli import main\n"
            f"rc = main(['resolve', {str(ROOT / 'resources' / 'examples')!r}, '--out', {str(tmp_path / 'out')!r}, "
            "'-q', '--no-progress'])\n"
            f"heavy = sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))\n"
            "assert rc == 0 and not heavy, heavy\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "out").is_dir()
