"""Loading i2b2 gold/system folders into partitions: singletons, missing files, bad mentions."""

from __future__ import annotations

import pytest

from rulecoref.errors import EvaluationError, InputError
from rulecoref.evaluate import load_i2b2, score_dirs

CON = (
    'c="the patient" 1:0 1:1||t="person"\n'
    'c="he" 2:0 2:0||t="pronoun"\n'
    'c="chest pain" 1:3 1:4||t="problem"\n'
    'c="the pain" 2:2 2:3||t="problem"\n'
    'c="aspirin" 3:0 3:0||t="treatment"\n'
)
TXT = "The patient has chest pain .\nHe says the pain is bad .\naspirin given .\n"
GOLD = (
    'c="the patient" 1:0 1:1||c="he" 2:0 2:0||t="coref person"\n'
    'c="chest pain" 1:3 1:4||c="the pain" 2:2 2:3||t="coref problem"\n'
)


def make_gold(root, *, docs: bool = False, con: str = CON, chains: str = GOLD, name: str = "rec"):
    (root / "concepts").mkdir(parents=True, exist_ok=True)
    (root / "chains").mkdir(exist_ok=True)
    (root / "concepts" / f"{name}.txt.con").write_text(con, encoding="utf-8")
    (root / "chains" / f"{name}.txt.chains").write_text(chains, encoding="utf-8")
    if docs:
        (root / "docs").mkdir(exist_ok=True)
        (root / "docs" / f"{name}.txt").write_text(TXT, encoding="utf-8")
    return root


def make_system(root, text: str, *, sub: bool = False, name: str = "rec"):
    folder = root / "chains" if sub else root
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.txt.chains").write_text(text, encoding="utf-8")
    return root


def test_data_every_unchained_concept_is_a_singleton(tmp_path):
    gold = make_gold(tmp_path / "gold")
    system = make_system(tmp_path / "sys", 'c="the patient" 1:0 1:1||c="he" 2:0 2:0||t="coref person"\n')
    [doc] = load_i2b2(gold, system).documents
    assert sorted(map(len, doc.key)) == [1, 2, 2]
    assert sorted(map(len, doc.response)) == [1, 1, 1, 2]
    assert dict(zip(map(tuple, doc.key), doc.key_types))[((3, 0, 3, 0),)] == "treatment"
    assert doc.response_chain_mentions == 2


@pytest.mark.parametrize("sub", [False, True])
def test_data_system_chains_flat_or_in_chains_folder(tmp_path, sub):
    gold = make_gold(tmp_path / "gold")
    system = make_system(tmp_path / "sys", GOLD, sub=sub)
    report = score_dirs(gold, system)
    assert report.metrics["muc"].f1 == 1.0
    assert report.warnings == []


def test_data_missing_system_file_is_all_singletons_with_warning(tmp_path):
    gold = make_gold(tmp_path / "gold")
    (tmp_path / "sys").mkdir()
    report = score_dirs(gold, tmp_path / "sys")
    assert [w.code for w in report.warnings] == ["RC703"]
    assert report.summary["response_entities"] == 5
    assert report.metrics["muc"].recall == 0.0


def test_data_system_mention_not_a_concept_names_file_and_line(tmp_path):
    gold = make_gold(tmp_path / "gold")
    system = make_system(tmp_path / "sys", GOLD + 'c="says" 2:1 2:1||c="aspirin" 3:0 3:0||t="coref treatment"\n')
    with pytest.raises(EvaluationError) as err:
        score_dirs(gold, system)
    [d] = err.value.diagnostics
    assert d.code == "RC701"
    assert d.file.endswith("rec.txt.chains") and d.line == 3
    assert "2:1 2:1" in d.message


def test_data_system_file_without_gold_record_is_an_error(tmp_path):
    gold = make_gold(tmp_path / "gold")
    system = make_system(tmp_path / "sys", GOLD)
    make_system(system, GOLD, name="other")
    with pytest.raises(EvaluationError) as err:
        score_dirs(gold, system)
    assert err.value.codes == ["RC702"]


def test_data_gold_chain_mention_not_a_concept_is_rc704(tmp_path):
    gold = make_gold(tmp_path / "gold", chains=GOLD + 'c="bad" 3:1 3:1||c="aspirin" 3:0 3:0||t="coref treatment"\n')
    system = make_system(tmp_path / "sys", GOLD)
    with pytest.raises(EvaluationError) as err:
        score_dirs(gold, system)
    assert err.value.codes == ["RC704"]
    assert err.value.diagnostics[0].line == 3


def test_data_uses_docs_when_present(tmp_path):
    """With docs/, an offset outside the text is caught (full reader, RC202)."""
    gold = make_gold(tmp_path / "gold", docs=True, con=CON + 'c="ghost" 9:0 9:0||t="problem"\n')
    system = make_system(tmp_path / "sys", GOLD)
    with pytest.raises(InputError) as err:
        score_dirs(gold, system)
    assert err.value.code == "RC202"
    # Without docs/ the light reader cannot know the text, and scores it.
    gold2 = make_gold(tmp_path / "gold2", con=CON + 'c="ghost" 9:0 9:0||t="problem"\n')
    assert score_dirs(gold2, system).summary["key_mentions"] == 6


def test_data_concepts_folder_given_separately(tmp_path):
    gold = make_gold(tmp_path / "gold")
    (tmp_path / "gold" / "concepts").rename(tmp_path / "cons")
    system = make_system(tmp_path / "sys", GOLD)
    report = score_dirs(gold, system, concepts_dir=tmp_path / "cons")
    assert report.metrics["bcub"].f1 == 1.0


