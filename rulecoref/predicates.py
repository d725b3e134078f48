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

Adding a predicate is one function decorated ``@predicate("name", attributes=..., help=...,
role=...)`` (with ``params=`` when it takes settings; ``role``, ``grid`` and ``phrase`` tell
``rulecoref induce`` how to use it) and a unit test in ``tests/test_predicates.py``;
``docs/rules.md`` lists them all. Two declarations tell the engine's plan (``plan.py``) when it
need not ask: ``implied_by`` (the blocking keys of a match rule already imply it) and
``needs_value`` (it cannot hold in a document where no mention has a true value of that attribute).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from .attributes import word_families
from .document import Evidence
from .params import Param
from .phrases import apart_phrase, begins_phrase, between_phrase, frequent_phrase, levels_phrase
from .registry import Registry
from .syntax import ROLE_NAMES
from .words import clues_conflict, dates_compatible, prefix_match

if TYPE_CHECKING:
    from .mentions import MentionTable

Test = Callable[["MentionTable", int, int], "str | Evidence | None"]
#: (the part of a learned rule's name, the phrase of its description) that say a predicate holds,
#: or the function of its settings that gives them ("more-than-3-sentences-apart")
Phrase = tuple[str, str] | Callable[[dict[str, Any]], tuple[str, str]]
#: what ``rulecoref induce`` may do with a predicate: ``links`` (it says two mentions name one
#: thing: only required), ``conflicts`` (they differ: only a veto or a filter's test), ``either``
#: (the data decides) or ``skip`` (never tried: the type scope says what ``same_type`` would)
ROLES = ("links", "conflicts", "either", "skip")
#: the setting every predicate accepts: it holds only for two mentions of these types
TYPES = Param("str_list", default=[], help="only for mentions of these types (empty: every type)")


@dataclass(frozen=True)
class PredicateSpec:
    name: str
    fn: Callable[..., str | Evidence | None]
    attributes: tuple[str, ...]
    params: dict[str, Param] = field(default_factory=dict)  # its own settings, and ``types``
    help: str = ""
    #: (key, antecedent key): the predicate holds for every pair that a match rule blocking on
    #: this key finds (the candidate holds one of the mention's values), so the engine's plan
    #: need not ask it in that rule's search (``plan.py``, shortcut 1)
    implied_by: tuple[str, str] | None = None
    #: an attribute of which one of the two mentions must have a true value for the predicate to
    #: hold: in a document where no mention has one, the plan leaves the predicate out (no family
    #: history section in a CRAFT article, no dates in most; ``plan.py``, shortcut 3)
    needs_value: str | None = None
    #: for ``rulecoref induce`` (``learn/space.py`` and ``learn/naming.py`` read these): its role
    #: (``ROLES``; None: not declared, which tests/learn/test_space.py refuses), the settings
    #: tried (``grid``; none: its defaults only) and how a learned rule says it (``phrase``; None:
    #: its own name, "number clash")
    role: str | None = None
    grid: tuple[dict[str, Any], ...] = ()
    phrase: Phrase | None = None

    def bind(self, params: dict[str, Any] | None = None) -> Test:
        """The predicate with its settings applied: ``test(table, i, j)``; with ``types``, a test
        that holds only when both mentions have one of them."""
        own = {k: v for k, v in (params or {}).items() if k != "types"}
        test = partial(self.fn, **own) if own else self.fn
        types = self.limited_to(params)
        if not types:
            return test

        def typed(t: MentionTable, i: int, j: int) -> str | Evidence | None:
            ty = t["type"]
            return test(t, i, j) if ty[i] in types and ty[j] in types else None

        return typed

    def reads(self, params: dict[str, Any] | None = None) -> tuple[str, ...]:
        """The attributes the bound predicate reads: its own, and ``type`` when ``types`` limits it."""
        return (*self.attributes, "type") if self.limited_to(params) and "type" not in self.attributes else self.attributes

    def limited_to(self, params: dict[str, Any] | None = None) -> frozenset[str]:
        """The concept types its ``types`` setting limits it to (empty: every type): it holds only
        when both mentions have one of them, so in a document with none of them it never does."""
        return frozenset((params or {}).get("types") or ())


#: every predicate, in registration order (the order ``induce`` tries them in)
PREDICATES: Registry[PredicateSpec] = Registry("predicate", code="RC131")


