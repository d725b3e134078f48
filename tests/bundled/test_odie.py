"""rules/odie.yaml runs the people linker (rules/people.yaml, its types renamed) on ODIE's `people`
mentions, where a pronoun carries its referent's type (no pronoun type): invented notes."""

from __future__ import annotations

import pytest

from rulecoref.engine import Pipeline
from tests.helpers import ROOT, resolve, shared_resources


@pytest.fixture(scope="module")
def odie() -> Pipeline:
    return Pipeline.from_file(ROOT / "rules" / "odie.yaml", shared_resources())


def _chains(pipe: Pipeline, markup: str) -> list[list[str]]:
    res = resolve(pipe, markup)
    return [[res.doc.concepts[m].text for m in members] for members, _ in res.chains()]


def test_odie_people_linker_links_the_patient_and_his_pronouns(odie: Pipeline) -> None:
    note = "[Mr. Quill|people] is a 66 year old man .\n[He|people] denies [chest pain|sign_or_symptom] .\n" \
           "[The patient|people] was admitted ; [his|people] [wife|people] agreed ."
    assert _chains(odie, note) == [["mr. quill", "he", "the patient", "his"]]
    passes = {link.provenance.pass_name for link in resolve(odie, note).proposed}
    assert {"pronoun-salience", "patient-to-subject"} <= passes


def test_odie_people_linker_keeps_family_and_staff_out_of_the_patients_chain(odie: Pipeline) -> None:
    note = "[The patient|people] came with [her daughter|people] .\n[Dr. Hale|people] saw [her|people] ."
    chains = _chains(odie, note)
    assert ["the patient", "her"] in chains
    assert not any("her daughter" in c and "the patient" in c for c in chains)
    assert not any("dr. hale" in c and "the patient" in c for c in chains)


def test_odie_who_and_this_are_pronouns_by_their_words(odie: Pipeline) -> None:
    # ODIE types "who" and "this" by their referent (people): the word makes the pronoun
    assert _chains(odie, "She lives with [her daughter|people] , [who|people] helps with meals .") == [
        ["her daughter", "who"]]
    assert _chains(odie, "[This|people] is [a 67 year old woman|people] with chest pain .") == [
        ["this", "a 67 year old woman"]]


def test_odie_people_linker_leaves_pronouns_of_other_types_alone(odie: Pipeline) -> None:
    # "it" of a finding is no person: the people linker never puts it with the patient
    note = "[The patient|people] has [a rash|sign_or_symptom] .\n[It|sign_or_symptom] itches .\n[She|people] is tired ."
    chains = _chains(odie, note)
    assert ["the patient", "she"] in chains and not any("it" in c and "the patient" in c for c in chains)
