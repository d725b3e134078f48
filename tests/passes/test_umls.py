"""The ``umls`` pass on tiny documents against the hand-written fixture database."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from rulecoref.engine import Pipeline
from rulecoref.errors import UmlsError
from rulecoref.markup import parse_markup
from rulecoref.resources.umls import LoadOptions, load_mrconso, to_url
from tests.helpers import linked, resolve, single_pass

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "umls"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("umls") / "umls.sqlite"
    load_mrconso(FIXTURES / "MRCONSO.RRF", to_url(path),
                 LoadOptions(mrsty=str(FIXTURES / "MRSTY.RRF"), sorted_index=True))
    return path


def umls(db: Path, **params) -> Pipeline:
    """The umls pass alone; its rule file goes to a fresh folder beside the test database."""
    folder = Path(tempfile.mkdtemp(dir=db.parent))
    return single_pass("umls", {"db": str(db), **params}, applies_to={"exclude_types": ["pronoun"]}, tmp_path=folder)


def test_umls_links_renal_and_kidney(db: Path) -> None:
    res = resolve(umls(db), "[renal|problem] biopsy showed the [kidney|problem] was small .")
    assert linked(res, "renal", "kidney")
    (link,) = res.proposed
    assert link.provenance.kind == "umls"
    assert link.provenance.evidence == "UMLS CUI C0022646 shared by 'renal' and 'kidney'"


def test_umls_no_link_without_a_shared_cui(db: Path) -> None:
    res = resolve(umls(db), "[renal failure|problem] and [chest pain|problem] .")
    assert not linked(res, "renal failure", "chest pain")


def test_umls_links_only_the_same_type(db: Path) -> None:
    res = resolve(umls(db), "[HTN|problem] was treated ; [hypertension|test] was measured .")
    assert not linked(res, "htn", "hypertension")


def test_umls_looks_up_the_literal_form_before_conditioning(db: Path) -> None:
    text = "[the loss of consciousness|problem] lasted a minute ; [unconsciousness|problem] recurred ."
    res = resolve(umls(db), text)
    assert linked(res, "the loss of consciousness", "unconsciousness")
    assert "as 'loss of consciousness'" in res.proposed[0].provenance.evidence
    # the seed's conditioned-only lookup drops "of" and misses the UMLS string
    assert not linked(resolve(umls(db, literal_first=False), text), "the loss of consciousness", "unconsciousness")


def test_umls_conditioned_form_drops_common_words(db: Path) -> None:
    res = resolve(umls(db), "[his high blood pressure|problem] ; [HTN|problem] .")
    assert linked(res, "his high blood pressure", "htn")


def test_umls_word_order_insensitive_match(db: Path) -> None:
    text = "[congestive heart failure|problem] on admission ; [CHF|problem] improved ."
    assert not linked(resolve(umls(db), text), "congestive heart failure", "chf")
    assert linked(resolve(umls(db, match="sorted"), text), "congestive heart failure", "chf")


def test_umls_max_cuis_drops_ambiguous_strings(db: Path) -> None:
    text = "she has [a cold|problem] ; [the common cold|problem] resolved ."
    assert linked(resolve(umls(db), text), "a cold", "the common cold")
    assert not linked(resolve(umls(db, max_cuis=2), text), "a cold", "the common cold")


def test_umls_semantic_types_filter(db: Path) -> None:
    pipe = umls(db, semantic_types=["T047"])
    assert not linked(resolve(pipe, "[renal|problem] and [kidney|problem]"), "renal", "kidney")  # T023
    assert linked(resolve(pipe, "[HTN|problem] and [hypertension|problem]"), "htn", "hypertension")
    by_name = umls(db, semantic_types=["body part, organ, or organ component"])
    assert linked(resolve(by_name, "[renal|problem] and [kidney|problem]"), "renal", "kidney")


def test_umls_source_filter(db: Path) -> None:
    pipe = umls(db, sabs=["MSH", "MEDLINEPLUS"])
    assert not linked(resolve(pipe, "[HTN|problem] and [hypertension|problem]"), "htn", "hypertension")  # HTN: CHV
    assert linked(resolve(pipe, "[high blood pressure|problem] and [hypertension|problem]"),
                  "high blood pressure", "hypertension")


def test_umls_min_chars(db: Path) -> None:
    text = "[HTN|problem] and [hypertension|problem]"
    assert not linked(resolve(umls(db, min_chars=4), text), "htn", "hypertension")


def test_umls_nearest_per_cui_keeps_links_linear(db: Path) -> None:
    text = "[HTN|problem] ; [hypertension|problem] ; [high blood pressure|problem] ; [HTN|problem] ."
    nearest = resolve(umls(db), text)
    every = resolve(umls(db, antecedents="all"), text)
    assert len(nearest.proposed) == 3 and len(every.proposed) == 6
    assert nearest.cluster_of() == every.cluster_of()  # same chains either way


def test_umls_missing_database_fails_at_start_up(tmp_path: Path) -> None:
    with pytest.raises(UmlsError) as err:
        umls(tmp_path / "missing.sqlite")
    assert err.value.code == "RC401"


def test_umls_sorted_match_needs_the_sorted_index(tmp_path: Path) -> None:
    plain = tmp_path / "plain.sqlite"
    load_mrconso(FIXTURES / "MRCONSO.RRF", to_url(plain))
    with pytest.raises(UmlsError) as err:
        umls(plain, match="sorted")
    assert err.value.code == "RC408"
    with pytest.raises(UmlsError) as err:
        umls(plain, semantic_types=["T047"])
    assert err.value.code == "RC409"


def test_umls_database_from_environment_variable(db: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RULECOREF_TEST_UMLS_DB", str(db))
    pipe = single_pass("umls", {"db_env": "RULECOREF_TEST_UMLS_DB"}, tmp_path=tmp_path)
    assert linked(resolve(pipe, "[renal|problem] and [kidney|problem]"), "renal", "kidney")


def test_umls_relative_database_path_is_relative_to_the_rule_file(db: Path, tmp_path: Path) -> None:
    (tmp_path / "umls.sqlite").symlink_to(db)
    pipe = single_pass("umls", {"db": "umls.sqlite"}, tmp_path=tmp_path)
    assert linked(resolve(pipe, "[renal|problem] and [kidney|problem]"), "renal", "kidney")


def test_umls_one_query_per_document(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pipe = umls(db)
    (p,) = pipe.passes
    calls = []
    original = p.db.cuis_many

    def counting(texts, *args, **kwargs):
        calls.append(len(set(texts)))
        return original(texts, *args, **kwargs)

    monkeypatch.setattr(p.db, "cuis_many", counting)  # the lookup is shared by the session's Resources
    doc, _ = parse_markup("[renal|problem] ; [kidney|problem] ; [HTN|problem] ; [hypertension|problem] .")
    pipe.resolve(doc)
    assert len(calls) == 1