def predicate(name: str, *, attributes: tuple[str, ...], params: dict[str, Param] | None = None, help: str,
              implied_by: tuple[str, str] | None = None, needs_value: str | None = None, role: str | None = None,
              grid: tuple[dict[str, Any], ...] = (), phrase: Phrase | None = None):
    """Register a pair predicate under ``name`` (the name rule files use); it accepts its ``params``
    and ``types`` (``TYPES``). ``role``, ``grid`` and ``phrase`` tell ``rulecoref induce`` how to
    use it (``PredicateSpec``), so the learner keeps no list of predicates of its own."""
    if role is not None and role not in ROLES:  # None: not declared (tests/learn/test_space.py says so)
        raise ValueError(f"predicate {name!r}: role {role!r} is not one of {', '.join(ROLES)}")
    unknown = sorted({k for settings in grid for k in settings} - set(params or {}))
    if unknown:
        raise ValueError(f"predicate {name!r}: its grid sets {', '.join(unknown)}, which it does not take")

    def deco(fn: Callable[..., str | Evidence | None]) -> Callable[..., str | Evidence | None]:
        PREDICATES.register(name, PredicateSpec(name, fn, attributes, {**(params or {}), "types": TYPES}, help,
                                                implied_by, needs_value, role, grid, phrase))
        return fn

    return deco


def _text(t: MentionTable, i: int) -> str:
    return t.doc.concepts[i].text


# -- position -------------------------------------------------------------------------------------
@predicate("overlaps", attributes=("start", "end"),
           help="the two mentions share a token: a phrase and a part of it ('[[MRSA] bacteremia]')",
           role="conflicts", phrase=("overlap", "they overlap"))
def overlaps(t: MentionTable, i: int, j: int) -> str | None:
    start, end = t["start"], t["end"]
    if start[i] <= end[j] and start[j] <= end[i]:
        return f"'{_text(t, i)}' and '{_text(t, j)}' overlap"
    return None


@predicate("same_type", attributes=("type",), help="both mentions have one concept type",
           role="skip")
def same_type(t: MentionTable, i: int, j: int) -> str | None:
    ty = t["type"]
    return f"both {ty[i]}" if ty[i] == ty[j] else None


# -- words ------------------------------------------------------------------------------------------
@predicate("head_matches", attributes=("head", "head_family"), implied_by=("head_family", "head"),
           help="the heads match by words_match (equal, 80% prefix or WordNet synonyms): 'abscess' / 'abscesses'",
           role="links", phrase=("heads-match", "their heads match"))
def head_matches(t: MentionTable, i: int, j: int) -> Evidence | None:
    hi, hj = t["head"][i], t["head"][j]
    if hi is None or hj not in t["head_family"][i]:
        return None
    return Evidence(_heads_match, t, i, j)


def _heads_match(t: MentionTable, i: int, j: int) -> str:
    return f"heads {t.settings.words.why_words_match(t['head'][i], t['head'][j])}"


@predicate("words_covered", attributes=("words",),
           help="every meaning-bearing word of the later mention matches a word of the earlier one "
                "('tissue abscesses' is covered by 'recurrent soft tissue abscess'; a later mention rarely adds modifiers)",
           role="links", phrase=("words-covered", "every meaning-bearing word of the later one is in the earlier one"))
def words_covered(t: MentionTable, i: int, j: int) -> Evidence | None:
    wi, wj = t["words"][i], t["words"][j]
    if not wi:
        return None
    if not wi <= wj:
        family = word_families(t)
        for w in wi:  # a plain loop: this is the test most candidates fail
            if w not in wj and wj.isdisjoint(family[w]):
                return None
    return Evidence(_words_covered, t, i, j)


def _words_covered(t: MentionTable, i: int, j: int) -> str:
    wi, wj, family, why = t["words"][i], t["words"][j], word_families(t), t.settings.words.why_words_match
    parts = [why(w, min(family[w] & wj, key=lambda u: (u != w, u))) for w in sorted(wi)]
    return f"all words of '{_text(t, i)}' match '{_text(t, j)}': " + ", ".join(parts)


@predicate("acronym_of", attributes=("acronym", "initials", "acronym_forms"),
           params={"acronym": Param("choice", default="either", allowed=("either", "mention"),
                                    help="which side is the acronym: either, or the mention being resolved "
                                         "(it is then linked to its expansion, not an expansion to any acronym)")},
           help="one mention is an acronym of the other's initials, or of some of them in order "
                "(attributes.acronym): 'MRSA' / 'Methicillin-resistant Staphylococcus aureus'",
           role="links", phrase=("acronym-of", "one is an acronym of the other"))
