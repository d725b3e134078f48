"""Load a user's MRCONSO.RRF (and MRSTY.RRF) into a database: bulk, atomic, bounded.

The load is one transaction: rows go into staging tables, indexes are built after the bulk insert,
then the old tables are dropped, the staging tables renamed and the metadata row written, and only
then the transaction commits. An interrupted or failed load therefore rolls back to the previous
good data (SQLite and PostgreSQL both have transactional DDL), and ``UmlsLookup`` refuses a
database whose metadata does not say a load completed. A SQLite file is not even opened for
writing: the load builds a new file beside it (``.NAME.load-PID-TOKEN.tmp``) and renames it over
the old one when it has committed, so a failed load leaves no file behind (not even an empty one)
and the previous database byte for byte as it was.

The input is bounded too (docs/security.md): a line longer than ``MAX_LINE_CHARS`` stops the load
(RC412, e.g. ``/dev/zero`` or a file with no newlines), and a truncated or corrupt ``.gz`` is
RC410 naming the line it stopped at.
"""

from __future__ import annotations

import functools
import gzip
import io
import itertools
import json
import os
import time
import uuid
import zlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from ...errors import Diagnostic, UmlsError, diagnostic, format_message
from ...extras import require
from ...bounded import file_kind
from .staging import live_meta, load_engine, remove_staged, staging_file, swap_in
from .store import (
    ASCII_MAP,
    STAGE,
    META,
    SCHEMA_VERSION,
    SEMTYPES,
    STRINGS,
    engine_error,
    normalize,
    parse_url,
    placeholders,
    read_meta,
    safe_url,
    sorted_form,
    sqlite_file,
    sqlite_url,
    tables,
    to_url,
)

MRCONSO_FIELDS = 18
MRSTY_FIELDS = 6
#: Longer normalised strings are not stored: no clinical mention is that long, and PostgreSQL
#: cannot index a btree entry over ~2.7 kB (500 characters of 4-byte UTF-8 stay below it).
MAX_CHARS = 500
#: Longest line read from an RRF file. Real MRCONSO lines stay under 4,000 characters (STR is at
#: most ~3,000); a longer one means the file is not RRF, and reading it whole could exhaust memory.
MAX_LINE_CHARS = 65_536

Progress = Callable[[str, int, int], None]


# -- loading -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class LoadOptions:
    """What to keep from MRCONSO. Defaults: English, every source, no suppressed rows."""

    languages: tuple[str, ...] | None = ("ENG",)  # None keeps every language
    include_sabs: tuple[str, ...] | None = None  # None keeps every source vocabulary
    exclude_sabs: tuple[str, ...] = ()
    include_suppressed: bool = False  # SUPPRESS other than N (obsolete, suppressible) is skipped
    sorted_index: bool = False
    mrsty: str | None = None
    max_chars: int = MAX_CHARS
    max_malformed: int = 1000
    batch_size: int = 20000
    force: bool = False

    def fingerprint(self) -> dict[str, Any]:
        """The options that change what is stored (MRSTY is fingerprinted as a file of its own)."""
        d = asdict(self)
        for k in ("batch_size", "force", "max_malformed", "mrsty"):
            d.pop(k)
        return d


@dataclass
class LoadReport:
    """What a load did; ``malformed_rows`` keeps the first 100 problems, ``malformed`` counts all."""

    path: str
    url: str
    lines: int = 0
    kept: int = 0
    cuis: int = 0  # distinct concept numbers among the rows kept (``umls info`` shows it)
    skipped_language: int = 0
    skipped_sab: int = 0
    skipped_suppressed: int = 0
    skipped_empty: int = 0
    skipped_long: int = 0
    malformed: int = 0
    malformed_rows: list[Diagnostic] = field(default_factory=list)
    semantic_types: int = 0
    seconds: float = 0.0
    index_seconds: float = 0.0
    already_loaded: bool = False

    @property
    def rows_per_second(self) -> float:
        return self.lines / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["malformed_rows"] = [m.to_dict() for m in self.malformed_rows]
        d["rows_per_second"] = round(self.rows_per_second)
        return d


