"""Clinical context (issue 16): negation, uncertainty, time, degree, site, section and drug of a mention.

Xu et al. 2012, the best i2b2 2011 system, compared the clinical context of two mentions:
negation, uncertainty, time (history versus now), laterality and anatomical site, dates. These
attributes give each mention its context from the words around it and the section it is in, so
that vetoes can keep "no [masses]" (neck) and "no [masses]" (abdomen), or "[prior operations]"
and a planned "[surgery]", apart. All word lists are general clinical or English knowledge.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

from ..resources.lexicon import Lexicon
from ..words import has_alnum
from .heads import core_length
from .registry import EMPTY, LEX, BlockingKey, attribute, setting, settings_group

if TYPE_CHECKING:
    from .registry import Table

_CLIN = LEX + "clinical/"


# fmt: off
@settings_group("clinical", help="clinical context of a mention (docs/rules.md, 'Clinical rules')")
class Clinical:
    negation_cues: Lexicon = setting("wordlist", default=_CLIN + "negation_cues.txt",
                                     help="'no', 'denies', 'negative for' before a finding")
    negation_post: Lexicon = setting("wordlist", default=_CLIN + "negation_post.txt", help="'not', 'negative', 'absent' after it")
    post_window: int = setting("int", default=3, minimum=0, help="words after a mention searched for negation_post")
    post_breaks: Lexicon = setting("wordlist", default=_CLIN + "post_breaks.txt",
                                   help="words that end the search for negation_post besides scope_breaks: "
                                        "'on [Ditropan] and did not do well'")
    scope_breaks: Lexicon = setting("wordlist", default=_CLIN + "scope_breaks.txt",
                                    help="words that end a cue's scope ('no fever but [cough]')")
    uncertainty_cues: Lexicon = setting("wordlist", default=_CLIN + "uncertainty_cues.txt",
                                        help="'possible', 'rule out', 'versus'")
    history_cues: Lexicon = setting("wordlist", default=_CLIN + "history_cues.txt", help="'previous', 'prior', 'history of'")
    risk_cues: Lexicon = setting("wordlist", default=_CLIN + "risk_cues.txt",
                                 help="'risks', 'complications', 'criteria for': what might happen, not what is")
    new_event_cues: Lexicon = setting("wordlist", default=_CLIN + "new_event_cues.txt", help="'another', 'repeat', 'next'")
    generic_cues: Lexicon = setting("wordlist", default=_CLIN + "generic_cues.txt", help="'any', 'daily': a kind, not one thing")
    qualifiers_low: Lexicon = setting("wordlist", default=_CLIN + "qualifiers_low.txt", help="'mild', 'minimal', 'decreased'")
    qualifiers_high: Lexicon = setting("wordlist", default=_CLIN + "qualifiers_high.txt",
                                       help="'severe', 'significant', 'increased'")
    course_words: Lexicon = setting("wordlist", default=_CLIN + "course_words.txt",
                                    help="'worsening', 'persistent', 'fairly': how a finding goes, not what it is")
    light_heads: Lexicon = setting("wordlist", default=_CLIN + "light_heads.txt", help="'issues', 'therapy' after the real head")
    sites: Lexicon = setting("wordlist", default=LEX + "location_keywords.txt", help="laterality and body parts")
    exam_headings: Lexicon = setting("wordlist", default=_CLIN + "exam_headings.txt", help="review of systems and exam headings")
    family_headings: Lexicon = setting("wordlist", default=_CLIN + "family_headings.txt", help="'FAMILY HISTORY'")
    drugs: Lexicon = setting("wordlist", default=_CLIN + "drug_names.txt", help="'generic: Brand, Brand' lines")
    abbreviations: Lexicon = setting("wordlist", default=_CLIN + "abbreviations.txt",
                                     help="'abbreviation: long form, long form' lines ('htn: hypertension')")
    thing_pronouns: Lexicon = setting("wordlist", default=_CLIN + "thing_pronouns.txt", help="'it', 'this', 'they' for things")
    relative_pronouns: Lexicon = setting("wordlist", default=_CLIN + "relative_pronouns.txt",
                                         help="'which', 'that' right after a concept: a relative clause")
    clause_verbs: Lexicon = setting("wordlist", default=_CLIN + "clause_verbs.txt",
                                    help="'understands', 'tells me': 'this' after them is a statement")
    complement_words: Lexicon = setting("wordlist", default=_CLIN + "complement_words.txt",
                                        help="'of', 'to': a phrase after the mention that says which one it is")
    max_heading_words: int = setting("int", default=6, minimum=1, help="a heading line has at most this many words")
    # fmt: on

    @cached_property
    def drug_names(self) -> dict[tuple[str, ...], str]:
        """'generic: Brand, Brand' lines -> every name's words -> the generic."""
        out: dict[tuple[str, ...], str] = {}
        for line in sorted(self.drugs.phrases):
            generic, _, brands = " ".join(line).partition(":")
            generic = generic.strip()
            for name in [generic, *brands.split(",")]:
                if name.strip():
                    out[tuple(name.split())] = generic
        return out

    @cached_property
    def abbreviation_forms(self) -> dict[str, tuple[str, ...]]:
        """'abbreviation: long form, long form' lines -> abbreviation -> its long forms."""
        out: dict[str, tuple[str, ...]] = {}
        for line in sorted(self.abbreviations.phrases):
            short, _, longs = " ".join(line).partition(":")
            forms = tuple(f.strip() for f in longs.split(",") if f.strip())
            if short.strip() and forms:
                out[short.strip()] = forms
        return out

    @cached_property
    def drug_first_words(self) -> frozenset[str]:
        return frozenset(n[0] for n in self.drug_names)

    @cached_property
    def context_words(self) -> frozenset[str]:
        """The single words of the context cue lists: they say how a thing is, not what it is."""
        return frozenset().union(*(lex.words for lex in (
            self.history_cues, self.new_event_cues, self.generic_cues, self.qualifiers_low, self.qualifiers_high,
            self.uncertainty_cues, self.course_words)))


