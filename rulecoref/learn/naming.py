"""Names and descriptions of learned rules, built from what the rule does.

A name reads as the rule's key, what it requires, whom it applies to and how far back it looks
("same-head-base-words-covered-for-event-within-3-sentences"); the description is a sentence made of
short phrases for the key, the requirements and the vetoes. The phrases are the registries': a
blocking key's is its ``BlockingKey.phrase`` (``@attribute``), a predicate's its ``phrase``
(``@predicate``; a function of its settings when they change what it says). A predicate without
one is named by its own name (``number_clash`` -> "number clash").
"""

from __future__ import annotations

from collections.abc import Iterable

from ..attributes import ATTRIBUTES
from ..phrases import listed
from ..predicates import PREDICATES
from .space import Blocking, FilterRule, MatchRule, Pred, Scope


def key_phrase(b: Blocking) -> tuple[str, str]:
    """(name part, phrase) of a blocking key: its attribute's ``BlockingKey.phrase`` for this
    antecedent key (else for the key alone), else made of the attribute's name."""
    spec = ATTRIBUTES.get(b.key)
    declared = {d.antecedent_key: d.phrase for d in (spec.blocking or ())} if spec is not None else {}
    return (declared.get(b.antecedent_key) or declared.get(None)
            or (b.key.replace("_", "-"), f"the same {b.key.replace('_', ' ')}"))


def predicate_phrase(p: Pred | str) -> tuple[str, str]:
    """(name part, phrase) of a predicate with its settings."""
    p = p if isinstance(p, Pred) else Pred(p)
    spec = PREDICATES.get(p.name)
    phrase = spec.phrase if spec is not None else None
    if callable(phrase):  # it says its settings
        return phrase({k: v.default for k, v in spec.params.items()} | p.settings)
    return phrase or (p.name.replace("_", "-"), p.name.replace("_", " ") + " holds")


def scope_words(scope: Scope) -> tuple[str, str]:
    """(name part, phrase) of a scope: 'for-event-place' / 'event and place mentions'. A name names
    at most two types; its ``applies_to`` lists them all."""
    if scope.types is not None:
        names = sorted(scope.types)
        return ("for-" + "-".join(names) if len(names) <= 2 else ""), listed(names) + " mentions"
    if scope.exclude:
        names = sorted(scope.exclude)
        return ("except-" + "-".join(names) if len(names) <= 2 else ""), "mentions other than " + listed(names, "or")
    return "", "mentions of any type"


def match_name(rule: MatchRule) -> str:
    parts = [key_phrase(rule.blocking)[0], *(predicate_phrase(p)[0] for p in rule.require)]
    scope = scope_words(rule.scope)[0]
    if scope:
        parts.append(scope)
    if rule.window:
        parts.append(f"within-{rule.window}-sentence" + ("s" if rule.window > 1 else ""))
    return "-".join(parts)


def match_description(rule: MatchRule) -> str:
    text = f"links {scope_words(rule.scope)[1]} to the nearest earlier one"
    if rule.blocking.direction != "backward":
        text += " (or later one, when none before passes)"
    text += f" with {key_phrase(rule.blocking)[1]}"
    if rule.window:
        text += f", at most {rule.window} sentence{'s' if rule.window > 1 else ''} away"
    if rule.require:
        text += ", when " + listed([predicate_phrase(p)[1] for p in rule.require])
    if rule.veto:
        text += "; not when " + listed([predicate_phrase(p)[1] for p in rule.veto], "or")
    return text


def filter_name(rule: FilterRule) -> str:
    made = [f"remove-{'-'.join(rule.made_by)}-links-if"] if rule.made_by else ["remove-if"]
    parts = [*made, *(predicate_phrase(p)[0] for p in rule.remove_if)]
    scope = scope_words(rule.scope)[0]
    return "-".join(parts + ([scope] if scope else []))


def filter_description(rule: FilterRule) -> str:
    whose = f" that {listed(list(rule.made_by), 'or')} alone made" if rule.made_by else ""
    return (f"removes a link{whose} of {scope_words(rule.scope)[1]} when "
            + listed([predicate_phrase(p)[1] for p in rule.remove_if], "or"))


def unique(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name-2``, ``name-3`` ... if it is taken."""
    taken = set(taken)
    if name not in taken:
        return name
    k = 2
    while f"{name}-{k}" in taken:
        k += 1
    return f"{name}-{k}"
