"""The warnings of a batch, counted by code with a few examples of each.

A report that kept every warning of every note grew with the batch: a million notes with a
duplicate span each would be a million entries, carried to one driver by Spark and printed. A
tally keeps, per code, the count and the ``EXAMPLES`` first warnings in a fixed order (by file,
line and message, not by arrival), so ``resolve`` with any ``--jobs`` and ``spark-resolve`` with
any partitioning report the same examples; tallies of parts merge (``merge``) into the tally of
the whole. It holds plain dicts (``Diagnostic.to_dict``), so Spark ships it between processes as it is.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .errors import Diagnostic

#: Warnings of each code the report keeps and the run prints.
EXAMPLES = 3


def _order(d: dict[str, Any]) -> tuple[str, int, str]:
    return (d.get("file") or "", d.get("line") or 0, d.get("message") or "")


class WarningTally:
    """Warnings counted by code, with the first ``examples`` of each in ``_order``."""

    def __init__(self, examples: int = EXAMPLES) -> None:
        self.examples = examples
        self.codes: dict[str, dict[str, Any]] = {}  # code -> {"count": n, "examples": [warning dicts]}

    def add(self, warnings: Iterable[Diagnostic | dict[str, Any]]) -> WarningTally:
        for w in warnings:
            d = w.to_dict() if isinstance(w, Diagnostic) else w
            entry = self.codes.setdefault(str(d.get("code")), {"count": 0, "examples": []})
            entry["count"] += 1
            self._keep(entry, [d])
        return self

    def _keep(self, entry: dict[str, Any], more: list[dict[str, Any]]) -> None:
        entry["examples"] = sorted(entry["examples"] + more, key=_order)[: self.examples]

    def merge(self, other: WarningTally) -> WarningTally:
        """This tally and ``other``'s, as one (Spark's reduce of the partitions' tallies)."""
        for code, theirs in other.codes.items():
            entry = self.codes.setdefault(code, {"count": 0, "examples": []})
            entry["count"] += theirs["count"]
            self._keep(entry, theirs["examples"])
        return self

    @property
    def count(self) -> int:
        return sum(e["count"] for e in self.codes.values())

    def to_dict(self) -> dict[str, Any]:
        """The report's ``warnings``: ``{"count": N, "by_code": {CODE: {"count": n, "examples": [...]}}}``."""
        return {"count": self.count, "by_code": {c: self.codes[c] for c in sorted(self.codes)}}

    def print(self, report: Path, *, quiet: bool) -> None:
        """Each code's examples on stderr, and how many more of it the run had."""
        if quiet:
            return
        for code in sorted(self.codes):
            entry = self.codes[code]
            for d in entry["examples"]:
                print(f"warning: {_diagnostic(d)}", file=sys.stderr)
            if entry["count"] > len(entry["examples"]):
                print(f"warning: ... and {entry['count'] - len(entry['examples'])} more [{code}] warning(s), "
                      f"{entry['count']} in all (counted in {report})", file=sys.stderr)


def _diagnostic(d: dict[str, Any]) -> Diagnostic:
    return Diagnostic(code=d["code"], message=d["message"], file=d.get("file"), line=d.get("line"),
                      hint=d.get("hint"), severity=d.get("severity", "warning"))
