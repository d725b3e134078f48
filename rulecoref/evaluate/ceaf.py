"""CEAF (Luo 2005): score the best one-to-one alignment of key and response entities.

Two similarities are used:
  * phi3 = |k ∩ r| (mention-based, CEAF-m). Luo et al. 2004's ECM-F is this measure: with phi3
    the aligned total counts the mentions that sit in aligned entities;
  * phi4 = 2|k ∩ r| / (|k| + |r|) (entity-based, CEAF-e), the CoNLL F1 component.
Recall divides the aligned total by the key's self-similarity (mentions for phi3, entities for
phi4), precision by the response's.

The alignment is solved with ``scipy.optimize.linear_sum_assignment``, but never on the full
key x response matrix: entities that share no mention have similarity 0, so the bipartite graph
of overlapping entities splits into connected components and each component is aligned on its
own (the optimum of the whole is the sum of the components' optima). A component with one entity
on either side is solved by taking its best cell. On a CRAFT document scored against all
singletons every component is one key entity and its own mentions, so no matrix is built at all.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from .core import Contingency, Counts


def phi4(table: Contingency) -> np.ndarray:
    """Entity-based similarity of every non-zero cell, computed as the i2b2 scorer does
    (``2.0 * overlap / (len(k) + len(r))``) so that its 2-decimal truncation sees the same floats."""
    return (2.0 * table.counts) / (table.key_sizes[table.ki] + table.resp_sizes[table.ri])


def align(table: Contingency, value: np.ndarray, rank: np.ndarray | None = None) -> np.ndarray:
    """The cells (indices into ``table``'s arrays) of an optimal one-to-one entity alignment.

    Args:
        value: the similarity of every non-zero cell of ``table``; the alignment maximises its total.
        rank: when given, the alignment maximises the total ``rank`` (integers) instead and, among
            the alignments tied on that, the total ``value``. The i2b2 scorer aligns on
            int(100 * phi4) and then sums the raw phi4 of the aligned pairs.
    """
    n = len(value)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    nk = int(table.ki.max()) + 1
    nr = int(table.ri.max()) + 1
    ones = np.ones(n, dtype=np.int8)
    graph = coo_matrix((ones, (table.ki, nk + table.ri)), shape=(nk + nr, nk + nr))
    _, labels = connected_components(graph, directed=False)
    comp = labels[table.ki]
    order = np.argsort(comp, kind="stable")
    bounds = np.flatnonzero(np.diff(comp[order])) + 1
    chosen: list[np.ndarray] = []
    for cells in np.split(order, bounds):
        val = value[cells]
        rk = rank[cells] if rank is not None else None
        keys, rows = np.unique(table.ki[cells], return_inverse=True)
        resps, cols = np.unique(table.ri[cells], return_inverse=True)
        if len(keys) == 1 or len(resps) == 1:
            best = int(np.lexsort((val, rk))[-1]) if rk is not None else int(np.argmax(val))
            chosen.append(cells[best : best + 1])
            continue
        weight = np.zeros((len(keys), len(resps)))
        if rk is None:
            weight[rows, cols] = val
        else:
            # Lexicographic objective in one matrix: one rank unit outweighs any value total.
            weight[rows, cols] = rk * float(min(len(keys), len(resps)) + 1) + val
        where = np.full((len(keys), len(resps)), -1, dtype=np.int64)
        where[rows, cols] = cells
        r, c = linear_sum_assignment(weight, maximize=True)
        picked = where[r, c]
        chosen.append(picked[picked >= 0])  # pairs with no shared mention add nothing
    return np.concatenate(chosen)


def ceafm_counts(table: Contingency) -> Counts:
    total = int(table.counts[align(table, table.counts.astype(float))].sum())
    return Counts(total, table.n_key, total, table.n_resp)


def ceafe_counts(table: Contingency) -> Counts:
    sim = phi4(table)
    total = float(sim[align(table, sim)].sum())
    return Counts(total, len(table.key_sizes), total, len(table.resp_sizes))
