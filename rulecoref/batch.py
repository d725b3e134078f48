"""Resolve a batch of records: stream documents through a pipeline, write chains atomically.

One bad document never stops a batch: its problems are returned in its outcome, no chains file is
written for it, and the caller reports it and exits non-zero. Documents are read, resolved and
written one at a time (in worker processes with ``jobs > 1``), so memory stays flat however many
documents a batch holds.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, TypeVar

from .document import Document
from .engine import Pipeline, Resolution
from .errors import Diagnostic, RulecorefError, diagnostic
from .io.formats import ReadOptions, ReadResult, Record, read_record, write_document
from .io.outdir import write_atomic
from .io.typemap import TypeMap

T = TypeVar("T")
R = TypeVar("R")


@dataclass
class Outcome:
    """What happened to one document."""

    name: str
    ok: bool
    concepts: int = 0
    links: int = 0
    removed: int = 0
    chains: int = 0
    seconds: float = 0.0
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(frozen=True)
class BatchOptions:
    out_dir: Path
    strict_text: bool = False
    encoding: str = "utf-8"
    provenance: bool = False
    #: concept types accepted in the input; None accepts any type
    types: tuple[str, ...] | None = None
    #: output format (io/formats.py); how JSONL and brat input types map, and tokenise
    format: str = "i2b2"
    type_map: TypeMap | None = None
    abbreviations: frozenset[str] = frozenset()


@dataclass
class Resolved:
    """One document resolved: the document (with the mentions rulecoref added, if any), its
    resolution and chains of two or more mentions, the warnings met, and what ``emit`` made of it."""

    doc: Document
    res: Resolution
    chains: list[tuple[list[int], str]]
    warnings: list[Diagnostic]
    emitted: Any = None


def resolve_one(pipeline: Pipeline, read: Callable[[], ReadResult], where: str,
                emit: Callable[[Resolved], Any] | None = None) -> tuple[Resolved | None, list[Diagnostic]]:
    """Read one document, resolve it and ``emit`` it (write its files, make its row): the one step
    of ``resolve`` (a worker process) and ``spark-resolve`` (an executor). Never raises for a bad
    document: its problems come back (a bug or an unexpected input as RC550 naming ``where``), so
    one document never stops a batch. Returns the result (None when it failed) and the problems
    or warnings."""
    try:
        got = read()
        res = pipeline.resolve(got.document)
        done = Resolved(with_origin(res.doc, got.document), res, res.chains(), list(got.warnings))
        if emit is not None:
            done.emitted = emit(done)
    except RulecorefError as exc:
        return None, exc.diagnostics
    except Exception as exc:  # a bug or an unexpected input: report it, keep the batch going
        return None, [diagnostic("RC550", file=where, detail=f"{type(exc).__name__}: {exc}")]
    return done, done.warnings


def with_origin(resolved: Document, given: Document) -> Document:
    """The resolved document (which the mention finder may have made anew, with the mentions it
    added) keeping the origin of the one given, so outputs still give the input back."""
    if resolved.origin is None and given.origin is not None:
        resolved.origin = given.origin
    return resolved


def resolve_record(pipeline: Pipeline, record: Record, opts: BatchOptions) -> Outcome:
    """Read, resolve and write one record; never raises for a bad document."""
    t0 = time.perf_counter()
    read_opts = ReadOptions(opts.types, opts.strict_text, opts.encoding, opts.type_map, opts.abbreviations)

    def write(done: Resolved) -> None:
        # a write that fails (a full disk) is RC510 naming the file, and leaves none of the document's files
        done.warnings += write_document(opts.format, opts.out_dir, done.doc, [c for c, _ in done.chains],
                                        [t for _, t in done.chains])
        if opts.provenance:
            write_atomic(opts.out_dir / f"{record.name}.links.json", json.dumps(done.res.to_dict(), indent=1) + "\n")

    # a concept file without its text is the format's RC204 (io/i2b2.py)
    done, found = resolve_one(pipeline, lambda: read_record(record, read_opts), str(record.con), write)
    seconds = time.perf_counter() - t0
    if done is None:
        return Outcome(record.name, False, seconds=seconds, diagnostics=found)
    return Outcome(record.name, True, concepts=len(done.doc.concepts), links=len(done.res.kept),
                   removed=len(done.res.removed), chains=len(done.chains), seconds=seconds, diagnostics=found)


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


def run_batch(pipeline: Pipeline, records: Sequence[Record], opts: BatchOptions, jobs: int = 1) -> Iterator[Outcome]:
    """Yield one Outcome per record, in input order (``jobs`` worker processes, see ``parallel_map``)."""
    opts.out_dir.mkdir(parents=True, exist_ok=True)
    yield from parallel_map(partial(resolve_record, pipeline, opts=opts), records, jobs, lost_record)


def lost_record(record: Record) -> Outcome:
    """The outcome of a record whose worker process died."""
    return Outcome(record.name, False, diagnostics=[diagnostic("RC551", file=str(record.con))])
