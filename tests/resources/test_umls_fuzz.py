"""Fuzzing the MRCONSO reader and loader: any file ends in a loaded database or a UmlsError
(numbered diagnostics), never another exception; a failed load leaves no database file behind
and the previous database byte for byte as it was.

Inputs: rows in the 18-field layout with random field values and counts, blank and overlong lines,
bytes that are not UTF-8, CR line ends and no final newline, as plain text or gzip (whole,
truncated or with corrupt bytes). Bounds checked per example: 5 s (hypothesis deadline; a load
creates and indexes a SQLite file) and 30 MB of Python allocations (tracemalloc peak). The
default run tries 15 files; the ``slow`` variant 400.
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulecoref.errors import UmlsError
from rulecoref.resources.umls import MAX_LINE_CHARS, LoadOptions, load_mrconso, to_url
from tests.helpers import memory_bound, needs_sqlalchemy

pytestmark = needs_sqlalchemy

SECONDS = 5.0
MEGABYTES = 30
GOOD = Path(__file__).resolve().parent.parent / "fixtures" / "umls" / "MRCONSO.RRF"


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples, deadline=SECONDS * 1000,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


field = st.one_of(st.sampled_from(["C0022646", "ENG", "FRE", "MSH", "N", "O", "Y", "PT", "Kidney", "", "C1"]),
                  st.text(alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="|\n\r"), max_size=10))


@st.composite
def row(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["row", "row", "row", "fields", "blank", "long", "bytes"]))
    if kind == "blank":
        return b""
    if kind == "long":
        return b"C1|ENG|" + b"x" * (MAX_LINE_CHARS + draw(st.integers(1, 100))) + b"|"
    if kind == "bytes":
        return draw(st.binary(max_size=40)).replace(b"\n", b" ")
    count = 18 if kind == "row" else draw(st.integers(0, 25))
    fields = [draw(field) for _ in range(count)]
    if kind == "row":
        fields[0] = draw(st.sampled_from(["C0022646", "C0035078", ""]))
        fields[1] = draw(st.sampled_from(["ENG", "ENG", "SPA"]))
        fields[16] = draw(st.sampled_from(["N", "N", "O"]))
    return ("|".join(fields) + ("|" if draw(st.booleans()) else "")).encode("utf-8")


@st.composite
def mrconso(draw: st.DrawFn) -> tuple[str, bytes]:
    lines = draw(st.lists(row(), max_size=30))
    raw = draw(st.sampled_from([b"\n", b"\r\n"])).join(lines) + draw(st.sampled_from([b"\n", b""]))
    packing = draw(st.sampled_from(["plain", "plain", "gz", "gz-cut", "gz-corrupt"]))
    if packing == "plain":
        return "MRCONSO.RRF", raw
    packed = gzip.compress(raw)
    if packing == "gz-cut":
        packed = packed[: draw(st.integers(0, len(packed)))]
    elif packing == "gz-corrupt" and packed:
        at = draw(st.integers(0, len(packed) - 1))
        packed = packed[:at] + bytes([packed[at] ^ 0xFF]) + packed[at + 1 :]
    return "MRCONSO.RRF.gz", packed


def load(tmp_path: Path, case: tuple[str, bytes], previous: bool) -> None:
    folder = tmp_path / "case"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    name, content = case
    src = folder / name
    src.write_bytes(content)
    db = folder / "u.sqlite"
    if previous:
        load_mrconso(GOOD, to_url(db))
    before = db.read_bytes() if previous else None
    with memory_bound(MEGABYTES):
        try:
            load_mrconso(src, to_url(db), LoadOptions(force=True, max_malformed=5))
        except UmlsError as exc:
            assert exc.diagnostics and all(d.code.startswith("RC4") for d in exc.diagnostics)
            assert (db.read_bytes() if previous else db.exists()) == (before if previous else False)
    assert sorted(p.name for p in folder.iterdir() if p.name != name) in ([], ["u.sqlite"])


CASE = {"case": mrconso(), "previous": st.booleans()}
test_umls_fuzz_mrconso = fuzz(15)(given(**CASE)(load))
test_umls_fuzz_mrconso_many = pytest.mark.slow(fuzz(400)(given(**CASE)(load)))
