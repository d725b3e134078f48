"""Inline examples for learned rules, generated from the rule itself, never from training text.

Training documents may be clinical and identifiable, so no word of them goes into a learned file.
Examples are built from a small invented phrase bank (pairs of mentions that name one thing, and
pairs that do not) and from the vocabulary of the rule's own predicates: the cue words of the rule
file's word lists ("another" for ``new_event``, "no" for ``negation_differs``, a low and a high
qualifier for ``degree_clash``). Each candidate line is run exactly as ``rulecoref check`` runs it
(``rule_examples.run_example``), and only lines that behave as stated are kept:

- ``link``: a bank pair, typed for the rule's scope, that the pass links;
- ``no_link``: that pair changed so that one of the rule's vetoes holds (checked on the line's
  mention table), or a bank pair that shares the rule's key but fails a requirement; for a filter,
  a pair the passes before it link and the filter removes.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..candidates import key_values
from ..engine import Pipeline
from ..markup import parse_markup
from ..passes import get_kind
from ..predicates import PREDICATES
from ..rule_examples import run_example
from ..rules.compiler import RuleSet


@dataclass(frozen=True)
class Pair:
    first: str
    second: str
    person: bool = False  # a pair of people (typed person when the scope allows)
    pronoun: bool = False  # the second is a pronoun word
    kind: str = "thing"  # what it names: examples type it with the concept types of that kind (KINDS)


#: concept types of the bundled rule files and the shared corpora, by what their mentions name;
#: a type not listed here (a site's own) takes any pair
KINDS = {
    "place": "place", "loc": "place", "gpe": "place", "fac": "place",
    "organization": "organization", "org": "organization",
    "time": "time", "event": "event", "substance": "substance", "animal": "animal", "plant": "plant",
    "veh": "vehicle", "object": "thing", "abstract": "thing",
    "problem": "finding", "treatment": "drug", "test": "test",
}

#: pairs that name one thing; invented, and none from any corpus
SAME = (
    Pair("the report", "the report"),
    Pair("the annual report", "the report"),
    Pair("the report of the committee", "the report"),
    Pair("the bridge", "the old bridge", kind="place"),
    Pair("the stone bridges", "the bridges", kind="place"),
    Pair("a tumor", "the neoplasm", kind="finding"),
    Pair("the cough", "the dry cough", kind="finding"),
    Pair("the chest x-ray", "the x-ray", kind="test"),
    Pair("the Northern Shipping Company", "NSC", kind="organization"),
    Pair("the Northern Shipping Company", "the Company", kind="organization"),
    Pair("the Elm River", "the Elm River", kind="place"),
    Pair("the Elm River", "the River", kind="place"),
    Pair("the Elm River", "Elm", kind="place"),
    Pair("the spring of 1990", "that spring", kind="time"),
    Pair("Monday", "Monday", kind="time"),
    Pair("the annual meeting", "the meeting", kind="event"),
    Pair("the storm", "the storm", kind="event"),
    Pair("iodised salt", "the salt", kind="substance"),
    Pair("the old dog", "the dog", kind="animal"),
    Pair("the oak tree", "the tree", kind="plant"),
    Pair("the red boat", "the boat", kind="vehicle"),
    Pair("Anna Berg", "Berg", person=True),
    Pair("Dr. Anna Berg", "Dr. Berg", person=True),
    Pair("Anna Berg", "Anna Berg", person=True),
    Pair("the report", "it", pronoun=True),
    Pair("the reports", "they", pronoun=True),
    Pair("the committee", "its", pronoun=True, kind="organization"),
    Pair("the Elm River", "it", pronoun=True, kind="place"),
    Pair("the annual meeting", "it", pronoun=True, kind="event"),
    Pair("Anna Berg", "she", person=True, pronoun=True),
    Pair("John Lund", "he", person=True, pronoun=True),
    Pair("John Lund", "his", person=True, pronoun=True),
    Pair("she", "her", person=True, pronoun=True),
    Pair("he", "he", person=True, pronoun=True),
    Pair("they", "their", pronoun=True),
    Pair("it", "it", pronoun=True),
    Pair("Claritin", "loratadine", kind="drug"),
)
#: pairs that do not
DIFFERENT = (
    Pair("the report", "the river"),
    Pair("the annual report", "the monthly report"),
    Pair("the report", "the reports"),
    Pair("the bridge of the river", "the bridge of the road", kind="place"),
    Pair("the Elm River", "the Oak Bridge", kind="place"),
    Pair("the annual meeting", "the storm", kind="event"),
    Pair("the cough", "the rash", kind="finding"),
    Pair("the Northern Shipping Company", "the Southern Bank", kind="organization"),
    Pair("Monday", "Friday", kind="time"),
    Pair("Anna Berg", "John Lund", person=True),
    Pair("he", "she", person=True, pronoun=True),
    Pair("the report", "they", pronoun=True),
)

#: where a pronoun word can stand: as a subject ('he came'), an object ('about him') or before a noun ('his notes')
SUBJECT_WORDS = frozenset({"he", "she", "they", "we", "i", "it", "you"})
OBJECT_WORDS = frozenset({"him", "her", "them", "us", "me", "it", "you"})
POSSESSIVE_WORDS = frozenset({"his", "her", "its", "their", "our", "my", "your"})
_PRONOUN_WORDS = SUBJECT_WORDS | OBJECT_WORDS | POSSESSIVE_WORDS

#: the sentences a mention is written into, by the place it takes; {m} is the marked mention, {pre}
#: words before it (a negation cue)
FIRST = {"object": "We read about {m} in the morning .", "subject": "{m} came up in the morning .",
         "possessive": "We read {m} notes in the morning ."}
SECOND = {"object": "Later we read about {pre}{m} again .", "subject": "Later {pre}{m} came up again .",
          "possessive": "Later we read {m} notes again ."}


def places(text: str) -> list[str]:
    """The places a mention's words can take in a sentence: any for a noun phrase, the pronoun's own for a pronoun."""
    low = text.lower()
    if low not in _PRONOUN_WORDS:
        return ["object", "subject"]
    return [name for name, words in (("object", OBJECT_WORDS), ("subject", SUBJECT_WORDS),
                                     ("possessive", POSSESSIVE_WORDS)) if low in words]


def _initial(sentence: str) -> str:
    """A sentence that starts with a marked mention, its first letter capitalised ('[the report|x]' -> '[The report|x]')."""
    if sentence.startswith("[") and len(sentence) > 1:
        return "[" + sentence[1].upper() + sentence[2:]
    return sentence[:1].upper() + sentence[1:]


#: the sentence between two mentions that must stand some sentences apart
FILLER = "Nothing else happened ."
#: most sentences an example puts between its two mentions
MAX_GAP = 10


def written(a: str, b: str, text_a: str, text_b: str, pre: str = "", gap: int = 0) -> Iterator[str]:
    """Lines with the marked mentions ``a`` then ``b``, each where its words can stand: in two
    sentences, in one, and both where a subject stands (the layouts the subject-position keys see);
    with ``gap``, that many sentences between them, in the first layout only."""
    pa, pb = places(text_a), places(text_b)
    ra, rb = pa[0], pb[0]
    between = "".join(f"\n{FILLER}" for _ in range(gap))
    lines = [_initial(FIRST[ra].format(m=a)) + between + "\n" + SECOND[rb].format(m=b, pre=pre)]
    if gap:
        yield from lines
        return
    if ra == rb == "object":
        lines.append(f"We read about {a} and then about {pre}{b} .")
    if "subject" in pa and "subject" in pb:
        lines.append(_initial(FIRST["subject"].format(m=a)) + "\n" + _initial(f"{pre}{b} came up again ."))
    yield from lines


#: preferred cue words per (settings group, key); any word of the list does when none of these is in it
CUES = {
    ("clinical", "new_event_cues"): ("another", "repeat"),
    ("clinical", "generic_cues"): ("any",),
    ("clinical", "history_cues"): ("prior", "previous"),
    ("clinical", "negation_cues"): ("no", "without"),
    ("clinical", "qualifiers_low"): ("mild", "minimal"),
    ("clinical", "qualifiers_high"): ("severe", "significant"),
}

_DETERMINERS = ("the ", "a ", "an ", "this ", "that ", "these ", "those ")


def _bare(text: str) -> str:
    for d in _DETERMINERS:
        if text.lower().startswith(d):
            return text[len(d):]
    return text


def _plural(text: str) -> str:
    words = text.split()
    last = words[-1]
    words[-1] = last[:-1] if last.endswith("s") else last + "s"
    return " ".join(words)


class Vocabulary:
    """Cue words from the rule file's own word lists (its ``attributes:`` settings)."""

    def __init__(self, settings: Any):
        self.settings = settings  # the pipeline's MentionSettings

    def cue(self, group: str, key: str) -> str | None:
        lexicon = getattr(getattr(self.settings, group, None), key, None)
        if lexicon is None:
            return None
        words = lexicon.words
        for w in CUES.get((group, key), ()):
            if w in words:
                return w
        singles = sorted(words)
        return singles[0] if singles else None


