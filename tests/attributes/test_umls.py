"""UMLS concept numbers (rulecoref/attributes/umls.py), from the session's fixture database (tests/conftest.py)."""

from __future__ import annotations

import pytest

from tests.attributes.helpers import column
from tests.helpers import settings_pipeline


@pytest.fixture()
def umls_pipeline(tmp_path, umls_fixture_database):
    entries = [{"kind": "match", "name": "umls", "key": "cuis"}]
    return lambda **umls: settings_pipeline(tmp_path, {"umls": umls}, entries)


def test_attributes_umls_hit(umls_pipeline):
    got = column("[the loss of consciousness|problem] ; [his high blood pressure|problem] ; [zzz|problem]", "umls_hit",
                 pipeline=umls_pipeline())
    # the literal form first ("the loss ..." has no CUI), then without determiners, then conditioned
    assert got == [("loss of consciousness", {"C0041657"}), ("high blood pressure", {"C0020538"}), (None, frozenset())]


def test_attributes_cuis(umls_pipeline):
    text = "[renal|problem] ; [a cold|problem] ; [chest pain|problem]"
    got = column(text, "cuis", pipeline=umls_pipeline())
    assert got == [{"C0022646"}, {"C0009443", "C0009264", "C0234192"}, {"C0008031"}]
    assert column(text, "cuis", pipeline=umls_pipeline(max_cuis=2))[1] == frozenset()  # ambiguous: none


def test_attributes_cuis_need_the_umls_lookup():
    with pytest.raises(RuntimeError, match="UMLS"):
        column("[renal|problem]", "cuis")  # a pipeline whose rules name no cuis opens no database
