"""``pronoun_salience``: each preference on a tiny document, and their order."""

from __future__ import annotations

import pytest

from rulecoref.errors import RulecorefError
from rulecoref.markup import parse_markup
from tests.helpers import linked, parsed, pipeline_from_entries, resolve


def salience(tmp_path, stages=None):
    entry = {"kind": "pronoun_salience", "name": "salience"}
    if stages is not None:
        entry["params"] = {"stages": stages}
    return pipeline_from_entries(tmp_path, [{"kind": "people_roles", "name": "roles"}, entry])


@pytest.mark.parametrize("markup, antecedent", [
    # note_subject: a note about a patient; the pronoun has the patient's gender
    ("[Mr. Finch|person] saw [Dr. Hale|person] .\n[The patient|person] is well .\n[He|pronoun] left .", "mr. finch"),
    # cataphora: a possessive in an opening phrase, the subject after its comma
    ("[Lena Vos|person] called .\nAfter [her|pronoun] degree , [Mara Quist|person] moved .", "mara quist"),
    # possessor_in_sentence: the nearest person before a possessive in its sentence
    ("[Mara Quist|person] met [Lena Vos|person] at [her|pronoun] home .", "lena vos"),
    # subject_in_sentence: a subject pronoun opening a clause goes to the sentence's subject
    ("[Mara Quist|person] hired [Lena Vos|person] , and [she|pronoun] left .", "mara quist"),
    # object_other: an object pronoun is not its clause's subject
    ("[Mara Quist|person] thanked [Lena Vos|person] and paid [her|pronoun] .", "lena vos"),
    # previous_subject: through a sentence-initial pronoun to the subject named before it
    ("[Tom Ek|person] met [Bo Lund|person] .\nHe sang .\n[He|pronoun] left .", "tom ek"),
    # previous_subject finds the name again in the text: "Lund" is Bo Lund
    ("[Tom Ek|person] met [Bo Lund|person] .\nLund sang .\n[He|pronoun] left .", "bo lund"),
    # first_after: nobody named before
    ("[She|pronoun] said that [Mara Quist|person] left .", "mara quist"),
])
def test_pronoun_salience_stages(tmp_path, markup, antecedent):
    res = resolve(salience(tmp_path), markup)
    pron = next(c.text for c in res.doc.concepts if c.type == "pronoun")
    assert linked(res, antecedent, pron)


def test_pronoun_salience_skips_the_other_gender(tmp_path):
    res = resolve(salience(tmp_path), "[Mr. Finch|person] met [Mrs. Vos|person] .\n[She|pronoun] left .")
    assert linked(res, "mrs. vos", "she") and not linked(res, "mr. finch", "she")


def test_pronoun_salience_stage_order_is_the_rule(tmp_path):
    markup = "[Mara Quist|person] hired [Lena Vos|person] , and [she|pronoun] left ."
    res = resolve(salience(tmp_path, ["nearest_before"]), markup)
    assert linked(res, "lena vos", "she") and not linked(res, "mara quist", "she")


def test_pronoun_salience_links_each_pronoun_once_with_its_stage_as_evidence(tmp_path):
    res = resolve(salience(tmp_path), "[Mara Quist|person] hired [Lena Vos|person] , and [she|pronoun] left .")
    links = [l for l in res.proposed if l.provenance.pass_name == "salience"]
    assert len(links) == 1 and "subject_in_sentence" in links[0].provenance.evidence


def test_pronoun_salience_unknown_stage_is_a_rule_error(tmp_path):
    with pytest.raises(RulecorefError) as err:
        salience(tmp_path, ["nearest", "first_after"])
    assert "RC109" in str(err.value)


def test_pronoun_salience_places_of_a_repeated_name_share_their_candidates(tmp_path):
    """Issue 22: the candidates' places are listed once per place, each with the mentions named
    there (one tuple shared by the mentions of one name), not once per (place, mention): 3,000
    repeats of "Dr. Smith" made 9 million of those pairs."""
    from rulecoref.passes.pronoun_salience import named_places
    from tests.helpers import mention_table

    t = mention_table("\n".join(["[Dr. Smith|person] called ."] * 200 + ["[Smith|person] and [he|pronoun] left ."]),
                      "name_occurrences", "person")
    persons = [i for i, p in enumerate(t["person"]) if p]
    places = named_places(t, persons)
    # "Dr. Smith" at 200 places and "Smith" (another name: its own words) at 201, each once; the
    # last line's "Smith" names both, the one place with a list of its own
    assert len(places) == 401 and len({id(o[4]) for o in places}) == 3
    assert places[0][:4] == (1, 0, 1, True) and places[0][4] == tuple(range(200))
    res = resolve(salience(tmp_path), "[Dr. Smith|person] called .\n[Dr. Smith|person] left .\n[He|pronoun] sang .")
    assert linked(res, "dr. smith", "he")


