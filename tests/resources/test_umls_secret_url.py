"""A password in a database URL's query (``?password=``) is masked in messages as ``user:pass@``
is (issue 31, case 4)."""

from __future__ import annotations

import pytest

from rulecoref.errors import UmlsError
from rulecoref.resources.umls import UmlsLookup, safe_url


@pytest.mark.parametrize("url", ["postgresql://u@127.0.0.1:1/umls?password=hunter2",
                                 "postgresql://u@127.0.0.1:1/umls?sslmode=disable&PASSWORD=hunter2",
                                 "postgresql://u:hunter2@127.0.0.1:1/umls"])
def test_umls_rc401_never_prints_the_password(url: str) -> None:
    with pytest.raises(UmlsError) as err:
        UmlsLookup(url).require("exact")
    assert err.value.code == "RC401" and "hunter2" not in str(err.value) and "***" in str(err.value)


def test_umls_safe_url_keeps_the_other_parameters() -> None:
    assert safe_url("postgresql://u@h/umls?password=x&sslmode=require") == "postgresql://u@h/umls?password=***&sslmode=require"
