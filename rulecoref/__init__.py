"""rulecoref: a YAML rule engine for coreference resolution in clinical text (i2b2/VA 2011)."""

__version__ = "0.1.0"
