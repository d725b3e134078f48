"""Rule-file validation: every problem reported at once, with file, line, pass name and a hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.cli import main
from rulecoref.errors import RuleFileError
from rulecoref.rules.compiler import compile_rules
from tests.helpers import compile_text, write_rules

GOOD = """
version: 1
types: [person, problem, pronoun]
passes:
  - kind: match
    name: exact
    applies_to: {exclude_types: [pronoun]}
    key: text_norm
    antecedent: all
    veto: [overlaps, {clues_conflict: {categories: [locations]}}]
"""


def problems(tmp_path: Path, text: str) -> list[tuple[str, int]]:
    with pytest.raises(RuleFileError) as err:
        compile_text(tmp_path, text)
    return [(d.code, d.line) for d in err.value.diagnostics]


def diagnostics(tmp_path: Path, text: str):
    with pytest.raises(RuleFileError) as err:
        compile_text(tmp_path, text)
    return err.value.diagnostics


def test_compiler_accepts_a_valid_file(tmp_path: Path) -> None:
    rs = compile_text(tmp_path, GOOD)
    assert rs.types == ("person", "problem", "pronoun")
    (cfg,) = rs.passes
    assert (cfg.kind, cfg.name, cfg.line) == ("match", "exact", 4)
    assert cfg.rule["key"] == ["text_norm"] and cfg.rule["antecedent"] == "all" and cfg.rule["require"] == []
    # every predicate takes a ``types:`` limit through the registry (predicates.TYPES); none given: empty
    assert cfg.rule["veto"] == [("overlaps", {"types": []}), ("clues_conflict", {"categories": ["locations"], "types": []})]
    assert cfg.rule["window"] == {"sentences": 0} and cfg.rule["direction"] == "backward"
    assert cfg.scope.exclude == {"pronoun"}


def test_compiler_unknown_kind_names_line_and_suggests(tmp_path: Path) -> None:
    with pytest.raises(RuleFileError) as err:
        compile_text(tmp_path, "version: 1\npasses:\n  - kind: be-phrase\n")
    d = err.value.diagnostics[0]
    assert (d.code, d.line) == ("RC102", 3)
    assert "be_phrase" in d.hint and "rules.yaml:3:" in str(err.value)


@pytest.mark.parametrize("kind", ["head_synonym", "exact_match", "acronym", "umls", "partial_name", "filter_date",
                                  "filter_modifier", "filter_adjective"])
def test_compiler_former_kind_says_what_replaced_it(tmp_path: Path, kind: str) -> None:
    (d,) = diagnostics(tmp_path, f"passes:\n  - kind: {kind}\n")
    assert (d.code, d.line) == ("RC102", 2)
    assert "Former kinds" in d.hint and ("match" in d.hint or "filter" in d.hint)


def test_compiler_unknown_key_and_param(tmp_path: Path) -> None:
    got = problems(tmp_path, "passes:\n  - kind: be_phrase\n    nmae: x\n    params:\n      max_word_between: 3\n")
    assert got == [("RC103", 3), ("RC103", 5)]


def test_compiler_unknown_rule_key_suggests_the_right_one(tmp_path: Path) -> None:
    (d,) = diagnostics(tmp_path, "passes:\n  - kind: match\n    key: text_norm\n    antecedents: all\n")
    assert (d.code, d.line) == ("RC103", 4) and "antecedent" in d.hint


def test_compiler_wrong_types_and_choices(tmp_path: Path) -> None:
    got = problems(tmp_path, "passes:\n  - kind: be_phrase\n    params:\n      max_words_between: two\n"
                             "  - kind: match\n    key: text_norm\n    antecedent: some\n    window: {sentences: -1}\n")
    assert got == [("RC104", 4), ("RC109", 7), ("RC104", 8)]


def test_compiler_match_needs_a_key(tmp_path: Path) -> None:
    (d,) = diagnostics(tmp_path, "passes:\n  - kind: match\n    name: keyless\n    require: [same_type]\n")
    assert (d.code, d.line) == ("RC106", 2) and "'key'" in d.message and "keyless" in d.message


def test_compiler_unknown_attribute_is_rc130_with_a_suggestion(tmp_path: Path) -> None:
    (d,) = diagnostics(tmp_path, "passes:\n  - kind: match\n    name: m\n    key: [text_norm, headbase]\n")
    assert (d.code, d.line) == ("RC130", 4)
    assert "'headbase'" in d.message and "head_base" in d.hint and "pass 'm'" in d.message


def test_compiler_unknown_predicate_is_rc131_with_a_suggestion(tmp_path: Path) -> None:
    got = diagnostics(tmp_path, "passes:\n  - kind: match\n    key: text_norm\n    require:\n      - same_type\n"
                                "      - head_match\n  - kind: filter\n    remove_if: [date_conflict]\n")
    assert [(d.code, d.line) for d in got] == [("RC131", 6), ("RC131", 8)]
    assert "head_matches" in got[0].hint and "dates_conflict" in got[1].hint
    assert "overlaps" in got[0].message  # the known predicates are listed


def test_compiler_predicate_settings_are_checked(tmp_path: Path) -> None:
    got = problems(tmp_path, "passes:\n  - kind: match\n    key: acronym\n    require:\n"
                             "      - {acronym_of: {acronym: short, subsequnce: false}}\n"
                             "      - {same_type: yes}\n")
    assert sorted(got) == [("RC103", 5), ("RC104", 6), ("RC109", 5)]


def test_compiler_people_kind_before_people_roles_is_rc133(tmp_path: Path) -> None:
    text = """
    types: [person, pronoun]
    passes:
      - kind: patient_mention
        name: early
      - kind: people_roles
      - kind: filter_staff
    """
    (d,) = diagnostics(tmp_path, text)
    assert (d.code, d.line) == ("RC133", 3) and "'early'" in d.message and "people_roles" in d.message


def test_compiler_bad_web_mapping_is_rc135_at_compile_time(tmp_path: Path, capsys) -> None:
    text = "passes:\n  - kind: people_roles\n    params:\n      web: {enabled: true, url: 'ftp://x/{query}', timeot: 3}\n"
    got = problems(tmp_path, text)
    assert got == [("RC135", 4), ("RC135", 4)]  # the typo and the bad url, together
    assert main(["check", str(tmp_path / "rules.yaml")]) == 2  # check rejects it, not only resolve
    assert "[RC135]" in capsys.readouterr().err


def test_compiler_model_settings_without_a_decoder_are_rc561(tmp_path: Path) -> None:
    """``--model`` (decoder overrides) with a rule file that builds chains by union-find: a
    command-line mistake, numbered among RC5xx (it was RC132, among the rule codes)."""
    path = write_rules(tmp_path, GOOD)
    with pytest.raises(RuleFileError) as err:
        compile_rules(path, decoder_overrides={"model": "m.json"})
    assert err.value.codes == ["RC561"] and "names no decoder" in str(err.value)
    assert compile_rules(path).decoder is None  # the same file without --model compiles


def test_compiler_wrong_types_in_scope_and_duplicate_names(tmp_path: Path) -> None:
    text = """
    passes:
      - kind: be_phrase
        name: one
        params: {max_words_between: -3}
      - kind: nope
      - kind: be_phrase
        name: one
        applies_to: {types: [persn]}
    """
    with pytest.raises(RuleFileError) as err:
        compile_text(tmp_path, text)
    assert err.value.codes == ["RC104", "RC102", "RC107", "RC108"]
    assert "pass 'one'" in err.value.diagnostics[0].message


def test_compiler_missing_word_list(tmp_path: Path) -> None:
    got = diagnostics(tmp_path, "attributes:\n  common_words: lists/nope.txt\n"
                                "passes:\n  - kind: be_phrase\n    params: {phrases: lists/none.txt}\n")
    assert [(d.code, d.line) for d in got] == [("RC105", 5), ("RC105", 2)]
    assert "none.txt" in got[0].message and "nope.txt" in got[1].message


def test_compiler_word_list_resolves_beside_rule_file(tmp_path: Path) -> None:
    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "be.txt").write_text("# comment\nis\n")
    rs = compile_text(tmp_path, "attributes: {determiners: lists/be.txt}\n"
                                "passes:\n  - kind: be_phrase\n    params: {phrases: lists/be.txt}\n")
    assert Path(rs.passes[0].params["phrases"]) == tmp_path / "lists" / "be.txt"
    assert Path(rs.attributes["determiners"]) == tmp_path / "lists" / "be.txt"


def test_compiler_attributes_block_checked_key_by_key(tmp_path: Path) -> None:
    got = diagnostics(tmp_path, "attributes:\n  keep_digit: true\n  word_match: {prefix_ratio: 2}\n"
                                "  clues: {sides: before}\npasses: []\n")
    assert [(d.code, d.line) for d in got] == [("RC103", 2), ("RC104", 3), ("RC109", 4)]
    assert "keep_digits" in got[0].hint


def test_compiler_attributes_defaults_filled_in(tmp_path: Path) -> None:
    rs = compile_text(tmp_path, "attributes:\n  word_match: {prefix_ratio: 0.9}\npasses: []\n")
    assert rs.attributes["word_match"] == {"prefix_ratio": 0.9, "min_prefix": 3, "max_ending": 3, "synonyms": True,
                                           "synonym_senses": 1}
    assert rs.attributes["keep_digits"] is True and Path(rs.attributes["common_words"]).is_file()


def test_compiler_included_attributes_apply_unless_overridden_key_by_key(tmp_path: Path) -> None:
    write_rules(tmp_path, """
        version: 1
        attributes:
          keep_digits: false
          word_match: {prefix_ratio: 0.5, min_prefix: 2}
          acronym: {min_upper: 0}
        passes:
          - {kind: match, name: inner, key: text_norm}
        """, "inner.yaml")
    rs = compile_text(tmp_path, """
        attributes:
          word_match: {min_prefix: 4}
          acronym: {min_upper: 3}
        passes:
          - include: inner.yaml
        """)
    a = rs.attributes
    assert a["keep_digits"] is False  # from the included file
    assert a["word_match"]["prefix_ratio"] == 0.5 and a["word_match"]["min_prefix"] == 4  # merged key by key
    assert a["acronym"]["min_upper"] == 3 and a["acronym"]["min_letters"] == 2  # the includer wins; defaults stay
    plain = compile_text(tmp_path, "passes:\n  - include: inner.yaml\n")
    assert plain.attributes["acronym"]["min_upper"] == 0 and plain.attributes["word_match"]["min_prefix"] == 2


def test_compiler_yaml_syntax_and_duplicate_keys(tmp_path: Path) -> None:
    assert problems(tmp_path, "passes:\n  - kind: be_phrase\n   bad: [\n")[0][0] == "RC101"
    assert problems(tmp_path, "passes: []\npasses: []\n") == [("RC101", 2)]


def test_compiler_never_executes_yaml_tags(tmp_path: Path) -> None:
    marker = tmp_path / "hacked"
    text = f"passes:\n  - kind: !!python/object/apply:os.system ['touch {marker}']\n"
    assert problems(tmp_path, text) == [("RC101", 2)]
    assert not marker.exists()


def test_compiler_include_splices_passes_and_detects_cycles(tmp_path: Path) -> None:
    write_rules(tmp_path, "version: 1\npasses:\n  - {kind: match, name: inner, key: text_norm}\n", "inner.yaml")
    rs = compile_text(tmp_path, "passes:\n  - {kind: match, name: outer, key: head}\n  - include: inner.yaml\n")
    assert [p.name for p in rs.passes] == ["outer", "inner"]
    assert rs.passes[1].rule_file.endswith("inner.yaml")
    write_rules(tmp_path, "passes:\n  - include: rules.yaml\n", "inner.yaml")
    with pytest.raises(RuleFileError) as err:
        compile_text(tmp_path, "passes:\n  - include: inner.yaml\n")
    d = err.value.diagnostics[0]
    assert (d.code, d.line) == ("RC110", 2) and d.file.endswith("inner.yaml")


def test_compiler_bad_example_markup(tmp_path: Path) -> None:
    text = "passes:\n  - kind: match\n    key: text_norm\n    examples:\n      link:\n        - '[only one|problem] here'\n"
    assert problems(tmp_path, text) == [("RC111", 6)]


def test_compiler_missing_rule_file(tmp_path: Path) -> None:
    with pytest.raises(RuleFileError) as err:
        compile_rules(tmp_path / "absent.yaml")
    assert err.value.code == "RC113"


def test_compiler_disabled_pass_is_skipped(tmp_path: Path) -> None:
    rs = compile_text(tmp_path, "passes:\n  - {kind: match, key: text_norm, enabled: false}\n")
    assert rs.passes == []


# -- one validation moment: `rulecoref check` and `rulecoref resolve` agree ----------------------------------
BAD_FILES = {
    "unknown kind": ("passes:\n  - kind: be-phrase\n", "RC102"),
    "former kind": ("passes:\n  - kind: head_synonym\n", "RC102"),
    "unknown key": ("passes:\n  - {kind: match, key: text_norm, antecedents: all}\n", "RC103"),
    "wrong type": ("passes:\n  - {kind: be_phrase, params: {max_words_between: two}}\n", "RC104"),
    "missing word list": ("attributes: {determiners: nope.txt}\npasses: []\n", "RC105"),
    "missing key": ("passes:\n  - {kind: match, require: [same_type]}\n", "RC106"),
    "bad choice": ("passes:\n  - {kind: match, key: text_norm, direction: forward}\n", "RC109"),
    "bad example": ("passes:\n  - kind: match\n    key: text_norm\n    examples: {link: ['[one|problem]']}\n", "RC111"),
    "unknown attribute": ("passes:\n  - {kind: match, key: textnorm}\n", "RC130"),
    "unknown predicate": ("passes:\n  - {kind: filter, remove_if: [dates_conflicts]}\n", "RC131"),
    "people before roles": ("passes:\n  - {kind: who_pronoun}\n  - {kind: people_roles}\n", "RC133"),
    "bad web mapping": ("passes:\n  - {kind: people_roles, params: {web: {enabled: maybe}}}\n", "RC135"),
    "unknown decoder": ("decoder: {kind: beltree}\npasses: []\n", "RC112"),
}


@pytest.fixture()
def note(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    (data / "note.txt").write_text("Chest pain improved .\nchest pain recurred .\n", encoding="utf-8")
    (data / "note.txt.con").write_text('c="chest pain" 1:0 1:1||t="problem"\nc="chest pain" 2:0 2:1||t="problem"\n',
                                       encoding="utf-8")
    return data


@pytest.mark.parametrize("what", sorted(BAD_FILES))
def test_compiler_check_and_resolve_reject_the_same_files(tmp_path: Path, note: Path, capsys, what: str) -> None:
    text, code = BAD_FILES[what]
    path = write_rules(tmp_path, text, "bad.yaml")
    assert main(["check", str(path)]) == 2
    checked = capsys.readouterr().err
    out = tmp_path / "out"
    assert main(["resolve", str(note), "--rules", str(path), "--out", str(out), "--no-progress"]) == 2
    resolved = capsys.readouterr().err
    assert f"[{code}]" in checked and f"[{code}]" in resolved
    assert not out.exists()  # stopped before any work


GOOD_FILES = {
    "match and filter": GOOD + "  - {kind: filter, remove_if: [dates_conflict, clues_conflict]}\n",
    "inline word lists": "attributes: {determiners: [the, a], clues: {triggers: ['on'], locations: [ward a]}}\n"
                         "passes:\n  - {kind: match, name: m, key: text_norm, veto: [clues_conflict]}\n",
    "people": "passes:\n  - {kind: people_roles, params: {web: {enabled: false}}}\n  - {kind: patient_mention}\n",
}


@pytest.mark.parametrize("what", sorted(GOOD_FILES))
def test_compiler_check_and_resolve_accept_the_same_files(tmp_path: Path, note: Path, capsys, what: str) -> None:
    path = write_rules(tmp_path, GOOD_FILES[what], "good.yaml")
    assert main(["check", str(path)]) == 0
    out = tmp_path / "out"
    assert main(["resolve", str(note), "--rules", str(path), "--out", str(out), "--no-progress"]) == 0
    assert (out / "note.txt.chains").is_file()


def test_compiler_include_types_rename_the_included_scopes_and_examples(tmp_path: Path) -> None:
    inner = """passes:
  - kind: match
    name: inner
    applies_to: {types: [person, pronoun], exclude_types: [pronoun]}
    key: text_norm
    examples:
      link: ["[Ms. Alvarez|person] saw [ms. alvarez|PERSON|c1] ."]
