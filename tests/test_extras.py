"""Optional features are optional installs: the base install resolves with the default rules, and a
command whose extra is missing stops with RC304 naming the extra."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rulecoref.errors import ResourceError
from rulecoref.extras import EXTRAS, missing, require
from tests.helpers import ROOT


def test_extras_require_names_the_extra_and_its_missing_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sqlalchemy", None)  # what an absent package looks like to imports
    assert missing("umls") == ["sqlalchemy"]
    with pytest.raises(ResourceError) as err:
        require("umls", "the UMLS lookup")
    (d,) = err.value.diagnostics
    assert d.code == "RC304"
    assert "sqlalchemy" in d.message and "rulecoref[umls]" in (d.hint or "")


def test_extras_are_declared_in_pyproject() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for extra in EXTRAS:
        assert f"\n{extra} = [" in text, extra


_BASE_ONLY = textwrap.dedent("""
    import sys
    for name in ("numpy", "scipy", "sklearn", "sqlalchemy", "requests", "rapidfuzz", "psycopg"):
        sys.modules[name] = None  # the base install: none of the extras' packages
    from rulecoref.cli import main
    sys.exit(main(sys.argv[1:]))
""")


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "base_only.py"
    script.write_text(_BASE_ONLY, encoding="utf-8")
    return subprocess.run([sys.executable, str(script), *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_extras_base_install_resolves_and_evaluate_names_its_extra(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = _run(tmp_path, "resolve", "resources/examples", "--out", str(out), "--no-progress")
    assert done.returncode == 0, done.stderr
    assert len(list(out.glob("*.txt.chains"))) == 4
    done = _run(tmp_path, "evaluate", "resources/examples", str(out))
    assert done.returncode == 2
    assert "[RC304]" in done.stderr and "rulecoref[eval]" in done.stderr
    assert "Traceback" not in done.stderr
