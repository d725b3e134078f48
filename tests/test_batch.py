"""Batch runner: the garbage-collector policy between documents."""

from __future__ import annotations

import gc

import pytest

from rulecoref import batch


def test_warm_heap_collects_and_freezes_after_power_of_two_documents(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, int]] = []
    heap = batch.WarmHeap()
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append(("collect", heap.documents)) or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append(("freeze", heap.documents)))
    for _ in range(9):
        heap.after_document()
    # collected first, so no garbage is frozen; then logarithmically rarely
    assert calls == [(what, n) for n in (1, 2, 4, 8) for what in ("collect", "freeze")]


def test_warm_heap_turns_automatic_collection_off_for_one_document_only() -> None:
    heap = batch.WarmHeap()
    assert gc.isenabled()
    with heap.document():
        assert not gc.isenabled()  # a document's objects are freed by reference counting
    assert gc.isenabled() and heap.documents == 1
    gc.disable()
    try:
        with heap.document():
            pass
        assert not gc.isenabled()  # a caller that had it off keeps it off
    finally:
        gc.enable()
    with pytest.raises(RuntimeError):
        with heap.document():
            raise RuntimeError("a bug in a pass")
    assert gc.isenabled()
