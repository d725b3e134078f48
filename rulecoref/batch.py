"""Resolve a batch of records: stream documents through a pipeline, write chains atomically.

One bad document never stops a batch: its problems are returned in its outcome, no chains file is
written for it, and the caller reports it and exits non-zero. Documents are read, resolved and
written one at a time (in worker processes with ``jobs > 1``), so memory stays flat however many
documents a batch holds.
"""

from __future__ import annotations

import json
import multiprocessing
import queue
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from .engine import Pipeline
from .errors import Diagnostic, RulecorefError, diagnostic
from .io.formats import ReadOptions, read_record, write_document
from .io.i2b2 import write_atomic
from .io.layout import Record
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


def resolve_record(pipeline: Pipeline, record: Record, opts: BatchOptions) -> Outcome:
    """Read, resolve and write one record; never raises for a bad document."""
    t0 = time.perf_counter()
    if record.txt is None:
        return Outcome(record.name, False, diagnostics=[
            diagnostic("RC204", file=str(record.con), path=str(record.con), expected=record.con.name[:-4])])
    try:
        read = read_record(record, ReadOptions(opts.types, opts.strict_text, opts.encoding, opts.type_map,
                                               opts.abbreviations))
        doc = read.document
        res = pipeline.resolve(doc)
        chains = res.chains()
        try:
            read.warnings += write_document(opts.format, opts.out_dir, doc, [c for c, _ in chains],
                                            [t for _, t in chains])
            if opts.provenance:
                write_atomic(opts.out_dir / f"{record.name}.links.json", json.dumps(res.to_dict(), indent=1) + "\n")
        except OSError as exc:  # the output's problem (a full disk), not the input's
            return Outcome(record.name, False, seconds=time.perf_counter() - t0, diagnostics=[
                diagnostic("RC510", file=str(opts.out_dir), path=str(opts.out_dir),
                           detail=f"the output of {record.name}: {exc.strerror or exc}")])
    except RulecorefError as exc:
        return Outcome(record.name, False, seconds=time.perf_counter() - t0, diagnostics=exc.diagnostics)
    except Exception as exc:  # a bug or an unexpected input: report it, keep the batch going
        return Outcome(record.name, False, seconds=time.perf_counter() - t0, diagnostics=[
            diagnostic("RC550", file=str(record.con), detail=f"{type(exc).__name__}: {exc}")])
    return Outcome(record.name, True, concepts=len(doc.concepts), links=len(res.kept), removed=len(res.removed),
                   chains=len(chains), seconds=time.perf_counter() - t0, diagnostics=read.warnings)


def _worker(work: Callable[[Any], Any], tasks: Any, results: Any) -> None:
    """A worker process: apply ``work`` to the items it is handed until it gets None."""
    for k, item in iter(tasks.get, None):
        results.put((k, work(item)))


def parallel_map(work: Callable[[T], R], items: Sequence[T], jobs: int, lost: Callable[[T], R]) -> Iterator[R]:
    """``work`` over ``items`` in ``jobs`` forked worker processes, results in input order.

    Forked workers inherit ``work`` and what it holds (a pipeline with WordNet and the word lists
    loaded once), shared copy-on-write, so only items and results travel between processes. Never
    more workers than items. An item whose worker dies (killed, out of memory) gets ``lost(item)``;
    the rest go on.
    """
    if jobs <= 1 or len(items) <= 1:
        yield from map(work, items)
        return
    ctx = multiprocessing.get_context("fork")
    tasks, results = ctx.Queue(), ctx.Queue()
    workers = [ctx.Process(target=_worker, args=(work, tasks, results), daemon=True) for _ in range(min(jobs, len(items)))]
    for w in workers:
        w.start()
    for task in enumerate(items):
        tasks.put(task)
    for _ in workers:
        tasks.put(None)
    done: dict[int, R] = {}
    try:
        for k in range(len(items)):
            while k not in done:
                try:
                    got, result = results.get(timeout=1.0)
                except queue.Empty:
                    if not any(w.is_alive() for w in workers):  # every worker gone: the rest are lost
                        done.update({m: lost(items[m]) for m in range(k, len(items)) if m not in done})
                    continue
                done[got] = result
            yield done.pop(k)
    finally:
        for w in workers:
            if w.is_alive():
                w.terminate()
            w.join()


def run_batch(pipeline: Pipeline, records: Sequence[Record], opts: BatchOptions, jobs: int = 1) -> Iterator[Outcome]:
    """Yield one Outcome per record, in input order (``jobs`` worker processes, see ``parallel_map``)."""
    opts.out_dir.mkdir(parents=True, exist_ok=True)
    yield from parallel_map(partial(resolve_record, pipeline, opts=opts), records, jobs, lost_record)


def lost_record(record: Record) -> Outcome:
    """The outcome of a record whose worker process died."""
    return Outcome(record.name, False, diagnostics=[diagnostic("RC551", file=str(record.con))])
