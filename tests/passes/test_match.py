"""``match`` (rulecoref/passes/match.py): each bundled match rule of rules/i2b2.yaml and
rules/people.yaml on small documents, the rule's settings varied in YAML, and a rule written in
YAML alone."""

from __future__ import annotations

import pytest

from rulecoref.engine import Pipeline
from rulecoref.rule_examples import run_examples
from rulecoref.rules.compiler import compile_rules
from tests.helpers import settings_pipeline, shared_resources, write_rules
from tests.passes.main_support import bundled, bundled_entry, evidence, nested, pairs, run, together


def variant(tmp_path, name: str, attributes: dict | None = None, file: str = "i2b2.yaml", **changes):
    """The bundled rule ``name`` with its keys changed and the rule file's ``attributes:`` given."""
    return settings_pipeline(tmp_path, attributes, [{**bundled_entry(name, file), **changes}])


# -- exact-string ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def exact():
    return bundled("exact-string")


def test_match_exact_string_ignores_case_determiners_and_punctuation(exact):
    res = run(exact, "[the Chest pain|problem] improved ; [chest pain ,|problem] recurred .")
    assert together(res, "the chest pain", "chest pain ,")
    assert evidence(res) == ["same text_norm 'chest pain'"]
    assert not together(run(exact, "[chest pain|problem] and [back pain|problem] ."), "chest pain", "back pain")


def test_match_exact_string_nearest_antecedent(exact):
    res = run(exact, "[pain|problem] , [pain|problem] and [pain|problem] .")
    assert pairs(res) == [(0, 1), (1, 2)]


def test_match_exact_string_same_type_people_but_no_pronouns(exact):
    assert not together(run(exact, "[cold|problem] and [cold|treatment] ."), "cold", "cold")
    assert together(run(exact, "[the nurse|person] called ; [the nurse|person] left ."), "the nurse", "the nurse")
    assert not together(run(exact, "[it|pronoun] grew ; [it|pronoun] shrank ."), "it", "it")


def test_match_exact_string_all_antecedents(tmp_path):
    res = run(variant(tmp_path, "exact-string", antecedent="all"), "[pain|problem] , [pain|problem] and [pain|problem] .")
    assert pairs(res) == [(0, 1), (1, 2), (0, 2)]


def test_match_exact_string_overlapping_spans_never_link_with_a_veto(tmp_path):
    spans = [(0, 1, "problem"), (1, 1, "problem")]  # "[the [pain]]": one text_norm, overlapping
    assert pairs(nested(bundled("exact-string"), "the pain .", spans)) == [(0, 1)]  # the bundled rule has no veto
    vetoed = variant(tmp_path, "exact-string", veto=["overlaps"])
    assert pairs(nested(vetoed, "the pain .", spans)) == []


# -- head-and-synonym -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def head():
    return bundled("head-and-synonym")


def test_match_head_and_synonym_seed_examples(head):
    res = run(head, "an [abscess|problem] was drained ; [abscesses|problem] recurred .")
    assert together(res, "abscess", "abscesses")
    assert evidence(res) == ["heads abscesses~abscess (prefix 'absces'); all words of 'abscesses' match 'abscess': "
                             "abscesses~abscess (prefix 'absces')"]
    res = run(head, "[Recurrent soft tissue abscess in the gluteal region|problem] ; [tissue abscesses|problem] .")
    assert together(res, "recurrent soft tissue abscess in the gluteal region", "tissue abscesses")


def test_match_head_and_synonym_wordnet_synonyms_of_the_first_sense(head):
    res = run(head, "a [tumor|problem] was seen ; the [neoplasm|problem] was resected .")
    assert together(res, "tumor", "neoplasm") and "wordnet synonyms" in evidence(res)[0]
    # blood.n.02 (lineage) lists "line"; only the most frequent sense counts
    assert not together(run(head, "[blood cultures|test] grew nothing ; [line cultures|test] were sent ."),
                        "blood cultures", "line cultures")


def test_match_head_and_synonym_different_heads_and_digits(head):
    assert not together(run(head, "[chest pain|problem] and [back pain|problem] ."), "chest pain", "back pain")
    text = "[type 1 diabetes|problem] in the mother , [type 2 diabetes|problem] in the patient ."
    assert not together(run(head, text), "type 1 diabetes", "type 2 diabetes")


