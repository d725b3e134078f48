"""Where two mentions are and whether their words, names and agreement say they are one thing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..attributes import word_families
from ..document import Evidence
from ..params import Param
from ..words import prefix_match
from .registry import mention_text as _text
from .registry import predicate

if TYPE_CHECKING:
    from ..mentions import MentionTable


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
