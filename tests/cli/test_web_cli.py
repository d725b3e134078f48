"""``rulecoref web``: --dry-run lists what would be sent and sends nothing; without it the cache is
filled once; a disabled provider is refused."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from rulecoref.cli import main
from tests.helpers import ROOT, needs_sqlalchemy
from tests.resources.web_support import rules_with_web, search_engine, write_batch

pytestmark = needs_sqlalchemy


@pytest.fixture()
def engine():
    with search_engine() as e:
        yield e


def test_web_dry_run_lists_what_would_be_sent(tmp_path, engine, capsys):
    base, log = engine
    data = write_batch(tmp_path / "data")
    rules = rules_with_web(tmp_path, {"enabled": False, "url": base + "/search?q={query}", "cache": str(tmp_path / "c.sqlite"),
                              "vocabulary": "none"})
    assert main(["web", str(data), "--rules", str(rules), "--dry-run", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["would_send"] == ["chiropodist", "doula", "gardener", "orthoptist"]
    assert out["refused_by_reason"]  # "the will", "jones", "the march", "Podiatrist"... are refused
    assert "Alvarez" not in json.dumps(out) and log == []


def test_web_command_fills_the_cache(tmp_path, engine, capsys):
    base, log = engine
    data = write_batch(tmp_path / "data")
    web = {"enabled": True, "url": base + "/search?q={query}", "cache": str(tmp_path / "c.sqlite"), "vocabulary": "none"}
    rules = rules_with_web(tmp_path, web)
    assert main(["web", str(data), "--rules", str(rules)]) == 0
    assert "chiropodist\tstaff\tweb" in capsys.readouterr().out
    n = len(log)
    assert main(["web", str(data), "--rules", str(rules), "--dry-run", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["would_send"] == [] and len(out["cached"]) == 4 and len(log) == n


def test_web_command_refuses_when_disabled(tmp_path, engine, capsys):
    base, log = engine
    data = write_batch(tmp_path / "data")
    rules = rules_with_web(tmp_path, {"enabled": False, "url": base + "/search?q={query}"})
    assert main(["web", str(data), "--rules", str(rules)]) == 2
    assert log == []
    err = capsys.readouterr().err
    assert "[RC563] the web provider is disabled in the rule file (web.enabled: false). Hint: run with --dry-run" in err


def test_web_command_refuses_a_rule_file_without_people_roles(tmp_path, engine, capsys):
    _, log = engine
    data = write_batch(tmp_path / "data")
    assert main(["web", str(data), "--rules", str(ROOT / "rules" / "exact.yaml"), "--dry-run"]) == 2
    assert log == []
    assert "exact.yaml: [RC562] the rule file has no people_roles pass" in capsys.readouterr().err


def test_web_command_prints_each_failure_once(tmp_path, engine, capsys):
    """Issue 31, case 14: RC313 (and every provider failure) was printed twice, logged and listed."""
    base, _ = engine
    data = write_batch(tmp_path / "data")
    (tmp_path / "cache-is-a-folder").mkdir()
    web = {"enabled": True, "url": base + "/search?q={query}", "cache": str(tmp_path / "cache-is-a-folder"),
           "vocabulary": "none"}
    rules = rules_with_web(tmp_path, web)
    # a process of its own: pytest captures log records, and the second copy came from the log
    done = subprocess.run([sys.executable, "-m", "rulecoref", "web", str(data), "--rules", str(rules)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    failures = int(re.search(r"(\d+) failure\(s\)", done.stderr).group(1))
    assert failures >= 1 and done.stderr.count("[RC31") == failures
