"""The pipeline of the bundled rules/i2b2.yaml, built once for the attribute tests that read its settings."""

from __future__ import annotations

import pytest

from rulecoref.engine import Pipeline
from tests.helpers import ROOT, shared_resources


@pytest.fixture(scope="package")
def pipeline() -> Pipeline:
    return Pipeline.from_file(ROOT / "rules" / "i2b2.yaml", shared_resources())