def heading_of(tokens: list[str], max_words: int) -> tuple[str, int] | None:
    """A section heading at the start of a line, and the token after it: "PAST MEDICAL HISTORY :" ->
    ("past medical history", 4); "GENERAL : The patient ..." -> ("general", 2); an all-capitals line
    without a colon ("PHYSICAL EXAMINATION") is one too. Headings are written in capitals."""
    if not tokens or tokens[0].upper() != tokens[0]:  # headings are written in capitals
        return None
    words = [tok for tok in tokens if has_alnum(tok)]
    if ":" in tokens:
        k = tokens.index(":")
        head = [tok for tok in tokens[:k] if has_alnum(tok)]
        if head and len(head) <= max_words and all(tok.upper() == tok and any(ch.isalpha() for ch in tok) for tok in head):
            return " ".join(tok.lower() for tok in head), k + 1
    if words and len(words) <= max_words and all(tok.upper() == tok for tok in words) \
            and sum(any(ch.isalpha() for ch in tok) for tok in words) >= 1 and len("".join(words)) > 3 \
            and all(not tok.isdigit() for tok in words):
        return " ".join(tok.lower() for tok in words), len(tokens)
    return None


@attribute("section", depends=("line",), from_facts=True,
           help="the heading of the section a mention is in, lowercased: 'PAST MEDICAL HISTORY :' -> past medical history; "
                "'NECK : Without [masses]' -> neck; None before the first heading", blocking=())
def _section(t: Table) -> list[str | None]:
    max_words = t.settings.clinical.max_heading_words
    current: list[str | None] = [None]
    inline: dict[int, tuple[str, int]] = {}
    for li, toks in enumerate(t.doc.lines, 1):
        h = heading_of(toks, max_words)
        if h is not None:
            inline[li] = h
        current.append(h[0] if h is not None else current[-1])
    out = []
    for c in t.doc.concepts:
        h = inline.get(c.start[0])
        if h is not None and c.start[1] < h[1]:  # the heading itself ("ALLERGIES :" typed as a concept)
            out.append(current[c.start[0] - 1])
        else:
            out.append(current[c.start[0]])
    return out


