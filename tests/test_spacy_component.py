"""The rulecoref spaCy component: concepts from a spaCy pipeline in, chains to doc.spans out."""

from __future__ import annotations

import contextlib
import io
import json
import pickle
import re
import subprocess
import sys
from typing import Any

import pytest

from tests.helpers import ROOT, shared_resources

spacy = pytest.importorskip("spacy", reason="needs spaCy (pip install 'rulecoref[spacy]')")

from spacy.tokens import Doc, DocBin, Span  # noqa: E402

from rulecoref.errors import ResourceError, RuleFileError  # noqa: E402
from rulecoref.spacy_component import RulecorefComponent  # noqa: E402

DOCS = ROOT / "docs" / "spacy.md"
TEXT = "The patient was admitted with chest pain. He reports chest pain at rest."


def _doc_blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", DOCS.read_text(encoding="utf-8"), flags=re.S)


@pytest.fixture(scope="module")
def example() -> dict[str, Any]:
    """The first example of docs/spacy.md, run here: its namespace and what it printed."""
    namespace: dict[str, Any] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(_doc_blocks("python")[0], str(DOCS), "exec"), namespace)
    namespace["printed"] = out.getvalue()
    return namespace


def _component(**settings: Any) -> RulecorefComponent:
    """A component sharing the test session's WordNet (the factory loads its own)."""
    return RulecorefComponent(None, "rulecoref", resources=shared_resources(), **settings)


def _ruled(patterns: list[tuple[str, str]], text: str, *, spans_key: str | None = None) -> Doc:
    nlp = spacy.blank("en")
    if spans_key:
        ruler = nlp.add_pipe("span_ruler", config={"spans_key": spans_key})
    else:
        ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns([{"label": label, "pattern": pattern} for label, pattern in patterns])
    return nlp(text)


def _groups(doc: Doc, prefix: str = "coref_clusters") -> list[tuple[str, list[str]]]:
    keys = sorted((k for k in doc.spans if k.startswith(prefix + "_")), key=lambda k: int(k.rsplit("_", 1)[1]))
    return [(doc.spans[k].attrs["type"], [s.text for s in doc.spans[k]]) for k in keys]


def test_spacy_component_links_patient_and_he_and_both_chest_pains(example: dict[str, Any]) -> None:
    doc = example["doc"]
    assert _groups(doc) == [("person", ["The patient", "He"]), ("problem", ["chest pain", "chest pain"])]
    assert [s.start for s in doc.spans["coref_clusters_2"]] == [5, 10]  # both mentions, not one twice
    assert "rulecoref" in example["nlp"].pipe_names


def test_spacy_component_docs_example_prints_what_the_docs_say(example: dict[str, Any]) -> None:
    assert example["printed"] == _doc_blocks("text")[0]


def test_spacy_component_records_provenance_as_plain_data_that_serialises(example: dict[str, Any]) -> None:
    doc, nlp = example["doc"], example["nlp"]
    by_pass = {link["pass"]: link for link in doc._.rulecoref_links}
    he = by_pass["pronoun-salience"]
    assert (doc[slice(*he["a"])].text, doc[slice(*he["b"])].text, he["kept"]) == ("The patient", "He", True)
    assert he["kind"] == "pronoun_salience" and he["evidence"]
    back = list(DocBin(docs=[doc], store_user_data=True).get_docs(nlp.vocab))[0]
    assert json.dumps(back._.rulecoref_links) == json.dumps(doc._.rulecoref_links)  # msgpack gives tuples
    assert _groups(back) == _groups(doc)


def test_spacy_component_takes_concepts_from_a_span_group_with_label_map() -> None:
    text = "Pt has chest pain and back pain . His chest pain improved ."
    doc = _ruled([("Problem", "chest pain"), ("Problem", "back pain"), ("DATE", "chest")], text, spans_key="sc")
    component = _component(spans_key="sc", label_map={"Problem": "problem", "DATE": ""})
    doc = component(doc)
    assert _groups(doc) == [("problem", ["chest pain", "chest pain"])]
    assert not doc.ents  # the span group was used, not doc.ents


def test_spacy_component_without_spans_key_uses_ents_and_lowercases_unmapped_labels() -> None:
    doc = _ruled([("PROBLEM", "MRSA"), ("PROBLEM", "methicillin-resistant Staphylococcus aureus")],
                 "Cultures grew methicillin-resistant Staphylococcus aureus ( MRSA ) .")
    assert _groups(_component()(doc)) == [("problem", ["methicillin-resistant Staphylococcus aureus", "MRSA"])]


def test_spacy_component_finds_pronouns_only_when_the_pipeline_marked_none() -> None:
    text = "Mr. Finch is a 60 year old man . He was admitted ."
    found = _component()(_ruled([("PERSON", "Mr. Finch")], text))
    assert _groups(found) == [("person", ["Mr. Finch", "He"])]
    assert found.spans["coref_clusters_1"][1].label_ == "pronoun"
    # the pipeline marked a pronoun ("was" here, to be sure none is added): "He" stays unlinked
    marked = _component()(_ruled([("PERSON", "Mr. Finch"), ("PRONOUN", "was")], text))
    assert all("He" not in texts for _, texts in _groups(marked))
    off = _component(find_mentions="off")(_ruled([("PERSON", "Mr. Finch")], text))
    assert _groups(off) == []


