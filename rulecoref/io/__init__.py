"""Documents in and out: the formats (i2b2/VA 2011, CoNLL-2012, JSONL, brat; ``formats.py`` is their
registry), type maps, finding a batch's records, and the one way outputs are written. The bounded
readers they all use are ``rulecoref/bounded.py``, below io and resources alike."""
