"""The people linker's fast paths decide exactly what the plain loops they replaced decided.

``people_roles`` caches per token sequence, takes mentions by type and counts the subject's gender
lazily; ``partial_name`` compares a mention only with earlier mentions sharing a prefix key; the
pronoun passes bisect person offsets; the role filters share one grouping of the links. These tests
run the whole people linker on random documents (names in both cases, salutations, titles, family
and patient words, pronouns, possessives) and compare every pass, link for link and in order, with
the straightforward loops kept here as the reference.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rulecoref.document import Concept, Document
from rulecoref.passes import Context
from rulecoref.passes.people import (
    FEMININE,
    MASCULINE,
    PeopleFacts,
    between_words,
    keep_apart,
    norm_word,
    norm_words,
    overlaps,
    reject_joining_patient,
)
from rulecoref.passes.predicates import prefix_match
from tests.helpers import random_spans
from tests.passes.people_support import people_pipeline

VOCAB = [
    "Smith", "smith", "Smith's", "Smiths", "Smithson", "Li", "Lindqvist", "Ann", "Anna", "Students", "students",
    "Finch", "finch", "Quill", "Dr", "Dr.", "Mr.", "Mrs", "Ms.", "MD", "M.D.", "RN", "Pa", "nurse", "attending",
    "social", "worker", "audiologist", "doctor", "mother", "wife", "husband", "patient", "pt", "patient's",
    "someone", "man", "woman", "he", "He", "she", "She", "his", "her", "him", "I", "my", "we", "you", "your",
    "this", "This", "who", "it", "they", "the", "a", ",", ".", "and", "for", "saw", "with", "he's", "H.E.",
    "L", "Edward",
]
TYPES = ["person", "people", "pronoun", "problem"]
SCOPE = {"types": ["person", "people", "pronoun"]}
PASSES = [
    {"kind": "patient_mention"},
    {"kind": "introduction_match"},
    {"kind": "partial_name"},
    {"kind": "third_person_pronoun"},
    {"kind": "first_person_pronoun"},
    {"kind": "second_person_pronoun"},
    {"kind": "this_pronoun", "params": {"words": ["this"], "max_words_ahead": 3}},
    {"kind": "who_pronoun", "params": {"words": ["who"]}},
    {"kind": "filter_family"},
    {"kind": "filter_staff"},
]


def random_doc(rng: random.Random, n_lines: int = 5, width: int = 10, n_concepts: int = 30) -> Document:
    """Random tokens and random (possibly nested, possibly line-crossing) concept spans."""
    lines = [[rng.choice(VOCAB) for _ in range(rng.randint(1, width))] for _ in range(n_lines)]
    spans = random_spans(rng, lines, n_concepts, [0, 0, 0, 1, 1, 2, 3])
    doc = Document(name="random", lines=lines, concepts=[
        Concept(index=k, text="x", type=rng.choice(TYPES), start=s, end=e) for k, (s, e) in enumerate(spans)
    ])
    doc.concepts = [Concept(index=c.index, text=" ".join(doc.tokens(c)).lower(), type=c.type, start=c.start, end=c.end)
                    for c in doc.concepts]
    return doc


# -- the reference loops (the code the fast paths replaced) ----------------------------------------
def reference_facts(roles, doc: Document) -> PeopleFacts:
    f = PeopleFacts(vocab=roles.vocab)
    v = roles.vocab
    pronoun_types = roles.scope.pronoun_types
    person_types = set(roles.p["person_types"])
    for c in roles.candidates(doc):
        if c.type not in person_types and c.type not in pronoun_types:
            continue
        tokens = doc.tokens(c)
        words = norm_words(tokens)
        f.words[c.index] = words
        if c.type in pronoun_types or v.is_pronoun_words(words):
            f.pronouns.add(c.index)
            continue
        f.persons.append(c.index)
        fam = v.family.first(words)
        if fam:
            f.family[c.index] = fam
        why = v.staff_reason(tokens, words)
        if why:
            f.staff[c.index] = why
            if v.role_word(words):
                f.staff_words.add(c.index)
        pat = v.patient.first(words)
        if pat and not fam and not why:
            f.patients[c.index] = pat
    doctors: dict[str, int] = {}
    for i, why in f.staff.items():
        if why.startswith(("salutation", "title")):
            name = v.surname(doc.tokens(doc.concepts[i]))
            if name and len(name) >= 3:
                doctors.setdefault(name, i)
    for i in f.persons if doctors else ():
        if i in f.staff or i in f.family or v.words_gender(f.words[i]):
            continue
        name = v.surname(doc.tokens(doc.concepts[i]))
        if not name or len(name) < 3:
            continue
        hit = next((d for d in doctors if prefix_match(name, d)), None)
        if hit is not None:
            f.staff[i] = f"surname {name!r} of {doc.concepts[doctors[hit]].text!r}"
            f.patients.pop(i, None)
    for i in f.persons:
        if i in f.staff or i in f.family or i in f.patients:
            continue
        if v.patient.first(f.words[i]) or v.generic.first(f.words[i]):
            continue
        f.subject, f.subject_why = i, "first person mention that is no pronoun, staff, patient, family or generic word"
        break
    else:
        for i in f.persons:
            if i in f.patients:
                f.subject, f.subject_why = i, f"no name: first mention with {f.patients[i]!r}"
                break
    if roles.p["gender_count"] == "tokens":
        low = Counter(norm_word(t) if not t.isalpha() else t.lower() for t in doc.flat_tokens)
    else:
        low = Counter(w for i in sorted(f.pronouns) for w in f.words[i])
    m = sum(n for w, n in low.items() if w in v.masculine_pronouns.words)
    fe = sum(n for w, n in low.items() if w in v.feminine_pronouns.words)
    if m != fe:
        f.gender, f.gender_why = (MASCULINE if m > fe else FEMININE), f"{m} masculine vs {fe} feminine pronouns"
    elif f.subject is not None:
        f.gender = v.words_gender(f.words[f.subject])
        f.gender_why = f"pronouns tie ({m}); subject's own words" if f.gender else f"pronouns tie ({m}); unknown"
    return f


def ref_gender_of(f: PeopleFacts, i: int) -> str | None:
    words = f.words.get(i, [])
    if i in f.pronouns:
        genders = {f.vocab.pronoun_gender(w) for w in words} - {None}
        return genders.pop() if len(genders) == 1 else None
    return f.vocab.words_gender(words)


def ref_pronouns(doc: Document, f: PeopleFacts, words, types=("pronoun",)):
    for p in sorted(f.pronouns):
        w = f.words.get(p, [])
        if doc.concepts[p].type in types and len(w) == 1 and w[0] in words:
            yield doc.concepts[p]


def ref_partial_name(p, doc: Document, f: PeopleFacts):
    lower = frozenset(t for t in doc.flat_tokens if t.islower())
    prepared = []
    for i in f.persons:
        c = doc.concepts[i]
        words, capital = p.words(doc.tokens(c), 0 if c.start[1] == 0 else -1, lower)
        if words and (capital or not p.p["names_only"]):
            prepared.append((i, words, ref_gender_of(f, i)))
    for k, (j, wj, gj) in enumerate(prepared):
        for i, wi, gi in reversed(prepared[:k]):
            if p.p["gender_check"] and gi and gj and gi != gj:
                continue
            short, long_ = (wi, wj) if len(wi) <= len(wj) else (wj, wi)
            if all(any(p.same_word(w, x) for x in long_) for w in short):
                yield i, j, f"name words {' '.join(short)!r} in {' '.join(long_)!r}"
                if p.p["antecedents"] == "nearest":
                    break


def ref_introduction(p, doc: Document, f: PeopleFacts):
    v = f.vocab

    def named(i):
        sal = v.salutation(f.words[i])
        if sal:
            return f"salutation {sal!r}"
        title = v.title(doc.tokens(doc.concepts[i]))
        return f"title {title!r}" if title else None

    for k, i in enumerate(f.persons):
        a = doc.concepts[i]
        for j in f.persons[k + 1:]:
            b = doc.concepts[j]
            gap = doc.start_of(b) - doc.end_of(a) - 1
            if gap > p.p["max_tokens_between"]:
                break
            if gap < 0:
                continue
            for x, y in ((i, j), (j, i)):
                how = named(x)
                if how and y in f.staff_words:
                    if next((w for w in between_words(doc, a, b) if w in p.block), None) is None:
                        yield i, j, f"{doc.concepts[x].text!r} ({how}) introduced by {doc.concepts[y].text!r} ({f.staff[y]})"
                    break


def ref_third_person(p, doc: Document, f: PeopleFacts):
    concepts = doc.concepts
    side = f.patient_side()
    persons = set(f.persons)

    def fits(i, g):
        if g is None:
            return True
        own = ref_gender_of(f, i)
        if own is not None and own != g:
            return False
        return not (i in side and f.gender is not None and f.gender != g)

    for pr in sorted(f.pronouns):
        words = f.words.get(pr, [])
        if len(words) != 1:
            continue
        g = f.vocab.pronoun_gender(words[0])
        if g is None and words[0] not in p.neutral:
            continue
        pc = concepts[pr]
        names = [c.index for c in doc.concepts_on_line(pc.line) if c.index in persons and not overlaps(doc, c, pc)]
        target, why = None, ""
        if len(names) == 1 and doc.end_of(names[0]) < doc.start_of(pc) and fits(names[0], g):
            target, why = names[0], "the one name in the sentence, before the pronoun"
        elif len(names) > 1:
            if g is not None and g == f.gender and f.subject is not None and not overlaps(doc, concepts[f.subject], pc):
                target, why = f.subject, f"several names; {g} like the subject"
            else:
                target = next((i for i in names if i in f.staff and fits(i, g)), None)
                why = "several names; the first staff member in the sentence"
        elif g is not None and g == f.gender and f.subject is not None and not overlaps(doc, concepts[f.subject], pc):
            target, why = f.subject, f"no name before it in the sentence; {g} like the subject"
        else:
            for i in reversed(f.persons):
                c = concepts[i]
                if doc.start_of(c) < doc.start_of(pc) and not overlaps(doc, c, pc) and fits(i, g):
                    target, why = i, "no name before it in the sentence; closest preceding person mention"
                    break
        if target is not None and target != pr:
            yield target, pr, why


def ref_first_person(p, doc: Document, f: PeopleFacts):
    last: dict[str, int] = {}
    for pr in sorted(f.pronouns):
        words = f.words.get(pr, [])
        if len(words) != 1:
            continue
        group = "singular" if words[0] in p.singular else "plural" if words[0] in p.plural else None
        if group is None:
            continue
        if group in last:
            yield last[group], pr, f"first-person {group} pronouns are one person"
        last[group] = pr


def ref_second_person(p, doc: Document, f: PeopleFacts):
    if f.subject is None:
        return
    for pr in sorted(f.pronouns):
        words = f.words.get(pr, [])
        if len(words) == 1 and words[0] in p.words:
            yield f.subject, pr, f"second person; subject {doc.concepts[f.subject].text!r}"


def ref_this(p, doc: Document, f: PeopleFacts):
    for c in ref_pronouns(doc, f, p.words):
        end = doc.end_of(c)
        nxt = next((i for i in f.persons if doc.start_of(i) > end), None)
        if nxt is None or doc.start_of(nxt) - end > p.p["max_words_ahead"] or nxt in f.staff:
            continue
        yield c.index, nxt, f"{c.text!r} {doc.start_of(nxt) - end} word(s) before a person who is not staff"


def ref_who(p, doc: Document, f: PeopleFacts):
    for c in ref_pronouns(doc, f, p.words):
        start = doc.start_of(c)
        prev = next((i for i in reversed(f.persons) if doc.start_of(i) < start), None)
        if prev is not None:
            yield prev, c.index, f"previous person mention, {max(doc.start_of(c) - doc.end_of(prev) - 1, 0)} token(s) before"


def ref_patient_mention(p, doc: Document, f: PeopleFacts):
    if f.subject is None:
        return
    for i, word in f.patients.items():
        if i != f.subject:
            yield f.subject, i, f"{word!r} names the patient; subject {doc.concepts[f.subject].text!r} ({f.subject_why})"


REFERENCES = {
    "patient_mention": ref_patient_mention,
    "introduction_match": ref_introduction,
    "partial_name": ref_partial_name,
    "third_person_pronoun": ref_third_person,
    "first_person_pronoun": ref_first_person,
    "second_person_pronoun": ref_second_person,
    "this_pronoun": ref_this,
    "who_pronoun": ref_who,
}


def resolved(proposals):
    return [(i, j, ev if isinstance(ev, str) else ev()) for i, j, ev in proposals]


def facts_view(f: PeopleFacts) -> dict:
    return {
        "words": {i: list(w) for i, w in f.words.items()},
        "persons": f.persons,
        "pronouns": sorted(f.pronouns),
        "staff": list(f.staff.items()),
        "staff_words": sorted(f.staff_words),
        "family": list(f.family.items()),
        "patients": list(f.patients.items()),
        "subject": (f.subject, f.subject_why),
        "gender": (f.gender, f.gender_why),
        "own genders": {i: f.gender_of(i) for i in f.words},
    }


@pytest.mark.parametrize("gender_count", ["tokens", "concepts"])
@pytest.mark.parametrize("antecedents", ["nearest", "all"])
def test_people_linker_same_as_reference(tmp_path, gender_count, antecedents):
    passes = [dict(p) for p in PASSES]
    passes[2] = {"kind": "partial_name", "params": {"antecedents": antecedents}}
    entries = [{**p, "applies_to": SCOPE} for p in passes]
    pipe = people_pipeline(tmp_path, *entries, roles={"gender_count": gender_count}, types=TYPES)
    roles = pipe.passes[0]
    rng = random.Random(f"{gender_count}{antecedents}")
    made: Counter[str] = Counter()
    for _ in range(150):
        doc = random_doc(rng)
        for _repeat in range(2):  # the second run is served from the caches
            ctx = Context(doc=doc, links={})
            roles.propose(doc, ctx)
            f = ctx.state["people"]
            ref = reference_facts(roles, doc)
            assert facts_view(f) == facts_view(ref)
            for p in pipe.passes[1:]:
                if p.role == "filter":
                    continue
                got = resolved(p.propose(doc, ctx))
                assert got == list(REFERENCES[p.kind](p, doc, ref)), p.kind
                made[p.kind] += len(got)
    assert all(made[kind] > 0 for kind in REFERENCES), made  # every pass was exercised


def test_people_gender_token_spellings_bounded(tmp_path, monkeypatch):
    import rulecoref.passes.people_roles as mod

    monkeypatch.setattr(mod, "_CACHE_LIMIT", 5)
    pipe = people_pipeline(tmp_path, types=TYPES)
    roles = pipe.passes[0]
    rng = random.Random(3)
    for _ in range(40):
        doc = random_doc(rng)
        ctx = Context(doc=doc, links={})
        roles.propose(doc, ctx)
        assert (ctx.state["people"].gender, ctx.state["people"].gender_why) == \
            (reference_facts(roles, doc).gender, reference_facts(roles, doc).gender_why)
    assert len(roles._known_tokens) <= 5 + 80
    assert len(roles._person_cache) <= 6 and len(roles._pronoun_cache) <= 6


def test_people_filters_same_as_keep_apart_over_all_links():
    rng = random.Random(11)
    removed = 0
    for _ in range(400):
        n = rng.randint(2, 14)
        links = {}
        for _ in range(rng.randint(0, 18)):
            a, b = sorted(rng.sample(range(n), 2))
            links[(a, b)] = []
        nodes = list(range(n))
        f = PeopleFacts(vocab=None)  # type: ignore[arg-type]
        f.patients = {x: "patient" for x in rng.sample(nodes, rng.randint(0, 2))}
        f.subject = rng.choice([None, *nodes])
        f.family = {x: "mother" for x in rng.sample(nodes, rng.randint(0, min(3, n)))}
        f.staff = {x: "title 'md'" for x in rng.sample(nodes, rng.randint(0, min(3, n)))}
        doc = Document(name="d", lines=[["w"] * n], concepts=[
            Concept(index=k, text=f"m{k}", type="person", start=(1, k), end=(1, k)) for k in range(n)])
        state: dict = {}
        for others, what in ((f.family, "family"), (f.staff, "staff")):
            side = f.patient_side()
            expected = [(pair, f"would put {what} mention {doc.concepts[b].text!r} ({others[b]}) in the chain of "
                               f"patient mention {doc.concepts[a].text!r}")
                        for pair, a, b in keep_apart(list(links), side, set(others) - side)]
            got = list(reject_joining_patient(doc, links, f, others, what, state))
            assert got == expected
            removed += len(got)
            for pair, _ in got:  # as the engine does
                links.pop(pair)
    assert removed > 50  # the chain check itself ran, not only its shortcuts