@attribute("exam_section", depends=("section",),
           help="the section is a review of systems or a physical examination (or one of its body-system headings)",
           blocking=())
def _exam_section(t: Table) -> list[bool]:
    exam = t.settings.clinical.exam_headings.phrases
    return [s is not None and tuple(s.split()) in exam for s in t["section"]]


@attribute("family_section", depends=("section",), from_facts=True,
           help="the section is the family history (or a given fact says the finding is a relative's: ConText's is_family)",
           blocking=())
def _family_section(t: Table) -> list[bool]:
    fam = t.settings.clinical.family_headings.phrases
    return [s is not None and tuple(s.split()) in fam for s in t["section"]]


def scope_changes(low: list[str], cues: frozenset[tuple[str, ...]], breaks: frozenset[str]
                  ) -> tuple[list[int], list[tuple[str, int] | None]] | None:
    """Where the cue in scope changes on a lowercased line: the positions, ascending, and the cue
    in scope after each (with where it ends), None after a scope break; None for a line without a
    cue. NegEx's scope: a cue reaches forward until a scope break ("no fever but [cough]"; a
    heading's colon is a break too). A token's cue is the one of the last change before it."""
    last_words = frozenset(c[-1] for c in cues)
    if last_words.isdisjoint(low):  # most lines hold no cue
        return None
    longest = max(map(len, cues), default=0)
    positions: list[int] = []
    states: list[tuple[str, int] | None] = []
    for pos in [k for k, w in enumerate(low) if w in last_words or w in breaks]:
        w, found = low[pos], None
        for k in range(min(longest, pos + 1), 0, -1) if w in last_words else ():
            if tuple(low[pos - k + 1: pos + 1]) in cues:
                found = (" ".join(low[pos - k + 1: pos + 1]), pos)
                break
        if found is not None or w in breaks:
            positions.append(pos)
            states.append(found)
    return positions, states


def scope_reader(t: Table, cues: frozenset[tuple[str, ...]], breaks: frozenset[str]
                 ) -> Callable[[int, int], tuple[str, int] | None]:
    """``at(line index, token)``: the cue in scope right before a token, each line's changes worked
    out when a mention on it is first asked about."""
    lines, changes = t.doc.lines, {}

    def at(li: int, token: int) -> tuple[str, int] | None:
        if li not in changes:
            changes[li] = scope_changes([tok.lower() for tok in lines[li]], cues, breaks)
        found = changes[li]
        k = bisect_left(found[0], token) - 1 if found else -1
        return found[1][k] if found and k >= 0 else None

    return at


def _cue_in_scope(t: Table, cues: frozenset[tuple[str, ...]], breaks: frozenset[str], window: int = 0
                  ) -> list[str | None]:
    """Per mention, the cue in scope before its first token (within ``window`` tokens when > 0)."""
    at = scope_reader(t, cues, breaks)
    out: list[str | None] = []
    for c in t.doc.concepts:
        hit = at(c.start[0] - 1, c.start[1])
        out.append(hit[0] if hit and (not window or c.start[1] - hit[1] <= window) else None)
    return out


@attribute("negation", depends=("lower", "line"), per_mention=True, from_facts=True,
           help="the negation cue of a negated mention, None when it is affirmed: 'denies [chest pain]' -> denies, "
                "'no [masses] were appreciated' -> no, '[swelling] was not seen' -> not (NegEx-style: the cue's scope "
                "ends at 'but', 'which', ';' ...)", blocking=())
