"""UMLS loader and lookup: the real sample, hand-written fixtures, failure atomicity, PostgreSQL."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulecoref.errors import UmlsError
from rulecoref.resources import Resources
from rulecoref.resources.umls import (
    LoadOptions,
    UmlsLookup,
    load_mrconso,
    normalize,
    resolve_url,
    sorted_form,
    to_url,
)
from rulecoref.resources.umls.store import _normalize_unicode
from tests.helpers import FIXTURES as ALL_FIXTURES, needs_sqlalchemy

pytestmark = needs_sqlalchemy

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "umls"
MRCONSO = FIXTURES / "MRCONSO.RRF"
MRSTY = FIXTURES / "MRSTY.RRF"
SAMPLE = ALL_FIXTURES / "umls-sample" / "scispacy"


def _row(cui: str, text: str, lat: str = "ENG", sab: str = "MSH", suppress: str = "N") -> str:
    return "|".join([cui, lat, "P", "L1", "PF", "S1", "Y", "A1", "", "", "", sab, "PT", "X", text, "0", suppress, ""]) + "|"


def _count_rows(url: str, table: str = "umls_string") -> int:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar_one()
    finally:
        engine.dispose()


def _tables(url: str) -> set[str]:
    from sqlalchemy import create_engine, inspect

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return set(inspect(conn).get_table_names())
    finally:
        engine.dispose()


@pytest.fixture
def db(tmp_path: Path) -> str:
    """The fixture MRCONSO (with MRSTY and the sorted index) in a fresh SQLite file."""
    url = to_url(tmp_path / "umls.sqlite")
    load_mrconso(MRCONSO, url, LoadOptions(mrsty=str(MRSTY), sorted_index=True))
    return url


# -- normalisation -----------------------------------------------------------------------------
@pytest.mark.parametrize("text,expected", [
    ("Failure, Kidney", "failure kidney"),
    ("  CHEST   pain ", "chest pain"),
    ("(131)I-MAA", "131 i maa"),
    ("Ménière's disease", "meniere s disease"),
    ("Insuffisance rénale", "insuffisance renale"),
    ("Straße", "strasse"),
    ("ﬁbrosis", "fibrosis"),
    ("x_ray", "x ray"),
    ("---", ""),
    ("ℐ", "i"),  # a compatibility capital: decomposed before it is case-folded
])
def test_umls_normalize_examples(text: str, expected: str) -> None:
    assert normalize(text) == expected


@given(st.text(max_size=40))
def test_umls_normalize_is_idempotent(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_umls_normalize_ascii_fast_path_matches_unicode_path(text: str) -> None:
    assert normalize(text) == _normalize_unicode(text)


def test_umls_sorted_form_ignores_word_order() -> None:
    assert sorted_form(normalize("Heart Failure, Congestive")) == sorted_form(normalize("congestive heart failure"))
    assert sorted_form("kidney") == "kidney"


# -- URLs --------------------------------------------------------------------------------------
def test_umls_resolve_url_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULECOREF_TEST_UMLS_URL", str(tmp_path / "env.sqlite"))
    assert resolve_url(str(tmp_path / "a.sqlite"), "RULECOREF_TEST_UMLS_URL") == "sqlite:///" + str(tmp_path / "a.sqlite")
    assert resolve_url(None, "RULECOREF_TEST_UMLS_URL") == "sqlite:///" + str(tmp_path / "env.sqlite")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert resolve_url(None, "RULECOREF_TEST_UNSET_VARIABLE") == "sqlite:///" + str(tmp_path / "cache/rulecoref/umls.sqlite")
    assert to_url("postgresql+psycopg://u:p@h/db") == "postgresql+psycopg://u:p@h/db"


# -- loading -----------------------------------------------------------------------------------
def test_umls_load_real_sample(tmp_path: Path) -> None:
    url = to_url(tmp_path / "sample.sqlite")
    rep = load_mrconso(SAMPLE / "MRCONSO.RRF", url, LoadOptions(mrsty=str(SAMPLE / "MRSTY.RRF"), sorted_index=True))
    assert (rep.lines, rep.kept, rep.malformed, rep.semantic_types) == (3, 3, 0, 3)
    look = UmlsLookup(url)
    assert look.cuis("(131)I-MAA") == {"C0000005"}
    assert look.cuis("131 i maa") == {"C0000005"}
    assert look.cuis("(131)I-Macroaggregated Albumin") == {"C0000005"}
    assert look.cuis("1,2-Dipalmitoylphosphatidylcholine") == {"C0000039"}
    assert look.cuis("MAA (131)I", "sorted") == {"C0000005"}
    assert look.cuis("albumin") == frozenset()
    assert look.semantic_types(["C0000039"])["C0000039"] == {("T109", "Organic Chemical"), ("T121", "Pharmacologic Substance")}
    look.close()


def test_umls_load_counts_and_reports_malformed_rows_with_lines(tmp_path: Path) -> None:
    rep = load_mrconso(MRCONSO, to_url(tmp_path / "u.sqlite"))
    assert (rep.lines, rep.kept) == (28, 23)
    assert (rep.skipped_language, rep.skipped_suppressed, rep.malformed) == (2, 1, 2)
    assert [(d.code, d.line, d.severity) for d in rep.malformed_rows] == [("RC404", 24, "warning"), ("RC404", 25, "warning")]
    assert "17 fields" in rep.malformed_rows[0].message and "empty STR" in rep.malformed_rows[1].message
    assert rep.malformed_rows[0].file == str(MRCONSO)


def test_umls_lookup_kidney_and_renal_share_a_cui(db: str) -> None:
    look = UmlsLookup(db)
    assert look.cuis("kidney") == look.cuis("Renal") == {"C0022646"}
    assert look.cuis("KIDNEY FAILURE") == look.cuis("renal failure") == {"C0035078"}
    assert look.cuis("cold") == {"C0009443", "C0009264", "C0234192"}
    assert look.cuis("ARF") == {"C0022660", "C0035222"}
    assert look.cuis("Rein") == frozenset()  # French: not loaded by default
    assert look.cuis("renal shutdown") == frozenset()  # suppressed: skipped by default
    assert look.cuis("acute kidney injury") == frozenset()  # its row is malformed


def test_umls_load_filters(tmp_path: Path) -> None:
    url = to_url(tmp_path / "f.sqlite")
    load_mrconso(MRCONSO, url, LoadOptions(languages=None, include_suppressed=True))
    look = UmlsLookup(url)
    assert look.cuis("Insuffisance rénale") == look.cuis("insuffisance renale") == {"C0035078"}
    assert look.cuis("renal shutdown") == {"C0035078"}
    assert look.cuis("kidney", languages=("FRE",)) == frozenset()
    assert look.cuis("rein", languages=("FRE",)) == {"C0022646"}
    assert look.cuis("HTN", sabs=("MSH",)) == frozenset()
    look.close()
    load_mrconso(MRCONSO, url, LoadOptions(include_sabs=("MSH", "SNOMEDCT_US")))
    look = UmlsLookup(url)
    assert look.cuis("kidney") == {"C0022646"} and look.cuis("renal") == frozenset()
    look.close()
    load_mrconso(MRCONSO, url, LoadOptions(exclude_sabs=("CHV",)))
    look = UmlsLookup(url)
    assert look.cuis("HTN") == frozenset() and look.cuis("hypertension") == {"C0020538"}


def test_umls_sorted_mode(db: str, tmp_path: Path) -> None:
    look = UmlsLookup(db)
    assert look.cuis("congestive heart failure") == frozenset()
    assert look.cuis("congestive heart failure", "sorted") == {"C0018802"}
    plain = to_url(tmp_path / "plain.sqlite")
    load_mrconso(MRCONSO, plain)
    with pytest.raises(UmlsError) as err:
        UmlsLookup(plain).cuis("congestive heart failure", "sorted")
    assert err.value.code == "RC408"
    with pytest.raises(UmlsError) as err:
        UmlsLookup(plain).require("exact", semantic_types=True)
    assert err.value.code == "RC409"


def test_umls_gzip_file(tmp_path: Path) -> None:
    gz = tmp_path / "MRCONSO.RRF.gz"
    gz.write_bytes(gzip.compress(MRCONSO.read_bytes()))
    rep = load_mrconso(gz, to_url(tmp_path / "g.sqlite"))
    assert (rep.lines, rep.kept, rep.malformed) == (28, 23, 2)


def test_umls_bytes_that_are_not_utf8_are_a_malformed_row(tmp_path: Path) -> None:
    f = tmp_path / "MRCONSO.RRF"
    f.write_bytes((_row("C1", "kidney") + "\n").encode() + _row("C2", "caf\xe9").encode("latin-1") + b"\n")
    rep = load_mrconso(f, to_url(tmp_path / "u.sqlite"))
    assert rep.kept == 1 and [(d.line, "UTF-8" in d.message) for d in rep.malformed_rows] == [(2, True)]


# -- files that are not MRCONSO, and failures that must leave the old data ----------------------
@pytest.mark.parametrize("path,got", [(FIXTURES / "not_mrconso.csv", 1), (MRSTY, 6), (SAMPLE / "MRFILES.RRF", 6)])
def test_umls_not_mrconso_stops_at_once_with_rc402(tmp_path: Path, path: Path, got: int) -> None:
    target = tmp_path / "u.sqlite"
    with pytest.raises(UmlsError) as err:
        load_mrconso(path, to_url(target))
    d = err.value.diagnostics[0]
    assert (d.code, d.line) == ("RC402", 1) and f"has {got} fields" in d.message
    assert not target.exists()  # stopped before touching the database


def test_umls_bad_mrsty_is_rc405(tmp_path: Path) -> None:
    with pytest.raises(UmlsError) as err:
        load_mrconso(MRCONSO, to_url(tmp_path / "u.sqlite"), LoadOptions(mrsty=str(MRCONSO)))
    assert err.value.code == "RC405"


def test_umls_missing_file_is_rc403(tmp_path: Path) -> None:
    with pytest.raises(UmlsError) as err:
        load_mrconso(tmp_path / "nope.RRF", to_url(tmp_path / "u.sqlite"))
    assert err.value.code == "RC403"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need POSIX")
@pytest.mark.parametrize("which", ["mrconso", "mrsty"])
def test_umls_named_pipe_is_rc403_and_never_blocks(tmp_path: Path, which: str) -> None:
    """A named pipe with no writer blocked open() for ever; now it is refused before it is opened."""
    fifo = tmp_path / "MRCONSO.RRF"
    os.mkfifo(fifo)
    src, opts = (fifo, None) if which == "mrconso" else (MRCONSO, LoadOptions(mrsty=str(fifo)))
    with pytest.raises(UmlsError) as err:
        load_mrconso(src, to_url(tmp_path / "u.sqlite"), opts)
    assert err.value.code == "RC403" and "a named pipe" in err.value.diagnostics[0].message


@pytest.mark.parametrize("opts,code", [
    (LoadOptions(max_malformed=1, force=True), "RC406"),
    (LoadOptions(languages=("XXX",), force=True), "RC407"),
])
def test_umls_failed_load_keeps_previous_data(tmp_path: Path, opts: LoadOptions, code: str) -> None:
    url = to_url(tmp_path / "u.sqlite")
    load_mrconso(SAMPLE / "MRCONSO.RRF", url)
    with pytest.raises(UmlsError) as err:
        load_mrconso(MRCONSO, url, opts)
    assert err.value.code == code
    look = UmlsLookup(url)
    assert look.cuis("(131)I-MAA") == {"C0000005"} and look.cuis("kidney") == frozenset()
    assert _count_rows(url) == 3 and "umls_string_new" not in _tables(url)


def test_umls_interrupted_load_keeps_previous_data(tmp_path: Path) -> None:
    url = to_url(tmp_path / "u.sqlite")
    load_mrconso(SAMPLE / "MRCONSO.RRF", url)
    calls = []

    def interrupt(phase: str, done: int, total: int) -> None:
        calls.append(phase)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        load_mrconso(MRCONSO, url, LoadOptions(batch_size=4), progress=interrupt)
    look = UmlsLookup(url)
    assert look.cuis("(131)I-MAA") == {"C0000005"} and look.cuis("kidney") == frozenset()
    assert _count_rows(url) == 3 and "umls_string_new" not in _tables(url)


def test_umls_killed_load_process_keeps_previous_data(tmp_path: Path) -> None:
    """SIGKILL in the middle of the insert: no Python cleanup runs, but the load was writing a new
    file beside the database, so the database is byte for byte the same; the next load removes
    the killed load's file."""
    url = to_url(tmp_path / "u.sqlite")
    load_mrconso(SAMPLE / "MRCONSO.RRF", url)
    before = (tmp_path / "u.sqlite").read_bytes()
    big = tmp_path / "MRCONSO.RRF"
    big.write_text("\n".join(_row(f"C{i:07d}", f"term number {i}") for i in range(20000)), encoding="utf-8")
    script = textwrap.dedent(f"""
        import os, signal
        from rulecoref.resources.umls import LoadOptions, load_mrconso
        seen = []
        def kill(phase, done, total):
            seen.append(phase)
            if len(seen) == 3:
                os.kill(os.getpid(), signal.SIGKILL)
        load_mrconso({str(big)!r}, {url!r}, LoadOptions(batch_size=1000), progress=kill)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == -9, proc.stderr
    assert (tmp_path / "u.sqlite").read_bytes() == before
    (left,) = tmp_path.glob(".u.sqlite.load-*.tmp")  # the killed load's unfinished file
    look = UmlsLookup(url)
    assert look.cuis("(131)I-MAA") == {"C0000005"} and look.cuis("term number 5") == frozenset()
    assert _count_rows(url) == 3
    look.close()
    load_mrconso(MRCONSO, url)
    assert not left.exists() and list(tmp_path.glob(".u.sqlite.load-*")) == []


def test_umls_reload_is_idempotent(tmp_path: Path) -> None:
    url = to_url(tmp_path / "u.sqlite")
    first = load_mrconso(MRCONSO, url, LoadOptions(mrsty=str(MRSTY)))
    again = load_mrconso(MRCONSO, url, LoadOptions(mrsty=str(MRSTY)))
    assert not first.already_loaded and again.already_loaded
    assert (again.lines, again.kept) == (first.lines, first.kept) == (28, 23)
    forced = load_mrconso(MRCONSO, url, LoadOptions(mrsty=str(MRSTY), force=True))
    assert not forced.already_loaded and forced.kept == first.kept
    assert _count_rows(url) == 23 and _count_rows(url, "umls_sty") == 11
    changed = load_mrconso(MRCONSO, url, LoadOptions(mrsty=str(MRSTY), include_suppressed=True))
    assert not changed.already_loaded and _count_rows(url) == 24  # other options: a real reload
    assert UmlsLookup(url).cuis("kidney") == {"C0022646"}


# -- lookup ------------------------------------------------------------------------------------
def test_umls_missing_database_is_rc401_and_not_created(tmp_path: Path) -> None:
    target = tmp_path / "none.sqlite"
    with pytest.raises(UmlsError) as err:
        UmlsLookup(to_url(target))
    assert err.value.code == "RC401" and "no such file" in str(err.value)
    assert not target.exists()


def test_umls_unloaded_or_incomplete_database_is_rc401(tmp_path: Path, db: str) -> None:
    import sqlite3

    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).close()
    with pytest.raises(UmlsError) as err:
        UmlsLookup(to_url(empty))
    assert err.value.code == "RC401" and "no UMLS loaded" in str(err.value)
    conn = sqlite3.connect(db.removeprefix("sqlite:///"))
    conn.execute("UPDATE umls_meta SET value = 'loading' WHERE key = 'status'")
    conn.commit()
    conn.close()
    with pytest.raises(UmlsError) as err:
        UmlsLookup(db)
    assert err.value.code == "RC401" and "did not complete" in str(err.value)


def test_umls_file_name_with_uri_characters(tmp_path: Path) -> None:
    url = to_url(tmp_path / "a?b#c%20d.sqlite")
    load_mrconso(MRCONSO, url)
    assert (tmp_path / "a?b#c%20d.sqlite").is_file() and not (tmp_path / "a").exists()
    assert UmlsLookup(url).cuis("kidney") == {"C0022646"}


def test_umls_bad_url_is_rc401() -> None:
    with pytest.raises(UmlsError) as err:
        UmlsLookup("nosuchdialect://x/y")
    assert err.value.code == "RC401"


def test_umls_lookups_are_cached(db: str) -> None:
    look = UmlsLookup(db)
    assert look.cuis("Kidney") == {"C0022646"}
    assert look.cuis_many(["KIDNEY", "renal"]) == {"KIDNEY": {"C0022646"}, "renal": {"C0022646"}}

    def no_database() -> None:
        raise AssertionError("cached lookups must not query the database")

    look._connection = no_database  # type: ignore[method-assign]
    assert look.cuis("Kidney") == look.cuis("kidney") == look.cuis("KIDNEY ") == {"C0022646"}


def test_umls_cache_is_bounded(db: str) -> None:
    look = UmlsLookup(db, cache_size=4)
    for word in ("kidney", "renal", "cold", "htn", "chf", "rein"):
        look.cuis(word)
    assert len(look._cache) <= 4
    assert look.cuis("kidney") == {"C0022646"}


def test_umls_forked_worker_uses_its_own_connection(db: str) -> None:
    look = UmlsLookup(db)
    assert look.cuis("kidney") == {"C0022646"}  # the parent's connection is open
    pid = os.fork()
    if pid == 0:  # child: a cache miss must open a fresh connection and work
        ok = look.cuis("hypertension") == {"C0020538"}
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 0
    assert look.cuis("HTN") == {"C0020538"}  # and the parent's still works


def test_umls_resources_share_one_lookup_per_url(db: str) -> None:
    res = Resources()
    assert res.umls(db) is res.umls(db)


# -- PostgreSQL ----------------------------------------------------------------------------------
@pytest.mark.postgres
def test_umls_postgres_load_lookup_atomicity_idempotency() -> None:
    base = os.environ.get("RULECOREF_TEST_POSTGRES_URL")
    if not base:
        pytest.skip("RULECOREF_TEST_POSTGRES_URL is not set (scripts/start-postgres.sh prints one)")
    from sqlalchemy import create_engine, text

    schema = f"umls_test_{uuid.uuid4().hex[:8]}"  # own schema: parallel runs do not collide
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    url = base + ("&" if "?" in base else "?") + f"options=-csearch_path%3D{schema}"
    try:
        rep = load_mrconso(MRCONSO, url, LoadOptions(mrsty=str(MRSTY), sorted_index=True))
        assert (rep.kept, rep.malformed, rep.semantic_types) == (23, 2, 11)
        look = UmlsLookup(url)
        assert look.cuis("kidney") == look.cuis("Renal") == {"C0022646"}
        assert look.cuis("congestive heart failure", "sorted") == {"C0018802"}
        assert look.semantic_types(["C0020538"]) == {"C0020538": {("T047", "Disease or Syndrome")}}
        assert look.rows("HTN")[0]["sab"] == "CHV"
        look.close()
        # idempotent: skipped when unchanged, same content when forced
        assert load_mrconso(MRCONSO, url, LoadOptions(mrsty=str(MRSTY), sorted_index=True)).already_loaded
        load_mrconso(MRCONSO, url, LoadOptions(mrsty=str(MRSTY), sorted_index=True, force=True))
        assert _count_rows(url) == 23
        # a load that fails midway (too many malformed rows) leaves the previous data
        with pytest.raises(UmlsError) as err:
            load_mrconso(MRCONSO, url, LoadOptions(max_malformed=1, include_suppressed=True, batch_size=1))
        assert err.value.code == "RC406"

        def interrupt(phase: str, done: int, total: int) -> None:
            if phase == "read" and done:
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            load_mrconso(SAMPLE / "MRCONSO.RRF", url, LoadOptions(batch_size=1, force=True), progress=interrupt)
        look = UmlsLookup(url)
        assert look.cuis("kidney") == {"C0022646"} and look.cuis("(131)I-MAA") == frozenset()
        assert _count_rows(url) == 23 and "umls_string_new" not in _tables(url)
        look.close()
        # a complete load replaces it
        load_mrconso(SAMPLE / "MRCONSO.RRF", url)
        look = UmlsLookup(url)
        assert look.cuis("(131)I-MAA") == {"C0000005"} and look.cuis("kidney") == frozenset()
        look.close()
    finally:
        with admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


# -- broken input files (issue 15, cases 12 and 13) -------------------------------------------
def _truncated_gz(tmp_path: Path) -> Path:
    """2,000 rows of distinct terms, gzipped and cut in the middle."""
    rows = "".join(_row(f"C{i:07d}", f"term {uuid.UUID(int=i * 7919 + 13).hex}") + "\n" for i in range(2000))
    data = gzip.compress(rows.encode())
    path = tmp_path / "MRCONSO.RRF.gz"
    path.write_bytes(data[: len(data) // 2])
    return path


def _load_error(src: Path, url: str, opts: LoadOptions | None = None) -> tuple[str, int | None]:
    with pytest.raises(UmlsError) as err:
        load_mrconso(src, url, opts)
    d = err.value.diagnostics[0]
    return d.code, d.line


def test_umls_truncated_gz_leaves_no_database_file(tmp_path: Path) -> None:
    """Case 12: a .gz cut in half is RC410 naming the line it reached, and no (0-byte) file is left."""
    target = tmp_path / "u.sqlite"
    code, line = _load_error(_truncated_gz(tmp_path), to_url(target))
    assert code == "RC410" and 500 < line < 1500
    assert sorted(p.name for p in tmp_path.iterdir()) == ["MRCONSO.RRF.gz"]


def test_umls_truncated_gz_keeps_the_previous_database(tmp_path: Path) -> None:
    url = to_url(tmp_path / "u.sqlite")
    load_mrconso(SAMPLE / "MRCONSO.RRF", url)
    before = (tmp_path / "u.sqlite").read_bytes()
    assert _load_error(_truncated_gz(tmp_path), url, LoadOptions(force=True))[0] == "RC410"
    assert (tmp_path / "u.sqlite").read_bytes() == before
    assert UmlsLookup(url).cuis("(131)I-MAA") == {"C0000005"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["MRCONSO.RRF.gz", "u.sqlite"]


def test_umls_corrupt_gz_is_rc410(tmp_path: Path) -> None:
    data = bytearray(gzip.compress(MRCONSO.read_bytes() * 50))
    data[len(data) // 2 : len(data) // 2 + 64] = b"\xff" * 64
    (tmp_path / "bad.RRF.gz").write_bytes(bytes(data))
    assert _load_error(tmp_path / "bad.RRF.gz", to_url(tmp_path / "u.sqlite"))[0] in ("RC410", "RC402", "RC404", "RC406")
    assert not (tmp_path / "u.sqlite").exists()


@pytest.mark.parametrize("content", [b"", gzip.compress(b"")], ids=["empty", "empty-gz"])
def test_umls_empty_file_is_rc411_and_leaves_nothing(tmp_path: Path, content: bytes) -> None:
    """Case 12: an empty MRCONSO (plain or .gz) is RC411; no database file is made."""
    src = tmp_path / ("MRCONSO.RRF.gz" if content else "MRCONSO.RRF")
    src.write_bytes(content)
    assert _load_error(src, to_url(tmp_path / "u.sqlite")) == ("RC411", None)
    assert [p.name for p in tmp_path.iterdir()] == [src.name]


def test_umls_endless_line_is_rc412_with_bounded_memory(tmp_path: Path) -> None:
    """Case 13: a file with no newline stops at line 1 with RC412 after reading MAX_LINE_CHARS + 1
    characters (64 kB), not at 8 GB with a MemoryError; a long line further down names its line;
    /dev/zero is refused as a device before it is read (RC403)."""
    from rulecoref.resources.umls import MAX_LINE_CHARS

    if Path("/dev/zero").exists():
        assert _load_error(Path("/dev/zero"), to_url(tmp_path / "z.sqlite"))[0] == "RC403"
    (tmp_path / "one.RRF").write_text("x" * (3 * MAX_LINE_CHARS))
    assert _load_error(tmp_path / "one.RRF", to_url(tmp_path / "u.sqlite")) == ("RC412", 1)
    rows = [_row(f"C{i:07d}", f"term {i}") for i in range(5)]
    rows.insert(3, _row("C0000009", "y" * (MAX_LINE_CHARS + 10)))
    (tmp_path / "long.RRF").write_text("\n".join(rows) + "\n")
    assert _load_error(tmp_path / "long.RRF", to_url(tmp_path / "u.sqlite")) == ("RC412", 4)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.RRF", "one.RRF"]


def test_umls_sqlite_with_other_tables_is_loaded_in_place(tmp_path: Path) -> None:
    """A SQLite file that also holds tables of its own is not replaced by a rename (they would be
    lost): it is loaded in one transaction in place, and its own table stays."""
    import sqlite3

    path = tmp_path / "shared.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE notes (x TEXT)")
    con.execute("INSERT INTO notes VALUES ('kept')")
    con.commit()
    con.close()
    load_mrconso(MRCONSO, to_url(path))
    assert UmlsLookup(to_url(path)).cuis("kidney") == {"C0022646"}
    assert sqlite3.connect(path).execute("SELECT x FROM notes").fetchall() == [("kept",)]


def test_umls_a_file_that_is_not_a_database_is_not_replaced(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes, not a database\n" * 100)
    assert _load_error(MRCONSO, to_url(notes))[0] in ("RC401", "RC403")
    assert notes.read_text() == "my notes, not a database\n" * 100


def test_umls_reload_keeps_the_file_mode(tmp_path: Path) -> None:
    path = tmp_path / "u.sqlite"
    load_mrconso(SAMPLE / "MRCONSO.RRF", to_url(path))
    path.chmod(0o640)
    load_mrconso(MRCONSO, to_url(path))
    assert path.stat().st_mode & 0o777 == 0o640
