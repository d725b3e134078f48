"""medspaCy's facts about concept spans, as the mention attributes rulecoref's clinical vetoes read.

A medspaCy pipeline has already decided what rulecoref's cue lists would work out again: ConText
says a finding is negated ("denies [chest pain]"), uncertain, hypothetical, historical or a
relative's, and the sectionizer says which section it is in. The ``rulecoref`` spaCy component
hands those answers to the rules as ``Document.facts`` (attributes registered ``from_facts=True``), so a
veto keeps "denies chest pain" apart from "had chest pain" because ConText negated the first, and its
evidence says so ("'chest pain' is negated by ConText ('denies'), the other is not").

=====================  ==============================  ===========================================
attribute              from ConText (its targets)      from the sectionizer (every concept)
=====================  ==============================  ===========================================
``negation``           ``is_negated``: the cue
``hedge``              ``is_uncertain``, ``is_hypothetical``
``history``            ``is_historical``
``family_section``     ``is_family``
``section``                                            the section category ("family_history" ->
                                                       "family history"; None before the first)
=====================  ==============================  ===========================================

A fact is given only by a component that ran on the Doc (ConText leaves ``doc._.context_graph``,
the sectionizer ``doc._.sections``), and then for every concept it covers, "not negated" included:
ConText's answer replaces the cue lists for that mention, either way. The family flag is the one
exception: ConText says when a finding is a relative's, and otherwise the section decides. The sectionizer's own span
attributes (a past medical history makes ``is_historical``) come through ConText's flags and are
credited to the sectionizer. Nothing here imports medspaCy: it reads the extensions medspaCy set.
"""

from __future__ import annotations

from collections.abc import Sequence

from spacy.tokens import Doc, Span

from .document import Fact

CONTEXT = "ConText"
SECTIONIZER = "the sectionizer"

#: attribute -> (ConText's span flags, their modifier categories), in the order a cue is looked for
CONTEXT_ATTRIBUTES: dict[str, tuple[tuple[str, str], ...]] = {
    "negation": (("is_negated", "NEGATED_EXISTENCE"),),
    "hedge": (("is_uncertain", "POSSIBLE_EXISTENCE"), ("is_hypothetical", "HYPOTHETICAL")),
    "history": (("is_historical", "HISTORICAL"),),
    "family_section": (("is_family", "FAMILY"),),
}
#: the family attribute is a flag (the others carry their cue words), and ConText only ever adds
#: it: a finding without a FAMILY cue may still be in the family history section, which the
#: sectionizer (or, without it, rulecoref's own headings) decides
_FLAGS = frozenset({"family_section"})


def context_ran(doc: Doc) -> bool:
    return Doc.has_extension("context_graph") and doc._.context_graph is not None


def sectionizer_ran(doc: Doc) -> bool:
    return Doc.has_extension("sections") and bool(doc._.sections)


def medspacy_facts(doc: Doc, spans: Sequence[Span]) -> dict[int, dict[str, Fact]]:
    """The facts medspaCy's components left on ``doc`` for each concept span (by its index in
    ``spans``), for ``Document.facts``; empty when neither ConText nor the sectionizer ran."""
    context, sections = context_ran(doc), sectionizer_ran(doc)
    if not (context or sections):
        return {}
    targets = {(s.start, s.end, s.label) for s in doc._.context_graph.targets} if context else set()
    out: dict[int, dict[str, Fact]] = {}
    for k, span in enumerate(spans):
        facts: dict[str, Fact] = {}
        category = span[0]._.section_category if sections else None
        if sections:
            facts["section"] = Fact(category.replace("_", " ") if category else None, SECTIONIZER)
        if (span.start, span.end, span.label) in targets:
            facts.update(_context_facts(doc, span, category))
        if facts:
            out[k] = facts
    return out


def _context_facts(doc: Doc, span: Span, category: str | None) -> dict[str, Fact]:
    """ConText's flags on one of its targets, each with the cue that set it ("denies")."""
    facts: dict[str, Fact] = {}
    for name, flags in CONTEXT_ATTRIBUTES.items():
        fact = None if name in _FLAGS else Fact(None, CONTEXT)
        for flag, modifier_category in flags:
            if not span._.get(flag):
                continue
            cue = next((doc[slice(*m.modifier_span)].text.lower() for m in span._.modifiers
                        if m.category == modifier_category), None)
            if cue is not None:
                fact = Fact(True if name in _FLAGS else cue, CONTEXT)
            else:  # set by the sectionizer's span attributes (or another component)
                where = category.replace("_", " ") if category else flag
                fact = Fact(True if name in _FLAGS else where, SECTIONIZER if category else "medspaCy")
            break
        if fact is not None:
            facts[name] = fact
    return facts
