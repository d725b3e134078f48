"""Clues beside the mentions and clinical context: dates, negation, history, hypothetical and generic
mentions, degree, site, family, drugs, thing pronouns, clinical heads and abbreviations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..params import Param
from ..words import clues_conflict, dates_compatible
from .registry import mention_text as _text
from .registry import predicate

if TYPE_CHECKING:
    from ..mentions import MentionTable


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


@predicate("negation_differs", attributes=("negation", "lower"),
           help="one mention is negated and the other is not: 'no [swelling]' / '[swelling] of the ankle'; a negated "
                "mention led by a definite determiner (clinical.definite_determiners) still names the known thing: "
                "'[a Foley]' / 'voided without [the Foley]'",
           role="conflicts", phrase=("negation-differs", "one is negated and the other not"))
def negation_differs(t: MentionTable, i: int, j: int) -> str | None:
    ni, nj = t["negation"][i], t["negation"][j]
    if bool(ni) == bool(nj):
        return None
    k, cue = (i, ni) if ni else (j, nj)
    low = t["lower"][k]
    if low and low[0] in t.settings.clinical.definite_determiners.words:
        return None
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


@predicate("no_thing_pronoun", attributes=("thing_pronoun",),
           help="neither mention is a pronoun for things ('it', 'this', 'they'): a filter keeps a pronoun pass's links "
                "to the pairs it is about ('[This] is likely [molluscum contagiosum]', not '[he] is [sluggish]')",
           role="conflicts", phrase=("no-thing-pronoun", "neither is a pronoun for things"))
def no_thing_pronoun(t: MentionTable, i: int, j: int) -> str | None:
    if t["thing_pronoun"][i] or t["thing_pronoun"][j]:
        return None
    return f"neither '{_text(t, i)}' nor '{_text(t, j)}' is a pronoun for things"


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
