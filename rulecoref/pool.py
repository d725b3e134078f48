"""Forked worker processes for ``work`` over many items: results in input order, a dead worker
loses only its own item.

Used wherever documents are handled one by one and a process per core pays: ``rulecoref resolve``
(batch.py), the Python API's ``pipe(n_process=...)`` (api.py) and the Bell tree's training events
(belltree/train.py). It knows nothing of documents, so it sits at the bottom of the layers.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def _worker(work: Callable[[Any], Any], conn: Connection, parents: list[Connection], parent: int) -> None:
    """A worker process: apply ``work`` to the items it is handed until it gets None.

    It closes every parent end of a pipe it inherited (its own and those of the workers forked
    before it): then the parent's death closes the worker's pipe, and the worker, waiting for its
    next item, sees the end of it and exits. It also asks the kernel for SIGTERM when the parent
    dies (Linux), for a worker busy on a long document. Interrupts are the parent's to handle:
    Ctrl-C (sent to the whole process group) is ignored here, and SIGTERM (the parent stopping it)
    exits without a traceback, after the ``finally`` blocks that remove temporary files."""
    for other in parents:
        other.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_on_term)
    _die_with_parent()
    if os.getppid() != parent:  # the parent died before the kernel was asked
        return
    try:
        for item in iter(conn.recv, None):
            conn.send(work(item))
    except (EOFError, OSError):  # the parent is gone: nobody wants the result
        pass


def _exit_on_term(signum: int, frame: Any) -> None:
    sys.exit(128 + signum)


def _die_with_parent() -> None:
    """prctl(PR_SET_PDEATHSIG, SIGTERM) where the C library has it (Linux); elsewhere the closed
    pipe is the only signal."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM), 0, 0, 0)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def parallel_map(work: Callable[[T], R], items: Sequence[T], jobs: int, lost: Callable[[T], R]) -> Iterator[R]:
    """``work`` over ``items`` in ``jobs`` forked worker processes, results in input order.

    Forked workers inherit ``work`` and what it holds (a pipeline with WordNet and the word lists
    loaded once), shared copy-on-write, so only items and results travel between processes. Never
    more workers than items. Each worker has a pipe of its own and is handed one item at a time:
    a worker that dies (killed, out of memory) closes only its own pipe, its item gets
    ``lost(item)``, a new worker takes its place and the others go on. (Queues shared by all
    workers would not do: a worker killed while it holds a shared queue's lock leaves the others
    waiting for ever.)
    """
    if jobs <= 1 or len(items) <= 1:
        yield from map(work, items)
        return
    pool = _Workers(work, items)
    done: dict[int, R] = {}
    k = 0
    try:
        for _ in range(min(jobs, len(items))):
            pool.start()
        while pool.on:
            for conn in wait(list(pool.on)):
                i = pool.on.pop(conn)
                try:
                    done[i] = conn.recv()
                except (EOFError, OSError):  # the worker died on item i
                    done[i] = lost(items[i])
                    pool.replace(conn)
                    continue
                pool.give(conn)
            while k in done:
                yield done.pop(k)
                k += 1
        done.update((i, lost(items[i])) for i in pool.pending)  # only if no new worker could take them
        while k in done:
            yield done.pop(k)
            k += 1
    finally:
        pool.close()


class _Workers:
    """The worker processes of one ``parallel_map``, each with its pipe, and the items not handed out."""

    def __init__(self, work: Callable[[Any], Any], items: Sequence[Any]):
        self.work, self.items = work, items
        self.ctx = multiprocessing.get_context("fork")
        self.pending = deque(range(len(items)))
        self.on: dict[Connection, int] = {}  # a busy worker's pipe -> the index of the item it is on
        self.procs: dict[Connection, Any] = {}

    def start(self) -> None:
        mine, theirs = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker, args=(self.work, theirs, [mine, *self.procs], os.getpid()),
                                daemon=True)
        proc.start()
        theirs.close()
        self.procs[mine] = proc
        self.give(mine)

    def give(self, conn: Connection) -> None:
        """Hand a worker the next item, or tell it to stop when none is left."""
        i = self.pending.popleft() if self.pending else None
        try:
            conn.send(None if i is None else self.items[i])
        except OSError:  # it died between two items: the item goes to its successor
            if i is not None:
                self.pending.appendleft(i)
            self.replace(conn)
            return
        if i is not None:
            self.on[conn] = i

    def replace(self, conn: Connection) -> None:
        """A worker died: reap it, and start another while items wait."""
        self.procs.pop(conn).join()
        conn.close()
        if self.pending:
            self.start()

    def close(self) -> None:
        """Stop every worker: a busy one is terminated (the caller stopped early, or was
        interrupted), an idle one sees its pipe close; none is left behind."""
        for conn, proc in self.procs.items():
            if conn in self.on:
                proc.terminate()
            conn.close()
        for proc in self.procs.values():
            proc.join(5)
            if proc.is_alive():  # stuck in C code past its SIGTERM
                proc.kill()
                proc.join()
        self.procs.clear()
        self.on.clear()
