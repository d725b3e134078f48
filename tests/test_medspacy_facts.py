"""rulecoref after a medspaCy pipeline: ConText's and the sectionizer's facts become the mention
attributes of the clinical vetoes (rulecoref/medspacy_facts.py), on small invented notes.

medspaCy's bundled rules only (ConText, PyRuSH, sections); nothing is downloaded. Without medspaCy
the tests skip; CI installs it in a venv of its own (.ci/run) and sets RULECOREF_NEED_MEDSPACY=1,
which turns the skip into a failure.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import ROOT, shared_resources, write_rules

if os.environ.get("RULECOREF_NEED_MEDSPACY"):
    import medspacy
else:
    medspacy = pytest.importorskip("medspacy", reason="needs medspaCy (pip install 'rulecoref[medspacy]')")

from medspacy.section_detection import SectionRule  # noqa: E402
from medspacy.target_matcher import TargetRule  # noqa: E402
from spacy.language import Language  # noqa: E402
from spacy.tokens import Doc  # noqa: E402

from rulecoref.attributes import ATTRIBUTES  # noqa: E402
from rulecoref.medspacy_facts import CONTEXT, CONTEXT_ATTRIBUTES, SECTIONIZER, medspacy_facts  # noqa: E402
from rulecoref.spacy_component import RulecorefComponent  # noqa: E402

# medspaCy's own matchers warn when a rule set is empty (the target matcher's regular expressions)
pytestmark = pytest.mark.filterwarnings("ignore:.*W036")

NOTE = "The patient denies chest pain today. He had chest pain last year after a fall."
TARGETS = [("chest pain", "PROBLEM"), ("the patient", "PERSON"), ("he", "PRONOUN"), ("masses", "PROBLEM"),
           ("breast cancer", "PROBLEM")]
ALL = ["medspacy_tokenizer", "medspacy_pyrush", "medspacy_target_matcher", "medspacy_context", "medspacy_sectionizer"]
# exact-string links, then filters whose removals carry the evidence of the predicates
FILTERED = """\
version: 1
name: filtered
types: [person, problem, pronoun]
pronoun_types: [pronoun]
passes:
  - kind: match
    name: same-words
    key: text_norm
  - kind: filter
    name: clinical-context
    remove_if: [negation_differs, family_differs, history_differs]
