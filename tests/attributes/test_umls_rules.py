"""UMLS as a rule: rules/i2b2.yaml's ``umls-cui`` (``kind: match``, ``key: cuis``) with the
``attributes: {umls: ...}`` settings, against the hand-written fixture database of
tests/fixtures/umls (built once per session by tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.errors import UmlsError
from rulecoref.markup import parse_markup
from rulecoref.resources.umls import load_mrconso, to_url
from tests.helpers import FIXTURES, linked, needs_sqlalchemy, resolve, settings_pipeline
from tests.passes.main_support import bundled_entry

pytestmark = needs_sqlalchemy


@pytest.fixture()
def db(umls_fixture_database: Path) -> Path:
    return umls_fixture_database


def umls(folder: Path, db: Path | str | None = None, **settings):
    """The bundled umls-cui rule alone, its database and settings under attributes.umls."""
    if db is not None:
        settings["db"] = str(db)
    return settings_pipeline(folder, {"umls": settings}, [bundled_entry("umls-cui")])


def test_umls_rule_links_renal_and_kidney(tmp_path, db):
    res = resolve(umls(tmp_path, db), "[renal|problem] biopsy showed the [kidney|problem] was small .")
    assert linked(res, "renal", "kidney")
    (link,) = res.proposed
    assert (link.provenance.pass_name, link.provenance.kind) == ("umls-cui", "match")
    assert link.provenance.evidence == "same cuis 'C0022646'"


def test_umls_rule_no_link_without_a_shared_cui_or_type(tmp_path, db):
    pipe = umls(tmp_path, db)
    assert not linked(resolve(pipe, "[renal failure|problem] and [chest pain|problem] ."), "renal failure", "chest pain")
    assert not linked(resolve(pipe, "[HTN|problem] was treated ; [hypertension|test] was measured ."),
                      "htn", "hypertension")


def test_umls_rule_looks_up_the_literal_form_first(tmp_path, db):
    text = "[the loss of consciousness|problem] lasted a minute ; [unconsciousness|problem] recurred ."
    assert linked(resolve(umls(tmp_path, db), text), "the loss of consciousness", "unconsciousness")
    # the seed's conditioned-only lookup drops "of" and misses the UMLS string
    assert not linked(resolve(umls(tmp_path, db, literal_first=False), text), "the loss of consciousness",
                      "unconsciousness")


def test_umls_rule_conditioned_form_drops_common_words(tmp_path, db):
    res = resolve(umls(tmp_path, db), "[his high blood pressure|problem] ; [HTN|problem] .")
    assert linked(res, "his high blood pressure", "htn")


def test_umls_rule_word_order_insensitive_match(tmp_path, db):
    text = "[congestive heart failure|problem] on admission ; [CHF|problem] improved ."
    assert not linked(resolve(umls(tmp_path, db), text), "congestive heart failure", "chf")
    assert linked(resolve(umls(tmp_path, db, match="sorted"), text), "congestive heart failure", "chf")


def test_umls_rule_max_cuis_drops_ambiguous_strings(tmp_path, db):
    text = "she has [a cold|problem] ; [the common cold|problem] resolved ."
    assert linked(resolve(umls(tmp_path, db), text), "a cold", "the common cold")
    assert not linked(resolve(umls(tmp_path, db, max_cuis=2), text), "a cold", "the common cold")


def test_umls_rule_semantic_types(tmp_path, db):
    pipe = umls(tmp_path, db, semantic_types=["T047"])
    assert not linked(resolve(pipe, "[renal|problem] and [kidney|problem]"), "renal", "kidney")  # T023
    assert linked(resolve(pipe, "[HTN|problem] and [hypertension|problem]"), "htn", "hypertension")
    by_name = umls(tmp_path, db, semantic_types=["body part, organ, or organ component"])
    assert linked(resolve(by_name, "[renal|problem] and [kidney|problem]"), "renal", "kidney")


def test_umls_rule_sources(tmp_path, db):
    pipe = umls(tmp_path, db, sabs=["MSH", "MEDLINEPLUS"])
    assert not linked(resolve(pipe, "[HTN|problem] and [hypertension|problem]"), "htn", "hypertension")  # HTN: CHV
    assert linked(resolve(pipe, "[high blood pressure|problem] and [hypertension|problem]"),
                  "high blood pressure", "hypertension")


def test_umls_rule_min_chars(tmp_path, db):
    text = "[HTN|problem] and [hypertension|problem]"
    assert not linked(resolve(umls(tmp_path, db, min_chars=4), text), "htn", "hypertension")


def test_umls_rule_nearest_per_cui_keeps_links_linear(tmp_path, db):
    text = "[HTN|problem] ; [hypertension|problem] ; [high blood pressure|problem] ; [HTN|problem] ."
    nearest = resolve(umls(tmp_path, db), text)
    every = resolve(settings_pipeline(tmp_path, {"umls": {"db": str(db)}},
                                      [{**bundled_entry("umls-cui"), "antecedent": "all"}]), text)
    assert len(nearest.proposed) == 3 and len(every.proposed) == 6
    assert nearest.cluster_of() == every.cluster_of()  # the same chains either way


def test_umls_rule_missing_database_is_rc401_at_pipeline_start(tmp_path):
    with pytest.raises(UmlsError) as err:
        umls(tmp_path, tmp_path / "missing.sqlite")
    assert err.value.code == "RC401"


def test_umls_rule_needs_the_index_and_types_it_uses(tmp_path):
    plain = tmp_path / "plain.sqlite"
    load_mrconso(FIXTURES / "umls" / "MRCONSO.RRF", to_url(plain))  # no sorted index, no MRSTY
    for settings, code in (({"match": "sorted"}, "RC408"), ({"semantic_types": ["T047"]}, "RC409")):
        with pytest.raises(UmlsError) as err:
            umls(tmp_path, plain, **settings)
        assert err.value.code == code


def test_umls_rule_database_from_an_environment_variable(tmp_path, db, monkeypatch):
    monkeypatch.delenv("RULECOREF_UMLS_DB")  # so only the variable the settings name can find it
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("RULECOREF_TEST_UMLS_DB", str(db))
    pipe = umls(tmp_path, db_env="RULECOREF_TEST_UMLS_DB")
    assert linked(resolve(pipe, "[renal|problem] and [kidney|problem]"), "renal", "kidney")


def test_umls_rule_relative_database_path_is_relative_to_the_rule_file(tmp_path, db):
    (tmp_path / "umls.sqlite").symlink_to(db)
    pipe = umls(tmp_path, "umls.sqlite")
    assert linked(resolve(pipe, "[renal|problem] and [kidney|problem]"), "renal", "kidney")


def test_umls_rule_one_query_per_document(tmp_path, db, monkeypatch):
    pipe = umls(tmp_path, db)
    calls = []
    original = pipe.umls.db.cuis_many

    def counting(texts, *args, **kwargs):
        calls.append(len(set(texts)))
        return original(texts, *args, **kwargs)

    monkeypatch.setattr(pipe.umls.db, "cuis_many", counting)  # the lookup is shared by the session's Resources
    doc, _ = parse_markup("[renal|problem] ; [kidney|problem] ; [HTN|problem] ; [hypertension|problem] .")
    assert len(pipe.resolve(doc).proposed) == 2
    assert len(calls) == 1
