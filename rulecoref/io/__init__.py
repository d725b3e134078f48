"""Documents in and out: the formats (i2b2/VA 2011, CoNLL-2012, JSONL, brat; ``formats.py`` is their
registry), type maps, bounded reading, finding a batch's records, and the one way outputs are written."""
