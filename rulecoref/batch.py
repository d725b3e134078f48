"""Resolve a batch of records: stream documents through a pipeline, write chains atomically.

One bad document never stops a batch: its problems are returned in its outcome, no chains file is
written for it, and the caller reports it and exits non-zero. Documents are read, resolved and
written one at a time (in worker processes with ``jobs > 1``), so memory stays flat however many
documents a batch holds.
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .engine import Pipeline
from .errors import Diagnostic, RulecorefError, diagnostic
from .io.i2b2 import format_chains, read_document, write_atomic
from .io.layout import Record


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


def resolve_record(pipeline: Pipeline, record: Record, opts: BatchOptions) -> Outcome:
    """Read, resolve and write one record; never raises for a bad document."""
    t0 = time.perf_counter()
    if record.txt is None:
        return Outcome(record.name, False, diagnostics=[
            diagnostic("RC204", file=str(record.con), path=str(record.con), expected=record.con.name[:-4])])
    try:
        read = read_document(record.txt, record.con, name=record.name, types=opts.types,
                             strict_text=opts.strict_text, encoding=opts.encoding)
        doc = read.document
        res = pipeline.resolve(doc)
        chains = res.chains()
        out = opts.out_dir / f"{record.name}.txt.chains"
        try:
            write_atomic(out, format_chains(doc, [c for c, _ in chains], [t for _, t in chains]))
            if opts.provenance:
                out = opts.out_dir / f"{record.name}.links.json"
                write_atomic(out, json.dumps(res.to_dict(), indent=1) + "\n")
        except OSError as exc:  # the output's problem (a full disk), not the input's
            return Outcome(record.name, False, seconds=time.perf_counter() - t0, diagnostics=[
                diagnostic("RC510", file=str(out), path=str(out), detail=exc.strerror or str(exc))])
    except RulecorefError as exc:
        return Outcome(record.name, False, seconds=time.perf_counter() - t0, diagnostics=exc.diagnostics)
    except Exception as exc:  # a bug or an unexpected input: report it, keep the batch going
        return Outcome(record.name, False, seconds=time.perf_counter() - t0, diagnostics=[
            diagnostic("RC502", file=str(record.con), detail=f"internal error {type(exc).__name__}: {exc}")])
    return Outcome(record.name, True, concepts=len(doc.concepts), links=len(res.kept), removed=len(res.removed),
                   chains=len(chains), seconds=time.perf_counter() - t0, diagnostics=read.warnings)


class WarmHeap:
    """The batch runner's garbage-collector policy: no automatic collections inside a document,
    and what outlives documents moved out of the collector's sight now and then.

    A document's objects (tokens, mentions, links, provenance) live exactly as long as the
    document and hold no reference cycles, so reference counting frees them when it is written;
    the collector's automatic runs while a document is resolved only rescan them (about a tenth of
    a CRAFT run). ``document()`` switches automatic collection off for one document and back on
    after it, so any cyclic garbage waits at most one document.

    The first documents of a batch also fill caches that live for the whole process: WordNet
    synsets that NLTK builds lazily, the passes' per-word analyses. Left in the collector's oldest
    generation they are rescanned by every full collection. After the 1st, 2nd, 4th, 8th ...
    document of a process the heap is collected (so no garbage is kept) and what survives is frozen
    (``gc.freeze``), as the WordNet loader does at start-up: the scans stop, the cost is
    logarithmic in the batch size, and freed cache entries are still released by reference counting.
    """

    def __init__(self) -> None:
        self.documents = 0

    @contextmanager
    def document(self) -> Iterator[None]:
        """Resolve one document inside this block."""
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            yield
        finally:
            if was_enabled:
                gc.enable()
        self.after_document()

    def after_document(self) -> None:
        self.documents += 1
        if self.documents & (self.documents - 1) == 0:  # a power of two
            gc.collect()
            gc.freeze()


_HEAP = WarmHeap()  # one per process; forked workers continue with their own copy


# Worker processes inherit the parent's pipeline through fork, so WordNet and the lexicons that the
# parent loaded once are shared copy-on-write instead of loaded again per worker.
_WORKER: tuple[Pipeline, BatchOptions] | None = None


def _work(record: Record) -> Outcome:
    assert _WORKER is not None
    with _HEAP.document():
        return resolve_record(_WORKER[0], record, _WORKER[1])


def run_batch(pipeline: Pipeline, records: Sequence[Record], opts: BatchOptions, jobs: int = 1) -> Iterator[Outcome]:
    """Yield one Outcome per record, in input order."""
    global _WORKER
    opts.out_dir.mkdir(parents=True, exist_ok=True)
    if jobs <= 1 or len(records) <= 1:
        for rec in records:
            with _HEAP.document():
                outcome = resolve_record(pipeline, rec, opts)
            yield outcome
        return
    _WORKER = (pipeline, opts)
    try:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(processes=min(jobs, len(records))) as pool:  # never more workers than documents
            yield from pool.imap(_work, records, chunksize=max(1, min(16, len(records) // (jobs * 4) or 1)))
    finally:
        _WORKER = None