def _negation(t: Table) -> Callable[[int], str | None]:
    s = t.settings.clinical
    pre, post, breaks, window = s.negation_cues.phrases, s.negation_post.phrases, s.scope_breaks.words, s.post_window
    post_breaks = s.post_breaks.words
    at = scope_reader(t, pre, breaks)
    lengths = sorted({len(p) for p in post}, reverse=True)
    post_firsts, lower, concepts, lines = frozenset(p[0] for p in post), t["lower"], t.doc.concepts, t.doc.lines

    def negation(i: int) -> str | None:
        c, low = concepts[i], lower[i]
        if low and (low[0],) in pre:  # "[No masses]" carries its own cue
            return low[0]
        hit = at(c.start[0] - 1, c.start[1])
        if hit or not window:
            return hit[0] if hit else None
        after = [tok.lower() for tok in lines[c.end[0] - 1][c.end[1] + 1: c.end[1] + 1 + window]]
        if post_firsts.isdisjoint(after):  # the words after it on its last line: "[swelling] was not seen"
            return None
        stop = next((k for k, w in enumerate(after) if w in breaks or w in post_breaks), len(after))
        return next((" ".join(after[k: k + n]) for k in range(stop) for n in lengths if tuple(after[k: k + n]) in post),
                    None)

    return negation


@attribute("hedge", depends=("lower", "line"), from_facts=True,
           help="the uncertainty cue of a hedged mention: 'possible [infection]' -> possible, 'rule out [torsion]' -> rule out",
           blocking=())
def _hedge(t: Table) -> list[str | None]:
    cues, breaks = t.settings.clinical.uncertainty_cues.phrases, t.settings.clinical.scope_breaks.words
    before = _cue_in_scope(t, cues, breaks, window=4)
    return [next((w for w in low if (w,) in cues), None) or b for low, b in zip(t["lower"], before)]


@attribute("hypothetical", depends=("lower", "line"),
           help="the risk cue in scope before a mention that names a possibility, not a finding: 'the risks and "
                "complications of surgery including [bleeding]' -> risks (to the end of the clause, as negation)",
           blocking=())
def _hypothetical(t: Table) -> list[str | None]:
    return _cue_in_scope(t, t.settings.clinical.risk_cues.phrases, t.settings.clinical.scope_breaks.words)


def _own_cue(t: Table, cues: frozenset[tuple[str, ...]], before: int = 0) -> list[str | None]:
    """A cue among a mention's own words (or the ``before`` words right before it)."""
    longest = max(map(len, cues), default=0)
    firsts = frozenset(c[0] for c in cues)
    lowers = t["lower"]
    context = [[w.lower() for w in t.doc.before(c, before)] for c in t.doc.concepts] if before else [[]] * len(lowers)
    out: list[str | None] = []
    for pre, low in zip(context, lowers):
        words = pre + list(low)
        if firsts.isdisjoint(words):  # most mentions hold no cue at all
            out.append(None)
            continue
        out.append(next((" ".join(words[a: a + k]) for a in range(len(words)) for k in range(longest, 0, -1)
                         if tuple(words[a: a + k]) in cues), None))
    return out


@attribute("history", depends=("lower", "line"), from_facts=True,
           help="a past-time cue in or right before the mention: '[prior operations]' -> prior, "
                "'history of [nephrolithiasis]' -> history of", blocking=())
def _history(t: Table) -> list[str | None]:
    return _own_cue(t, t.settings.clinical.history_cues.phrases, before=2)


@attribute("new_event", of_words=True, depends=("lower",),
           help="the mention introduces another one of its kind: '[another tube]' -> another, '[a repeat CT]' -> repeat",
           blocking=())
def _new_event(t: Table) -> list[str | None]:
    return _own_cue(t, t.settings.clinical.new_event_cues.phrases)


@attribute("generic", of_words=True, depends=("lower",),
           help="a non-specific mention: '[any swelling]' -> any, '[daily medication]' -> daily", blocking=())
def _generic(t: Table) -> list[str | None]:
    cues = t.settings.clinical.generic_cues.words
    return [next((w for w in low[:2] if w in cues), None) for low in t["lower"]]


