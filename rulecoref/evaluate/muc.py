"""MUC (Vilain et al. 1995): how many links are needed to rebuild the other side's entities.

Recall = Σ_k (|k| - |p(k)|) / Σ_k (|k| - 1), where p(k) partitions k by the response (a key
mention missing from the response is its own part); precision swaps the roles. Both numerators
equal Σ over overlapping (k, r) of (|k ∩ r| - 1), so one number serves both. Singletons add 0
links on either side: MUC cannot see them (the reason B3, CEAF and BLANC exist).
Example: key {a b c}, response {a b} {c}: recall 1/2, precision 1/1.
"""

from __future__ import annotations

from .core import Contingency, Counts


def muc_counts(table: Contingency) -> Counts:
    correct = int(table.counts.sum()) - len(table.counts)
    key_links = int((table.key_sizes - 1).sum())
    resp_links = int((table.resp_sizes - 1).sum())
    return Counts(correct, key_links, correct, resp_links)