def acronym_of(t: MentionTable, i: int, j: int, acronym: str = "either") -> str | None:
    acro, init, forms = t["acronym"], t["initials"], t["acronym_forms"]
    for short, long in ((i, j),) if acronym == "mention" else ((i, j), (j, i)):
        if acro[short] and acro[short] in forms[long]:
            how = "initials" if acro[short] == init[long] else "some initials in order"
            return f"'{_text(t, short)}' = {how} '{init[long]}' of '{_text(t, long)}'"
    return None


@predicate("names_match", attributes=("name_words",),
           help="every name word of the shorter name matches a word of the other (80% prefix; words shorter than "
                "names.min_prefix must be equal): 'Edward L, Smith' / 'Dr Smith's'",
           role="links", phrase=("names-match", "their name words match"))
def names_match(t: MentionTable, i: int, j: int) -> str | None:
    wi, wj = t["name_words"][i], t["name_words"][j]
    if not wi or not wj:
        return None
    n = t.settings.names
    short, long = (wi, wj) if len(wi) <= len(wj) else (wj, wi)

    def same(a: str, b: str) -> bool:
        if len(a) > len(b):
            a, b = b, a
        return a == b if len(a) < n.min_prefix else prefix_match(a, b, n.prefix_ratio)

    if all(any(same(w, x) for x in long) for w in short):
        return f"name words {' '.join(short)!r} in {' '.join(long)!r}"
    return None


# -- agreement ---------------------------------------------------------------------------------------
@predicate("gender_clash", attributes=("gender",),
           help="both mentions have a gender and they differ: 'Mr. Bennet' / 'Mrs. Bennet', 'he' / 'her mother'",
           role="conflicts", phrase=("gender-clash", "their genders differ"))
def gender_clash(t: MentionTable, i: int, j: int) -> str | None:
    gi, gj = t["gender"][i], t["gender"][j]
    return f"{gj} '{_text(t, j)}' vs {gi} '{_text(t, i)}'" if gi and gj and gi != gj else None


@predicate("number_clash", attributes=("number",),
           help="one mention is singular and the other plural: 'the lesion' / 'lesions'",
           role="conflicts", phrase=("number-clash", "one is singular and the other plural"))
def number_clash(t: MentionTable, i: int, j: int) -> str | None:
    ni, nj = t["number"][i], t["number"][j]
    return f"{nj} '{_text(t, j)}' vs {ni} '{_text(t, i)}'" if ni and nj and ni != nj else None


# -- clues beside the mentions (seed 001, link filtering) ----------------------------------------------
@predicate("dates_conflict", attributes=("dates",), needs_value="dates",
           help="dates near the two mentions cannot be one day: 'x-ray on 3/12' / 'x-ray on 3/19' "
                "('3/12' and '03/12/2010' can)",
           role="conflicts", phrase=("dates-conflict", "dates beside them differ"))
def dates_conflict(t: MentionTable, i: int, j: int) -> str | None:
    di, dj = t["dates"][i], t["dates"][j]
    if not di or not dj or any(dates_compatible(x, y) for x in dj for y in di):
        return None
    return f"dates differ: '{dj[0]}' near '{_text(t, j)}', '{di[0]}' near '{_text(t, i)}'"


@predicate("clues_conflict", attributes=("locations", "modifiers"),
           params={"categories": Param("str_list", default=["locations", "modifiers"],
                                       help="which clue lists to compare (locations, modifiers)")},
           help="the two mentions are placed or described differently next to them: 'pain in the left leg' / "
                "'pain in the right arm'; 'in the left leg' and 'in the leg' agree",
           role="conflicts", phrase=("clues-conflict", "places or descriptions beside them differ"))
def clues_conflict_(t: MentionTable, i: int, j: int, categories: list[str] | tuple[str, ...] = ("locations", "modifiers")
                    ) -> str | None:
    for name in categories:
        ci, cj = t[name][i], t[name][j]
        if clues_conflict(cj, ci):
            return (f"{name} differ: {', '.join(sorted(cj))} near '{_text(t, j)}' vs "
                    f"{', '.join(sorted(ci))} near '{_text(t, i)}'")
    return None


@predicate("adjective_only", attributes=("adjective_only",), needs_value="adjective_only",
           help="either mention is an adjective with no noun ('febrile'): it describes, it names no thing",
           role="conflicts", phrase=("adjective-only", "one is an adjective with no noun"))