@attribute("degree", of_words=True, depends=("lower",),
           help="low or high from the mention's degree words: '[minimal discomfort]' -> low, '[increased blood flow]' -> high",
           blocking=())
def _degree(t: Table) -> list[str | None]:
    low_w, high_w = t.settings.clinical.qualifiers_low.words, t.settings.clinical.qualifiers_high.words
    out: list[str | None] = []
    for low in t["lower"]:
        lo, hi = any(w in low_w for w in low), any(w in high_w for w in low)
        out.append("low" if lo and not hi else "high" if hi and not lo else None)
    return out


@attribute("sites", depends=("lower", "section", "exam_section"),
           help="laterality and body parts of the mention's own words and of its exam heading: "
                "'[left testicular pain]' -> {left}; 'NECK : no [masses]' -> {neck}", blocking=())
def _sites(t: Table) -> list[frozenset[str]]:
    sites = t.settings.clinical.sites.words
    seen: dict[tuple[tuple[str, ...], str | None], frozenset[str]] = {}  # a repeated mention in one section
    out = []
    for low, sec, exam in zip(t["lower"], t["section"], t["exam_section"]):
        key = (low, sec if exam else None)
        found = seen.get(key)
        if found is None:
            words = sites.intersection(low)
            if exam and sec:
                words |= sites.intersection(sec.split())
            found = seen[key] = words or EMPTY
        out.append(found)
    return out


@attribute("drug", of_words=True, depends=("lower",),
           help="the generic name of a drug the mention names, brand or generic: '[Zyrtec]' -> cetirizine, "
                "'[Coumadin therapy]' -> warfarin",
           blocking=(BlockingKey(order=150, phrase=("same-drug", "one drug, by brand or generic name")),))
def _drug(t: Table) -> list[str | None]:
    s = t.settings.clinical
    names, firsts = s.drug_names, s.drug_first_words
    longest = max(map(len, names), default=0)
    out: list[str | None] = []
    for low in t["lower"]:
        words = [w.strip(".,") for w in low]
        if firsts.isdisjoint(words):  # most mentions name no drug
            out.append(None)
            continue
        out.append(next((names[tuple(words[a: a + k])] for a in range(len(words)) for k in range(longest, 0, -1)
                         if tuple(words[a: a + k]) in names), None))
    return out


def _words_key(words: frozenset[str]) -> str:
    return " ".join(sorted(words))


@attribute("words_key", of_words=True, depends=("words",),
           help="the meaning-bearing words, sorted, as one string: '[shortness of breath]' -> 'breath shortness'",
           blocking=())
def _words_key_column(t: Table) -> list[str | None]:
    return [_words_key(ws) if ws else None for ws in t["words"]]


@attribute("abbreviation_keys", of_words=True, depends=("lower",), needs=("wordnet",),
           help="the words_key of each long form of a one-word abbreviation the mention is (abbreviations.txt): "
                "'[HTN]' -> {hypertension}, '[SOB]' -> {breath shortness}; empty for other mentions", blocking=())
def _abbreviation_keys(t: Table) -> list[frozenset[str]]:
    forms, words = t.settings.clinical.abbreviation_forms, t.settings.words
    determiners = words.determiners.words
    out: list[frozenset[str]] = []
    for low in t["lower"]:
        rest = [w for w in low if w not in determiners]
        longs = forms.get(rest[0].strip(".")) if len(rest) == 1 else None
        keys = (_words_key(frozenset(filter(None, map(words.condition, f.split())))) for f in longs or ())
        out.append(frozenset(k for k in keys if k) or EMPTY)
    return out


@attribute("thing_pronoun", depends=("lower", "type"),
           help="the word of a one-word pronoun mention that refers to things: '[it]' -> it, '[these]' -> these",
           blocking=())
