"""Batch runner (rulecoref/batch.py): worker processes change nothing but the speed, and one bad or
lost document never stops a batch."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rulecoref.batch import BatchOptions, run_batch
from rulecoref.engine import Pipeline
from rulecoref.io.layout import find_records
from tests.helpers import ROOT, shared_resources

EXAMPLES = ROOT / "resources" / "examples"


@pytest.fixture(scope="module")
def pipeline() -> Pipeline:
    return Pipeline.from_file(ROOT / "rules" / "i2b2.yaml", shared_resources())


@pytest.fixture()
def data(tmp_path: Path) -> Path:
    """The bundled examples, a document whose concepts point outside its text, and one without text."""
    folder = tmp_path / "data"
    shutil.copytree(EXAMPLES, folder, ignore=shutil.ignore_patterns("markup", "chains"))
    bad = folder / "concepts" / "clinical-ex2.txt.con"
    bad.write_text(bad.read_text() + 'c="ghost" 99:0 99:0||t="problem"\n')
    (folder / "concepts" / "orphan.txt.con").write_text('c="x" 1:0 1:0||t="problem"\n')
    return folder


def outcomes(pipeline: Pipeline, data: Path, out: Path, jobs: int):
    records, _ = find_records([data])
    got = list(run_batch(pipeline, records, BatchOptions(out_dir=out, provenance=True), jobs=jobs))
    return records, [(o.name, o.ok, o.concepts, o.links, o.removed, o.chains, [d.code for d in o.diagnostics])
                     for o in got]


def test_batch_jobs_2_same_outcomes_and_files_as_jobs_1(pipeline, data, tmp_path):
    records, one = outcomes(pipeline, data, tmp_path / "one", 1)
    _, two = outcomes(pipeline, data, tmp_path / "two", 2)
    assert two == one  # in input order, with the same counts and problems
    assert [o[0] for o in one] == [r.name for r in records]
    assert [(name, ok) for name, ok, *_ in one if not ok] == [("clinical-ex2", False), ("orphan", False)]
    files = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert files == sorted(p.name for p in (tmp_path / "two").iterdir())
    assert "clinical-ex1.txt.chains" in files and "clinical-ex2.txt.chains" not in files
    for name in files:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), name


def test_batch_a_worker_that_dies_loses_only_its_document(pipeline, data, tmp_path, monkeypatch):
    resolve = pipeline.resolve

    def dying(doc):  # a worker that is killed (out of memory, a crash in a library) while on this document
        if doc.name == "clinical-ex3":
            os._exit(3)
        return resolve(doc)

    monkeypatch.setattr(pipeline, "resolve", dying)  # forked workers inherit it
    _, got = outcomes(pipeline, data, tmp_path / "out", 2)
    by_name = {o[0]: o for o in got}
    assert by_name["clinical-ex3"][1] is False and by_name["clinical-ex3"][-1] == ["RC551"]
    assert by_name["clinical-ex1"][1] and by_name["clinical-ex4"][1]  # the batch went on
    assert not (tmp_path / "out" / "clinical-ex3.txt.chains").exists()
    assert (tmp_path / "out" / "clinical-ex4.txt.chains").exists()