def _transforms(vocab: Vocabulary) -> dict[str, Callable[[Pair], tuple[Pair, str] | None]]:
    """predicate -> a change of a pair (and words before the second mention) that makes it hold."""

    def cue_before(group: str, key: str) -> Callable[[Pair], tuple[Pair, str] | None]:
        def change(p: Pair) -> tuple[Pair, str] | None:
            w = vocab.cue(group, key)
            return None if w is None or p.pronoun else (replace(p, second=f"{w} {_bare(p.second)}"), "")
        return change

    def degree(p: Pair) -> tuple[Pair, str] | None:
        low, high = vocab.cue("clinical", "qualifiers_low"), vocab.cue("clinical", "qualifiers_high")
        if not low or not high or p.pronoun:
            return None
        return replace(p, first=f"{low} {_bare(p.first)}", second=f"{high} {_bare(p.second)}"), ""

    def negated(p: Pair) -> tuple[Pair, str] | None:
        w = vocab.cue("clinical", "negation_cues")
        return None if w is None or p.pronoun else (replace(p, second=_bare(p.second)), f"{w} ")

    def gender(p: Pair) -> tuple[Pair, str] | None:
        swap = {"he": "she", "she": "he", "his": "her", "her": "his"}
        if p.second in swap:
            return replace(p, second=swap[p.second]), ""
        return None

    def number(p: Pair) -> tuple[Pair, str] | None:
        swap = {"it": "they", "they": "it", "its": "their", "their": "its"}
        if p.person and not p.pronoun:  # a name has no plural ('Bergs')
            return None
        if p.pronoun:
            return (replace(p, second=swap[p.second]), "") if p.second in swap else None
        return replace(p, second=_plural(p.second)), ""

    def site(p: Pair) -> tuple[Pair, str] | None:
        return None if p.pronoun else (replace(p, first=f"left {_bare(p.first)}", second=f"right {_bare(p.second)}"), "")

    def adds(p: Pair) -> tuple[Pair, str] | None:  # later_adds_modifier
        if p.pronoun or p.person or not p.second.startswith("the "):
            return None
        return replace(p, second=f"the famous {_bare(p.second)}"), ""  # an adjective the words leave out

    return {
        "later_adds_modifier": adds,
        "new_event": cue_before("clinical", "new_event_cues"),
        "generic_mention": cue_before("clinical", "generic_cues"),
        "history_differs": cue_before("clinical", "history_cues"),
        "degree_clash": degree,
        "negation_differs": negated,
        "gender_clash": gender,
        "number_clash": number,
        "site_clash": site,
    }


