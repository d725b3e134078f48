"""The bundled example notes are consistent: files equal what their markup builds, gold parses."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from rulecoref.io.i2b2 import read_chains, read_document
from rulecoref.io.layout import find_records
from tests.helpers import ROOT

EXAMPLES = ROOT / "resources" / "examples"


def test_examples_match_their_markup(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("build_examples", ROOT / "scripts" / "build_examples.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    names = mod.build(EXAMPLES / "markup", tmp_path)
    assert 3 <= len(names) <= 5
    for sub, suffix in (("docs", ".txt"), ("concepts", ".txt.con"), ("chains", ".txt.chains")):
        for name in names:
            assert (tmp_path / sub / f"{name}{suffix}").read_text() == (EXAMPLES / sub / f"{name}{suffix}").read_text()


def test_examples_cover_every_i2b2_type_and_parse() -> None:
    records, problems = find_records([EXAMPLES])
    assert not problems and len(records) >= 3
    types = set()
    for rec in records:
        doc = read_document(rec.txt, rec.con).document
        types |= {c.type for c in doc.concepts}
        spans = doc.by_span()
        for chain in read_chains(rec.chains).chains:
            assert all(s in spans for s in chain)
    assert types == {"person", "problem", "treatment", "test", "pronoun"}
