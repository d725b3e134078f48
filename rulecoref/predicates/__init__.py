"""Pair predicates: the vocabulary of ``match`` rules (``require:``, ``veto:``) and of ``filter``
rules (``remove_if:``), in the spirit of dcoref's ``Rules.java``.

A predicate looks at two mentions of one document through the mention table and answers with
evidence (a short text saying why it holds, which becomes the link's or removal's provenance) or
None. Evidence that takes work to spell out ("all words of ... match ...: abscesses~abscess
(prefix 'absces')") may be a ``document.Evidence``, whose ``str()`` builds the text: a rule asks
about many candidates and links few, and provenance spells it out only for the links kept and
read. ``i`` is the mention being resolved (the later one) and ``j`` the candidate antecedent; for
a filter they are the two ends of a link. Predicates read attributes, never the text itself, so
the attributes they name (``attributes=``) are computed once per document before the rules run.

Every predicate takes a ``types:`` setting through the registry (``PredicateSpec.bind``): a rule
may keep it to mentions of some types ("genes not expressed in ..." negates a verb, not a
finding, so a clinical veto keeps to clinical types).

The predicates live by concern (``matching.py``: position, words, names, agreement;
``clinical.py``: clues beside the mentions and clinical context; ``discourse.py``: distance and
what each mention is on its own); ``registry.py`` holds ``PredicateSpec`` and ``@predicate``.
Adding a predicate is one function decorated ``@predicate("name", attributes=..., help=...,
role=...)`` (with ``params=`` when it takes settings; ``role``, ``grid`` and ``phrase`` tell
``rulecoref induce`` how to use it) and a unit test in ``tests/test_predicates.py``;
``docs/rules.md`` lists them all. Two declarations tell the engine's plan (``plan.py``) when it
need not ask: ``implied_by`` (the blocking keys of a match rule already imply it) and
``needs_value`` (it cannot hold in a document where no mention has a true value of that attribute).
"""

from __future__ import annotations

from .registry import PREDICATES, ROLES, TYPES, PredicateSpec, Test, predicate

# the modules register their predicates on import, in this order (the order ``induce`` tries them in)
# isort: off
from . import matching  # noqa: F401
from . import clinical  # noqa: F401
from . import discourse  # noqa: F401
# isort: on
from .matching import overlaps

__all__ = ["PREDICATES", "ROLES", "TYPES", "PredicateSpec", "Test", "overlaps", "predicate"]
