"""Every CoNLL reference-scorer test case (tests/fixtures/scorer-cases/conll, scorer v8.01), read through
rulecoref.io.conll and scored in conll mode: 36 cases, 91 expected (case, metric) triples."""

from __future__ import annotations

import json

import pytest

from rulecoref.evaluate import score_conll_files
from tests.helpers import FIXTURES

CASES_DIR = FIXTURES / "scorer-cases" / "conll"
CASES = sorted(CASES_DIR.glob("cases/*.json"))
TOL = 1e-4


def _load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_conll_cases_all_present():
    """The suite has 36 cases and 91 expected (case, metric) values; a missing file must fail here."""
    assert len(CASES) == 36
    assert sum(len(_load(p)["expected"]) for p in CASES) == 91


@pytest.mark.parametrize("case_path", CASES, ids=lambda p: p.stem)
def test_conll_cases_expected(case_path):
    case = _load(case_path)
    report = score_conll_files(CASES_DIR / case["key"], CASES_DIR / case["response"])
    for metric, expected in case["expected"].items():
        got = report.metrics[metric]
        for field in ("recall", "precision", "f1"):
            assert getattr(got, field) == pytest.approx(expected[field], abs=TOL), (case["id"], metric, field)


@pytest.mark.parametrize("case_path", CASES, ids=lambda p: p.stem)
def test_conll_cases_observed_counts(case_path):
    """Beyond the suite: the raw numerators and denominators perl v8.01 printed for all 5 metrics."""
    case = _load(case_path)
    report = score_conll_files(CASES_DIR / case["key"], CASES_DIR / case["response"])
    for metric, observed in case["perl_v8_01_observed"].items():
        got = report.metrics[metric]
        for field in ("recall", "precision", "f1"):
            assert getattr(got, field) == pytest.approx(observed[field], abs=TOL), (case["id"], metric, field)
        if metric == "blanc":
            for part, key in (("coref", "coref_links"), ("noncoref", "noncoref_links")):
                for name, value in observed[key].items():
                    assert got.counts[part][name] == pytest.approx(value, abs=TOL), (case["id"], part, name)
        else:
            for name, value in observed["counts"].items():
                assert got.counts[name] == pytest.approx(value, abs=TOL), (case["id"], metric, name)