"""


def _medspacy(enable: list[str] = ALL, **kwargs: Any) -> Language:
    nlp = medspacy.load(medspacy_enable=enable, **kwargs)
    nlp.get_pipe("medspacy_target_matcher").add([TargetRule(text, label) for text, label in TARGETS])
    return nlp


@pytest.fixture(scope="module")
def nlp() -> Language:
    """medspaCy with its bundled ConText and section rules, without rulecoref (tests add their own)."""
    return _medspacy()


def _component(**settings: Any) -> RulecorefComponent:
    return RulecorefComponent(None, "rulecoref", resources=shared_resources(), **settings)


def _groups(doc: Doc) -> list[tuple[str, list[tuple[str, int]]]]:
    keys = sorted((k for k in doc.spans if k.startswith("coref_clusters_")), key=lambda k: int(k.rsplit("_", 1)[1]))
    return [(doc.spans[k].attrs["type"], [(s.text, s.start) for s in doc.spans[k]]) for k in keys]


def test_medspacy_pipeline_keeps_the_denied_chest_pain_apart_because_context_negated_it() -> None:
    nlp = medspacy.load()  # medspaCy's default pipeline: its tokenizer, PyRuSH, the target matcher, ConText
    nlp.get_pipe("medspacy_target_matcher").add(
        [TargetRule("chest pain", "PROBLEM"), TargetRule("the patient", "PERSON"), TargetRule("he", "PRONOUN")])
    nlp.add_pipe("rulecoref")
    doc = nlp(NOTE)
    assert _groups(doc) == [("person", [("The patient", 0), ("He", 7)])]  # the two chest pains in no chain
    denied, had = [e for e in doc.ents if e.text == "chest pain"]
    assert (denied._.is_negated, had._.is_negated) == (True, False)
    # ConText's answer is the one used: a ConText without rules negates nothing, and the chest pains
    # are linked, although rulecoref's own cue list knows "denies"
    bare = _medspacy(load_rules=False)
    bare.add_pipe("rulecoref")
    assert ("problem", [("chest pain", 3), ("chest pain", 9)]) in _groups(bare(NOTE))


def test_medspacy_context_negation_that_the_cue_lists_lack_keeps_mentions_apart(nlp: Language) -> None:
    text = "The patient was clear of chest pain. He had chest pain last year."
    doc = nlp(text)
    assert [e._.is_negated for e in doc.ents if e.text == "chest pain"] == [True, False]
    assert _groups(_component()(nlp(text))) == [("person", [("The patient", 0), ("He", 8)])]
    own = _groups(_component(medspacy_facts=False)(nlp(text)))  # rulecoref's cues do not know "clear of"
    assert ("problem", [("chest pain", 5), ("chest pain", 10)]) in own


def test_medspacy_removals_say_which_component_gave_the_fact(nlp: Language, tmp_path: Path) -> None:
    component = _component(rules=str(write_rules(tmp_path, FILTERED)))
    note = "The patient denies chest pain today. He had chest pain last year."
    [removed] = [link for link in component(nlp(note))._.rulecoref_links if "removed_by" in link]
    assert removed["removed_by"]["evidence"] == "'chest pain' is negated by ConText ('denies'), the other is not"
    sections = "FAMILY HISTORY:\nbreast cancer.\nSOCIAL HISTORY:\nShe worries about breast cancer."
    [removed] = [link for link in component(nlp(sections))._.rulecoref_links if "removed_by" in link]
    assert removed["removed_by"]["evidence"] == "one is in the family history by the sectionizer"
    history = "PAST MEDICAL HISTORY:\nbreast cancer.\nSOCIAL HISTORY:\nShe worries about breast cancer."
    [removed] = [link for link in component(nlp(history))._.rulecoref_links if "removed_by" in link]
    assert removed["removed_by"]["evidence"] == \
        "'breast cancer' is in the past by the sectionizer ('past medical history'), the other is not"
    # without medspaCy's facts the same removal is rulecoref's own cue, and says nothing of ConText
    own = _component(rules=str(write_rules(tmp_path, FILTERED)), medspacy_facts=False)
    [removed] = [link for link in own(nlp(note))._.rulecoref_links if "removed_by" in link]
    assert removed["removed_by"]["evidence"] == "'chest pain' is negated ('denies'), the other is not"


def test_medspacy_context_adds_family_findings_and_leaves_the_section_to_the_headings(tmp_path: Path) -> None:
    context_only = _medspacy(["medspacy_pyrush", "medspacy_target_matcher", "medspacy_context"])
    note = "FAMILY HISTORY:\nbreast cancer.\nSOCIAL HISTORY:\nShe worries about breast cancer."
    doc = context_only(note)
    assert [e._.is_family for e in doc.ents] == [False, False]  # no FAMILY cue: ConText says nothing
    # rulecoref's own heading still puts the first in the family history, so the two stay apart
    assert _groups(_component()(context_only(note))) == []
    component = _component(rules=str(write_rules(tmp_path, FILTERED)))
    [removed] = [link for link in component(context_only(note))._.rulecoref_links if "removed_by" in link]
    assert removed["removed_by"]["evidence"] == "one is in the family history"  # the headings' own fact
    mother = "The patient's mother had breast cancer. The patient worries about breast cancer."
    [removed] = [link for link in component(context_only(mother))._.rulecoref_links if "removed_by" in link]
    assert removed["removed_by"]["evidence"] == "one is in the family history by ConText"


def test_medspacy_facts_name_their_source_and_cover_every_attribute_read_from_facts(nlp: Language) -> None:
    doc = nlp("FAMILY HISTORY:\nMother had breast cancer.\nPHYSICAL EXAM:\nPossible masses. Return if chest pain recurs.")
    facts = medspacy_facts(doc, list(doc.ents))
    assert facts[0]["family_section"] == (True, CONTEXT)  # "Mother", a FAMILY modifier
    assert facts[0]["section"] == ("family history", SECTIONIZER)
    assert facts[1]["hedge"] == ("possible", CONTEXT) and facts[1]["negation"] == (None, CONTEXT)
    assert facts[2]["hedge"] == ("if", CONTEXT) and facts[2]["section"] == ("physical exam", SECTIONIZER)
    from_facts = {name for name, spec in ATTRIBUTES.items() if spec.from_facts}
    assert from_facts == {*CONTEXT_ATTRIBUTES, "section"}


def test_medspacy_sections_replace_rulecorefs_headings(nlp: Language) -> None:
    note = "NECK:\nNo masses.\nABDOMEN:\nNo masses."
    # rulecoref's own headings see two examination sections: two negative findings
    assert _groups(_component(medspacy_facts=False)(nlp(note))) == []
    # medspaCy's bundled section rules know neither heading, and its sections are the ones used
    assert _groups(_component()(nlp(note))) == [("problem", [("masses", 4), ("masses", 11)])]
    sectioned = _medspacy()
    sectioned.get_pipe("medspacy_sectionizer").add([SectionRule("NECK:", "neck", parents=["physical_exam"]),
                                                   SectionRule("ABDOMEN:", "abdomen", parents=["physical_exam"])])
    assert _groups(_component()(sectioned(note))) == []


def test_medspacy_without_context_or_sectionizer_changes_nothing() -> None:
    plain = _medspacy(["medspacy_pyrush", "medspacy_target_matcher"])
    note = "Chest pain was not seen today. He had chest pain last year."
    doc = plain(note)
    assert medspacy_facts(doc, list(doc.ents)) == {}
    with_facts, without = _component()(plain(note)), _component(medspacy_facts=False)(plain(note))
    assert _groups(with_facts) == _groups(without) == []  # rulecoref's own "not" negates the first
    assert with_facts._.rulecoref_links == without._.rulecoref_links


def test_medspacy_docs_pipeline_prints_what_the_docs_say() -> None:
    import contextlib
    import io
    import re

    text = (ROOT / "docs" / "spacy.md").read_text(encoding="utf-8").split("## medspaCy", 1)[1]
    code, printed = re.findall(r"```python\n(.*?)```", text, flags=re.S)[0], re.findall(r"```text\n(.*?)```", text,
                                                                                           flags=re.S)[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/spacy.md", "exec"), {})
    assert out.getvalue() == printed
