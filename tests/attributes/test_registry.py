"""The attribute registry and the settings groups (rulecoref/attributes/registry.py): every attribute
is registered with its dependencies and a test, and every ``attributes:`` setting has a default that exists."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import tests.attributes
from rulecoref.attributes import ATTRIBUTES, SETTINGS, closure, live
from rulecoref.markup import parse_markup
from rulecoref.params import Param
from tests.helpers import mention_table, settings_pipeline


def test_attributes_every_attribute_has_a_test_and_a_help_text():
    """Each attribute is tested in tests/attributes/test_<concern>.py by a test named after it."""
    modules = [importlib.import_module(f"tests.attributes.{m.name}") for m in pkgutil.iter_modules(tests.attributes.__path__)
               if m.name.startswith("test_")]
    tested = {name[len("test_attributes_"):] for m in modules for name in dir(m) if name.startswith("test_attributes_")}
    assert sorted(a for a in ATTRIBUTES if a not in tested) == []
    assert [a for a, spec in ATTRIBUTES.items() if len(spec.help) < 10] == []


def test_attributes_depend_only_on_registered_attributes_and_known_resources():
    for name, spec in ATTRIBUTES.items():
        assert set(spec.depends) <= set(ATTRIBUTES), name
        assert set(spec.needs) <= {"wordnet", "umls"}, name
        assert closure([name])[-1] == name  # dependencies first
        assert all(closure([name]).index(d) < closure([name]).index(name) for d in spec.depends)


def test_attributes_of_words_depend_only_on_the_words():
    """An ``of_words`` attribute is computed on the document's distinct token sequences: what it
    reads must be a function of the words too (``tokens`` or another ``of_words`` attribute)."""
    words = {name for name, spec in ATTRIBUTES.items() if spec.of_words}
    assert {"lower", "conditioned", "words", "head", "acronym", "initials", "clinical_head"} <= words
    for name in words:
        assert set(ATTRIBUTES[name].depends) <= words | {"tokens"}, name
    assert not {"tokens", "type", "line", "negation", "capitalised", "number"} & words  # positions, types, context


def test_attributes_of_words_equal_their_per_mention_values():
    """Each ``of_words`` column, computed once per distinct sequence, equals what its function gives
    when every mention is computed on its own (an attribute that read the document would fail here)."""
    from rulecoref.mentions import MentionTable

    pipe = settings_pipeline()
    text = ("[The painful Abscess|problem] in [the gluteal region|problem] ; [The painful Abscess|problem] , "
            "[MRSA|problem] and [Methicillin-resistant Staphylococcus aureus|problem] , [another CT|test] ; "
            "[Coumadin therapy|treatment] ; [daily medication|treatment] ; [febrile|problem]")
    doc = parse_markup(text)[0]
    table = pipe.table(doc, [])

    class EveryMention(MentionTable):  # the plain way: each column over all mentions
        def __missing__(self, name):
            column = self[name] = ATTRIBUTES[name].compute(self)
            return column

    plain = EveryMention(doc, pipe.settings)
    for name, spec in ATTRIBUTES.items():
        if spec.of_words:
            assert table[name] == plain[name], name
    assert table.words_table.n == 8 and len(table.words_table.rows) == 9  # one repeat
    assert table["words"][0] is table["words"][2]  # shared by the mentions that write the same words


def test_attributes_settings_schema_and_word_lists_exist():
    from rulecoref.rules.compiler import default_attributes

    values = default_attributes()  # every bundled word list resolves (RC105 otherwise)
    assert set(values) == set(SETTINGS)

    def wordlists(specs: dict[str, Param], got: dict, where: str):
        for key, spec in specs.items():
            assert spec.help, f"{where}{key} has no help"
            if spec.fields is not None:
                yield from wordlists(spec.fields, got[key], f"{where}{key}.")
            elif spec.kind == "wordlist":
                yield f"{where}{key}", got[key]

    lists = dict(wordlists(SETTINGS, values, ""))
    assert {"common_words", "determiners", "head_stops", "people.family", "clues.triggers"} <= set(lists)
    for key, path in lists.items():
        assert path.is_file() and path.read_text(encoding="utf-8").strip(), key
    assert values["clues"]["dates"]  # the date patterns, compiled


def test_attributes_live_indices():
    assert live([None, "x", (), frozenset({"a"}), False, 0, True]) == [1, 3, 6]


def test_attributes_settings_word_lists_inline(tmp_path):
    # regression: an inline list where a word-list path may stand (the compiler accepts both) made the
    # pipeline fail with a TypeError at start-up, and an unhashable memo key for common_words
    inline = settings_pipeline(tmp_path, {"common_words": ["the", "large"], "head_stops": ["in"],
                                          "clues": {"triggers": ["on"], "locations": ["ward a"]}})
    table = mention_table("[the large mass|problem] on ward a", "conditioned", "locations", pipeline=inline)
    assert table["conditioned"] == [("", "", "mass")] and table["locations"] == [{"ward a"}]


def test_attributes_word_memo_holds_word_level_answers_only():
    """Settings-level tables (the drug names, a group's word lists) are the settings objects', built once
    per pipeline; the process's memo keeps answers about single words (and a long form's initials)."""
    from rulecoref.engine import Pipeline
    from rulecoref.resources import Resources
    from tests.helpers import ROOT

    pipe = Pipeline.from_file(ROOT / "rules" / "i2b2.yaml", Resources())
    doc, _ = parse_markup("NECK : no [masses|problem] .\n[Coumadin therapy|treatment] for [atrial fibrillation ( AF )|problem] ;"
                          " [AF|problem] .\n[He|pronoun] said [it|pronoun] helps [the patient|person] .")
    pipe.resolve(doc)
    assert pipe.settings.clinical.drug_names[("coumadin",)] == "warfarin"
    questions = {key[0] for key in pipe.resources.memo._answers}
    assert questions and questions <= {"condition", "word_class", "acronym_forms", "wn-synonyms", "wn-derived"}, questions


def test_attributes_settings_groups_are_typed_objects():
    """Every ``attributes:`` group is one frozen object of typed values on the pipeline's settings: word
    lists loaded, lists as tuples, nested mappings their own objects; it declares exactly SETTINGS' keys."""
    import dataclasses

    from rulecoref.attributes import GROUPS
    from rulecoref.attributes.registry import params_of
    from rulecoref.resources.lexicon import Lexicon

    settings = settings_pipeline().settings
    top = {k for name, g in GROUPS.items() if g.top_level for k in params_of(g)}
    assert top | {name for name, g in GROUPS.items() if not g.top_level} == set(SETTINGS)
    kinds = {"wordlist": Lexicon, "int": int, "float": float, "bool": bool, "str": str, "choice": str,
             "str_list": tuple, "regexes": tuple}

    def check(obj, params):
        for key, param in params.items():
            value = getattr(obj, key)
            if param.fields is not None:
                check(value, param.fields)
            else:
                assert isinstance(value, kinds[param.kind]), (key, value)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(obj, next(iter(params)), None)

    for name, group in GROUPS.items():
        check(getattr(settings, name), params_of(group))
    assert settings.acronym.min_letters == 2 and "the" in settings.words.determiners.words
    with pytest.raises(AttributeError, match="no attributes settings group 'acronyms'"):
        getattr(settings, "acronyms")  # noqa: B009
