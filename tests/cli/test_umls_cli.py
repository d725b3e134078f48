"""``rulecoref umls load / lookup / info`` end to end, and the bundled UMLS rule files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulecoref.cli import main
from rulecoref.errors import UmlsError
from rulecoref.io.i2b2 import read_chains
from rulecoref.rules.compiler import compile_rules
from tests.helpers import FIXTURES as ALL_FIXTURES
from tests.helpers import ROOT, needs_sqlalchemy

pytestmark = needs_sqlalchemy

FIXTURES = ROOT / "tests" / "fixtures" / "umls"
MRCONSO = str(FIXTURES / "MRCONSO.RRF")


def test_umls_cli_load_reports_counts_and_malformed_lines(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "u.sqlite")
    assert main(["umls", "load", MRCONSO, "--db", db, "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert "loaded 23 of 28 rows" in out and "2 malformed" in out and "1 suppressed" in out
    assert f"{MRCONSO}:24: [RC404]" in err and f"{MRCONSO}:25: [RC404]" in err
    assert main(["umls", "load", MRCONSO, "--db", db, "--no-progress"]) == 0
    assert "already loaded" in capsys.readouterr().out


def test_umls_cli_lookup(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "u.sqlite")
    main(["umls", "load", MRCONSO, "--db", db, "--no-progress"])
    capsys.readouterr()
    assert main(["umls", "lookup", "kidney", "Renal", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "'kidney' -> 'kidney': C0022646" in out and "Renal  (MTH/SY, ENG)" in out
    assert main(["umls", "lookup", "no such thing", "--db", db]) == 1
    assert "no CUI" in capsys.readouterr().out
    assert main(["umls", "lookup", "cold", "--db", db, "--json"]) == 0
    (hit,) = json.loads(capsys.readouterr().out)
    assert hit["cuis"] == ["C0009264", "C0009443", "C0234192"] and len(hit["rows"]) == 3


def test_umls_cli_load_options(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "u.sqlite")
    args = ["umls", "load", MRCONSO, "--db", db, "--no-progress", "--lang", "eng,fre", "--sab", "MSH",
            "--sab", "MSHFRE,SNOMEDCT_US,ICD9CM", "--exclude-sab", "SNOMEDCT_US", "--include-suppressed",
            "--mrsty", str(FIXTURES / "MRSTY.RRF"), "--sorted-index", "--json"]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    # line 25 (empty STR) is from MTH, which --sab skips: filtered rows are only checked for their field count
    assert report["kept"] == 11 and report["semantic_types"] == 11 and report["malformed"] == 1
    assert main(["umls", "lookup", "rein", "renal shutdown", "congestive heart failure", "--match", "sorted",
                 "--db", db]) == 0
    assert main(["umls", "lookup", "renal failure", "--db", db]) == 1  # SNOMEDCT_US excluded
    capsys.readouterr()
    assert main(["umls", "info", "--db", db]) == 0
    info = capsys.readouterr().out
    assert "rows: 11" in info and "sorted_index: 1" in info and "languages: ENG,FRE" in info


def test_umls_cli_not_mrconso_exits_2_with_rc402(tmp_path: Path, capsys) -> None:
    assert main(["umls", "load", str(FIXTURES / "not_mrconso.csv"), "--db", str(tmp_path / "u.sqlite")]) == 2
    assert "[RC402]" in capsys.readouterr().err


def test_umls_cli_missing_database_exits_2_with_rc401(tmp_path: Path, capsys) -> None:
    assert main(["umls", "lookup", "kidney", "--db", str(tmp_path / "none.sqlite")]) == 2
    assert "[RC401]" in capsys.readouterr().err


def test_umls_cli_default_database_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("RULECOREF_UMLS_DB", str(tmp_path / "env.sqlite"))
    assert main(["umls", "load", str(ALL_FIXTURES / "umls-sample" / "scispacy" / "MRCONSO.RRF"), "--no-progress"]) == 0
    assert (tmp_path / "env.sqlite").is_file()
    assert main(["umls", "lookup", "(131)I-MAA"]) == 0
    assert "C0000005" in capsys.readouterr().out


# -- bundled rule files --------------------------------------------------------------------------
def test_umls_default_rule_files_ship_the_pass_disabled() -> None:
    """Users without UMLS run the default rules: no umls pass is on, so no database is needed."""
    for name in ("i2b2", "odie"):
        path = ROOT / "rules" / f"{name}.yaml"
        if path.is_file():
            assert "umls-cui" not in [p.name for p in compile_rules(path).passes], name
            assert not any("cuis" in p.rule.get("key", ()) for p in compile_rules(path).passes), name


def test_umls_rule_file_enables_the_pass_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rs = compile_rules(ROOT / "rules" / "i2b2-umls.yaml")
    names = [p.name for p in rs.passes]
    assert names.count("umls-cui") == 1 and rs.passes[names.index("umls-cui")].rule["key"] == ["cuis"]
    base = [p.name for p in compile_rules(ROOT / "rules" / "i2b2.yaml").passes]
    assert [n for n in names if n != "umls-cui"] == base  # everything else as in i2b2.yaml
    at = names.index("umls-cui")
    assert names[at - 1] == "head-and-synonym" and names[at + 1] == "acronym-initials"  # seed order, before the filters

    from rulecoref.engine import Pipeline
    from tests.helpers import shared_resources

    monkeypatch.setenv("RULECOREF_UMLS_DB", str(tmp_path / "missing.sqlite"))
    with pytest.raises(UmlsError) as err:  # no database: stops at start-up
        Pipeline(rs, shared_resources())
    assert err.value.code == "RC401"


def test_umls_resolve_with_the_umls_rule_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    db = tmp_path / "u.sqlite"
    main(["umls", "load", MRCONSO, "--db", str(db), "--no-progress"])
    monkeypatch.setenv("RULECOREF_UMLS_DB", str(db))
    data = tmp_path / "data"
    data.mkdir()
    # Not seed 001's "renal" ~ "kidney": the full rule set's adjective-only filter removes links to
    # the adjective "renal", as the seed's filter does.
    (data / "note.txt").write_text("History of HTN .\nHypertension was treated .\n", encoding="utf-8")
    (data / "note.txt.con").write_text('c="htn" 1:2 1:2||t="problem"\nc="hypertension" 2:0 2:0||t="problem"\n',
                                       encoding="utf-8")
    out = tmp_path / "out"
    rules = str(ROOT / "rules" / "i2b2-umls.yaml")
    assert main(["resolve", str(data), "--rules", rules, "--out", str(out), "--no-progress", "--provenance"]) == 0
    assert len(read_chains(out / "note.txt.chains").chains) == 1
    links = json.loads((out / "note.links.json").read_text(encoding="utf-8"))["links"]
    umls = [link for link in links if link["pass"] == "umls-cui"]  # clinical-abbreviation links the pair too
    assert [(link["kind"], link["kept"]) for link in umls] == [("match", True)]
    assert "C0020538" in umls[0]["evidence"]


def test_umls_include_enable_switches_on_a_disabled_pass(tmp_path: Path) -> None:
    from rulecoref.errors import RuleFileError
    from tests.helpers import write_rules

    write_rules(tmp_path, """
        version: 1
        passes:
          - {kind: match, key: text_norm, name: first}
          - {kind: match, key: text_norm, name: off-by-default, enabled: false}
          - {kind: match, key: text_norm, name: last}
        """, name="base.yaml")
    on = write_rules(tmp_path, "version: 1\npasses:\n  - include: base.yaml\n    enable: [off-by-default]\n", name="on.yaml")
    assert [p.name for p in compile_rules(on).passes] == ["first", "off-by-default", "last"]
    plain = write_rules(tmp_path, "version: 1\npasses:\n  - include: base.yaml\n", name="plain.yaml")
    assert [p.name for p in compile_rules(plain).passes] == ["first", "last"]
    for bad, code in (("[nope]", "RC109"), ("off-by-default", "RC104")):
        path = write_rules(tmp_path, f"version: 1\npasses:\n  - include: base.yaml\n    enable: {bad}\n", name="bad.yaml")
        with pytest.raises(RuleFileError) as err:
            compile_rules(path)
        assert err.value.codes == [code]


def test_umls_cli_broken_inputs_exit_2_and_leave_no_database(tmp_path: Path, capsys) -> None:
    """Cases 12 and 13: a truncated .gz (RC410), an empty file (RC411), a line without end (RC412) and
    /dev/zero (RC403: a device, refused before it is read) each exit 2 with their numbered error, no
    traceback, and no database file (not even 0 bytes)."""
    import gzip

    good = Path(MRCONSO).read_bytes()
    packed = gzip.compress(b"".join(good.replace(b"C00", b"C%02d" % i) for i in range(40)))
    (tmp_path / "cut.RRF.gz").write_bytes(packed[: len(packed) // 2])
    (tmp_path / "empty.RRF").write_bytes(b"")
    (tmp_path / "endless.RRF").write_bytes(b"C0000001|" + b"x" * 70_000)
    cases = [("cut.RRF.gz", "RC410"), ("empty.RRF", "RC411"), ("endless.RRF", "RC412")]
    if Path("/dev/zero").exists():
        cases.append(("/dev/zero", "RC403"))
    for name, code in cases:
        db = tmp_path / f"{Path(name).stem}.sqlite"
        assert main(["umls", "load", str(tmp_path / name), "--db", str(db), "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert f"[{code}]" in err and "Traceback" not in err, err
        assert not db.exists() and not list(tmp_path.glob(f".{db.name}*"))


def test_umls_cli_load_into_memory_makes_no_file(tmp_path: Path, capsys, monkeypatch) -> None:
    """Issue 31, case 14: ``--db :memory:`` made a file named ':memory:'; it is an in-memory
    database, where a load is lost (RC422)."""
    monkeypatch.chdir(tmp_path)
    assert main(["umls", "load", MRCONSO, "--db", ":memory:", "--no-progress"]) == 2
    assert "[RC422]" in capsys.readouterr().err and list(tmp_path.iterdir()) == []