def adjective_only(t: MentionTable, i: int, j: int) -> str | None:
    adj = t["adjective_only"]
    k = j if adj[j] else i if adj[i] else None
    return None if k is None else f"'{_text(t, k)}' is an adjective with no noun (WordNet)"


# == Clinical context and things referred to by pronouns (issue 16) =================================
# Vetoes after Xu et al. 2012 (the best i2b2 2011 system): two mentions whose clinical context
# disagrees are two things, whatever their words share. The attributes are in attributes/clinical.py;
# a rule keeps a veto to clinical mentions with its ``types:`` setting.
def _by(t: MentionTable, k: int, name: str) -> str:
    """The words " by ConText" when fact ``name`` of mention ``k`` was given with the document (Document.facts)."""
    fact = t.doc.fact(k, name)
    return f" by {fact.source}" if fact else ""


@predicate("negation_differs", attributes=("negation",),
           help="one mention is negated and the other is not: 'no [swelling]' / '[swelling] of the ankle'",
           role="conflicts", phrase=("negation-differs", "one is negated and the other not"))
def negation_differs(t: MentionTable, i: int, j: int) -> str | None:
    ni, nj = t["negation"][i], t["negation"][j]
    if bool(ni) == bool(nj):
        return None
    k, cue = (i, ni) if ni else (j, nj)
    return f"'{_text(t, k)}' is negated{_by(t, k, 'negation')} ({cue!r}), the other is not"


@predicate("negated_apart", attributes=("negation", "text_norm", "exam_section"),
           help="both are negated and not one negated fact restated: a negative finding of an examination or a "
                "review of systems is one observation ('NECK : no [masses]' / 'ABDOMEN : no [masses]'); elsewhere "
                "the same words restate it ('no [known allergies]' in the history and under ALLERGIES)",
           role="conflicts", phrase=("negated-apart", "both are negated findings of different places"))
def negated_apart(t: MentionTable, i: int, j: int) -> str | None:
    if not (t["negation"][i] and t["negation"][j]):
        return None
    if t["exam_section"][i] or t["exam_section"][j]:
        return f"both negated{_by(t, i, 'negation')}, in an examination or review of systems"
    if t["text_norm"][i] != t["text_norm"][j]:
        return f"both negated{_by(t, i, 'negation')}, with different words"
    return None


@predicate("hypothetical_mention", attributes=("hypothetical",), needs_value="hypothetical",
           help="either mention names a possibility in a risk list or a criterion, not this patient's finding: "
                "'the risks ... including [bleeding]' / '[bleeding] after surgery'",
           role="either")
def hypothetical_mention(t: MentionTable, i: int, j: int) -> str | None:
    for k in (j, i):
        if t["hypothetical"][k]:
            return f"'{_text(t, k)}' is a possibility ({t['hypothetical'][k]!r})"
    return None


@predicate("history_differs", attributes=("history",),
           help="one mention is placed in the past and the other is not: '[prior operations]' / a planned '[operation]'",
           role="conflicts", phrase=("history-differs", "one is placed in the past and the other not"))
def history_differs(t: MentionTable, i: int, j: int) -> str | None:
    hi, hj = t["history"][i], t["history"][j]
    if bool(hi) == bool(hj):
        return None
    k, cue = (i, hi) if hi else (j, hj)
    return f"'{_text(t, k)}' is in the past{_by(t, k, 'history')} ({cue!r}), the other is not"


@predicate("new_event", attributes=("new_event", "start"), needs_value="new_event",
           help="the later mention introduces another one of its kind and the earlier does not: '[the tube]' / "
                "'[another tube]'",
           role="conflicts", phrase=("new-event", "the later one introduces another one ('another', 'repeat')"))
def new_event(t: MentionTable, i: int, j: int) -> str | None:
    later, earlier = (i, j) if t["start"][i] > t["start"][j] else (j, i)
    cue = t["new_event"][later]
    if cue and t["new_event"][earlier] != cue:
        return f"'{_text(t, later)}' is another one ({cue!r})"
    return None


@predicate("generic_mention", attributes=("generic", "negation"), needs_value="generic",
           help="either mention names a kind, not one thing: '[any swelling]', '[daily medication]'; after a negation "
                "'any' only strengthens it ('denies [any hematuria]')",
           role="conflicts", phrase=("generic", "one names a kind, not one thing ('any')"))
def generic_mention(t: MentionTable, i: int, j: int) -> str | None:
    for k in (j, i):
        if t["generic"][k] and not t["negation"][k]:
            return f"'{_text(t, k)}' is generic ({t['generic'][k]!r})"
    return None