def _article(words: str) -> str:
    return "an" if words[:1].lower() in "aeiou" else "a"


def begins(p: Pair, settings: dict[str, Any]) -> tuple[Pair, str] | None:
    """``begins_with`` with 'a'/'an': the later (or earlier) mention made indefinite ('the report' -> 'a report')."""
    if p.pronoun or p.person or not set(settings.get("words") or ("a", "an")) & {"a", "an"}:
        return None
    first, second = p.first, p.second
    if not first.startswith("the ") or not second.startswith("the "):
        return None
    if settings.get("mention", "later") == "earlier":
        first = f"{_article(_bare(first))} {_bare(first)}"
    else:
        second = f"{_article(_bare(second))} {_bare(second)}"
    return replace(p, first=first, second=second), ""


#: changes that depend on the predicate's settings: (pair, settings) -> the changed pair
SETTLED: dict[str, Callable[[Pair, dict[str, Any]], tuple[Pair, str] | None]] = {"begins_with": begins}


class ExampleMaker:
    """Finds example lines for the passes of one compiled rule file."""

    def __init__(self, ruleset: RuleSet, resources: Any, prefer: Sequence[str] = ()):
        self.rs = ruleset
        #: the file's types, those of the training documents first (examples use them when the scope allows)
        self.types = list(dict.fromkeys([*(t for t in prefer if t in ruleset.types), *ruleset.types]))
        self.resources = resources
        self.pipeline = Pipeline(ruleset, resources, find_mentions="off")  # examples mark their concepts
        self.settings = self.pipeline.settings
        self.transforms = _transforms(Vocabulary(self.settings))
        self.pronoun_types = sorted(ruleset.pronoun_types)
        self._before: dict[int, Pipeline] = {}

    def examples(self, idx: int) -> dict[str, list[str]]:
        """``{"link": [...], "no_link": [...]}`` for pass ``idx`` (empty lists when none is found)."""
        cfg = self.rs.passes[idx]
        if getattr(get_kind(cfg.kind), "role", "link") == "filter":
            return self._filter_examples(idx)
        return self._match_examples(idx)

    # -- lines ------------------------------------------------------------------------------------
    def lines(self, idx: int, pair: Pair, pre: str = "", gap: int = 0) -> Iterator[str]:
        """The pair written into each template with each typing the pass's scope admits."""
        for ta, tb in self._typings(idx, pair):
            yield from written(f"[{pair.first}|{ta}]", f"[{pair.second}|{tb}]", pair.first, pair.second, pre, gap)

    def _typings(self, idx: int, pair: Pair) -> list[tuple[str, str]]:
        """The (first, second) types the pair is written with: types of its kind (a person pair only
        person types, 'the Elm River' a place), and any type this module does not know."""
        scope = self.rs.passes[idx].scope
        own = [t for t in self.types if scope.admits_type(t) and t not in self.rs.pronoun_types]
        if pair.person:
            firsts = [t for t in own if t in self.settings.people.types]
        else:
            firsts = [t for t in own if t not in self.settings.people.types and KINDS.get(t, pair.kind) == pair.kind]
        pron = [t for t in self.pronoun_types if scope.admits_type(t)]
        out = []
        for ta in firsts[:3]:
            tb = pron[0] if pair.pronoun and pron else ta
            first_is_pronoun = pair.first in _PRONOUN_WORDS
            out.append((pron[0] if first_is_pronoun and pron else ta, tb))
        if pair.pronoun and pron and not firsts:
            out.append((pron[0], pron[0]))
        return list(dict.fromkeys(out))

    def ok(self, idx: int, expect: str, line: str) -> bool:
        return run_example(self.rs, idx, expect, line, self.resources, self.settings).ok

    def holds(self, name: str, line: str, params: dict[str, Any] | None = None) -> bool:
        """Whether predicate ``name`` (with ``params``) holds for the line's last and first mention (as a rule asks it)."""
        doc, _ = parse_markup(line)
        table = self.pipeline.table(doc, list(PREDICATES[name].attributes))
        return PREDICATES[name].bind(params or {})(table, len(doc.concepts) - 1, 0) is not None

    def shares_key(self, idx: int, line: str) -> bool:
        rule = self.rs.passes[idx].rule
        keys, ante = list(rule["key"]), list(rule.get("antecedent_key") or rule["key"])
        doc, _ = parse_markup(line)
        table = self.pipeline.table(doc, keys + ante)
        last = len(doc.concepts) - 1
        return any(set(key_values(table[k][last])) & set(key_values(table[a][0])) for k, a in zip(keys, ante))

    # -- match rules ------------------------------------------------------------------------------
    def _match_examples(self, idx: int) -> dict[str, list[str]]:
        rule = self.rs.passes[idx].rule
        link = self._link_line(idx)
        out: dict[str, list[str]] = {"link": [link[1]] if link else [], "no_link": []}
        if link:
            for name, params in rule["veto"]:
                line = self._changed(idx, link[0], name, params)
                if line and self.ok(idx, "no_link", line) and self.holds(name, line, params):
                    out["no_link"].append(line)
                    break
        near = next((line for p in DIFFERENT for line in self.lines(idx, p)
                     if self.shares_key(idx, line) and self.ok(idx, "no_link", line)), None)
        if near and near not in out["no_link"]:
            out["no_link"].append(near)
        if not out["no_link"]:
            far = next((line for p in DIFFERENT for line in self.lines(idx, p) if self.ok(idx, "no_link", line)), None)
            if far:
                out["no_link"].append(far)
        return out

    def _link_line(self, idx: int) -> tuple[Pair, str] | None:
        """A bank pair the pass links, preferably one the passes before it do not (it shows what the
        rule adds)."""
        first = None
        for p in SAME:
            for line in self.lines(idx, p):
                if self.ok(idx, "link", line):
                    if not self._linked_before(idx, line):
                        return p, line
                    first = first or (p, line)
        return first

    def _changed(self, idx: int, pair: Pair, predicate: str, params: dict[str, Any] | None = None) -> str | None:
        if predicate == "sentences_apart":  # the same pair, far enough apart
            gap = (params or {}).get("more_than", 3) + 1
            return next(iter(self.lines(idx, pair, gap=gap)), None) if gap <= MAX_GAP else None
        if predicate in SETTLED:
            made = SETTLED[predicate](pair, params or {})
        else:
            change = self.transforms.get(predicate)
            made = change(pair) if change else None
        if made is None:
            return None
        return next(iter(self.lines(idx, made[0], made[1])), None)

    # -- filters ----------------------------------------------------------------------------------
    def _filter_examples(self, idx: int) -> dict[str, list[str]]:
        """A line the passes before it link and the filter removes (no_link), and one it keeps (link).
        A filter limited to some passes' links (``made_by``) is shown on lines those passes link."""
        cfg = self.rs.passes[idx]
        made_by = frozenset(cfg.rule.get("made_by") or ())
        out: dict[str, list[str]] = {"link": [], "no_link": []}
        for name, params in cfg.rule["remove_if"]:
            for p in SAME + DIFFERENT:
                line = self._changed(idx, p, name, params)
                if line and self._linked_before(idx, line, made_by) and self.ok(idx, "no_link", line):
                    out["no_link"].append(line)
                    break
            if out["no_link"]:
                break
        out["link"] = [next((line for p in SAME for line in self.lines(idx, p)
                             if self._linked_before(idx, line, made_by) and self.ok(idx, "link", line)), None)]
        out["link"] = [x for x in out["link"] if x]
        return out

    def _linked_before(self, idx: int, line: str, made_by: frozenset[str] = frozenset()) -> bool:
        """Whether the linking passes before pass ``idx`` put the line's first and last mention in one
        chain; with ``made_by``, whether those passes alone linked the two directly."""
        pipe = self._before.get(idx)
        if pipe is None:
            sub = copy.copy(self.rs)
            sub.passes = [p for p in self.rs.passes[:idx] if getattr(get_kind(p.kind), "role", "") == "link"]
            sub.decoder = None
            pipe = self._before[idx] = Pipeline(sub, self.resources, settings=self.settings, find_mentions="off")
        doc, _ = parse_markup(line)
        res = pipe.resolve(doc)
        last = len(doc.concepts) - 1
        if made_by:
            links = res.kept.get((0, last), ())
            return bool(links) and all(link.provenance.pass_name in made_by for link in links)
        owner = res.cluster_of()
        return owner[0] == owner[last]
