"""The keys a rule file may hold: anything else is RC103 (the compiler's ``unknown_keys``).

Each kind's own parameters are ``params.Param`` specs declared beside the kind; these are the
keys around them, which only the compiler (and the docs test) reads.
"""

# Keys of one pass entry in a rule file (anything else is RC103), besides a kind's own ``rule_keys``.
PASS_KEYS = ("kind", "name", "applies_to", "params", "examples", "enabled", "description")
APPLIES_TO_KEYS = ("types", "exclude_types", "same_type")
EXAMPLE_KEYS = ("link", "no_link")
TOP_KEYS = ("version", "name", "description", "types", "pronoun_types", "attributes", "mentions", "passes", "decoder")
DEFAULT_TYPES = ("person", "problem", "treatment", "test", "pronoun")