@predicate("degree_clash", attributes=("degree",), needs_value="degree",
           help="one mention is qualified low and the other high: '[minimal discomfort]' / '[significant discomfort]'",
           role="conflicts", phrase=("degree-clash", "one is qualified low and the other high"))
def degree_clash(t: MentionTable, i: int, j: int) -> str | None:
    di, dj = t["degree"][i], t["degree"][j]
    return f"'{_text(t, j)}' is {dj}, '{_text(t, i)}' is {di}" if di and dj and di != dj else None


@predicate("site_clash", attributes=("sites",), needs_value="sites",
           help="both mentions are placed in the body and the places differ: '[left knee pain]' / '[right knee pain]'; "
                "'NECK : no [masses]' / 'CHEST : no [masses]' ('left' and no side do not clash)",
           role="conflicts", phrase=("site-clash", "their body sites differ"))
def site_clash(t: MentionTable, i: int, j: int) -> str | None:
    si, sj = t["sites"][i], t["sites"][j]
    if clues_conflict(si, sj):
        return f"sites differ: {', '.join(sorted(sj))} vs {', '.join(sorted(si))}"
    return None


@predicate("family_differs", attributes=("family_section",), needs_value="family_section",
           help="one mention is in the family history and the other is not: a relative's cancer is not the patient's",
           role="conflicts", phrase=("family-differs", "one is in the family history and the other not"))
def family_differs(t: MentionTable, i: int, j: int) -> str | None:
    fi, fj = bool(t["family_section"][i]), bool(t["family_section"][j])  # a given fact may be None: not in it
    return f"one is in the family history{_by(t, i if fi else j, 'family_section')}" if fi != fj else None


@predicate("same_drug", attributes=("drug",),
           help="both mentions name one drug, by brand or generic name: '[Claritin]' / '[loratadine]' (drug_names.txt)",
           role="links", phrase=("same-drug", "both name one drug"))
def same_drug(t: MentionTable, i: int, j: int) -> str | None:
    di, dj = t["drug"][i], t["drug"][j]
    return f"both name {di}" if di and di == dj else None


@predicate("thing_antecedent", attributes=("thing_pronoun", "pronoun", "number", "negation", "generic", "is_pronoun",
                                           "person"),
           help="mention i is a pronoun for things ('it', 'this', 'they') and j a thing (or another such pronoun) that "
                "agrees in number and is neither negated nor generic: '[Allegra|treatment] ... [it|pronoun] does not work'; "
                "a plural pronoun needs a mention marked plural ('[unable to walk]' is no antecedent of 'they')",
           role="links", phrase=("thing-pronoun", "the later one is a pronoun for things that agrees in number"))
def thing_antecedent(t: MentionTable, i: int, j: int) -> str | None:
    word = t["thing_pronoun"][i]
    if word is None or t["person"][j] or t["negation"][j] or (t["is_pronoun"][j] and not t["thing_pronoun"][j]):
        return None
    if t["generic"][j]:  # "require [daily medication] for [this]": a kind is not what "this" points at
        return None
    plural = word in t.settings.people.plural_pronouns.words
    nj = t["number"][j]
    if (nj == "plural") != plural and (nj is not None or plural):
        return None
    return f"'{_text(t, i)}' refers to the nearest {'plural' if plural else 'singular'} thing '{_text(t, j)}'"


@predicate("distant_not_first", attributes=("thing_rank", "line", "thing_pronoun"), needs_value="thing_rank",
           help="the candidate j stands in an earlier sentence than i and is neither the first thing of it nor a "
                "pronoun for things: across a sentence a pronoun refers to what the last one was about, its first "
                "thing or a pronoun that already kept it in focus, not to whatever ended it ('[Ultrasound] showed "
                "[increased flow] . [This] was reviewed')",
           role="either")
def distant_not_first(t: MentionTable, i: int, j: int) -> str | None:
    rank = t["thing_rank"][j]
    if t["line"][j] >= t["line"][i] or not rank or t["thing_pronoun"][j]:
        return None
    return f"'{_text(t, j)}' is thing {rank + 1} of an earlier sentence, not its first"


@predicate("distant_object", attributes=("line", "subject_position", "type"),
           params={"note_types": Param("str_list", default=[],
                                       help="only in a document with a mention of one of these types (a clinical "
                                            "note); empty: in every document")},
           help="mention i stands in a later sentence than j and not where a subject stands: a pronoun that carries "
                "what the last sentence was about across to this one is its subject ('[Allegra] ... [It] helps'); "
                "an object refers within its own sentence or to no concept ('regains weight ... gained [it] back')",
           role="either")
