"""How a UMLS load is stored and found: its tables, the normal forms of its strings, database URLs.

What the loader (``load.py``) writes and the lookup (``lookup.py``) reads, so both agree: the
tables (``tables``), the metadata that says a load completed (``read_meta``), the lookup forms of a
string (``normalize``, ``sorted_form``) and where the database is (``to_url``, ``resolve_url``).
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path
from typing import Any

from ...errors import UmlsError, diagnostic

SCHEMA_VERSION = 1
#: Environment variable naming the database when no URL is given (CLI ``--db`` and the pass).
DB_ENV = "RULECOREF_UMLS_DB"
STRINGS = "umls_string"
SEMTYPES = "umls_sty"
META = "umls_meta"
#: The suffix of the tables a load fills before it swaps them in.
STAGE = "_new"

# -- normalisation -----------------------------------------------------------------------------
# ASCII strings (the vast majority of English rows) take a bytes.translate path that is ~4x faster
# than str.translate; the general path gives the same result on ASCII (a test checks this).
ASCII_MAP = bytes(
    (c + 32 if 65 <= c <= 90 else c) if (48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122) else (32 if c < 128 else c)
    for c in range(256)
)
_NON_WORD = re.compile(r"[\W_]+")


def normalize(text: str) -> str:
    """Lookup form of a string: lowercase, unicode folded, punctuation to space, spaces collapsed.

    "Failure, Kidney" -> "failure kidney"; "Ménière's disease" -> "meniere s disease";
    "(131)I-MAA" -> "131 i maa". Idempotent, so a normalised string can be looked up again.
    """
    if text.isascii():
        return " ".join(text.encode("ascii").translate(ASCII_MAP).decode("ascii").split())
    return _normalize_unicode(text)


def _normalize_unicode(text: str) -> str:
    """``normalize`` for any text: casefold, NFKD, drop combining marks, non-word characters to space."""
    # compatibility forms first: "ℐ" decomposes to "I", which casefolding must still see
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return " ".join(_NON_WORD.sub(" ", folded).split())


def sorted_form(norm: str) -> str:
    """Word-order-insensitive form of a normalised string: "kidney failure" -> "failure kidney"."""
    words = norm.split()
    return " ".join(sorted(words)) if len(words) > 1 else norm


# -- database URLs -----------------------------------------------------------------------------
def default_db_path() -> Path:
    """``$XDG_CACHE_HOME/rulecoref/umls.sqlite`` (``~/.cache/rulecoref/umls.sqlite``): a per-user
    cache, outside the source tree, so a licensed UMLS never ends up in a repository."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rulecoref" / "umls.sqlite"


def to_url(value: str | os.PathLike[str] | None = None) -> str:
    """A SQLAlchemy URL from a URL, a plain file path (-> SQLite) or nothing (-> the default file)."""
    if value is None or str(value).strip() == "":
        return sqlite_url(default_db_path())
    text = str(value).strip()
    if "://" in text:
        return text
    if text == ":memory:":  # SQLite's name for a database in memory, never a file of that name
        return "sqlite://"
    return sqlite_url(Path(text).expanduser().resolve())


def sqlite_url(path: Path) -> str:
    """``sqlite:////abs/path`` with '?', '#' and '%' escaped, so the URL parser gets the path back."""
    from sqlalchemy.engine import URL

    return URL.create("sqlite", database=str(path)).render_as_string(hide_password=False)


def resolve_url(db: str | None = None, env: str | None = DB_ENV) -> str:
    """The URL to use: ``db`` if given, else the environment variable ``env``, else the default file."""
    if db:
        return to_url(db)
    if env and os.environ.get(env, "").strip():
        return to_url(os.environ[env])
    return to_url(None)


#: query parameters of a URL that carry a secret (``?password=``: libpq and most drivers take it)
_SECRET_QUERY = re.compile(r"(?i)([?&;](?:password|passwd|pwd|pass|secret|token|sslpassword|api_?key)=)[^&;#]*")


def safe_url(url: str) -> str:
    """The URL with its password hidden, for messages: ``user:pass@`` and a ``?password=`` alike."""
    try:
        from sqlalchemy.engine import make_url

        shown = make_url(url).render_as_string(hide_password=True)
    except Exception:
        shown = re.sub(r"://([^:/@]+):[^@]*@", r"://\1:***@", url)
    return _SECRET_QUERY.sub(r"\1***", shown)


def network_url(url: str) -> bool:
    """Whether opening ``url`` may connect to another machine: every back end but SQLite (a
    ``sqlite://`` URL is a local file or memory). An unparsable URL counts as network."""
    try:
        return parse_url(url).get_backend_name() != "sqlite"
    except Exception:
        return "://" in url and not url.startswith("sqlite")


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for a server database or an in-memory one)."""
    return sqlite_file(parse_url(url))


def sqlite_file(url: Any) -> Path | None:
    """The file of a ``sqlite:///file`` URL; None for other back ends and in-memory/URI forms."""
    if url.get_backend_name() != "sqlite":
        return None
    db = url.database or ""
    if db in ("", ":memory:") or db.startswith("file:"):
        return None
    return Path(db)


def engine_error(url: str, exc: BaseException) -> UmlsError:
    detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, ModuleNotFoundError):
        detail = f"the database driver {exc.name!r} is not installed (for PostgreSQL: pip install 'psycopg[binary]')"
    return UmlsError(diagnostic("RC401", url=safe_url(url), detail=detail))


def tables(metadata: Any, suffix: str = "") -> tuple[Any, Any, Any]:
    from sqlalchemy import Column, String, Table, Text

    strings = Table(
        STRINGS + suffix, metadata,
        Column("cui", String(16), nullable=False),
        Column("lat", String(8), nullable=False),
        Column("sab", String(64), nullable=False),
        Column("tty", String(32), nullable=False),
        Column("str", Text, nullable=False),
        Column("norm", Text, nullable=False),
        Column("norm_sorted", Text, nullable=True),
    )
    sty = Table(
        SEMTYPES + suffix, metadata,
        Column("cui", String(16), nullable=False),
        Column("tui", String(8), nullable=False),
        Column("sty", String(128), nullable=False),
    )
    meta = Table(
        META, metadata,
        Column("key", String(64), primary_key=True),
        Column("value", Text, nullable=False),
    )
    return strings, sty, meta


def placeholders(engine: Any, n: int) -> str:
    style = engine.dialect.paramstyle
    if style == "qmark":
        return ",".join("?" * n)
    if style in ("format", "pyformat"):
        return ",".join(["%s"] * n)
    if style == "numeric":
        return ",".join(f":{i + 1}" for i in range(n))
    if style == "numeric_dollar":
        return ",".join(f"${i + 1}" for i in range(n))
    raise UmlsError(diagnostic("RC403", detail=f"unsupported DB-API parameter style {style!r}"))


def read_meta(conn: Any) -> dict[str, str] | None:
    """The metadata rows of a database, or None when no load ever completed there."""
    from sqlalchemy import inspect, text

    if not inspect(conn).has_table(META):
        return None
    return {k: v for k, v in conn.execute(text(f"SELECT key, value FROM {META}"))}


def parse_url(url: str) -> Any:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url)
    except Exception as exc:
        raise engine_error(url, exc) from exc