"""
    write_rules(tmp_path, inner, "inner.yaml")
    write_rules(tmp_path, "passes:\n  - include: inner.yaml\n    types: {person: people, Pronoun: people}\n", "mid.yaml")
    rs = compile_text(tmp_path, "types: [people, problem]\npasses:\n  - include: mid.yaml\n")
    [p] = rs.passes
    assert (p.scope.types, p.scope.exclude) == (frozenset({"people"}), frozenset({"people"}))
    assert p.examples["link"] == ["[Ms. Alvarez|people] saw [ms. alvarez|people|c1] ."]
    # an include of an include composes: the outer file's names win over the middle file's
    write_rules(tmp_path, "passes:\n  - include: inner.yaml\n    types: {person: human, pronoun: human}\n", "mid.yaml")
    rs = compile_text(tmp_path, "types: [people]\npasses:\n  - include: mid.yaml\n    types: {human: people}\n")
    assert rs.passes[0].scope.types == frozenset({"people"})
    # without the renaming the included types are unknown here, at the included file's lines
    write_rules(tmp_path, "passes:\n  - include: inner.yaml\n", "mid.yaml")
    found = problems(tmp_path, "types: [people]\npasses:\n  - include: mid.yaml\n")
    assert {code for code, _ in found} == {"RC108"} and {line for _, line in found} == {4, 7}


def test_compiler_include_types_must_be_a_mapping_of_names(tmp_path: Path) -> None:
    write_rules(tmp_path, "passes:\n  - {kind: match, name: inner, key: text_norm}\n", "inner.yaml")
    assert problems(tmp_path, "passes:\n  - include: inner.yaml\n    types: [person, people]\n") == [("RC104", 3)]
    [d] = diagnostics(tmp_path, "passes:\n  - include: inner.yaml\n    rename: {person: people}\n")
    assert d.code == "RC103" and "include, enable, types" in d.message
