"""Mention attributes: named facts about each concept of a document, computed once per document.

Every rule reads mentions through these names, the way Stanford's sieves read one ``Mention``
object: ``match`` rules name them as blocking keys and in pair predicates, the Python kinds read
them from ``ctx.table``, and the Bell-tree features read the same table. ``docs/rules.md``
("Mention attributes") lists them with examples.

One module per concern, each with the ``attributes:`` settings group its attributes read:

    registry.py   @attribute, ATTRIBUTES, closure; @settings_group, SETTINGS, MentionSettings
    heads.py      position, words, conditioning, heads, word families (the top-level settings, word_match)
    acronyms.py   acronyms, initials, the acronyms a long form admits (acronym)
    people.py     person and pronoun mentions, roles, gender, name words (people, names)
    clues.py      clue windows, dates, places, descriptions, adjectives (clues)
    umls.py       UMLS concept numbers (umls)
    salience.py   pronoun roles, subject positions, name occurrences (salience)
    clinical.py   negation, hedges, history, degree, sites, sections, drugs (clinical)
    syntax.py     grammatical roles and syntactic heads from an optional parse (syntax)

Adding an attribute is one function decorated ``@attribute("name", depends=..., help=...,
blocking=...)`` in its concern's module (``blocking``: how ``rulecoref induce`` may block on it,
``()`` for never), and a setting it reads one ``setting(...)`` field of that module's group; its
test goes in ``tests/attributes/test_<concern>.py``. Word-level answers (a token's conditioned
form, WordNet synonyms) go through the process's one memo, ``Resources.memo``; settings-level
tables (drug names) are the settings object's; nothing else outlives a document.
"""

from __future__ import annotations

# isort: off
# the concern modules register their attributes and settings groups in this order (docs/rules.md's)
from . import heads, acronyms, people, clues, umls, salience, clinical, syntax  # noqa: F401
# isort: on
from .clinical import heading_of, scope_changes, scope_reader
from .clues import trigger_windows
from .heads import core_length, word_families
from .registry import (
    ATTRIBUTES,
    EMPTY,
    GROUPS,
    SETTINGS,
    AttributeSpec,
    BlockingKey,
    MentionSettings,
    attribute,
    closure,
    live,
    setting,
    settings_group,
)
from .salience import NO_NAME, NameOccurrences, Place, subject_at
from .umls import UmlsStrings

__all__ = [
    "ATTRIBUTES", "EMPTY", "GROUPS", "NO_NAME", "SETTINGS", "AttributeSpec", "BlockingKey", "MentionSettings",
    "NameOccurrences", "Place", "UmlsStrings", "attribute", "closure", "core_length", "heading_of", "live", "scope_changes",
    "scope_reader", "setting", "settings_group", "subject_at", "trigger_windows", "word_families",
]
