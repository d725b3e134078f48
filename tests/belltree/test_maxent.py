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


# -- model files of the wrong shape: checked at load time, before any document (issue 22) ---------

@pytest.fixture(scope="module")
def model_data():
    return small_model().to_dict()


def _saved(tmp_path, model_data, **changes):
    data = json.loads(json.dumps(model_data))
    for key, value in changes.items():
        if key.startswith("settings_"):
            data["settings"] = {**data["settings"], key[len("settings_"):]: value}
        else:
            data[key] = value
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(("changes", "where"), [
    ({"settings": [1, 2]}, "settings"), ({"settings": "abc"}, "settings"),
    ({"settings_window": "ten"}, "settings.window"), ({"settings_window": -2}, "settings.window"),
    ({"settings_max_members": 2.5}, "settings.max_members"), ({"settings_type_check": "yes"}, "settings.type_check"),
    ({"settings_rule_passes": 7}, "settings.rule_passes"), ({"features": [1, 2, 3]}, "features"),
    ({"stats": [1]}, "stats"), ({"weights": []}, "weights"), ({"intercept": "1"}, "intercept"),
    ({"extra": 1}, "extra"), ({"kind": "pairs"}, "kind"),
])
def test_maxent_model_of_the_wrong_shape_is_rc607_naming_the_key(tmp_path, model_data, changes, where):
    """Issue 22: seven different tracebacks (or silent acceptance) for these shapes."""
    path = _saved(tmp_path, model_data, **changes)
    with pytest.raises(ModelError) as err:
        MaxEntModel.load(path)
    d = err.value.diagnostics[0]
    assert (d.code, d.file) == ("RC607", str(path)) and f": {where}: expected" in d.message, d


def test_maxent_model_features_listed_twice_or_weights_not_finite(tmp_path, model_data):
    data = model_data
    path = tmp_path / "m.json"
    path.write_text(json.dumps({**data, "features": [data["features"][0]] * len(data["features"])}))
    with pytest.raises(ModelError) as twice:
        MaxEntModel.load(path)
    assert twice.value.code == "RC607"
    path.write_text(json.dumps(data).replace('"weights": [', '"weights": [NaN, ', 1).replace(
        '"features": [', '"features": ["zzz", ', 1))
    with pytest.raises(ModelError) as nan:
        MaxEntModel.load(path)
    assert nan.value.code == "RC601" and "NaN is not a JSON number" in str(nan.value)


def test_maxent_model_over_the_limits(tmp_path, monkeypatch):
    """Issue 22: a model nested 100,000 deep was a RecursionError."""
    from rulecoref.belltree import maxent

    path = tmp_path / "m.json"
    path.write_text('{"format": "rulecoref-belltree-model", "version": 2, "settings": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(ModelError) as deep:
        MaxEntModel.load(path)
    assert deep.value.code == "RC606" and "nested deeper" in str(deep.value)
    monkeypatch.setattr(maxent, "MAX_MODEL_BYTES", 100)
    small_model().save(path)
    with pytest.raises(ModelError) as big:
        MaxEntModel.load(path)
    assert big.value.code == "RC606" and "more than 100 bytes" in str(big.value)
    with pytest.raises(ModelError) as dev:
        MaxEntModel.load("/dev/zero")
    assert dev.value.code == "RC601" and "character device" in str(dev.value)


def test_maxent_bad_model_stops_resolve_before_any_document(tmp_path, model_data, capsys):
    from rulecoref.cli import main
    from tests.helpers import ROOT

    path = _saved(tmp_path, model_data, settings_rule_passes=7)
    out = tmp_path / "out"
    assert main(["resolve", str(ROOT / "resources" / "examples"), "--rules", str(ROOT / "rules" / "belltree.yaml"),
                 "--model", str(path), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "[RC607]" in err and "Traceback" not in err and not out.exists()
