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
    # SciPy is imported here, not with the module: importing it costs 0.4 s, which every
    # ``rulecoref`` command would otherwise pay at start (the CLI imports each command's module)
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    n = len(value)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    nk = int(table.ki.max()) + 1
    nr = int(table.ri.max()) + 1
    ones = np.ones(n, dtype=np.int8)
    graph = coo_matrix((ones, (table.ki, nk + table.ri)), shape=(nk + nr, nk + nr))
    _, labels = connected_components(graph, directed=False)
    comp = labels[table.ki]
    rk = rank if rank is not None else np.zeros(n)
    # Components with one entity on either side (nearly all of them in practice) need no
    # assignment: the best cell wins. They are solved together with one sort.
    keys_per = np.bincount(comp[_first_of_pairs(comp, table.ki)])
    resps_per = np.bincount(comp[_first_of_pairs(comp, table.ri)])
    simple = (keys_per[comp] == 1) | (resps_per[comp] == 1)
    order = np.lexsort((value, rk, comp))  # by component, then rank, then value: the best cell is last
    order = order[simple[order]]
    last = np.flatnonzero(np.append(np.diff(comp[order]) != 0, True)) if len(order) else order
    chosen: list[np.ndarray] = [order[last]]
    hard = np.flatnonzero(~simple)
    if len(hard):
        hard = hard[np.argsort(comp[hard], kind="stable")]
        bounds = np.flatnonzero(np.diff(comp[hard])) + 1
        for cells in np.split(hard, bounds):
            chosen.append(_assign(table, cells, value[cells], rk[cells] if rank is not None else None))
    return np.concatenate(chosen)


def _first_of_pairs(comp: np.ndarray, ent: np.ndarray) -> np.ndarray:
    """Index of one cell per distinct (component, entity) pair."""
    _, first = np.unique(np.stack([comp, ent]), axis=1, return_index=True)
    return first


def _assign(table: Contingency, cells: np.ndarray, val: np.ndarray, rk: np.ndarray | None) -> np.ndarray:
    """Optimal assignment inside one component with 2+ entities on both sides."""
    from scipy.optimize import linear_sum_assignment  # see ``align``

    keys, rows = np.unique(table.ki[cells], return_inverse=True)
    resps, cols = np.unique(table.ri[cells], return_inverse=True)
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
    return picked[picked >= 0]  # pairs with no shared mention add nothing


def ceafm_counts(table: Contingency) -> Counts:
    total = int(table.counts[align(table, table.counts.astype(float))].sum())
    return Counts(total, table.n_key, total, table.n_resp)


def ceafe_counts(table: Contingency) -> Counts:
    sim = phi4(table)
    total = float(sim[align(table, sim)].sum())
    return Counts(total, len(table.key_sizes), total, len(table.resp_sizes))
