"""BLANC (Recasens & Hovy 2011), generalised to system mentions by Luo et al. 2014, as the
CoNLL reference scorer v8.01 computes it.

Every pair of mentions on one side is a coreference link (same entity) or a non-coreference link
(different entities). Recall and precision are computed separately for the two kinds:
  coreference:     correct = pairs linked on both sides; R = correct / key links, P = / response links
  non-coreference: correct = pairs of mentions present on BOTH sides that are apart on both sides;
                   R = correct / key non-links, P = / response non-links
Key and response may hold different mentions (twinless mentions only add wrong links).
BLANC = mean of the two R, the two P and the two F. Edge cases (summed counts): when the key has
no coreference links BLANC is the non-coreference score, when it has no non-coreference links it
is the coreference score, when it has neither everything is 0 (test cases M/N of the scorer).
Example: key {a b} {c}, response {a b c}: coref R=1 P=1/3, non-coref R=0 P=0 -> BLANC F = 0.25.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .core import Contingency, Counts, Score, f1, pairs_within, safe_div


@dataclass(frozen=True)
class BlancCounts:
    coref: Counts
    noncoref: Counts

    def __add__(self, other: BlancCounts) -> BlancCounts:
        return BlancCounts(self.coref + other.coref, self.noncoref + other.noncoref)


def blanc_counts(table: Contingency) -> BlancCounts:
    """Link counts of one document (non-links never cross documents in CoNLL mode)."""
    key_links = pairs_within(table.key_sizes)
    resp_links = pairs_within(table.resp_sizes)
    both = pairs_within(table.counts)
    n_key, n_resp, n_common = table.n_key, table.n_resp, table.n_common
    key_non = n_key * (n_key - 1) // 2 - key_links
    resp_non = n_resp * (n_resp - 1) // 2 - resp_links
    # Pairs of shared mentions minus those together in the key or in the response (inclusion-exclusion).
    in_key = np.bincount(table.ki, weights=table.counts).astype(np.int64) if len(table.ki) else table.ki
    in_resp = np.bincount(table.ri, weights=table.counts).astype(np.int64) if len(table.ri) else table.ri
    non_both = n_common * (n_common - 1) // 2 - pairs_within(in_key) - pairs_within(in_resp) + both
    return BlancCounts(Counts(both, key_links, both, resp_links), Counts(non_both, key_non, non_both, resp_non))


def blanc_score(counts: BlancCounts) -> Score:
    """Combine summed link counts exactly as the reference scorer's ScoreBLANC does."""
    c, n = counts.coref, counts.noncoref
    rc, pc = safe_div(c.recall_num, c.recall_den), safe_div(c.precision_num, c.precision_den)
    rn, pn = safe_div(n.recall_num, n.recall_den), safe_div(n.precision_num, n.precision_den)
    fc, fn = f1(rc, pc), f1(rn, pn)
    detail: dict[str, object] = {
        "coref": {"recall": rc, "precision": pc, "f1": fc, **c.to_dict()},
        "noncoref": {"recall": rn, "precision": pn, "f1": fn, **n.to_dict()},
    }
    if not c.recall_den and not n.recall_den:
        return Score(0.0, 0.0, 0.0, counts=detail)
    if not c.recall_den:
        return Score(rn, pn, fn, counts=detail)
    if not n.recall_den:
        return Score(rc, pc, fc, counts=detail)
    return Score((rc + rn) / 2, (pc + pn) / 2, (fc + fn) / 2, counts=detail)
