"""The bundled rule files (rules/*.yaml, data rather than a module): each one's own behaviour on
invented documents. What runs every bundled file's ``examples:`` is tests/test_rule_examples.py."""