def test_match_head_and_synonym_seed_settings_strip_digits(tmp_path):
    seed = variant(tmp_path, "head-and-synonym", {"keep_digits": False})
    text = "[type 1 diabetes|problem] in the mother , [type 2 diabetes|problem] in the patient ."
    assert together(run(seed, text), "type 1 diabetes", "type 2 diabetes")


def test_match_head_and_synonym_adjectives_dropped_nouns_kept(head):
    assert together(run(head, "an [abscess|problem] ; the [chronic painful abscess|problem] drained ."),
                    "abscess", "chronic painful abscess")
    assert not together(run(head, "[a cold|problem] and [a fever|problem] ."), "a cold", "a fever")


def test_match_head_and_synonym_later_mention_must_be_covered(head):
    assert not together(run(head, "[mice|problem] were used ; [mutant mice|problem] died ."), "mice", "mutant mice")
    assert together(run(head, "[mutant mice|problem] were used ; [mice|problem] died ."), "mutant mice", "mice")


def test_match_head_and_synonym_head_must_match(head):
    text = "[the volume of the neurons|problem] grew ; [neurons|problem] died ."
    assert not together(run(head, text), "the volume of the neurons", "neurons")


def test_match_head_and_synonym_prefix_guards(head, tmp_path):
    for text, a, b in (("[actin|problem] and [activation|problem] .", "actin", "activation"),
                       ("[hepatitis b|problem] and [hepatitis bacteria|problem] .", "hepatitis b", "hepatitis bacteria")):
        assert not together(run(head, text), a, b)
    seed = variant(tmp_path, "head-and-synonym", {"word_match": {"min_prefix": 1, "max_ending": 0}})
    assert together(run(seed, "[actin|problem] and [activation|problem] ."), "actin", "activation")  # the seed's 80%


def test_match_head_and_synonym_same_type_only(head):
    assert not together(run(head, "[a culture|test] grew ; [culture|treatment] given ."), "a culture", "culture")


def test_match_head_and_synonym_overlapping_spans_never_link(head):
    res = nested(head, "the abscess abscesses grew .", [(0, 2, "problem"), (1, 1, "problem")])
    assert pairs(res) == []


def test_match_head_and_synonym_nearest_antecedent(head):
    assert pairs(run(head, "[an abscess|problem] , [an abscess|problem] and [abscesses|problem] .")) == [(0, 1), (1, 2)]


def test_match_head_and_synonym_window(tmp_path):
    text = "[an abscess|problem] .\nx .\nx .\n[abscesses|problem] ."
    assert pairs(run(variant(tmp_path, "head-and-synonym", window={"sentences": 2}), text)) == []
    assert pairs(run(variant(tmp_path, "head-and-synonym", window={"sentences": 3}), text)) == [(0, 1)]


# -- acronym-initials --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def acronym():
    return bundled("acronym-initials")


def test_match_acronym_seed_example(acronym):
    res = run(acronym, "[Methicillin-resistant Staphylococcus aureus|problem] was cultured ; [MRSA|problem] persists .")
    assert together(res, "methicillin-resistant staphylococcus aureus", "mrsa")
    assert evidence(res) == ["'mrsa' = initials 'mrsa' of 'methicillin-resistant staphylococcus aureus'"]


@pytest.mark.parametrize("text,a,b", [
    ("[chronic obstructive pulmonary disease|problem] ; [COPD|problem] .", "chronic obstructive pulmonary disease", "copd"),
    ("[left ventricular hypertrophy|problem] ; [LH|problem] .", "left ventricular hypertrophy", "lh"),  # 2 of 3, in order
    ("[the Department of Health|problem] ; [DH|problem] .", "the department of health", "dh"),  # common words
    ("[otitis media ( OM )|problem] ; [OM|problem] .", "otitis media ( om )", "om"),  # the bracket ends the long form
    ("[fibroblast growth factors|problem] ; [FGFs|problem] .", "fibroblast growth factors", "fgfs"),  # plural
])
def test_match_acronym_links(acronym, text, a, b):
    assert together(run(acronym, text), a, b)


