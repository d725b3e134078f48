"""Coreference evaluation: MUC, B-cubed, CEAF-m/e, BLANC, pairwise and exact links, in the CoNLL
reference scorer's definitions (``mode="conll"``) or the official i2b2/VA 2011 scorer's
(``mode="i2b2"``). See docs/evaluation.md.

    from rulecoref.evaluate import score_dirs
    report = score_dirs("gold/", "system/", mode="conll", by_type=True)
    report.metrics["muc"].f1, report.conll_f1, report.by_type["person"].metrics["bcub"].recall

This package depends on ``errors``, ``document``-free ``io`` readers, numpy and scipy; it never
imports ``rulecoref.passes``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..extras import require

# checked before the modules that import numpy and scipy, so a base install gets RC304 naming the extra
require("eval", "scoring (rulecoref evaluate)")

from .core import Counts, Score  # noqa: E402
from .data import DocPartition, load_conll, load_i2b2  # noqa: E402
from .report import Report, format_table  # noqa: E402
from .scoring import MODES, score_partitions  # noqa: E402

__all__ = [
    "MODES",
    "Counts",
    "DocPartition",
    "Report",
    "Score",
    "format_table",
    "load_conll",
    "load_i2b2",
    "score_conll_files",
    "score_dirs",
    "score_partitions",
]


def score_dirs(
    gold_dir: str | Path,
    system_dir: str | Path,
    mode: str = "conll",
    by_type: bool = False,
    *,
    concepts_dir: str | Path | None = None,
    encoding: str = "utf-8",
    progress: Callable[[int, int], object] | None = None,
) -> Report:
    """Score a folder of system ``.txt.chains`` against an i2b2 gold folder (``progress``: called
    with the documents read and their number, as ``load_i2b2`` reads them).

    Every concept outside any chain is a singleton on both sides; a missing system file counts as
    "no chains" (warning RC703, kept in ``report.warnings``); a system mention that is not a gold
    concept is twinless when the gold text shows its words (scored, ``DocPartition.twinless``), and
    raises EvaluationError otherwise (RC701, naming file and line).
    """
    loaded = load_i2b2(gold_dir, system_dir, concepts_dir=concepts_dir, encoding=encoding, progress=progress)
    report = score_partitions(loaded.documents, mode=mode, by_type=by_type)
    report.warnings = loaded.warnings + report.warnings
    return report


def score_records(gold: str | Path, system: str | Path, fmt: Any, opts: Any, mode: str = "conll",
                  by_type: bool = False) -> Report:
    """Score a ``resolve`` output against gold JSONL (``chains``) or brat (coreference) documents,
    mentions matched by their characters (``records.load_records``)."""
    from .records import load_records

    loaded = load_records(Path(gold), Path(system), fmt, opts)
    report = score_partitions(loaded.documents, mode=mode, by_type=by_type)
    report.warnings = loaded.warnings + report.warnings
    return report


def score_conll_files(key_path: str | Path, response_path: str | Path, mode: str = "conll") -> Report:
    """Score a CoNLL-2012 response file against a key file (documents matched by id)."""
    loaded = load_conll(key_path, response_path)
    report = score_partitions(loaded.documents, mode=mode)
    report.warnings = loaded.warnings + report.warnings
    return report
