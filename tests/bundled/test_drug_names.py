"""resources/lexicons/clinical/drug_names.txt: hand-written lines, then lines scripts/build_drug_names.py
generates from a public drug dictionary. The script's choices are checked on a small invented dictionary
(the package it reads is no dependency); the bundled file is checked as it is."""

from __future__ import annotations

import importlib.util

import pytest

from tests.helpers import ROOT

LIST = ROOT / "resources" / "lexicons" / "clinical" / "drug_names.txt"


@pytest.fixture(scope="module")
def build():
    spec = importlib.util.spec_from_file_location("build_drug_names", ROOT / "scripts" / "build_drug_names.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _generic_of(lines: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in lines:
        if line.strip() and not line.startswith("#"):
            generic, _, brands = line.partition(":")
            for name in filter(None, (n.strip() for n in [generic, *brands.split(",")])):
                assert out.setdefault(name, generic.strip()) == generic.strip(), f"{name!r} names two drugs"
    return out


def test_drug_names_give_each_name_one_drug() -> None:
    """Hand-written and generated lines share one file; a name under two generics would link two drugs."""
    lines = LIST.read_text(encoding="utf-8").splitlines()
    generic_of = _generic_of(lines)
    assert generic_of["coumadin"] == "warfarin" and generic_of["sanctura"] == "trospium"
    assert any(line.startswith("# --- generated") for line in lines)


def test_drug_names_generated_lines_keep_drugs_in_use_and_no_english_words(build) -> None:
    variants = {
        "trospium": ["trospium"], "sanctura": ["trospium"],            # kept
        "nimodipine": ["nimodipine"], "nimotop": ["nimodipine"],
        "armour": ["nimodipine"],                                     # an English word: left out
        "bms-232632": ["nimodipine"],                                 # a code with digits: left out
        "kabiramide c": ["kabiramide c"],                             # no MedlinePlus page: left out
        "tylenol": ["acetaminophen"],                                 # the hand lines give it already
        "panadol": ["acetaminophen"],                                 # added to the hand lines' drug
        "duo": ["trospium", "nimodipine"],                            # two drugs: left out
    }
    data = {"trospium": {"medline_plus_id": "a1"}, "nimodipine": {"medline_plus_id": "a2"},
            "acetaminophen": {"medline_plus_id": "a3"}, "kabiramide c": {}}
    lines = build.generated(variants, data, {"tylenol": "acetaminophen", "acetaminophen": "acetaminophen"})
    assert lines == ["acetaminophen: panadol", "nimodipine: nimotop", "trospium: sanctura"]


def test_drug_names_hand_section_ends_at_the_marker(build) -> None:
    text = f"# header\nwarfarin: coumadin\n\n{build.MARKER}\nwarfarin: marevan\n"
    hand, named = build.hand_section(text)
    assert hand == ["# header", "warfarin: coumadin"]
    assert named == {"warfarin": "warfarin", "coumadin": "warfarin"}
