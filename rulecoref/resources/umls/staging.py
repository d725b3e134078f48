"""Where a load is written: a SQLite file is built beside the live one and renamed over it when
the load commits (so a failed load leaves the old file byte for byte), any other database is
loaded in place inside one transaction; and the engine a load writes with."""

from __future__ import annotations

import os
import stat
import uuid
from pathlib import Path
from typing import Any

from ...errors import UmlsError, diagnostic
from .store import META, SEMTYPES, STAGE, STRINGS, engine_error, parse_url, read_meta, sqlite_file

def load_engine(url: str) -> Any:
    """An engine whose transactions also cover DDL (pysqlite would otherwise autocommit CREATE/DROP)."""
    from sqlalchemy import create_engine, event
    from sqlalchemy.engine import make_url

    try:
        u = make_url(url)
        path = sqlite_file(u)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(u)
    except Exception as exc:
        raise engine_error(url, exc) from exc
    if u.get_backend_name() == "sqlite":

        @event.listens_for(engine, "connect")
        def _connect(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # we issue BEGIN ourselves, below
            cur = dbapi_conn.cursor()
            # Rollback journal, not WAL: pages appended by the bulk insert need no journal, so the
            # one big transaction costs little extra I/O and a crash still rolls back cleanly.
            # synchronous=OFF only risks the load itself on an OS crash, never the old data's
            # consistency after a process crash. A 32 MiB cache and no sorter threads: measured on
            # a 16M-row file, the index sort ran fastest that way (16 s CPU, 82 MB peak, against
            # 23 s and 550 MB with 256 MiB; threads=2 doubled memory and was slower on 2 busy
            # cores), and temp_store stays on disk, so memory is bounded whatever the release size.
            for pragma in ("journal_mode=DELETE", "synchronous=OFF", "cache_size=-32768",
                           "busy_timeout=30000"):
                cur.execute(f"PRAGMA {pragma}")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin(conn: Any) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


_OURS = {STRINGS, SEMTYPES, META, STRINGS + STAGE, SEMTYPES + STAGE}


def sqlite_tables(path: Path) -> set[str]:
    """Tables of an existing SQLite file, opened without creating it. Opening read-write also
    rolls back a hot journal that a killed load left, so the file is consistent afterwards."""
    import sqlite3
    from urllib.parse import quote

    con = sqlite3.connect("file:" + quote(str(path.resolve())) + "?mode=rw", uri=True)
    try:
        return {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        con.close()


def live_meta(url: str, live: Path | None) -> dict[str, str] | None:
    """The metadata of the database a load would replace, read without creating anything."""
    import sqlite3

    if live is not None:
        if not live.is_file():
            return None
        try:
            if META not in sqlite_tables(live):
                return None
            con = sqlite3.connect(live)
            try:
                return dict(con.execute(f"SELECT key, value FROM {META}"))
            finally:
                con.close()
        except sqlite3.Error as exc:
            raise engine_error(url, exc) from exc
    from sqlalchemy import create_engine

    try:
        engine = create_engine(parse_url(url))
        try:
            with engine.connect() as conn:
                return read_meta(conn)
        finally:
            engine.dispose()
    except UmlsError:
        raise
    except Exception as exc:
        raise engine_error(url, exc) from exc


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def staging_file(live: Path | None) -> Path | None:
    """Where a SQLite load builds its new file, beside the live one; None to load in place (not
    SQLite, or a file that is not a database or holds tables of its own, which a rename would lose)."""
    import sqlite3

    if live is None:
        return None
    if live.exists():
        if not live.is_file():
            return None
        try:
            if sqlite_tables(live) - _OURS:
                return None
        except sqlite3.Error:
            return None  # not a SQLite database: the load in place reports it
    for old in live.parent.glob(f".{live.name}.load-*.tmp"):  # left by a killed load
        pid = old.name[len(f".{live.name}.load-"):].split("-", 1)[0]
        if pid.isdigit() and not _pid_alive(int(pid)):
            remove_staged(old)
    return live.with_name(f".{live.name}.load-{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp")


def swap_in(staged: Path, live: Path) -> None:
    """Rename the loaded file over the live one (readers still open on the old file keep reading it)."""
    try:
        if live.exists():
            os.chmod(staged, stat.S_IMODE(live.stat().st_mode))
        os.replace(staged, live)
    except OSError as exc:
        remove_staged(staged)
        raise UmlsError(diagnostic("RC403", detail=f"cannot replace {live}: {exc.strerror or exc}; it was not changed")) from exc


def remove_staged(staged: Path) -> None:
    for f in (staged, Path(f"{staged}-journal")):
        f.unlink(missing_ok=True)