@pytest.mark.parametrize("text,a,b", [
    ("[Methicillin-resistant Staphylococcus aureus|problem] ; [MS|problem] was ruled out .",
     "methicillin-resistant staphylococcus aureus", "ms"),  # half the initials
    ("[congestive heart failure|problem] and [CAD|problem] .", "congestive heart failure", "cad"),
    ("[congestive heart failure|problem] and [HCF|problem] .", "congestive heart failure", "hcf"),  # wrong order
    ("[magnetic resonance imaging|test] ; [mri|test] .", "magnetic resonance imaging", "mri"),  # lowercase
    ("[crystallin proteins|problem] ; [CP49|problem] .", "crystallin proteins", "cp49"),  # a name with a number
    ("[Methicillin-resistant Staphylococcus aureus|problem] ; [MRSA bacteremia|problem] .",
     "methicillin-resistant staphylococcus aureus", "mrsa bacteremia"),  # the acronym is the whole mention
    ("[coronary artery disease|problem] ; [CAD|test] .", "coronary artery disease", "cad"),  # same type only
])
def test_match_acronym_no_links(acronym, text, a, b):
    assert not together(run(acronym, text), a, b)


def test_match_acronym_lowercase_text(tmp_path):
    loose = variant(tmp_path, "acronym-initials", {"acronym": {"min_upper": 0}})
    assert together(run(loose, "[magnetic resonance imaging|test] ; [mri|test] ."), "magnetic resonance imaging", "mri")


def test_match_acronym_nearest_long_form(acronym):
    res = run(acronym, "[chronic kidney disease|problem] , [chronic kidney disease|problem] ; [CKD|problem] .")
    assert pairs(res) == [(1, 2)]


def test_match_acronym_before_its_expansion(acronym):
    # no earlier expansion: the nearest later one; the expansions themselves link to no acronym
    res = run(acronym, "[CKD|problem] ; [chronic kidney disease|problem] ; [chronic kidney disease|problem] .")
    assert pairs(res) == [(0, 1)]
    res = run(acronym, "[CAD|problem] ; [coronary artery disease|problem] ; [CAD|problem] .")
    assert pairs(res) == [(0, 1), (1, 2)]  # each pair once: only the acronym side resolves


def test_match_acronym_keys_and_direction(tmp_path):
    text = "[CAD|problem] ; [coronary artery disease|problem] ; [CAD|problem] ."
    backward = variant(tmp_path, "acronym-initials", direction="backward")
    assert pairs(run(backward, text)) == [(1, 2)]
    # acronyms meet long forms only through antecedent_key: an acronym's letter against the initials'
    same_key = {k: v for k, v in bundled_entry("acronym-initials").items() if k != "antecedent_key"}
    assert pairs(run(settings_pipeline(tmp_path, None, [same_key]), text)) == []


# -- partial-name (rules/people.yaml) ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def names():
    return bundled("partial-name")


@pytest.mark.parametrize("text,a,b", [
    ("You will see [Edward L, Smith|person] on your visit to [Dr Smith's|person] clinic .", "edward l, smith", "dr smith's"),
    ("[Mr. Bartholomew Finch|person] was admitted ; [Finch|person] is stable .", "mr. bartholomew finch", "finch"),
    ("[Edward Quillo|person] at [Dr Quilla|person] .", "edward quillo", "dr quilla"),  # 5 of 6 letters
    ("[Finch|person] came .\nThe nurse saw [Mr. Finch|person] .", "finch", "mr. finch"),  # a name at a line start
])
def test_match_partial_name_links(names, text, a, b):
    assert together(run(names, text), a, b)


@pytest.mark.parametrize("text,a,b", [
    ("[John Finch|person] and [Jane Finch|person] came .", "john finch", "jane finch"),
    ("[Mr. Finch|person] came with [Mrs. Finch|person] .", "mr. finch", "mrs. finch"),  # the gender clash
    ("[Dr Smith|person] asked [Dr Smith's nurse|person] .", "dr smith", "dr smith's nurse"),  # the possessor
    ("[a man|person] met [another man|person] .", "a man", "another man"),  # no names
    ("( [Li|person] , 2010 ) and ( [Lindqvist|person] , 2009 ) .", "li", "lindqvist"),  # a short word is no prefix
    ("[Students|person] came .\nThe [students of the school|person] left and students stayed .",
     "students", "students of the school"),  # capital only at the line start, lowercase elsewhere
])
def test_match_partial_name_no_links(names, text, a, b):
    assert not together(run(names, text), a, b)