def distant_object(t: MentionTable, i: int, j: int, note_types: list[str] | tuple[str, ...] = ()) -> str | None:
    if t["line"][j] >= t["line"][i] or t["subject_position"][i]:
        return None
    if note_types and set(note_types).isdisjoint(t["type"]):
        return None
    return f"'{_text(t, i)}' is no subject and '{_text(t, j)}' is in an earlier sentence"


@predicate("same_clause", attributes=("line", "clause_number", "thing_pronoun", "reflexive"),
           help="mention i is a pronoun for things, not reflexive, in the clause of j: a pronoun does not refer to "
                "a thing of its own clause (binding theory's principle B: 'takes [HCTZ] for [this]': this is what "
                "HCTZ treats), a reflexive does ('[the lesion] [itself]')",
           role="either")
def same_clause(t: MentionTable, i: int, j: int) -> str | None:
    if not t["thing_pronoun"][i] or t["reflexive"][i] or t["line"][i] != t["line"][j]:
        return None
    if t["clause_number"][i] != t["clause_number"][j]:
        return None
    return f"'{_text(t, i)}' and '{_text(t, j)}' stand in one clause"


@predicate("complement_clash", attributes=("complement",), needs_value="complement",
           help="both mentions are followed by an 'of'/'to' phrase and no word of one matches a word of the other: "
                "'[treatment] of an imperforate anus' / '[treatment] of urinary tract infection'",
           role="either")
def complement_clash(t: MentionTable, i: int, j: int) -> str | None:
    ci, cj = t["complement"][i], t["complement"][j]
    if not ci or not cj:
        return None
    match = t.settings.words.words_match
    if any(u == v or match(u, v) for u in ci for v in cj):
        return None
    return f"which one differs: {', '.join(sorted(cj))} vs {', '.join(sorted(ci))}"


@predicate("pronoun_use", attributes=("pronoun_use",), needs_value="pronoun_use",
           help="mention i is a pronoun for things used so that it refers to no earlier thing: a relative 'that' "
                "right after a concept (which-that-after-concept links it; a second link would guess) or a 'this' "
                "after 'understands' (a statement, not a thing)",
           role="either")
def pronoun_use(t: MentionTable, i: int, j: int) -> str | None:
    use = t["pronoun_use"][i]
    return None if use is None else f"'{_text(t, i)}' is a {use} pronoun"


@predicate("clinical_head_matches", attributes=("clinical_head",),
           help="the clinical heads match by words_match: 'sleep apnea symptoms' / 'sleep apnea'",
           role="links", phrase=("clinical-heads-match", "their heads match once light nouns are skipped"))
def clinical_head_matches(t: MentionTable, i: int, j: int) -> str | None:
    hi, hj = t["clinical_head"][i], t["clinical_head"][j]
    if hi is None or hj is None or not t.settings.words.words_match(hi, hj):
        return None
    return f"clinical heads {t.settings.words.why_words_match(hi, hj)}"


@predicate("derived_heads_match", attributes=("derived_heads", "clinical_words"),
           help="one mention's head is a noun WordNet derives from the other's head, and neither adds another "
                "clinical word: '[catheterizing]' / '[catheterization]', '[febrile]' / '[fever]'",
           role="either")
def derived_heads_match(t: MentionTable, i: int, j: int) -> str | None:
    di, dj = t["derived_heads"][i], t["derived_heads"][j]
    if not di or not dj or len(t["clinical_words"][i]) > 1 or len(t["clinical_words"][j]) > 1:
        return None
    if di[0] in dj[1:]:
        return f"WordNet derives '{di[0]}' from '{dj[0]}'"
    if dj[0] in di[1:]:
        return f"WordNet derives '{dj[0]}' from '{di[0]}'"
    return None


@predicate("abbreviation_of", attributes=("abbreviation_keys", "words_key"),
           help="one mention is an abbreviation (abbreviations.txt) and the other writes one of its long forms: "
                "'[HTN]' / '[hypertension]', '[SOB]' / '[shortness of breath]'",
           role="either")
def abbreviation_of(t: MentionTable, i: int, j: int) -> str | None:
    for a, b in ((i, j), (j, i)):
        if t["words_key"][b] in t["abbreviation_keys"][a]:
            return f"'{_text(t, a)}' abbreviates '{_text(t, b)}'"
    return None