def _thing_pronoun(t: Table) -> list[str | None]:
    words, ptypes = t.settings.clinical.thing_pronouns.words, t.settings.pronoun_types
    return [low[0] if len(low) == 1 and low[0] in words and ty in ptypes else None
            for low, ty in zip(t["lower"], t["type"])]


@attribute("pronoun_use", depends=("thing_pronoun", "start", "end", "line"),
           help="how a pronoun for things is used when it refers to no earlier thing of its own: 'relative' right "
                "after a concept ('[hematuria] [that] began'), 'clause' after a verb of saying or knowing ('She "
                "understands [this]'); None otherwise", blocking=())
def _pronoun_use(t: Table) -> list[str | None]:
    s, doc = t.settings.clinical, t.doc
    relative, verbs = s.relative_pronouns.words, s.clause_verbs.phrases
    longest = max(map(len, verbs), default=0)
    ends = set(t["end"])
    out: list[str | None] = []
    for k, word in enumerate(t["thing_pronoun"]):
        before = [w.lower() for w in doc.before(doc.concepts[k], longest + 1)] if word else []
        start = t["start"][k]
        if not before:
            out.append(None)
        elif word in relative and (start - 1 in ends or (before[-1] == "," and start - 2 in ends)):
            out.append("relative")
        elif any(tuple(before[a: b]) in verbs for b in (len(before), len(before) - 1) for a in range(b)):
            out.append("clause")
        else:
            out.append(None)
    return out


@attribute("complement", depends=("line", "lower", "tokens"),
           help="the meaning-bearing words of an 'of'/'to' phrase inside the mention after its first word, else right "
                "after it, up to the next punctuation (4 words at most): '[treatment] of an imperforate anus' -> {anus}, "
                "'[inability to swallow anything]' -> {swallow, anything}; empty without one", blocking=())
def _complement(t: Table) -> list[frozenset[str]]:
    preps, words = t.settings.clinical.complement_words.words, t.settings.words
    out: list[frozenset[str]] = []
    for c, low in zip(t.doc.concepts, t["lower"]):
        inside = next((k for k in range(1, len(low)) if low[k] in preps), None)  # "[inability to swallow]"
        after = (list(t["tokens"][c.index][inside:]) if inside is not None
                 else t.doc.lines[c.end[0] - 1][c.end[1] + 1: c.end[1] + 6])
        if not after or after[0].lower() not in preps:
            out.append(EMPTY)
            continue
        phrase = []
        for tok in after[1:5]:
            if not has_alnum(tok) or tok.lower() in preps:
                break
            phrase.append(words.condition(tok))
        out.append(frozenset(w for w in phrase if w) or EMPTY)
    return out


@attribute("thing_key", depends=("thing_pronoun", "person", "is_pronoun"),
           help="'thing' for a pronoun that refers to things and for every mention that is neither a person nor a "
                "pronoun: the blocking key of rules that resolve 'it' and 'this'",
           blocking=(BlockingKey(order=180, phrase=("thing", "a thing (no person) or a pronoun for things"),
                                 broad=True),))
def _thing_key(t: Table) -> list[str | None]:
    return ["thing" if w or not (p or pr) else None for w, p, pr in zip(t["thing_pronoun"], t["person"], t["is_pronoun"])]


@attribute("thing_rank", depends=("thing_key", "line", "start"),
           help="the place of a thing (thing_key) among the things of its sentence, counted from 0 in text order: "
                "'[HPV] caused [warts] .' -> 0, 1; None for people and person pronouns",
           blocking=())
def _thing_rank(t: Table) -> list[int | None]:
    out: list[int | None] = [None] * len(t["line"])
    seen: dict[int, int] = {}
    for k in sorted(range(len(out)), key=t["start"].__getitem__):
        if t["thing_key"][k]:
            out[k] = seen.get(t["line"][k], 0)
            seen[t["line"][k]] = out[k] + 1
    return out


#: tokens that end a clause inside a sentence besides the clause openers (salience.clause_openers)
_CLAUSE_MARKS = frozenset({",", ":", ";", "(", ")"})


