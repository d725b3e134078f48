"""rulecoref: a YAML rule engine for coreference resolution in clinical text (i2b2/VA 2011)."""

__version__ = "0.1.0"


def __getattr__(name: str):
    """``rulecoref.load`` (the Python API, ``rulecoref/api.py``), imported when first used: the
    command line's start-up does not pay for it."""
    if name == "load":
        from .api import load

        return load
    raise AttributeError(f"module 'rulecoref' has no attribute {name!r}")
