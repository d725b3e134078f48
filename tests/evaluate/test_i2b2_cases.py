"""The synthetic i2b2 cases (tests/fixtures/scorer-cases/i2b2, responses S1..S4): --mode i2b2 must give the
official scorer's numbers (3 decimals, XML and expected.json), --mode conll the reference scorer's."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from rulecoref.evaluate import score_dirs
from tests.helpers import FIXTURES

BASE = FIXTURES / "scorer-cases" / "i2b2"
EXPECTED = json.loads((BASE / "expected" / "expected.json").read_text(encoding="utf-8"))
RESPONSES = ("S1", "S2", "S3", "S4")
OFFICIAL_TAGS = {"MucEvaluation": "muc", "BcubedEvaluationChain": "bcub", "CEAFEvaluationChain": "ceafe",
                 "BlancEvaluationChain": "blanc"}


def _score(name: str, mode: str):
    return score_dirs(BASE / "gold", BASE / "responses" / name, mode=mode, concepts_dir=BASE / "concepts")


def _xml_overall(name: str) -> dict:
    root = ET.parse(BASE / "expected" / f"{name}.official-overall.xml").getroot()
    out: dict = {"unweightedAverageAllMetrics": float(root.find("category[@tag='unweightedAverageAllMetrics']").text)}
    cat = root.find("category[@tag='overall']")
    out["size"] = int(cat.get("size"))
    for measures in cat.findall("measures"):
        out[measures.get("tag")] = {m.get("tag"): float(m.text) for m in measures.findall("measure")}
    return out


@pytest.mark.parametrize("name", RESPONSES)
def test_i2b2_cases_official_json(name):
    report = _score(name, "i2b2")
    official = EXPECTED[name]["official_i2b2_v1.6.3_overall"]
    assert report.i2b2_overall == official["unweightedAverageAllMetrics"]
    assert report.summary["system_chain_markables"] == official["system_chain_markables"]
    for tag, metric in OFFICIAL_TAGS.items():
        got, want = report.metrics[metric], official[tag]
        if metric == "muc":  # the official script swaps MUC's labels; we report them the right way round
            assert (got.recall, got.precision) == (want["precision"], want["recall"])
        else:
            assert (got.recall, got.precision) == (want["recall"], want["precision"])
        assert got.f1 == want["fmeasure"]
    assert report.official_xml == official


@pytest.mark.parametrize("name", [n for n in RESPONSES if (BASE / "expected" / f"{n}.official-overall.xml").exists()])
def test_i2b2_cases_official_xml(name):
    report = _score(name, "i2b2")
    xml = _xml_overall(name)
    assert report.i2b2_overall == xml["unweightedAverageAllMetrics"]
    assert report.summary["system_chain_markables"] == xml["size"]
    for tag in OFFICIAL_TAGS:
        assert report.official_xml[tag] == xml[tag], tag


@pytest.mark.parametrize("name", RESPONSES)
def test_i2b2_cases_conll_mode(name):
    report = _score(name, "conll")
    for metric, want in EXPECTED[name]["conll_perl_v8.01"].items():
        got = report.metrics[metric]
        assert got.recall == pytest.approx(want["recall"], abs=1e-9), metric
        assert got.precision == pytest.approx(want["precision"], abs=1e-9), metric


def test_i2b2_cases_conll_files_agree_with_folders():
    """The shared CoNLL conversion of the same data scores like the i2b2 folders (conll mode)."""
    from rulecoref.evaluate import score_conll_files

    for name in RESPONSES:
        a = score_conll_files(BASE / "conll" / "key.conll", BASE / "conll" / f"{name}.response.conll")
        b = _score(name, "conll")
        for metric in ("muc", "bcub", "ceafm", "ceafe", "blanc"):
            assert a.metrics[metric].f1 == pytest.approx(b.metrics[metric].f1, abs=1e-12), (name, metric)
