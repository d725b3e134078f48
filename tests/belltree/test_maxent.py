"""Maxent models: fitting, JSON round trip with identical predictions, version and file checks."""

from __future__ import annotations

import json

import pytest

from rulecoref.belltree.maxent import FORMAT_VERSION, MaxEntModel
from rulecoref.belltree.train import EventMatrix, fit
from rulecoref.errors import ModelError

EVENTS = [["exact", "sd=0"], ["exact", "sd=1"], ["sd=0"], ["sd=3", "ed=4"], ["exact", "ed=0"], ["ed=4"]] * 5
LABELS = [1, 1, 0, 0, 1, 0] * 5


def matrix(events, labels) -> EventMatrix:
    return EventMatrix.from_events(events, labels)


def small_model() -> MaxEntModel:
    return fit(matrix(EVENTS, LABELS), "mention-pair", min_count=1, settings={"window": 10})


def test_maxent_fit_learns_the_signal_and_matches_sklearn():
    import numpy as np
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression

    model = small_model()
    assert model.prob(["exact", "sd=0"]) > 0.5 > model.prob(["ed=4"])
    names = sorted({f for e in EVENTS for f in e})
    rows = [[1.0 if n in e else 0.0 for n in names] for e in EVENTS]
    clf = LogisticRegression(C=1.0, solver="lbfgs", max_iter=300).fit(csr_matrix(np.array(rows)), LABELS)
    want = clf.predict_proba(csr_matrix(np.array(rows)))[:, 1]
    got = [model.prob(e) for e in EVENTS]
    assert got == pytest.approx(list(want), abs=1e-4)


def test_maxent_json_round_trip_gives_identical_predictions(tmp_path):
    model = small_model()
    path = tmp_path / "m.json"
    model.save(path)
    back = MaxEntModel.load(path)
    assert back.kind == "mention-pair" and back.settings["window"] == 10
    probes = EVENTS + [["unseen"], [], ["exact", "exact"]]
    assert [back.prob(e) for e in probes] == [model.prob(e) for e in probes]
    data = json.loads(path.read_text())
    assert data["version"] == FORMAT_VERSION and len(data["features"]) == len(data["weights"])


def test_maxent_other_version_is_refused(tmp_path):
    path = tmp_path / "m.json"
    small_model().save(path)
    data = json.loads(path.read_text())
    data["version"] = FORMAT_VERSION + 1
    path.write_text(json.dumps(data))
    with pytest.raises(ModelError) as err:
        MaxEntModel.load(path)
    assert err.value.code == "RC602"


@pytest.mark.parametrize(
    ("text", "code"),
    [("{not json", "RC601"), ('{"format": "something-else"}', "RC601"), ("[1, 2]", "RC601")],
)
def test_maxent_bad_files_are_reported(tmp_path, text, code):
    path = tmp_path / "m.json"
    path.write_text(text)
    with pytest.raises(ModelError) as err:
        MaxEntModel.load(path)
    assert err.value.code == code


def test_maxent_missing_file_says_how_to_train(tmp_path):
    with pytest.raises(ModelError) as err:
        MaxEntModel.load(tmp_path / "none.json")
    assert err.value.code == "RC603"
    assert "rulecoref train" in str(err.value)


def test_maxent_needs_both_labels():
    with pytest.raises(ValueError):
        fit(matrix([["a"], ["b"]], [0, 0]), "mention-pair")
