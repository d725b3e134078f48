"""A rule file never makes rulecoref open a network connection (issue 31, case 2): a database
server in ``attributes: umls: db:`` is RC420 unless ``--allow-network``; ``check`` and
``web --dry-run`` never connect (RC421), whatever names the server."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

from rulecoref.cli import main
from tests.helpers import ROOT

EXAMPLES = ROOT / "resources" / "examples"


@pytest.fixture
def listener():
    """A local TCP port that counts the connections made to it."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    sock.settimeout(0.2)
    seen: list[int] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except OSError:
                continue
            seen.append(1)
            conn.close()

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    yield sock.getsockname()[1], seen
    stop.set()
    t.join()
    sock.close()


def umls_rules(folder: Path, port: int) -> Path:
    path = folder / "shared.yaml"
    path.write_text(f'version: 1\nattributes: {{umls: {{db: "postgresql://u:secret@127.0.0.1:{port}/umls"}}}}\n'
                    "passes:\n  - kind: match\n    name: umls-cui\n    key: cuis\n"
                    "    applies_to: {exclude_types: [person, pronoun]}\n  - include: people.yaml\n")
    (folder / "people.yaml").write_text((ROOT / "rules" / "people.yaml").read_text())
    return path


@pytest.mark.parametrize("command", ["check", "resolve", "web-dry-run"])
def test_network_rule_file_server_is_refused_without_a_connection(tmp_path: Path, listener, capsys,
                                                                   command: str) -> None:
    port, seen = listener
    rules = umls_rules(tmp_path, port)
    argv = {"check": ["check", str(rules)],
            "resolve": ["resolve", str(EXAMPLES), "--rules", str(rules), "--out", str(tmp_path / "out")],
            "web-dry-run": ["web", str(EXAMPLES), "--rules", str(rules), "--dry-run"]}[command]
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and seen == []
    assert ("[RC421]" if command != "resolve" else "[RC420]") in err and "secret" not in err


def test_network_server_from_the_environment_is_refused_by_check(tmp_path: Path, listener, capsys,
                                                                 monkeypatch) -> None:
    port, seen = listener
    rules = umls_rules(tmp_path, port)
    rules.write_text(rules.read_text().replace(f"postgresql://u:secret@127.0.0.1:{port}/umls", ""))
    monkeypatch.setenv("RULECOREF_UMLS_DB", f"postgresql://u:secret@127.0.0.1:{port}/umls")
    assert main(["check", str(rules)]) == 2 and seen == []
    assert "[RC421]" in capsys.readouterr().err


def test_network_allow_network_lets_resolve_connect(tmp_path: Path, listener, capsys) -> None:
    """``--allow-network`` is the opt-in: resolve then tries the server (here no database answers: RC401)."""
    port, seen = listener
    rules = umls_rules(tmp_path, port)
    code = main(["resolve", str(EXAMPLES), "--rules", str(rules), "--out", str(tmp_path / "out"), "--allow-network"])
    err = capsys.readouterr().err
    assert code == 2 and "[RC401]" in err and seen


def test_network_rule_file_cannot_name_another_variable(tmp_path: Path, listener, capsys, monkeypatch) -> None:
    """``db_env: OTHER`` chosen by the rule file is the rule file naming the server."""
    port, seen = listener
    rules = umls_rules(tmp_path, port)
    rules.write_text(rules.read_text().replace(f'db: "postgresql://u:secret@127.0.0.1:{port}/umls"', "db_env: OTHER_DB"))
    monkeypatch.setenv("OTHER_DB", f"postgresql://u:secret@127.0.0.1:{port}/umls")
    code = main(["resolve", str(EXAMPLES), "--rules", str(rules), "--out", str(tmp_path / "out")])
    assert code == 2 and seen == [] and "[RC420]" in capsys.readouterr().err