@pytest.mark.parametrize("markup, arcs, antecedent", [
    # a possessive takes its own clause's subject, though another person is nearer
    ("[Cy Ode|person] met [Bo Lund|person] at [his|pronoun] home .",
     "compound:1 nsubj:2 ROOT:2 compound:4 dobj:2 prep:2 poss:7 pobj:5 punct:2", "cy ode"),
    # an object pronoun never its own clause's subject: the subject of the clause above
    ("[Cy Ode|person] said that [Bo Lund|person] hit [him|pronoun] .",
     "compound:1 nsubj:2 ROOT:2 mark:6 compound:5 nsubj:6 ccomp:2 dobj:6 punct:2", "cy ode"),
    # a relative clause's subject is the person it describes, through an apposition
    ("[Cy Ode|person] met [Ann Lee|person] , a girl who sold [her|pronoun] goats .",
     "compound:1 nsubj:2 ROOT:2 compound:4 dobj:2 punct:4 det:7 appos:4 nsubj:9 relcl:7 poss:11 dobj:9 punct:2",
     "ann lee"),
])
def test_pronoun_salience_clause_subject_reads_the_parse(tmp_path, markup, arcs, antecedent):
    doc = parsed(markup, arcs)
    res = salience(tmp_path, ["clause_subject"]).resolve(doc)
    pron = next(c.text for c in res.doc.concepts if c.type == "pronoun")
    assert linked(res, antecedent, pron)
    assert salience(tmp_path, ["clause_subject"]).resolve(parse_markup(markup)[0]).kept == {}  # no parse: no link


@pytest.mark.parametrize("stage, markup, arcs, plain, with_parse", [
    # previous_subject: the main clause's subject, not the first subject of the sentence
    ("previous_subject", "When [Bo Lund|person] left , [Cy Ode|person] sang .\n[He|pronoun] wept .",
     "advmod:3 compound:2 nsubj:3 advcl:7 punct:7 compound:6 nsubj:7 ROOT:7 punct:7|nsubj:1 ROOT:1 punct:1",
     "bo lund", "cy ode"),
    # nearest_before: the most prominent person before the pronoun, then the nearest
    ("nearest_before", "[Cy Ode|person] said that [Bo Lund|person] left when [he|pronoun] wept .",
     "compound:1 nsubj:2 ROOT:2 mark:6 compound:5 nsubj:6 ccomp:2 advmod:9 nsubj:9 advcl:6 punct:2",
     "bo lund", "cy ode"),
])
def test_pronoun_salience_prominence_by_the_parse(tmp_path, stage, markup, arcs, plain, with_parse):
    pipe = salience(tmp_path, [stage])
    assert linked(pipe.resolve(parse_markup(markup)[0]), plain, "he")
    assert linked(pipe.resolve(parsed(markup, arcs)), with_parse, "he")


@pytest.mark.parametrize("markup, arcs, antecedent, not_antecedent", [
    # binding principle B: the conjunct "confronts" shares Yasmeen as its subject, so "her" is not
    # Yasmeen, whatever the stage: nearest_before would take the more prominent subject
    ("[Yasmeen Ali|person] goes to [Farah Noor|person] and confronts [her|pronoun] .",
     "compound:1 nsubj:2 ROOT:2 prep:2 compound:5 pobj:3 cc:2 conj:2 dobj:7 punct:2", "farah noor", "yasmeen ali"),
    # an open complement's subject is its head's object: "asked Bo to call him" is not Bo
    ("[Cy Ode|person] asked [Bo Lund|person] to call [him|pronoun] .",
     "compound:1 nsubj:2 ROOT:2 compound:4 dobj:2 aux:6 xcomp:2 dobj:6 punct:2", "cy ode", "bo lund"),
])
def test_pronoun_salience_binding_bars_the_clause_subject(tmp_path, markup, arcs, antecedent, not_antecedent):
    res = salience(tmp_path, ["nearest_before"]).resolve(parsed(markup, arcs))
    pron = next(c.text for c in res.doc.concepts if c.type == "pronoun")
    assert linked(res, antecedent, pron) and not linked(res, not_antecedent, pron)


def test_pronoun_salience_binding_is_a_setting(tmp_path):
    """``binding: false`` keeps the stages' own choice: clause_subject climbs past the conjunct to
    the subject that "her" may not take."""
    markup = "[Yasmeen Ali|person] goes to [Farah Noor|person] and confronts [her|pronoun] ."
    arcs = "compound:1 nsubj:2 ROOT:2 prep:2 compound:5 pobj:3 cc:2 conj:2 dobj:7 punct:2"
    entry = {"kind": "pronoun_salience", "name": "salience", "params": {"stages": ["clause_subject"], "binding": False}}
    pipe = pipeline_from_entries(tmp_path, [{"kind": "people_roles", "name": "roles"}, entry])
    assert linked(pipe.resolve(parsed(markup, arcs)), "yasmeen ali", "her")
    assert not linked(salience(tmp_path, ["clause_subject"]).resolve(parsed(markup, arcs)), "yasmeen ali", "her")