@predicate("clinical_words_covered", attributes=("clinical_words",),
           help="every clinical word of the later mention matches a word of the earlier one, as words_covered, "
                "without light nouns and context cues: 'ongoing sleep apnea symptoms' is covered by 'sleep apnea'",
           role="links", phrase=("clinical-words-covered", "the later one's clinical words are all in the earlier one"))
def clinical_words_covered(t: MentionTable, i: int, j: int) -> str | None:
    match = t.settings.words.words_match
    wi, wj = t["clinical_words"][i], t["clinical_words"][j]
    if wi and all(any(w == u or match(w, u) for u in wj) for w in wi):
        return f"the clinical words of '{_text(t, i)}' are in '{_text(t, j)}'"
    return None


# == Distance and what each mention is on its own (issue 24, round 2) ================================
# What a filter (or a veto) needs to tell a linking pass's right links from its wrong ones: how far
# apart two mentions are, and properties of one of them. A filter asks about (later, earlier) and a
# match rule about (mention, candidate), which ``direction: backward_then_forward`` may reverse, so
# "later" here is the mention further into the text (concepts are numbered in text order).
_LEVELS = ("NAM", "NOM", "PRO")


def _later_earlier(i: int, j: int) -> tuple[int, int]:
    return (i, j) if i > j else (j, i)


@predicate("sentences_apart", attributes=("line",),
           params={"more_than": Param("int", default=3, minimum=0, help="how many sentences (lines) apart is too far")},
           help="the two mentions are more than N sentences (lines) apart: in a filter, a window for links that some "
                "other rule made ('[the study]' ... 40 sentences later ... '[the behavioral studies]')",
           role="conflicts", phrase=apart_phrase,
           grid=tuple({"more_than": n} for n in (1, 3, 10, 30)))
def sentences_apart(t: MentionTable, i: int, j: int, more_than: int = 3) -> str | None:
    d = abs(t["line"][i] - t["line"][j])
    return f"{d} sentences apart (more than {more_than})" if d > more_than else None


@predicate("mentions_apart", attributes=("start",),
           params={"more_than": Param("int", default=10, minimum=0, help="how many mentions between them is too many")},
           help="more than N other mentions stand between the two: a distance that follows how much the text says in "
                "between, where sentences are long or short",
           role="conflicts", phrase=between_phrase,
           grid=tuple({"more_than": n} for n in (5, 20, 50, 100)))
def mentions_apart(t: MentionTable, i: int, j: int, more_than: int = 10) -> str | None:
    d = abs(i - j) - 1
    return f"{d} mentions between them (more than {more_than})" if d > more_than else None


def _first_with_words(t: MentionTable) -> dict[str, int]:
    """Each text_norm of the document and the first mention that writes it."""
    first: dict[str, int] = {}
    for k, words in enumerate(t["text_norm"]):
        first.setdefault(words, k)
    return first


@predicate("repeats_another", attributes=("text_norm", "start"),
           help="the later mention repeats the words of a mention before it other than the earlier one, whose words "
                "differ: in '[membrane] ... [the plasma membrane] ... [membrane]' the second 'membrane' is the first "
                "one again, not the plasma membrane",
           role="conflicts",
           phrase=("repeats-another", "the later one repeats word for word an earlier mention other than this one"))
def repeats_another(t: MentionTable, i: int, j: int) -> str | None:
    later, earlier = _later_earlier(i, j)
    words = t["text_norm"][later]
    if not words or words == t["text_norm"][earlier]:
        return None
    first = t.document_value("first_with_words", _first_with_words)[words]
    if first >= later:
        return None
    return f"'{_text(t, later)}' repeats '{_text(t, first)}' word for word"


def _head_counts(t: MentionTable) -> dict[str, int]:
    counts: dict[str, int] = {}
    for h in t["head_word"]:
        counts[h] = counts.get(h, 0) + 1
    return counts


@predicate("frequent_head", attributes=("head_word", "start"),
           params={"at_least": Param("int", default=10, minimum=2, help="how many mentions of the document share it")},
           help="the later mention's head word is the head of at least N mentions of the document: a word that many "
                "mentions share ('cells', 'mice', 'pain') often names many things",
           role="conflicts", phrase=frequent_phrase,
           grid=tuple({"at_least": n} for n in (5, 10, 20)))
