"""``--resume`` of ``resolve`` and ``spark-resolve``: finish a batch that an earlier run began.

A batch of a million notes that dies at 80 % (a SIGKILL, a node lost, a full disk) should not
cost the first 80 % again. Every output file is written atomically (``io.outdir.write_atomic``)
and named in the folder's manifest before the run writes any, so a file that exists under its
final name is whole, and the manifest says whether a rulecoref run of the same kind wrote it and
whether anyone changed it since (``OutputFolder.intact``). A document is done when every file
the run would write for it is such a file; ``--resume`` skips those, removes the temporary files
a killed run left, and resolves the rest. The outputs of a document are a function of the
document and the options, so the finished folder holds what one clean run writes, as long as the
resumed run is given the options of the run it finishes (the same rules, ``--format``,
``--provenance``); a file someone edited is no longer rulecoref's and stops the run (RC512).

A resumed run's report covers the whole batch: ``documents`` counts every input, ``resolved``
includes the ``skipped`` ones, and the counts (concepts, links, chains) and warnings are those of
the documents resolved in this run. A resumed run with nothing left to do changes nothing: no
file is rewritten (the manifest, the report, brat's annotation.conf).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import CliError, diagnostic
from .io.outdir import OutputFolder


def add_resume_option(p: argparse.ArgumentParser) -> None:
    """``--resume``, as resolve and spark-resolve take it."""
    p.add_argument("--resume", action="store_true",
                   help="finish an earlier run into OUT_DIR: documents whose files it wrote (and nobody changed "
                        "since) are skipped, its leftover temporary files removed; give the same options")


def check_resume(args: argparse.Namespace) -> None:
    """``--resume`` keeps an earlier run's files and ``--overwrite`` deletes them: one or the other."""
    if getattr(args, "resume", False) and getattr(args, "overwrite", False):
        raise CliError(diagnostic("RC553", option="--resume", detail="keeps the earlier run's files, which "
                                                                      "--overwrite deletes; give one of them"))


@dataclass
class Plan:
    """What a resumed run does: the records left to resolve and the names of those it skips."""

    todo: list[Any]
    skipped: list[str] = field(default_factory=list)
    cleaned: list[str] = field(default_factory=list)
    resumed: bool = False


def plan(out: OutputFolder, records: Sequence[Any], names_of: Callable[[Any], Sequence[str]]) -> Plan:
    """Split ``records`` (each with ``.name``) into those to resolve and those done (every file
    ``names_of(record)`` lists is intact in ``out``), after removing the temporary files a killed
    run left. Without ``out.resume`` every record is to do. Call it after ``out.open``."""
    if not out.resume:
        return Plan(list(records))
    cleaned = out.clean_temps()
    todo, skipped = [], []
    for rec in records:
        names = names_of(rec)
        (skipped.append(rec.name) if names and all(n in out.intact for n in names) else todo.append(rec))
    return Plan(todo, skipped, cleaned, resumed=True)


def note(report: dict[str, Any], done: Plan) -> None:
    """Add the skipped documents to a report of the records resolved in this run, so that it covers the batch."""
    if done.resumed:
        if report.get("documents") is not None:  # None: rows Spark read itself, uncounted
            report["documents"] += len(done.skipped)
        report["resolved"] += len(done.skipped)
        report["skipped"] = len(done.skipped)
        report["temporary_files_removed"] = len(done.cleaned)


def nothing_left(out: OutputFolder, done: Plan, report_name: str) -> bool:
    """A resumed run over a finished folder: nothing to resolve, no leftovers, and the earlier
    run's report is there (a run killed after its last document but before its report gets one)."""
    return done.resumed and not done.todo and not done.cleaned and report_name in out.intact


def say_nothing_left(done: Plan, out: OutputFolder, report_name: str) -> int:
    """The summary line of a resumed run that found the batch finished; exit 0, as the earlier run
    (a run with failed documents leaves them to do)."""
    print(f"rulecoref: {len(done.skipped)}/{len(done.skipped)} docs done by an earlier run, nothing to resume; "
          f"its report: {out.path / report_name}")
    return 0