@pytest.mark.parametrize("markup, arcs, antecedent", [
    # backward anaphora: the pronoun's clause lies under the clause whose subject is named after it
    ("When [he|pronoun] arrived , [Bo Lund|person] sat .",
     "advmod:2 nsubj:2 advcl:6 punct:6 compound:5 nsubj:6 ROOT:6 punct:6", "bo lund"),
    # a name in a clause of its own after the pronoun explains nothing: the referent is outside
    ("[He|pronoun] arrived , and [Bo Lund|person] sat .",
     "nsubj:1 ROOT:1 punct:1 cc:1 compound:5 nsubj:6 conj:1 punct:1", None),
])
def test_pronoun_salience_first_after_with_a_parse(tmp_path, markup, arcs, antecedent):
    pipe = salience(tmp_path, ["first_after"])
    assert linked(pipe.resolve(parse_markup(markup)[0]), "bo lund", "he")  # no parse: the first name after
    res = pipe.resolve(parsed(markup, arcs))
    assert linked(res, antecedent, "he") if antecedent else res.kept == {}


@pytest.mark.parametrize("text, line, k, start", [
    ("Cy said , ` ` she left ' ' and she sang", 1, 5, (1, 3)),  # GAP writes `` as two tokens
    ("Cy said , ` ` she left ' ' and she sang", 1, 10, None),  # closed again
    ("Cy said , `` she left '' and", 1, 4, (1, 3)),
    ('Cy said , " she left " and she', 1, 4, (1, 3)),
    ('Cy said , " she left " and she', 1, 8, None),
    ("Cy 's wife left", 1, 3, None),  # a possessive's apostrophe is no quotation mark
    ("Cy wrote : ` ` Bo sang .\nShe left .", 2, 0, (1, 3)),  # a quotation runs on into the next sentence
    ("Cy wrote : ` ` Bo sang .\nA\nB\nC\nShe left .", 5, 0, None),  # ... for three at most
    ("Cy wrote : ` ` Bo sang ' ' .\nShe left .", 2, 0, None),
])
def test_pronoun_salience_open_quotation(text, line, k, start):
    from rulecoref.passes.pronoun_salience import open_quotation

    assert open_quotation([s.split() for s in text.split("\n")], line, k) == start


def test_pronoun_salience_quotes_bar_the_speaker(tmp_path):
    """The speaker of a quotation says "I": "him" inside it is somebody else."""
    markup = "[Cy Ode|person] says , ` ` the film is about [Bo Lund|person] and dedicated to [him|pronoun] ' ' ."
    arcs = ("compound:1 nsubj:2 ROOT:2 punct:2 punct:8 punct:8 det:7 nsubjpass:8 ccomp:2 prep:8 compound:11 "
            "pobj:9 cc:8 conj:8 prep:13 pobj:14 punct:8 punct:8 punct:2")
    res = salience(tmp_path, ["clause_subject", "nearest_before"]).resolve(parsed(markup, arcs))
    assert linked(res, "bo lund", "him") and not linked(res, "cy ode", "him")
    evidence = [l.provenance.evidence for l in res.proposed if l.provenance.pass_name == "salience"]
    assert evidence == ["pronoun salience: nearest_before (object pronoun; not 'cy ode' (quotes))"]
    entry = {"kind": "pronoun_salience", "name": "salience",
             "params": {"stages": ["clause_subject", "nearest_before"], "quotes": False}}
    pipe = pipeline_from_entries(tmp_path, [{"kind": "people_roles", "name": "roles"}, entry])
    assert linked(pipe.resolve(parsed(markup, arcs)), "cy ode", "him")


def test_pronoun_salience_quotes_run_on_into_the_next_sentence(tmp_path):
    """"Cy wrote : `` Bo sang . / He left ..." -- still Cy's words: "He" is not Cy."""
    markup = "[Cy Ode|person] wrote : ` ` [Bo Lund|person] sang .\n[He|pronoun] left ."
    arcs = "compound:1 nsubj:2 ROOT:2 punct:2 punct:8 punct:8 compound:7 nsubj:8 ccomp:2 punct:2|nsubj:1 ROOT:1 punct:1"
    res = salience(tmp_path, ["previous_subject"]).resolve(parsed(markup, arcs))
    assert linked(res, "bo lund", "he") and not linked(res, "cy ode", "he")