def test_match_partial_name_prefix_ratio_setting(tmp_path):
    strict = variant(tmp_path, "partial-name", {"names": {"prefix_ratio": 1.0}})
    assert not together(run(strict, "[Edward Quillo|person] at [Dr Quilla|person] ."), "edward quillo", "dr quilla")


def test_match_partial_name_gender_veto_is_the_rules(tmp_path):
    no_veto = variant(tmp_path, "partial-name", veto=[])
    assert together(run(no_veto, "[Mr. Finch|person] came with [Mrs. Finch|person] ."), "mr. finch", "mrs. finch")


# -- a rule written in YAML alone ----------------------------------------------------------------------------
SAME_HEAD_BASE = """
version: 1
types: [problem, treatment, test, pronoun]
passes:
  - kind: match
    name: same-head-base
    description: the same head base form, numbers agree
    applies_to: {exclude_types: [pronoun]}
    key: head_base
    veto: [overlaps, number_clash]
    window: {sentences: 10}
    examples:
      link: ["[the lesion|problem] was biopsied ; [a lesion|problem] recurred ."]
      no_link: ["[the lesion|problem] was biopsied ; [lesions|problem] recurred ."]
"""


def test_match_rule_in_yaml_alone(tmp_path):
    path = write_rules(tmp_path, SAME_HEAD_BASE)
    results = run_examples(compile_rules(path), shared_resources())  # it validates, and its examples pass
    assert [r.ok for r in results] == [True, True]
    pipe = Pipeline.from_file(path, shared_resources())
    res = run(pipe, "[abscesses|problem] drained ; [the abscesses|problem] ; [an abscess|problem] ; [abscess|treatment] .")
    assert pairs(res) == [(0, 1)]  # numbers differ for the third, types for the fourth
    assert evidence(res) == ["same head_base 'abscess'"]
    # the table holds what the key and predicates name, with what they depend on, and nothing else
    assert {"head_base", "head", "number", "start", "end"} <= set(pipe.attributes)
    assert not {"cuis", "name_words", "dates", "words", "initials"} & set(pipe.attributes)


# -- what the engine's plan leaves out still holds (plan.py; tests/test_plan.py compares it with the plain test) --
def test_match_evidence_names_a_requirement_the_blocking_implies(tmp_path):
    """head-and-synonym blocks the mention's head_family against the candidates' heads, so the
    search need not ask head_matches; a link's evidence still says how the heads match."""
    res = run(bundled("head-and-synonym"),
              "an [abscess|problem] ; a [tumor|problem] ; [abscesses|problem] ; the [neoplasm|problem] .")
    assert pairs(res) == [(0, 2), (1, 3)]
    assert [link.provenance.evidence.split(";")[0] for link in res.proposed] == [
        "heads abscesses~abscess (prefix 'absces')", "heads neoplasm~tumor (wordnet synonyms)"]


def test_match_vetoes_that_need_a_value_hold_where_a_mention_has_one(tmp_path):
    """family_differs needs a mention in a family history section, degree_clash a degree word: where
    one has it, the veto still rules the pair out."""
    pipe = variant(tmp_path, "head-and-synonym")
    assert pairs(run(pipe, "[the tumor|problem] grew ; [the tumor|problem] shrank .")) == [(0, 1)]
    assert pairs(run(pipe, "FAMILY HISTORY :\n[minimal tumor|problem] ; [significant tumor|problem] .")) == []


def test_match_evidence_is_spelt_out_when_read_from_one_small_object(tmp_path):
    res = run(bundled("head-and-synonym"), "an [abscess|problem] was drained ; [abscesses|problem] recurred .")
    (link,) = res.proposed
    stored = link.provenance._evidence
    assert not isinstance(stored, str) and not getattr(stored, "__closure__", None)  # no closures kept per link
    assert link.provenance.evidence == ("heads abscesses~abscess (prefix 'absces'); all words of 'abscesses' match "
                                        "'abscess': abscesses~abscess (prefix 'absces')")