_MAX_REPORTED = 100
_ROWS_PER_STATEMENT = 100  # 700 parameters at most: under SQLite's old 999 limit


class _RrfReader:
    """Lines of an RRF file (plain or .gz) with the byte position read so far, for progress."""

    def __init__(self, path: Path):
        self.path = path
        try:
            kind = file_kind(os.stat(path).st_mode)  # a named pipe without a writer would block open() for ever
            if kind:
                raise UmlsError(diagnostic("RC403", detail=f"{path} is {kind}, not a file: give the RRF file itself "
                                           "(plain or .gz; a pipe's rows: write them to a file first)"))
            self.raw = open(path, "rb")  # noqa: SIM115 - closed in close()
        except OSError as exc:
            raise UmlsError(diagnostic("RC403", detail=f"cannot read {path}: {exc.strerror or exc}")) from exc
        self.total = os.fstat(self.raw.fileno()).st_size
        stream: Any = gzip.GzipFile(fileobj=self.raw) if path.name.endswith(".gz") else self.raw
        # surrogateescape: a row with bytes that are not UTF-8 is reported as malformed, not fatal.
        self.text = io.TextIOWrapper(stream, encoding="utf-8-sig", errors="surrogateescape", newline=None)

    def position(self) -> int:
        return self.raw.tell()

    def lines(self) -> Any:
        """The remaining lines, each at most ``MAX_LINE_CHARS + 1`` characters (a C-level iterator)."""
        return iter(functools.partial(self.text.readline, MAX_LINE_CHARS + 1), "")

    def too_long(self, line: int) -> UmlsError:
        return UmlsError(diagnostic("RC412", file=str(self.path), line=line, path=str(self.path), limit=MAX_LINE_CHARS))

    def broken(self, line: int, exc: BaseException) -> UmlsError:
        detail = str(exc).strip() or type(exc).__name__
        return UmlsError(diagnostic("RC410", file=str(self.path), line=line, path=str(self.path), detail=detail))

    def close(self) -> None:
        self.text.close()
        self.raw.close()


def _fields(line: str) -> int:
    """Number of |-separated fields, not counting the empty piece after the trailing '|'."""
    n = line.count("|") + 1
    return n - 1 if line.rstrip("\r\n").endswith("|") else n


def _check_first_line(reader: _RrfReader, expected: int, code: str) -> str | None:
    """Stop at once (``code``) when the first row does not have the file's column count."""
    try:
        first = reader.text.readline(MAX_LINE_CHARS + 1)
    except (EOFError, zlib.error) as exc:  # a .gz cut short before its first line ends
        reader.close()
        raise reader.broken(1, exc) from exc
    except OSError as exc:  # e.g. a .gz that is not gzip
        reader.close()
        raise UmlsError(diagnostic("RC403", file=str(reader.path), detail=f"cannot read {reader.path}: {exc}")) from exc
    if first == "":
        reader.close()
        raise UmlsError(diagnostic("RC411", file=str(reader.path), path=str(reader.path)))
    if len(first) > MAX_LINE_CHARS:
        reader.close()
        raise reader.too_long(1)
    if _fields(first) != expected:
        reader.close()
        # RC402/RC405 name the line in the message too, which diagnostic() keeps for the location only.
        d = diagnostic(code, file=str(reader.path), line=1)
        raise UmlsError(Diagnostic(code, format_message(code, path=str(reader.path), line=1, got=_fields(first)),
                                   d.file, d.line, d.hint))
    return first


