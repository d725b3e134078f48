"""Learning from gold chains: measure each pass (``ablate``), search pass order and numeric
parameters (``ablate --search``), and induce new ``match`` and ``filter`` rules (``induce``).

Learned rules are ordinary rules: the search writes rule files that the normal compiler checks
and the normal engine runs, and every number it reports is measured by running them. The modules:

  corpus.py    gold documents, their base-rule links and the split by document name
  score.py     CoNLL counts of one document's partition (MUC, B3, CEAF-e), summable
  ablate.py    per pass: links, precision, links only it found, F1 without it
  search.py    greedy moves, drops and numeric re-parameterisation of a rule file's passes
  rewrite.py   the winning rule file, written as edits of the original text
  space.py     what a learned rule may be: blocking keys, predicates, windows, scopes
  pairs.py     candidate pairs per blocking key and predicate outcomes per pair, once per run
  state.py     the links and chains of the rules chosen so far, and the F1 a candidate would give
  induce.py    the greedy sieve induction with its held-back check
  naming.py    names and descriptions that say what a learned rule does
  examples.py  inline examples generated from the rule itself, never from training text
  writer.py    the learned rule file
"""
