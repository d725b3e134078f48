"""Resolve a batch of records: stream documents through a pipeline, write chains atomically.

One bad document never stops a batch: its problems are returned in its outcome, no chains file is
written for it, and the caller reports it and exits non-zero. Documents are read, resolved and
written one at a time (in worker processes with ``jobs > 1``), so memory stays flat however many
documents a batch holds.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from .document import Document
from .engine import Pipeline, Resolution
from .errors import Diagnostic, RulecorefError, diagnostic
from .io.formats import ReadOptions, ReadResult, Record, read_record, write_document
from .io.outdir import write_atomic
from .io.typemap import TypeMap
from .pool import parallel_map


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


def run_batch(pipeline: Pipeline, records: Sequence[Record], opts: BatchOptions, jobs: int = 1) -> Iterator[Outcome]:
    """Yield one Outcome per record, in input order (``jobs`` worker processes, see ``pool.parallel_map``)."""
    opts.out_dir.mkdir(parents=True, exist_ok=True)
    yield from parallel_map(partial(resolve_record, pipeline, opts=opts), records, jobs, lost_record)


def lost_record(record: Record) -> Outcome:
    """The outcome of a record whose worker process died."""
    return Outcome(record.name, False, diagnostics=[diagnostic("RC551", file=str(record.con))])