def _fingerprint_file(path: Path) -> dict[str, Any]:
    st = path.stat()
    return {"path": str(path.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _values(engine: Any, width: int, rows: int) -> str:
    """``(?,?),(?,?)`` for ``rows`` rows of ``width`` values, in the driver's parameter style."""
    if engine.dialect.paramstyle in ("numeric", "numeric_dollar"):  # numbered: count across rows
        mark = ":" if engine.dialect.paramstyle == "numeric" else "$"
        return ",".join("(" + ",".join(f"{mark}{r * width + i + 1}" for i in range(width)) + ")" for r in range(rows))
    return ",".join(["(" + placeholders(engine, width) + ")"] * rows)


def load_mrconso(
    path: str | os.PathLike[str],
    url: str | None = None,
    options: LoadOptions | None = None,
    progress: Progress | None = None,
) -> LoadReport:
    """Load MRCONSO.RRF (and optionally MRSTY.RRF) into ``url``, replacing what was there atomically.

    A malformed row (RC404, counted, the first 100 kept with their line numbers) has the wrong number
    of fields, or passes the filters with an empty CUI or STR or bytes that are not UTF-8; rows the
    filters skip are only checked for their field count.
    Memory stays bounded (one batch of rows, the first 100 problems). Re-running with the same file
    and options is a no-op unless ``options.force``; either way the result is the same database.
    Raises UmlsError: RC402 at once when the file is not MRCONSO (its first row does not have 18
    fields), RC405 for an MRSTY that is not MRSTY, RC406 when too many rows are malformed, RC407
    when the filters keep no row, RC403 for anything else; the previous data stays in place.
    Raises ResourceError RC304 when the ``umls`` extra (SQLAlchemy) is not installed.
    """
    require("umls", "loading UMLS")
    opts = options or LoadOptions()
    src = Path(path)
    url = to_url(url)
    report = LoadReport(path=str(src), url=safe_url(url))
    t0 = time.perf_counter()
    sources = _open_sources(src, opts)
    fingerprint = json.dumps({
        "schema": SCHEMA_VERSION,
        "source": _fingerprint_file(src),
        "mrsty": _fingerprint_file(sources.sty_path) if sources.sty_path else None,
        "options": opts.fingerprint(),
    }, sort_keys=True)
    try:
        live_file = sqlite_file(parse_url(url))
        if not opts.force and _already_loaded(url, live_file, fingerprint, report):
            sources.reader.close()
            report.seconds = time.perf_counter() - t0
            return report
        staged = staging_file(live_file)
    except BaseException:
        sources.reader.close()
        raise
    _load_tables(url, staged, live_file, sources, fingerprint, opts, report, progress)
    report.seconds = time.perf_counter() - t0
    return report


class _Sources(NamedTuple):
    """The files of one load: MRCONSO open at its checked first line, and MRSTY if any."""

    src: Path
    reader: _RrfReader
    first: str | None
    sty_path: Path | None


def _open_sources(src: Path, opts: LoadOptions) -> _Sources:
    """Open MRCONSO and check its first line; MRSTY's first line is checked too, before the long
    MRCONSO read rather than after it."""
    reader = _RrfReader(src)
    first = _check_first_line(reader, MRCONSO_FIELDS, "RC402")
    sty_path = Path(opts.mrsty) if opts.mrsty else None
    if sty_path is not None:
        try:
            sty_reader = _RrfReader(sty_path)
            _check_first_line(sty_reader, MRSTY_FIELDS, "RC405")
            sty_reader.close()
        except UmlsError:
            reader.close()
            raise
    return _Sources(src, reader, first, sty_path)


def _load_tables(url: str, staged: Path | None, live_file: Path | None, sources: _Sources, fingerprint: str,
                 opts: LoadOptions, report: LoadReport, progress: Progress | None) -> None:
    """Fill staging tables and swap them in, all in one transaction, in ``staged`` (a new SQLite
    file renamed over ``live_file`` at the end) or else in the database itself; on any failure
    the old data stays as it was (RC403 for a database or file-system failure)."""
    from sqlalchemy import MetaData

    engine = load_engine(sqlite_url(staged) if staged is not None else url)
    loaded = False
    try:
        token = uuid.uuid4().hex[:8]
        strings, sty, meta_t = tables(MetaData(), STAGE)
        try:
            with engine.begin() as conn:
                for t in (strings, sty):
                    t.drop(conn, checkfirst=True)  # left by a load on a back end without transactional DDL
                    t.create(conn)
                _insert_strings(conn, engine, strings, sources.reader, sources.first, opts, report, progress)
                if sources.sty_path is not None:
                    _insert_sty(conn, engine, sty, sources.sty_path, report, progress)
                _create_indexes(conn, strings, sty, token, opts, report, progress)
                report.cuis = _count_cuis(conn, strings)
                _swap_staged_tables(conn)
                _write_meta(conn, meta_t, _meta_values(sources, fingerprint, opts, report))
                if progress:
                    progress("commit", 0, 0)
            loaded = True
        except UmlsError:
            raise
        except Exception as exc:  # a database or file-system failure, or a bug: never a traceback
            detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise UmlsError(diagnostic("RC403", detail=f"{detail}; {safe_url(url)} was not changed")) from exc
    finally:
        sources.reader.close()
        engine.dispose()
        if staged is not None:
            if loaded:
                swap_in(staged, live_file)
            else:
                remove_staged(staged)


def _already_loaded(url: str, live_file: Path | None, fingerprint: str, report: LoadReport) -> bool:
    """Whether the database already holds a complete load of the same files with the same options
    (then ``report`` says what that load kept)."""
    meta = live_meta(url, live_file)
    if not (meta and meta.get("status") == "complete" and meta.get("fingerprint") == fingerprint):
        return False
    report.already_loaded = True
    report.kept = int(meta.get("rows", 0))
    report.lines = int(meta.get("lines", 0))
    return True


def _create_indexes(conn: Any, strings: Any, sty: Any, token: str, opts: LoadOptions, report: LoadReport,
                    progress: Progress | None) -> None:
    """Indexes after the bulk insert (one sort instead of 16M B-tree inserts); unique names per
    load because index names are global and the old table still holds its own."""
    from sqlalchemy import Index

    if progress:
        progress("index", 0, 0)
    ti = time.perf_counter()
    Index(f"ix_{STRINGS}_norm_{token}", strings.c.norm, strings.c.cui).create(conn)
    if opts.sorted_index:
        Index(f"ix_{STRINGS}_sorted_{token}", strings.c.norm_sorted, strings.c.cui).create(conn)
    Index(f"ix_{SEMTYPES}_cui_{token}", sty.c.cui).create(conn)
    report.index_seconds = time.perf_counter() - ti


def _count_cuis(conn: Any, strings: Any) -> int:
    """The distinct CUIs loaded: counted once at load, so ``umls info`` answers at once."""
    from sqlalchemy import distinct, func, select

    return int(conn.execute(select(func.count(distinct(strings.c.cui)))).scalar() or 0)


def _swap_staged_tables(conn: Any) -> None:
    """The staged tables replace the live ones; still inside the load's transaction, so readers see
    the old data or the new, never half."""
    for live in (STRINGS, SEMTYPES):
        conn.exec_driver_sql(f"DROP TABLE IF EXISTS {live}")
        conn.exec_driver_sql(f"ALTER TABLE {live}{STAGE} RENAME TO {live}")


def _meta_values(sources: _Sources, fingerprint: str, opts: LoadOptions, report: LoadReport) -> dict[str, str]:
    """What the metadata table records of a completed load (the fingerprint makes a rerun a no-op)."""
    return {
        "schema_version": str(SCHEMA_VERSION),
        "status": "complete",
        "fingerprint": fingerprint,
        "source": str(sources.src.resolve()),
        "mrsty": str(sources.sty_path.resolve()) if sources.sty_path else "",
        "rows": str(report.kept),
        "cuis": str(report.cuis),
        "lines": str(report.lines),
        "semantic_types": str(report.semantic_types),
        "sorted_index": "1" if opts.sorted_index else "0",
        "languages": ",".join(opts.languages) if opts.languages else "*",
        "options": json.dumps(opts.fingerprint(), sort_keys=True),
        "loaded_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def _write_meta(conn: Any, meta_t: Any, values: dict[str, str]) -> None:
    meta_t.create(conn, checkfirst=True)
    conn.execute(meta_t.delete())
    conn.execute(meta_t.insert(), [{"key": k, "value": v} for k, v in values.items()])




def _malformed(report: LoadReport, path: Path, line: int, detail: str, limit: int) -> None:
    report.malformed += 1
    if len(report.malformed_rows) < _MAX_REPORTED:
        report.malformed_rows.append(diagnostic("RC404", file=str(path), line=line, detail=detail, severity="warning"))
    if report.malformed > limit:
        raise UmlsError(diagnostic("RC406", file=str(path), line=line, count=report.malformed, limit=limit))


def _insert_strings(conn: Any, engine: Any, table: Any, reader: _RrfReader, first: str | None, opts: LoadOptions,
                    report: LoadReport, progress: Progress | None) -> None:
    """The hot loop: split, filter, normalise, batch, insert (4-6 microseconds of CPU a line).

    A row whose language is not wanted is skipped before it is split, after a cheap field count;
    ``_string_row`` says what becomes of any other well-formed row.
    """
    batch = _StringBatch(conn, engine, table, opts, reader, report, progress)
    flat, flush_at = batch.values, batch.flush_at
    ext = flat.extend
    keep = _string_row(opts)
    langs = frozenset(opts.languages) if opts.languages else None
    skipped = dict.fromkeys(_SKIP_COUNTS, 0)
    path, limit = reader.path, opts.max_malformed
    lines = 0
    stream = reader.lines() if first is None else itertools.chain((first,), reader.lines())
    lineno = 0
    try:  # a .gz cut short (EOFError) or corrupt (zlib.error, BadGzipFile) fails on the line it reached
        for lineno, line in enumerate(stream, 1):
            if len(line) > MAX_LINE_CHARS:
                raise reader.too_long(lineno)
            # CUIs are C + 7 digits, so LAT sits at [9:12]; count('|') keeps the malformed check.
            if langs is not None and line[9:12] not in langs and line[8:9] == "|" and line[12:13] == "|" \
                    and line.count("|") == 18:
                lines += 1
                skipped["skipped_language"] += 1
                continue
            parts = line.split("|")
            if len(parts) != 19 or parts[18].strip("\r\n"):
                if not line.strip():
                    continue  # a blank line (e.g. a final newline) is not a row
                lines += 1
                _malformed(report, path, lineno, f"{_fields(line)} fields, expected 18", limit)
                continue
            lines += 1
            row = keep(parts)
            if isinstance(row, tuple):
                ext(row)
                if len(flat) >= flush_at:
                    batch.flush()
            elif row in skipped:
                skipped[row] += 1
            else:
                _malformed(report, path, lineno, row, limit)
    except (EOFError, zlib.error, OSError) as exc:
        raise reader.broken(lineno + 1, exc) from exc
    batch.flush()
    report.lines = lines
    for counter, count in skipped.items():
        setattr(report, counter, count)
    if report.kept == 0:
        raise _nothing_kept(path, lines, opts)


_SKIP_COUNTS = ("skipped_language", "skipped_sab", "skipped_suppressed", "skipped_empty", "skipped_long")


def _string_row(opts: LoadOptions) -> Callable[[list[str]], tuple[str, ...] | str]:
    """The rule for one well-formed MRCONSO row (its fields split on '|'): the row to insert,
    (cui, lat, sab, tty, str, norm[, norm_sorted]), or else why not: the LoadReport counter of a
    row the options skip (one of ``_SKIP_COUNTS``) or what is wrong with a malformed row (RC404)."""
    langs = frozenset(opts.languages) if opts.languages else None
    include = frozenset(opts.include_sabs) if opts.include_sabs else None
    exclude = frozenset(opts.exclude_sabs)
    suppressed_ok = opts.include_suppressed
    max_chars = opts.max_chars
    want_sorted = opts.sorted_index
    amap = ASCII_MAP

    def row(parts: list[str]) -> tuple[str, ...] | str:
        cui, lat = parts[0], parts[1]
        if langs is not None and lat not in langs:
            return "skipped_language"
        if not suppressed_ok and parts[16] != "N":
            return "skipped_suppressed"
        sab = parts[11]
        if (include is not None and sab not in include) or sab in exclude:
            return "skipped_sab"
        s = parts[14]
        if not cui or not s:
            return "empty CUI" if not cui else "empty STR"
        if s.isascii():
            norm = " ".join(s.encode("ascii").translate(amap).decode("ascii").split())
        else:
            try:
                s.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate: bytes that were not UTF-8 in the file
                return "bytes that are not UTF-8"
            norm = normalize(s)
        if not norm:
            return "skipped_empty"
        if len(norm) > max_chars:
            return "skipped_long"
        if want_sorted:
            return (cui, lat, sab, parts[12], s, norm, sorted_form(norm))
        return (cui, lat, sab, parts[12], s, norm)

    return row


class _StringBatch:
    """Kept rows waiting to be inserted, flat (``width`` values a row), written once
    ``opts.batch_size`` rows wait. They go in as multi-row ``INSERT ... VALUES (...), (...)``
    statements of 100 rows, executed many at a time: with SQLite that halves the insert cost of
    one-row executemany."""

    def __init__(self, conn: Any, engine: Any, table: Any, opts: LoadOptions, reader: _RrfReader,
                 report: LoadReport, progress: Progress | None):
        columns = ("cui", "lat", "sab", "tty", "str", "norm") + (("norm_sorted",) if opts.sorted_index else ())
        self.conn, self.engine, self.reader, self.report, self.progress = conn, engine, reader, report, progress
        self.width = len(columns)
        self.head = f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES "
        self.multi_sql = self.head + _values(engine, self.width, _ROWS_PER_STATEMENT)
        self.flush_at = opts.batch_size * self.width
        self.values: list[str] = []

    def flush(self) -> None:
        width = self.width
        values = tuple(self.values)  # SQLAlchemy takes executemany parameters as tuples; tuple slices are tuples
        n = len(values)
        step = _ROWS_PER_STATEMENT * width
        full = n - n % step
        if full:
            self.conn.exec_driver_sql(self.multi_sql, [values[i : i + step] for i in range(0, full, step)])
        if n > full:
            self.conn.exec_driver_sql(self.head + _values(self.engine, width, (n - full) // width), values[full:])
        self.report.kept += n // width
        self.values.clear()
        if self.progress:
            self.progress("read", self.reader.position(), self.reader.total)


def _nothing_kept(path: Path, lines: int, opts: LoadOptions) -> UmlsError:
    """RC407, naming the filters that together kept no row."""
    return UmlsError(diagnostic(
        "RC407", file=str(path), path=str(path), lines=lines,
        filters=f"languages {','.join(opts.languages) if opts.languages else 'any'}"
                + (f", sources {','.join(opts.include_sabs)}" if opts.include_sabs else "")
                + (f", excluding {','.join(opts.exclude_sabs)}" if opts.exclude_sabs else "")
                + ("" if opts.include_suppressed else ", no suppressed rows")))


def _insert_sty(conn: Any, engine: Any, table: Any, path: Path, report: LoadReport, progress: Progress | None) -> None:
    """MRSTY.RRF: CUI|TUI|STN|STY|ATUI|CVF| -> (cui, tui, sty)."""
    sql = f"INSERT INTO {table.name} (cui, tui, sty) VALUES ({placeholders(engine, 3)})"
    reader = _RrfReader(path)
    batch: list[tuple[str, str, str]] = []
    lineno = 0
    try:
        for lineno, line in enumerate(reader.lines(), 1):
            if len(line) > MAX_LINE_CHARS:
                raise reader.too_long(lineno)
            parts = line.split("|")
            if len(parts) != 7 or parts[6].strip("\r\n"):
                if line.strip():
                    _malformed(report, path, lineno, f"{_fields(line)} fields, expected 6", 1_000_000)
                continue
            if not parts[0] or not parts[1]:
                _malformed(report, path, lineno, "empty CUI or TUI", 1_000_000)
                continue
            batch.append((parts[0], parts[1], parts[3]))
            if len(batch) >= 20000:
                conn.exec_driver_sql(sql, batch)
                report.semantic_types += len(batch)
                batch.clear()
                if progress:
                    progress("mrsty", reader.position(), reader.total)
        if batch:
            conn.exec_driver_sql(sql, batch)
            report.semantic_types += len(batch)
    except (EOFError, zlib.error, OSError) as exc:
        raise reader.broken(lineno + 1, exc) from exc
    finally:
        reader.close()

