"""Worker processes (rulecoref/pool.py): results in input order, and a worker that dies loses only
the item it was on while the others go on (batch-level behaviour: tests/test_batch.py; signals:
tests/test_pool_signals.py)."""

from __future__ import annotations

import os

from rulecoref.pool import parallel_map


def _square_or_die(x: int) -> int:
    if x < 0:
        os._exit(3)  # the worker is killed on this item
    return x * x


def test_pool_workers_dying_lose_only_their_items_and_the_rest_go_on():
    # big results keep the survivors writing while a worker dies: with queues shared by all workers
    # a worker killed mid-write held their lock and the batch waited for ever (about one run in ten)
    items = [1, -1, 2, 3, -2, 4, 5, -3, 6, 7] * 3

    def work(x: int) -> bytes:
        return b"x" * 100_000 * _square_or_die(x)

    for _ in range(2):
        got = list(parallel_map(work, items, 3, lambda x: b"lost"))
        assert [len(g) if g != b"lost" else None for g in got] == [
            None if x < 0 else 100_000 * x * x for x in items]


def test_pool_dead_workers_are_replaced_so_every_other_item_is_done():
    items = [4, -1, -2, -3, 5, -4, 6, 7]  # more deaths than workers
    assert list(parallel_map(_square_or_die, items, 2, lambda x: "lost")) == [
        16, "lost", "lost", "lost", 25, "lost", 36, 49]


def _late_square(x: int) -> int:
    import time

    time.sleep(0.02 * (x % 3))  # later items often finish first
    return x * x


def test_pool_results_come_in_input_order_with_one_worker_or_several():
    items = list(range(12))
    assert list(parallel_map(_late_square, items, 3, lambda x: None)) == [x * x for x in items]
    assert list(parallel_map(_late_square, items, 1, lambda x: None)) == [x * x for x in items]
