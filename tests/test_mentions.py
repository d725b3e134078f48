"""The process-wide mention numbering and the per-pass caches built on it."""

from __future__ import annotations

import pytest

from rulecoref import mentions
from rulecoref.markup import parse_markup


@pytest.fixture
def table(monkeypatch):
    t = mentions.MentionTable(limit=3)
    monkeypatch.setattr(mentions, "TABLE", t)
    return t


def test_equal_token_sequences_get_equal_ids_across_documents(table):
    a, _ = parse_markup("[chest pain|problem] and [fever|problem] , [chest pain|problem] again")
    b, _ = parse_markup("no [fever|problem] today")
    ids_a, ids_b = a.concept_ids, b.concept_ids
    assert ids_a[0] == ids_a[2] != ids_a[1]
    assert ids_b == [ids_a[1]]


def test_numbering_restarts_past_its_limit_and_caches_follow(table):
    cache: mentions.MentionCache[str] = mentions.MentionCache()
    calls: list[tuple[str, ...]] = []

    def analyse(tokens: tuple[str, ...]) -> str:
        calls.append(tokens)
        return " ".join(tokens).upper()

    seqs = [("a",), ("b", "c"), ("a",), ("d",)]
    ids = table.number(seqs)
    assert ids == [0, 1, 0, 2]
    assert cache.lookup(ids, seqs.__getitem__, analyse) == ["A", "B C", "A", "D"]
    assert calls == [("a",), ("b", "c"), ("d",)]  # each distinct sequence analysed once
    assert cache.lookup(ids, seqs.__getitem__, analyse) == ["A", "B C", "A", "D"]
    assert len(calls) == 3  # then served from the cache
    more = [("e",), ("f",)]
    table.number(more)  # 5 numbered: past the limit of 3
    new = [("z",)]
    ids = table.number(new)  # so this document starts afresh
    assert table.generation == 1 and ids == [0]
    assert cache.lookup(ids, new.__getitem__, analyse) == ["Z"]  # not "A", id 0's old analysis
