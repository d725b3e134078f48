"""B-cubed (Bagga & Baldwin 1998), mention-weighted as in the CoNLL reference scorer.

Every key mention m scores |k(m) ∩ r(m)| / |k(m)| for recall and every response mention
|k(m) ∩ r(m)| / |r(m)| for precision; summed per overlap cell that is Σ c²/|k| and Σ c²/|r|,
divided by the number of key (response) mentions. A response mention absent from the key scores
0 precision, a key mention absent from the response 0 recall.
The i2b2 scorer's entity-weighted variant is in :mod:`rulecoref.evaluate.i2b2`.
"""

from __future__ import annotations

from .core import Contingency, Counts


def bcubed_counts(table: Contingency) -> Counts:
    c2 = table.counts.astype(float) ** 2
    recall_num = float((c2 / table.key_sizes[table.ki]).sum()) if len(c2) else 0.0
    precision_num = float((c2 / table.resp_sizes[table.ri]).sum()) if len(c2) else 0.0
    return Counts(recall_num, table.n_key, precision_num, table.n_resp)
