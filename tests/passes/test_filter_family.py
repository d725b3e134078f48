"""filter_family: no chain (of any links) joins a family member and the patient."""

from __future__ import annotations

from tests.passes.people_support import idx, people_pipeline, run, together

# A loose match rule links "the patient's mother" to "the patient" (both hold a patient word), and
# another links the two mothers; the kind of link a head match makes. The filter must undo the first.
TEXT = "[Ms. Alvarez|person] is 71 .\n[The patient|person] and [the patient's mother|person] came .\n[Her mother|person] called ."
LOOSE = [{"kind": "match", "key": "patient_word"}, {"kind": "match", "key": "family_word"}]


def _pipe(tmp_path, with_filter: bool):
    passes = [{"kind": "patient_mention"}, *LOOSE]
    if with_filter:
        passes.append({"kind": "filter_family"})
    return people_pipeline(tmp_path, *passes)


def test_filter_family_without_filter_mother_joins_patient(tmp_path):
    res = run(_pipe(tmp_path, False), TEXT)
    assert together(res, "the patient", "the patient's mother")  # so the next test can fail


def test_filter_family_keeps_mother_out_of_patient_chain(tmp_path):
    res = run(_pipe(tmp_path, True), TEXT)
    assert together(res, "ms. alvarez", "the patient")
    assert not together(res, "the patient's mother", "ms. alvarez")
    assert not together(res, "her mother", "the patient")
    assert together(res, "her mother", "the patient's mother")  # family with family is fine


def test_filter_family_removal_is_explained(tmp_path):
    res = run(_pipe(tmp_path, True), TEXT)
    why = res.explain(idx(res, "the patient"), idx(res, "the patient's mother"))
    assert why["removed_by"]["kind"] == "filter_family"
    assert "family mention" in why["removed_by"]["evidence"]