def test_data_folder_problems(tmp_path):
    with pytest.raises(EvaluationError) as err:
        score_dirs(tmp_path / "nope", tmp_path)
    assert err.value.code == "RC712"
    (tmp_path / "empty").mkdir()
    with pytest.raises(EvaluationError) as err:
        score_dirs(tmp_path / "empty", tmp_path)
    assert err.value.code == "RC705"


def test_data_malformed_system_line_is_an_input_error(tmp_path):
    gold = make_gold(tmp_path / "gold")
    system = make_system(tmp_path / "sys", 'c="he" 2:0 2:0||c="the patient" 1:0 1:1\n')
    with pytest.raises(InputError) as err:
        score_dirs(gold, system)
    assert err.value.code == "RC207"


@pytest.mark.parametrize("docs", [False, True])
def test_data_gold_mention_text_differing_from_the_concept_warns(tmp_path, docs):
    """Case 14: a gold chain mention whose text is not the .con text at the same offsets is an
    RC718 warning naming the chains file and line (case and spacing aside); scoring goes on."""
    gold = GOLD.replace('c="the pain" 2:2 2:3', 'c="the headache" 2:2 2:3').replace('c="he"', 'c="He"')
    make_gold(tmp_path / "gold", docs=docs, chains=gold)
    make_system(tmp_path / "sys", GOLD)
    result = load_i2b2(tmp_path / "gold", tmp_path / "sys")
    (w,) = [w for w in result.warnings if w.code == "RC718"]
    assert (w.file, w.line, w.severity) == (str(tmp_path / "gold" / "chains" / "rec.txt.chains"), 2, "warning")
    assert "'the headache'" in w.message and "'the pain'" in w.message and w.message.startswith("gold")
    assert len(result.documents[0].key) == 3


def test_data_system_mention_text_differing_from_the_concept_warns(tmp_path):
    make_gold(tmp_path / "gold")
    make_system(tmp_path / "sys", GOLD.replace('c="chest pain"', 'c="back pain"'))
    (w,) = [w for w in load_i2b2(tmp_path / "gold", tmp_path / "sys").warnings if w.code == "RC718"]
    assert (w.line, w.message.split()[0]) == (2, "system")


def test_data_two_concept_files_for_one_document_is_an_error(tmp_path):
    """NAME.txt.con and NAME.v2.txt.con are both document NAME: an error, not one dropped in silence."""
    make_gold(tmp_path / "gold")
    (tmp_path / "gold" / "concepts" / "rec.v2.txt.con").write_text(CON, encoding="utf-8")
    make_system(tmp_path / "sys", GOLD)
    with pytest.raises(EvaluationError) as err:
        load_i2b2(tmp_path / "gold", tmp_path / "sys")
    assert err.value.codes == ["RC719"] and err.value.diagnostics[0].file.endswith("rec.v2.txt.con")


TWINLESS = GOLD.splitlines(keepends=True)[0] + 'c="says" 2:1 2:1||c="aspirin" 3:0 3:0||t="coref treatment"\n'


def test_data_twinless_system_mention_is_scored_when_the_text_shows_it(tmp_path):
    gold = make_gold(tmp_path / "gold", docs=True)
    system = make_system(tmp_path / "sys", TWINLESS)
    [doc] = load_i2b2(gold, system).documents
    assert doc.twinless == [((2, 1, 2, 1), "treatment")]
    conll = score_dirs(gold, system)
    # the reference scorer's way: the found mention is in the response only
    assert conll.summary["response_mentions"] == 6 and conll.summary["key_mentions"] == 5
    assert (conll.metrics["muc"].recall, conll.metrics["muc"].precision) == (0.5, 0.5)
    # i2b2: it joins the key as a singleton, so the one-universe formulas apply
    i2b2 = score_dirs(gold, system, mode="i2b2", by_type=True)
    assert i2b2.summary["key_mentions"] == i2b2.summary["response_mentions"] == 6
    assert i2b2.metrics["muc"].precision == 0.5
    assert "treatment" in i2b2.by_type


@pytest.mark.parametrize("docs, chains", [
    (False, TWINLESS),  # no text to check the mention against
    (True, TWINLESS.replace('c="says"', 'c="cough"')),  # the text there is not the mention's
    (True, TWINLESS.replace("2:1 2:1", "9:0 9:0")),  # outside the text
])
def test_data_unverifiable_system_mention_is_still_rc701(tmp_path, docs, chains):
    gold = make_gold(tmp_path / "gold", docs=docs)
    system = make_system(tmp_path / "sys", chains)
    with pytest.raises(EvaluationError) as err:
        load_i2b2(gold, system)
    assert err.value.codes == ["RC701"]


def test_data_no_twinless_mentions_leave_i2b2_scores_unchanged(tmp_path):
    gold = make_gold(tmp_path / "gold", docs=True)
    system = make_system(tmp_path / "sys", GOLD.splitlines(keepends=True)[0])
    [doc] = load_i2b2(gold, system).documents
    assert doc.twinless == []
    assert score_dirs(gold, system, mode="i2b2").i2b2_overall == score_dirs(
        make_gold(tmp_path / "gold2"), system, mode="i2b2").i2b2_overall


def test_data_conll_response_document_not_in_the_key_is_ignored_with_rc716(tmp_path):
    from rulecoref.evaluate.data import load_conll

    key = tmp_path / "key.conll"
    key.write_text("#begin document (a); part 000\nt\t(1)\nu\t(1)\n#end document\n", encoding="utf-8")
    response = tmp_path / "response.conll"
    response.write_text(key.read_text() + "#begin document (b); part 000\nt\t(1)\n#end document\n", encoding="utf-8")
    result = load_conll(key, response)
    assert len(result.documents) == 1
    assert [(w.code, w.line) for w in result.warnings] == [("RC716", 5)]