def frequent_head(t: MentionTable, i: int, j: int, at_least: int = 10) -> str | None:
    later, _ = _later_earlier(i, j)
    head = t["head_word"][later]
    n = t.document_value("head_counts", _head_counts).get(head, 0)
    return f"{n} mentions of the document have the head '{head}'" if n >= at_least else None


def _modifiers(t: MentionTable, k: int) -> frozenset[str]:
    """The words before the head, determiners and punctuation left out: 'the left lower lobe' -> {left, lower}."""
    determiners = t.settings.words.determiners.words
    return frozenset(w for w in t["lower"][k][: t["head_index"][k]] if w[:1].isalnum() and w not in determiners)


@predicate("later_adds_modifier", attributes=("lower", "head_index", "start"),
           help="the later mention has a word before its head that the earlier one lacks: 'the salt' / 'iodised salt'; "
                "a later mention rarely adds a modifier to the same thing, it often names a kind or a part of it",
           role="conflicts", phrase=("later-adds-modifier", "the later one adds a word before its head"))
def later_adds_modifier(t: MentionTable, i: int, j: int) -> str | None:
    later, earlier = _later_earlier(i, j)
    added = _modifiers(t, later) - _modifiers(t, earlier)
    return f"'{_text(t, later)}' adds '{' '.join(sorted(added))}'" if added else None


@predicate("mention_levels", attributes=("mention_level", "start"),
           params={"earlier": Param("str_list", default=[], allowed=_LEVELS,
                                    help="the earlier mention's levels (NAM a name, NOM a description, PRO a pronoun; "
                                         "empty: any)"),
                   "later": Param("str_list", default=[], allowed=_LEVELS, help="the later mention's levels (empty: any)")},
           help="the earlier and the later mention have these mention levels: {earlier: [NAM], later: [NOM]} holds for "
                "a name followed by a description ('Anna Berg' ... 'the doctor'), {later: [PRO]} for a later pronoun",
           role="either", phrase=levels_phrase,
           grid=({"earlier": ["NAM"], "later": ["NOM"]}, {"earlier": ["NOM"], "later": ["NAM"]},
                 {"earlier": ["NAM"], "later": ["NAM"]}, {"earlier": ["NOM"], "later": ["NOM"]},
                 {"later": ["PRO"]}, {"earlier": ["PRO"]}, {"later": ["NAM"]}, {"later": ["NOM"]}))
def mention_levels(t: MentionTable, i: int, j: int, earlier: list[str] | tuple[str, ...] = (),
                   later: list[str] | tuple[str, ...] = ()) -> str | None:
    b, a = _later_earlier(i, j)
    la, lb = t["mention_level"][a], t["mention_level"][b]
    if (earlier and la not in earlier) or (later and lb not in later):
        return None
    return f"a {la} mention, then a {lb} one"


@predicate("begins_with", attributes=("lower", "start"),
           params={"words": Param("str_list", default=["a", "an"], help="the first words that count"),
                   "mention": Param("choice", default="later", allowed=("later", "earlier", "either"),
                                    help="which mention must begin with one")},
           help="the later (or earlier, or either) mention begins with one of these words: with 'a' and 'an', a later "
                "mention that introduces something new ('the report' ... 'a report')",
           role="either", phrase=begins_phrase,
           grid=({"mention": "later"}, {"mention": "earlier"}))
def begins_with(t: MentionTable, i: int, j: int, words: list[str] | tuple[str, ...] = ("a", "an"),
                mention: str = "later") -> str | None:
    later, earlier = _later_earlier(i, j)
    which = {"later": (later,), "earlier": (earlier,), "either": (later, earlier)}[mention]
    for k in which:
        first = t["lower"][k][0] if t["lower"][k] else ""
        if first in words:
            return f"'{_text(t, k)}' begins with '{first}'"
    return None


@predicate("same_role", attributes=("grammatical_role",), needs_value="grammatical_role",
           params={"roles": Param("str_list", default=["subject"], allowed=ROLE_NAMES,
                                  help="the grammatical roles that count")},
           help="with a parse (--parser): both mentions have one of these grammatical roles, the same one; syntactic "
                "parallelism, 'Ann hired Bo and [she] left' -> the subject 'Ann' (never holds without a parse)",
           role="either")
def same_role(t: MentionTable, i: int, j: int, roles: list[str] | tuple[str, ...] = ("subject",)) -> str | None:
    ri, rj = t["grammatical_role"][i], t["grammatical_role"][j]
    return f"both {ri}s" if ri is not None and ri == rj and ri in roles else None
