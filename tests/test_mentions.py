"""One document's mention table (rulecoref/mentions.py): columns computed once, on first use."""

from __future__ import annotations

import pytest

from rulecoref.markup import parse_markup
from tests.helpers import settings_pipeline


@pytest.fixture()
def table():
    doc, _ = parse_markup("[the Chest pain|problem] and [chest pain|problem] , [He|pronoun]")
    return settings_pipeline().table(doc, [])


def test_mentions_columns_are_computed_once_on_first_use(table):
    assert "text_norm" not in table
    column = table["text_norm"]
    assert column == ["chest pain", "chest pain", "he"] and table["text_norm"] is column
    assert "tokens" in table  # what it depends on came with it
    with pytest.raises(KeyError):
        table["no_such_attribute"]


def test_mentions_build_computes_dependencies_first(table):
    table.build(["head"])
    assert {"tokens", "lower", "conditioned", "head"} <= set(table)
    assert table.row(0)["head"] == "pain" and table.row(2)["tokens"] == ("He",)
    assert table.n == 3


def test_mentions_per_token_answers_each_token_once(table):
    calls: list[str] = []
    upper = table.per_token("upper", lambda tok: calls.append(tok) or tok.upper())
    assert [upper[t] for t in ("pain", "pain", "he")] == ["PAIN", "PAIN", "HE"] and calls == ["pain", "he"]
    assert table.per_token("upper", str.lower) is upper  # one map per name and document


def test_mentions_token_set(table):
    assert {"Chest", "chest", "He"} <= table.token_set and "he" not in table.token_set


def test_mentions_pipeline_builds_what_its_rules_name(tmp_path):
    pipe = settings_pipeline(tmp_path, entries=[{"kind": "match", "name": "m", "key": "text_norm", "veto": ["overlaps"]}])
    doc, _ = parse_markup("[pain|problem] and [pain|problem]")
    assert {"text_norm", "start", "end"} <= set(pipe.table(doc)) and "head" not in pipe.table(doc)
    assert pipe.resolve(doc).table is not None


def test_mentions_words_table_holds_each_distinct_token_sequence_once(table):
    words = table.words_table
    assert words.n == 3 and words.rows == [0, 1, 2]
    doc, _ = parse_markup("[pain|problem] [rash|problem] [pain|treatment] [pain|problem]")
    t = settings_pipeline().table(doc, ["head"])
    assert t.words_table["tokens"] == [("pain",), ("rash",)] and t.words_table.rows == [0, 1, 0, 0]
    assert t["head"] == ["pain", "rash", "pain", "pain"]
    with pytest.raises(KeyError, match="not a function of a mention's words"):
        t.words_table["type"]  # a type is no function of the words
    with pytest.raises(AttributeError):
        _ = t.words_table.doc


def test_mentions_per_mention_columns_work_out_only_the_cells_asked_for():
    """``negation`` is asked about a few mentions of most documents (the things an "it" may refer
    to): each cell is worked out when first read, and the column still reads like a list."""
    doc, _ = parse_markup("He denies [chest pain|problem] .\n[Fever|problem] resolved .\nNo [rash|problem] .")
    t = settings_pipeline().table(doc, [])
    column = t["negation"]
    assert column.worked_out() == 0
    assert column[2] == "no" and column.worked_out() == 1
    assert column == ["denies", None, "no"] and list(column) == ["denies", None, "no"] and column[-1] == "no"
    assert column.worked_out() == 3 and len(column) == 3
