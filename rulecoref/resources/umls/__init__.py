"""A user's licensed UMLS Metathesaurus in a local database: bulk loader and cached CUI lookup.

Seed 001 ("UMLS match") links two concepts when their conditioned strings have the same concept
number (CUI) in MRCONSO: "renal" and "kidney" share one. UMLS content is licensed, so rulecoref
ships none: users load their own ``MRCONSO.RRF`` once (``rulecoref umls load``) into any database
SQLAlchemy can reach (default a SQLite file, see ``default_db_path``) and passes look strings up here.

Every string is stored with a normalised form (``normalize``: lowercase, unicode folded,
punctuation to space, whitespace collapsed; "Failure, Kidney" -> "failure kidney") and, with
``sorted_index``, a word-order-insensitive form (``sorted_form``: "heart failure congestive" and
"congestive heart failure" -> "congestive failure heart"), as UMLS's own normalised-string index does.

By concern: ``store.py`` the tables, normal forms and database URLs that the two sides share;
``load.py`` reading MRCONSO/MRSTY into it in one transaction (``staging.py``: where a SQLite load
builds its new file); ``lookup.py`` the cached lookup. This package's names are its interface.
"""

from .load import MAX_LINE_CHARS, LoadOptions, LoadReport, load_mrconso
from .lookup import UmlsLookup
from .store import DB_ENV, default_db_path, network_url, normalize, resolve_url, safe_url, sorted_form, sqlite_path, to_url

__all__ = ["DB_ENV", "MAX_LINE_CHARS", "LoadOptions", "LoadReport", "UmlsLookup", "default_db_path", "load_mrconso",
           "network_url", "normalize", "resolve_url", "safe_url", "sorted_form", "sqlite_path", "to_url"]