@attribute("clause_number", depends=("line",),
           help="how many clause breaks (a clause opener such as 'and', 'because', 'which', or a comma) stand "
                "before the mention in its sentence: two mentions of one sentence with the same number share a clause "
                "('takes [HCTZ] for [this]' -> 0, 0; '[asthma] but needs nothing for [this]' -> 0, 1)",
           blocking=())
def _clause_number(t: Table) -> list[int]:
    breaks = t.settings.salience.clause_openers.words | _CLAUSE_MARKS
    out = []
    for c in t.doc.concepts:
        line = t.doc.lines[c.start[0] - 1]
        out.append(sum(tok.lower() in breaks for tok in line[: c.start[1]]))
    return out


@attribute("clinical_head", of_words=True, depends=("lower", "conditioned"),
           help="the head, skipping a light noun after it: 'sleep apnea symptoms' -> apnea, "
                "'Coumadin therapy' -> coumadin", blocking=())
def _clinical_head(t: Table) -> list[str | None]:
    s = t.settings.clinical
    stops, light, cues = t.settings.words.head_stops.words, s.light_heads.words, s.context_words
    out: list[str | None] = []
    for low, cond in zip(t["lower"], t["conditioned"]):
        core = [w for w in cond[: core_length(low, stops)] if w]
        while len(core) > 1 and core[-1] in light and core[-2] not in cues:  # "daily medication" keeps its head
            core.pop()
        out.append(core[-1] if core else None)
    return out


#: what a derived noun must name to be the same thing as its verb or adjective: an act, an event,
#: a state ("catheterizing" / "catheterization", "obstructed" / "obstruction", "febrile" / "fever"),
#: not the instrument or the agent ("catheter", "obstructor")
_DERIVED_KINDS = frozenset({"noun.act", "noun.event", "noun.process", "noun.state", "noun.phenomenon",
                            "noun.attribute", "noun.feeling"})


@attribute("derived_heads", of_words=True, depends=("lower", "clinical_head"), needs=("wordnet",),
           help="the clinical head's own word (before conditioning drops an adjective) first, then the nouns of an "
                "act, event or state WordNet derives from it: '[catheterizing]' -> (catheterizing, catheterization, "
                "catheterisation), '[febrile]' -> (febrile, fever); empty without a head", blocking=())
def _derived_heads(t: Table) -> list[tuple[str, ...]]:
    wn = t.settings.wordnet
    out: list[tuple[str, ...]] = []
    for low, head in zip(t["lower"], t["clinical_head"]):
        word = head or (low[-1] if low and low[-1].isalpha() else None)
        out.append((word, *sorted(wn.derived_nouns(word, kinds=_DERIVED_KINDS))) if word else ())
    return out


@attribute("clinical_head_keys", of_words=True, depends=("clinical_head",), needs=("wordnet",),
           help="blocking keys of clinical_head: the first word_match.min_prefix letters of it and of its WordNet "
                "synonyms ('coumadin' -> {cou, war}): mentions whose clinical heads may match share one",
           blocking=(BlockingKey(order=60,
                                 phrase=("same-clinical-head",
                                         "matching heads once a light noun is skipped ('apnea symptoms' / 'apnea')")),))
def _clinical_head_keys(t: Table) -> list[frozenset[str]]:
    s = t.settings.words
    k = s.word_match.min_prefix
    return [frozenset({h[:k], *(w[:k] for w in s.synonyms(h))}) if h else EMPTY for h in t["clinical_head"]]


@attribute("clinical_words", of_words=True, depends=("words",),
           help="words without light nouns and context cues: 'ongoing sleep apnea symptoms' -> {sleep, apnea}",
           blocking=())
def _clinical_words(t: Table) -> list[frozenset[str]]:
    drop = t.settings.clinical.light_heads.words | t.settings.clinical.context_words
    return [ws if ws.isdisjoint(drop) else ws - drop or ws for ws in t["words"]]
