"""Names and descriptions of learned rules, built from what the rule does.

A name reads as the rule's key, what it requires, whom it applies to and how far back it looks
("same-head-base-words-covered-for-event-within-3-sentences"); the description is a sentence made of
short phrases for the key, the requirements and the vetoes. Attributes and predicates without a
phrase here are named by their own names (``number_clash`` -> "number clash").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..predicates import PREDICATES
from .space import Blocking, FilterRule, MatchRule, Pred, Scope

#: blocking key -> (name part, "... share/have ..." phrase for the description)
KEYS: dict[str, tuple[str, str]] = {
    "text_norm": ("same-words", "the same words (without punctuation and determiners)"),
    "head": ("same-head", "the same head word"),
    "head_base": ("same-head-base", "heads with one base form ('reports' / 'report')"),
    "head_word": ("same-head-word", "the same head word, pronouns included ('he' / 'he')"),
    "head_family/head": ("matching-heads", "heads that match (80% prefix or WordNet synonyms)"),
    "clinical_head_keys": ("same-clinical-head", "matching heads once a light noun is skipped ('apnea symptoms' / 'apnea')"),
    "acronym/acronym_forms": ("acronym", "an acronym and a long form whose initials give it"),
    "name_keys": ("name-initials", "name words with the same first letters"),
    "surname": ("same-surname", "the same surname"),
    "name_words": ("shared-name-word", "a name word in common"),
    "capitalised": ("shared-capitalised-word", "a capitalised word in common"),
    "words": ("shared-word", "a meaning-bearing word in common"),
    "head/words": ("head-among-words", "a meaning-bearing word that is the later one's head"),
    "words/head": ("word-is-head", "a head that is one of the later one's meaning-bearing words"),
    "drug": ("same-drug", "one drug, by brand or generic name"),
    "pronoun": ("same-pronoun", "the same pronoun word"),
    "line": ("same-sentence", "one sentence"),
    "thing_key": ("thing", "a thing (no person) or a pronoun for things"),
    "gender": ("same-gender", "the same gender"),
    "number": ("same-number", "the same number (singular or plural)"),
    "type": ("same-type", "one concept type"),
    "mention_level": ("same-mention-level", "the same mention level (name, description or pronoun)"),
    "is_pronoun": ("pronoun-to-pronoun", "pronouns both"),
    "person": ("person-to-person", "person mentions both (no pronouns)"),
    "subject_position": ("subject-to-subject", "both where a subject stands (first in a sentence or clause)"),
    "pronoun_role": ("same-pronoun-role", "the same pronoun role (subject, object, possessive, reflexive)"),
    "head_class": ("same-word-class", "heads of one word class (name, noun, pronoun, number)"),
}

#: predicate -> (name part when required, phrase)
PHRASES: dict[str, tuple[str, str]] = {
    "head_matches": ("heads-match", "their heads match"),
    "words_covered": ("words-covered", "every meaning-bearing word of the later one is in the earlier one"),
    "acronym_of": ("acronym-of", "one is an acronym of the other"),
    "names_match": ("names-match", "their name words match"),
    "same_drug": ("same-drug", "both name one drug"),
    "thing_antecedent": ("thing-pronoun", "the later one is a pronoun for things that agrees in number"),
    "clinical_head_matches": ("clinical-heads-match", "their heads match once light nouns are skipped"),
    "clinical_words_covered": ("clinical-words-covered", "the later one's clinical words are all in the earlier one"),
    "overlaps": ("overlap", "they overlap"),
    "gender_clash": ("gender-clash", "their genders differ"),
    "number_clash": ("number-clash", "one is singular and the other plural"),
    "dates_conflict": ("dates-conflict", "dates beside them differ"),
    "clues_conflict": ("clues-conflict", "places or descriptions beside them differ"),
    "adjective_only": ("adjective-only", "one is an adjective with no noun"),
    "negation_differs": ("negation-differs", "one is negated and the other not"),
    "negated_apart": ("negated-apart", "both are negated findings of different places"),
    "history_differs": ("history-differs", "one is placed in the past and the other not"),
    "new_event": ("new-event", "the later one introduces another one ('another', 'repeat')"),
    "generic_mention": ("generic", "one names a kind, not one thing ('any')"),
    "degree_clash": ("degree-clash", "one is qualified low and the other high"),
    "site_clash": ("site-clash", "their body sites differ"),
    "family_differs": ("family-differs", "one is in the family history and the other not"),
    "repeats_another": ("repeats-another", "the later one repeats word for word an earlier mention other than this one"),
    "later_adds_modifier": ("later-adds-modifier", "the later one adds a word before its head"),
}


def key_phrase(b: Blocking) -> tuple[str, str]:
    return KEYS.get(b.label) or KEYS.get(b.key) or (b.key.replace("_", "-"), f"the same {b.key.replace('_', ' ')}")


#: mention levels in words
LEVELS = {"NAM": ("name", "a name"), "NOM": ("description", "a description"), "PRO": ("pronoun", "a pronoun")}


def _levels(levels: Any) -> tuple[str, str]:
    levels = list(levels or ())
    return "-or-".join(LEVELS[x][0] for x in levels), _listed([LEVELS[x][1] for x in levels], "or")


def _mention_levels(settings: dict[str, Any]) -> tuple[str, str]:
    early, late = settings.get("earlier"), settings.get("later")
    if early and late:
        return (f"{_levels(early)[0]}-then-{_levels(late)[0]}",
                f"{_levels(early)[1]} comes first and {_levels(late)[1]} later")
    if late:
        return f"later-{_levels(late)[0]}", f"the later one is {_levels(late)[1]}"
    if early:
        return f"earlier-{_levels(early)[0]}", f"the earlier one is {_levels(early)[1]}"
    return "any-levels", "any mention levels"


def _begins_with(settings: dict[str, Any]) -> tuple[str, str]:
    words = list(settings.get("words") or ["a", "an"])
    which = settings.get("mention", "later")
    quoted = _listed([f"'{w}'" for w in words], "or")
    who = {"later": "the later one", "earlier": "the earlier one", "either": "either"}[which]
    return f"{which}-begins-with-{'-'.join(words)}", f"{who} begins with {quoted}"


def _noun(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


#: predicates whose phrase says their settings: settings -> (name part, phrase)
SET_PHRASES = {
    "sentences_apart": lambda s: (f"more-than-{s['more_than']}-{_noun(s['more_than'], 'sentence')}-apart",
                                  f"they are more than {s['more_than']} {_noun(s['more_than'], 'sentence')} apart"),
    "mentions_apart": lambda s: (f"more-than-{s['more_than']}-{_noun(s['more_than'], 'mention')}-apart",
                                 f"more than {s['more_than']} {_noun(s['more_than'], 'mention')} stand between them"),
    "frequent_head": lambda s: (f"head-of-{s['at_least']}-mentions",
                                f"the later one's head word heads {s['at_least']} or more mentions of the document"),
    "mention_levels": _mention_levels,
    "begins_with": _begins_with,
}


def predicate_phrase(p: Pred | str) -> tuple[str, str]:
    """(name part, phrase) of a predicate with its settings."""
    p = p if isinstance(p, Pred) else Pred(p)
    if p.name in SET_PHRASES:
        settings = {k: v.default for k, v in PREDICATES[p.name].params.items()} | p.settings
        return SET_PHRASES[p.name](settings)
    return PHRASES.get(p.name) or (p.name.replace("_", "-"), p.name.replace("_", " ") + " holds")


def _listed(names: list[str], last: str = "and") -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {last} {names[-1]}"


def scope_words(scope: Scope) -> tuple[str, str]:
    """(name part, phrase) of a scope: 'for-event-place' / 'event and place mentions'. A name names
    at most two types; its ``applies_to`` lists them all."""
    if scope.types is not None:
        names = sorted(scope.types)
        return ("for-" + "-".join(names) if len(names) <= 2 else ""), _listed(names) + " mentions"
    if scope.exclude:
        names = sorted(scope.exclude)
        return ("except-" + "-".join(names) if len(names) <= 2 else ""), "mentions other than " + _listed(names, "or")
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
        text += ", when " + _listed([predicate_phrase(p)[1] for p in rule.require])
    if rule.veto:
        text += "; not when " + _listed([predicate_phrase(p)[1] for p in rule.veto], "or")
    return text


def filter_name(rule: FilterRule) -> str:
    made = [f"remove-{'-'.join(rule.made_by)}-links-if"] if rule.made_by else ["remove-if"]
    parts = [*made, *(predicate_phrase(p)[0] for p in rule.remove_if)]
    scope = scope_words(rule.scope)[0]
    return "-".join(parts + ([scope] if scope else []))


def filter_description(rule: FilterRule) -> str:
    whose = f" that {_listed(list(rule.made_by), 'or')} alone made" if rule.made_by else ""
    return (f"removes a link{whose} of {scope_words(rule.scope)[1]} when "
            + _listed([predicate_phrase(p)[1] for p in rule.remove_if], "or"))


def unique(name: str, taken: Iterable[str]) -> str:
    """``name``, or ``name-2``, ``name-3`` ... if it is taken."""
    taken = set(taken)
    if name not in taken:
        return name
    k = 2
    while f"{name}-{k}" in taken:
        k += 1
    return f"{name}-{k}"
