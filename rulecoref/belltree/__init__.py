"""Luo et al. 2004 (seed 000): maximum-entropy linking models and beam search over the Bell tree.

features.py  Table 1 features from the document matrix, plus the rule passes' decisions (hybrid)
maxent.py    logistic regression (= binary maximum entropy), JSON model files, no pickle
scoring.py   the mention-pair (eq. 9) and entity-mention (eq. 8) link scorers
beam.py      Algorithm 1: mention-synchronous beam search with local/global pruning and a window
train.py     training events: compatible pairs, or Bell-tree true-path events
decoder.py   the ``belltree`` decoder a rule file names with ``decoder: {kind: belltree, ...}``

This package never imports ``rulecoref.passes``: rule decisions reach it as data, through the
``Resolution`` the engine computed before decoding.
"""

from ..extras import require

require("belltree", "the Bell-tree decoder (train, sweep, rules/belltree.yaml, rules/hybrid.yaml)")
