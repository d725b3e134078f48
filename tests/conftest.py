"""Session-wide test setup.

``rules/i2b2-umls.yaml`` turns the UMLS pass on, and its filters' examples run with the main-linker
passes before them (tests/test_rule_examples.py), so they need a loaded UMLS database. Tests that
need one ask for the ``umls_fixture_database`` fixture: it builds one from the hand-written rows in
tests/fixtures/umls/ once per session and points ``RULECOREF_UMLS_DB`` at it, so the suite never
depends on (or reads) a real, licensed UMLS. It is opt-in, so that without SQLAlchemy (the ``umls``
extra) only those tests skip.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

UMLS_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "umls"


@pytest.fixture(scope="session")
def umls_fixture_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    pytest.importorskip("sqlalchemy", reason="the UMLS fixture database needs the umls extra (SQLAlchemy)")
    from rulecoref.resources.umls import LoadOptions, load_mrconso, to_url

    path = tmp_path_factory.mktemp("umls-db") / "umls.sqlite"
    load_mrconso(UMLS_FIXTURES / "MRCONSO.RRF", to_url(path),
                 LoadOptions(mrsty=str(UMLS_FIXTURES / "MRSTY.RRF"), sorted_index=True))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RULECOREF_UMLS_DB", str(path))
        yield path