def test_spacy_component_finds_what_the_command_line_finds() -> None:
    """The component's mentions are the finder's, whatever the spaCy tokens: the same text and
    concepts through ``document_from_text`` (as ``resolve`` reads JSONL) give the same chains."""
    from rulecoref.io.text import document_from_text

    text = ("Mr. Finch is a 60 year old man . He said that his pain started yesterday , which worried him .\n"
            "It is clear that this is serious . At this time he takes aspirin .")
    doc = _component()(_ruled([("PERSON", "Mr. Finch"), ("PROBLEM", "pain"), ("TREATMENT", "aspirin")], text))
    spacy_chains = sorted((ctype, [(s.start_char, s.end_char) for s in doc.spans[key]])
                          for key in doc.spans for ctype in [doc.spans[key].attrs["type"]])
    spans = [(text.index(w), text.index(w) + len(w), t) for w, t in
             (("Mr. Finch", "person"), ("pain", "problem"), ("aspirin", "treatment"))]
    read = document_from_text("note", text, spans)
    res = _component().pipeline.resolve(read.document)
    cli_chains = sorted((ctype, [read.char_span(res.doc.concepts[m]) for m in sorted(members)])
                        for members, ctype in res.chains())
    assert spacy_chains == cli_chains
    person = next(chain for ctype, chain in spacy_chains if ctype == "person")
    assert [text[a:b] for a, b in person] == ["Mr. Finch", "He", "his", "him", "he"]


def test_spacy_component_replaces_its_groups_on_a_second_run_and_handles_empty_docs() -> None:
    component = _component()
    doc = component(_ruled([("PROBLEM", "pain")], "pain and pain . pain"))
    assert list(doc.spans) == ["coref_clusters_1"]
    doc.ents = []
    assert list(component(doc).spans) == [] and doc._.rulecoref_links == []
    empty = component(spacy.blank("en")(""))
    assert list(empty.spans) == []


def test_spacy_component_reports_bad_settings_with_codes() -> None:
    with pytest.raises(RuleFileError) as err:
        _component(rules="no-such-rules")
    assert err.value.code == "RC113"
    with pytest.raises(ResourceError) as err:
        _component(label_map={"PROBLEM": 3})
    assert err.value.code == "RC537"
    with pytest.raises(ResourceError) as err:
        _component(medspacy_facts="yes")
    assert err.value.code == "RC537"
    with pytest.raises(ResourceError) as err:
        _component(find_mentions="sometimes")
    assert err.value.code == "RC564"


def test_spacy_component_counts_spans_over_the_same_characters_once() -> None:
    doc = spacy.blank("en")("the chest pain and chest pain")
    doc.spans["sc"] = [Span(doc, 1, 3, label="problem"), Span(doc, 1, 3, label="test"), Span(doc, 4, 6, label="problem")]
    doc = _component(spans_key="sc")(doc)
    assert [(t, [s.label_ for s in doc.spans["coref_clusters_1"]]) for t, _ in _groups(doc)] == [
        ("problem", ["problem", "problem"])]


@pytest.mark.slow
def test_spacy_component_is_found_by_name_without_importing_rulecoref(tmp_path) -> None:
    script = "import spacy, sys\nnlp = spacy.blank('en')\nnlp.add_pipe('rulecoref')\n" \
             "print('rulecoref' in sys.modules, 'rulecoref.spacy_component' in sys.modules)\n"
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]


@pytest.mark.slow
def test_spacy_component_works_with_n_process_and_pickles_by_its_settings(example: dict[str, Any]) -> None:
    nlp = example["nlp"]
    docs = list(nlp.pipe([TEXT, "No concepts here .", TEXT], n_process=2, batch_size=1))
    assert [_groups(d) for d in docs] == [_groups(example["doc"]), [], _groups(example["doc"])]
    copy = pickle.loads(pickle.dumps(nlp.get_pipe("rulecoref")))
    assert copy.settings == nlp.get_pipe("rulecoref").settings and copy.pipeline is not nlp.get_pipe("rulecoref").pipeline
    assert _groups(copy(nlp.make_doc(TEXT))) == []  # make_doc: no entity ruler ran, so no concepts


# -- the Doc's own dependency parse (issue 35) ----------------------------------------------------------------
def _parsed_doc() -> Doc:
    """"Cy Ode met Bo Lund at his home ." parsed by hand (no model), the two names as entities."""
    words = "Cy Ode met Bo Lund at his home .".split()
    heads = [1, 2, 2, 4, 2, 2, 7, 5, 2]
    deps = ["compound", "nsubj", "ROOT", "compound", "dobj", "prep", "poss", "pobj", "punct"]
    doc = Doc(spacy.blank("en").vocab, words=words, spaces=[True] * 8 + [False], heads=heads, deps=deps)
    doc.ents = [Span(doc, 0, 2, label="PERSON"), Span(doc, 3, 5, label="PERSON")]
    return doc


def _antecedent_of_his(doc: Doc) -> str:
    (group,) = [g for k, g in doc.spans.items() if k.startswith("coref_clusters")]
    return next(s.text for s in group if s.text != "his")


def test_spacy_component_reads_the_docs_own_parse():
    """The parse makes "Cy Ode" the subject of the clause "his" is in (clause_subject); without it
    the nearest person before a possessive wins."""
    assert _antecedent_of_his(_component(label_map={"PERSON": "person"})(_parsed_doc())) == "Cy Ode"
    plain = _component(label_map={"PERSON": "person"}, use_parse=False)(_parsed_doc())
    assert _antecedent_of_his(plain) == "Bo Lund"


def test_spacy_component_use_parse_is_checked():
    with pytest.raises(ResourceError) as err:
        _component(use_parse="yes")
    assert err.value.code == "RC537"
