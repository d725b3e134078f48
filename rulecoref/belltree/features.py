"""Seed 000 Table 1 features, from the document's mention table, plus hybrid rule features.

Features are binary and named by strings (``"exact"``, ``"sd=2|lv=NOMPRO"``) so a model file is a
readable feature -> weight table. Every per-mention fact comes from the mention table the engine
builds for the rules (``rulecoref/attributes/``: head, head class, mention level, gender,
number, ...), so the rules and the model agree on what a mention is; a pair or an entity then costs
a few list lookups. What stands in for a parser (Table 1's "POS_pair") is the ``head_class``
attribute: PRP, CD, NNP, NN, JJ or X, without a tagger.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from rapidfuzz.distance import Levenshtein

from ..chains import clusters_from_pairs
from ..mentions import MentionTable

#: the mention attributes the features read (the engine builds them into the table)
ATTRIBUTES = ("type", "line", "start", "end", "lower", "text_norm", "is_pronoun", "head_word", "head_class",
              "mention_level", "gender", "number", "possessive", "reflexive", "capitalised", "acronym", "initials")
_GENDER = {"masculine": "m", "feminine": "f", "neuter": "n"}
_NUMBER = {"singular": "s", "plural": "p"}


def _bucket(n: int) -> str:
    if n < 0:
        return "-1"
    return str(n) if n <= 4 else f"b{n.bit_length()}"


_SMALL = tuple(_bucket(n) for n in range(256))


def q(n: int) -> str:
    """Quantise a distance or count: exact up to 4, then log2 buckets (5-7, 8-15, ...)."""
    return _SMALL[n] if 0 <= n < 256 else _bucket(n)


class MentionView:
    """The mention table's columns the features read, under the feature code's short names."""

    def __init__(self, table: MentionTable):
        t = self.table = table
        self.doc = t.doc
        self.flat = t.doc.flat_tokens
        self.n = t.n
        self.type, self.sent, self.start, self.end = t["type"], t["line"], t["start"], t["end"]
        self.toks = t["lower"]
        self.text = [" ".join(low) for low in self.toks]
        self.norm = t["text_norm"]
        self.pron = t["is_pronoun"]
        self.head = t["head_word"]
        self.hcls = t["head_class"]
        self.level = t["mention_level"]
        self.gender = [_GENDER.get(g, "u") for g in t["gender"]]
        self.number = [_NUMBER.get(nb, "u") for nb in t["number"]]
        self.poss, self.refl, self.caps = t["possessive"], t["reflexive"], t["capitalised"]
        self.acronyms, self.initials = t["acronym"], t["initials"]
        counts = Counter(self.norm)
        self.count = [q(counts[x]) for x in self.norm]
        self.head_synonyms = [t.settings.words.synonyms(h) for h in self.head]

    # -- pair predicates ---------------------------------------------------------------------
    def compare(self, a: int, m: int) -> tuple[bool, bool, bool, int]:
        """Two mentions' texts: is the shorter a token prefix of the other (lsub), a token suffix
        (rsub), is one the acronym of the other's initials ('COPD' and 'chronic obstructive
        pulmonary disease'), and their normalised edit distance x 5, rounded down."""
        x, y = self.toks[a], self.toks[m]
        if len(x) > len(y):
            x, y = y, x
        differ = x != y
        acronyms, initials = self.acronyms, self.initials
        acro = bool(acronyms[a] and acronyms[a] == initials[m]) or bool(acronyms[m] and acronyms[m] == initials[a])
        return (differ and y[: len(x)] == x, differ and y[len(y) - len(x):] == x, acro,
                int(5 * Levenshtein.normalized_distance(self.norm[a], self.norm[m])))

    def between(self, a: int, m: int) -> tuple[str, ...] | None:
        """Tokens between a and m when they share a sentence and at most 3 tokens separate them."""
        if self.sent[a] != self.sent[m]:
            return None
        lo, hi = self.end[a] + 1, self.start[m]
        if hi < lo or hi - lo > 3:
            return None
        return tuple(t.lower() for t in self.flat[lo:hi])


APPOSITION = {(",",), ("(",), ("-",), (":",), ("-lrb-",)}


class PartialEntity:
    """An entity of one Bell-tree node, with the aggregates eq. 8 features need; immutable.

    ``extend`` returns a new object, so hypotheses share unchanged entities. ``recent`` keeps the
    last ``k`` members; ``norms``/``heads`` map a string to its latest member, so the "max over
    the entity's mentions" of eq. 9 can look at the mentions most likely to score highest
    without visiting every member of a 300-mention chain.
    """

    __slots__ = ("root", "size", "last", "last_sentence", "types", "recent", "norms", "heads", "canonical",
                 "canon_key", "genders", "numbers", "levels")

    def __init__(self) -> None:
        self.root = -1

    @classmethod
    def start(cls, tab: MentionView, m: int, k: int) -> PartialEntity:
        e = cls()
        e.root = m
        e.size = 1
        e.last = m
        e.last_sentence = tab.sent[m]
        e.types = frozenset() if tab.pron[m] else frozenset((tab.type[m],))
        e.recent = (m,)
        e.norms = {} if tab.pron[m] else {tab.norm[m]: m}
        e.heads = {} if tab.pron[m] else {tab.head[m]: m}
        e.canonical = m
        e.canon_key = _canon_key(tab, m)
        e.genders = frozenset((tab.gender[m],)) - {"u"}
        e.numbers = frozenset((tab.number[m],)) - {"u"}
        e.levels = frozenset((tab.level[m],))
        return e

    def extend(self, tab: MentionView, m: int, k: int) -> PartialEntity:
        e = PartialEntity()
        e.root = self.root
        e.size = self.size + 1
        e.last = m
        e.last_sentence = tab.sent[m]
        e.recent = (self.recent + (m,))[-k:] if k > 0 else self.recent + (m,)
        if tab.pron[m]:
            e.types, e.norms, e.heads = self.types, self.norms, self.heads
        else:
            e.types = self.types | {tab.type[m]}
            e.norms = {**self.norms, tab.norm[m]: m}
            e.heads = {**self.heads, tab.head[m]: m}
        key = _canon_key(tab, m)
        if key >= self.canon_key:
            e.canonical, e.canon_key = m, key
        else:
            e.canonical, e.canon_key = self.canonical, self.canon_key
        g, nb = tab.gender[m], tab.number[m]
        e.genders = self.genders | {g} if g != "u" else self.genders
        e.numbers = self.numbers | {nb} if nb != "u" else self.numbers
        e.levels = self.levels | {tab.level[m]}
        return e

    def candidates(self, tab: MentionView, m: int) -> set[int]:
        """Members to compare with ``m``: recent ones, the canonical one, same string, same head."""
        out = set(self.recent)
        out.add(self.canonical)
        if not tab.pron[m]:
            hit = self.norms.get(tab.norm[m])
            if hit is not None:
                out.add(hit)
            hit = self.heads.get(tab.head[m])
            if hit is not None:
                out.add(hit)
        return out


def _canon_key(tab: MentionView, m: int) -> tuple[int, int, int]:
    """Seed 3.2 canonical mention: the longest NAME, else the most recent NOMINAL, else the latest pronoun."""
    level = tab.level[m]
    if level == "NAM":
        return (2, len(tab.toks[m]), -m)
    if level == "NOM":
        return (1, m, 0)
    return (0, m, 0)


class RuleView:
    """The rule passes' decisions for every pair of one document (hybrid features).

    Each pass says, for a pair: L (it linked the pair and the link was kept), R (it linked the
    pair but a filter removed the link), F (it is the filter that removed the pair), N (its YAML
    scope admits the pair but it did not link it) or X (its scope does not admit the pair, n.a.).
    """

    def __init__(self, resolution: Any, passes: Sequence[tuple[str, Any]], n: int):
        self.names = [name for name, _ in passes]
        self.scopes = [scope for _, scope in passes]
        self._position = {name: k for k, name in enumerate(self.names)}
        self._undecided: dict[tuple[str, str], list[str]] = {}
        dec: dict[tuple[int, int], dict[str, str]] = {}
        removed = getattr(resolution, "removed", {}) or {}
        for link in getattr(resolution, "proposed", []) or []:
            d = dec.setdefault(link.pair, {})
            d[link.provenance.pass_name] = "R" if link.pair in removed else "L"
        for pair, removal in removed.items():
            dec.setdefault(tuple(pair), {})[removal.by.pass_name] = "F"
        self.decisions = dec
        kept = list(getattr(resolution, "kept", {}) or {})
        self.antecedents: list[list[int]] = [[] for _ in range(n)]
        for a, b in kept:
            self.antecedents[max(a, b)].append(min(a, b))
        self.touched: list[list[int]] = [[] for _ in range(n)]
        for a, b in dec:
            self.touched[max(a, b)].append(min(a, b))
        self.cluster = [0] * n
        for k, members in enumerate(clusters_from_pairs(n, kept)):
            for i in members:
                self.cluster[i] = k

    @classmethod
    def empty(cls, n: int) -> RuleView:
        return cls(None, [], n)

    def undecided(self, ta: str, tm: str) -> list[str]:
        """The features ``r:<pass>=N|X`` of a pair of types no pass decided, made once per type pair."""
        base = self._undecided.get((ta, tm))
        if base is None:
            base = self._undecided[(ta, tm)] = [
                f"r:{name}={'N' if self.scopes[k].allows_types(ta, tm) else 'X'}" for k, name in enumerate(self.names)]
        return base

    def with_decisions(self, base: list[str], decided: dict[str, str]) -> list[str]:
        """``base`` with the passes that decided replaced by their decisions."""
        out = list(base)
        for name, v in decided.items():
            k = self._position.get(name)
            if k is not None:
                out[k] = f"r:{name}={v}"
        return out

    def pair_decisions(self, concepts: Any, a: int, m: int) -> list[str]:
        """Each pass's decision on the pair, as features ``r:<pass>=<L|R|F|N|X>``. Most pairs no pass
        touched: their features depend only on the two types, and are made once per type pair."""
        base = self.undecided(concepts[a].type, concepts[m].type)
        d = self.decisions.get((a, m))
        return self.with_decisions(base, d) if d else base


def _ids(keys: Iterable[Hashable]) -> list[int]:
    """A small int per distinct key, in order of first appearance."""
    ids: dict[Hashable, int] = {}
    return [ids.setdefault(k, len(ids)) for k in keys]


class FeatureExtractor:
    """Mention-pair (eq. 9) and entity-mention (eq. 8) feature strings for one document.

    Most of a pair's features read much less than the pair: the two mentions' classes (level,
    type, head class, gender, number, the pronoun word) or the two mentions' texts. Each mention
    gets a class id and a text id (CRAFT: 29 classes and 500 texts for 1,253 mentions): the class
    features are made once per pair of class ids, an entity's members are compared with m once per
    pair of text ids, and the mention-pair scorer sums weights by the same ids.
    """

    def __init__(self, tab: MentionView, rules: RuleView | None = None):
        self.tab = tab
        self.rules = rules if rules is not None else RuleView.empty(tab.n)
        self.hybrid = bool(self.rules.names)
        t, n = tab, range(tab.n)
        #: what the class parts read (refl/poss: for the scorer's distance tables)
        self.klass = _ids((t.level[i], t.type[i], t.hcls[i], t.gender[i], t.number[i], t.pron[i],
                           t.head[i] if t.pron[i] else "", t.refl[i], t.poss[i]) for i in n)
        #: what the lexical features read (with the type, for ``exact|ty``)
        self.texts = _ids((t.type[i], t.toks[i], t.norm[i], t.head[i], t.caps[i], t.acronyms[i], t.initials[i],
                           t.count[i]) for i in n)
        self._classes: dict[tuple[int, int], tuple[tuple[str, ...], ...]] = {}
        self._n_texts = max(self.texts, default=0) + 1
        self._facts: dict[int, tuple[bool, bool, bool, int]] = {}  # key: text a x texts + text m

    # -- mention pair --------------------------------------------------------------------------
    def pair(self, a: int, m: int) -> list[str]:
        """Features of antecedent ``a`` and active mention ``m`` (a < m)."""
        t = self.tab
        head, mid, pron = self.class_parts(a, m)
        lv = t.level[a] + t.level[m]
        sdq, gdq = q(t.sent[m] - t.sent[a]), q(m - a - 1)
        f = [*head, "sd=" + sdq, "td=" + q(t.start[m] - t.end[a] - 1), "gd=" + gdq, f"sd={sdq}|lv={lv}", *mid]
        pa, pm = t.pron[a], t.pron[m]
        if not pa and not pm:
            first, exact, middle, hm, last = self.lexical(a, m)
            f += first
            if exact:
                f.append("exact|sd=" + sdq)
            f += middle
            if hm:
                f.append("hm|sd=" + sdq)
            f += last
        else:
            if pm:
                self._pronoun_word(m, "gd=" + gdq, sdq, f)
            f += pron
            if pa and pm and t.head[a] == t.head[m]:
                f.append("samepron|sd=" + sdq)
        self._syntax(a, m, f)
        if self.hybrid:
            f += self.rule_features(a, m, lv)
        return f

    def class_parts(self, a: int, m: int) -> tuple[tuple[str, ...], ...]:
        """The pair's features that read only the two classes: (before the distances, after them,
        the pronoun ones), made once per pair of class ids."""
        key = (self.klass[a], self.klass[m])
        hit = self._classes.get(key)
        if hit is not None:
            return hit
        t = self.tab
        lv = t.level[a] + t.level[m]
        head = ("lv=" + lv, f"ty={t.type[a]}|{t.type[m]}")
        mid = (f"pos={t.hcls[a]}|{t.hcls[m]}", f"gn={t.gender[a]}|{t.gender[m]}", f"nb={t.number[a]}|{t.number[m]}")
        if t.type[a] == t.type[m]:
            mid += ("samety|lv=" + lv,)
        pa, pm, ha, hm = t.pron[a], t.pron[m], t.head[a], t.head[m]
        if pa and pm:
            pron: tuple[str, ...] = (f"pp={ha}|{hm}",)
        elif pm:
            pron = (f"ah={t.hcls[a]}|pw={hm}", f"gn={t.gender[a]}|{t.gender[m]}|nb={t.number[a]}|{t.number[m]}")
        elif pa:
            pron = (f"pw={ha}|mh={t.hcls[m]}",)
        else:
            pron = ()
        hit = self._classes[key] = (head, mid, pron)
        return hit

    def lexical(self, a: int, m: int) -> tuple[Any, ...]:
        """Two non-pronouns' text features: (features before ``exact|sd``, whether exact, features up
        to ``hm|sd``, whether the heads match, the rest). Not memoised here: training makes each
        pair once, and the mention-pair scorer keeps a memo of their weights per pair of text ids."""
        t = self.tab
        tya, na, nm, ha, hm_ = t.type[a], t.norm[a], t.norm[m], t.head[a], t.head[m]
        exact = na == nm
        lsub, rsub, acro, ed = t.compare(a, m)
        middle = ["exact_raw"] if t.text[a] == t.text[m] else []
        if lsub:
            middle.append("lsub")
        if rsub:
            middle.append("rsub")
        if acro:
            middle.append("acro")
        middle.append("ed=" + str(ed))
        hm = ha == hm_
        if hm:
            middle.append("hm")
            last = ["hm|ty=" + tya]
        else:
            last = ["hsyn"] if hm_ in t.head_synonyms[a] else []
        if len(na) <= 30 and len(nm) <= 30:
            last.append(f"sp={na}|{nm}")
        caps_a, caps_m = t.caps[a], t.caps[m]
        last += (f"hp={ha}|{hm_}", "ncd=" + str(min(3, len(caps_a ^ caps_m))) if caps_a or caps_m else "ncd=0",
                 f"cnt={t.count[a]}|{t.count[m]}")
        # tuples of strings: the scorer's memo holds thousands per document, and the collector skips those
        return ("exact", "exact|ty=" + tya) if exact else (), exact, tuple(middle), hm, tuple(last)

    def member_facts(self, members: Iterable[int], m: int) -> list[tuple[bool, bool, bool, int]]:
        """``MentionView.compare`` of m with each non-pronoun member, once per pair of text ids
        (entities repeat their members' texts, and hypotheses their entities)."""
        t, texts, memo = self.tab, self.texts, self._facts
        pron, compare, xm, n = t.pron, t.compare, texts[m], self._n_texts
        out = []
        for a in members:
            if not pron[a]:
                key = texts[a] * n + xm
                hit = memo.get(key)
                if hit is None:
                    hit = memo[key] = compare(a, m)
                out.append(hit)
        return out

    def rule_features(self, a: int, m: int, lv: str) -> list[str]:
        """Hybrid: each pass's decision on the pair, and whether the rules' chains join the two."""
        r = self.rules
        same = r.cluster[a] == r.cluster[m]
        return [*r.pair_decisions(self.tab.doc.concepts, a, m), ("rc=same|lv=" if same else "rc=diff|lv=") + lv]

    def _syntax(self, a: int, m: int, f: list[str]) -> None:
        t = self.tab
        if t.end[a] >= t.start[m]:
            f.append("nested")
            f.append(f"nested|lv={t.level[a]}{t.level[m]}")
            return
        btw = t.between(a, m)
        if btw is not None:
            if btw in APPOSITION:
                f.append("appos")
            f.append("btw=" + " ".join(btw))

    # -- entity mention --------------------------------------------------------------------------
    def entity(self, e: PartialEntity, m: int, root_of: Callable[[int], int]) -> list[str]:
        """Features of partial entity ``e`` and active mention ``m`` (seed 3.2, eq. 8).

        Lexical and apposition features test any (compared) member; edit distance is the minimum;
        distances are to the nearest (latest) member; spelling, ncd and count use the canonical
        mention; gender and number are the entity's propagated attribute sets.
        """
        t = self.tab
        pm = t.pron[m]
        c = e.canonical
        el = "".join(sorted(e.levels))
        sdq = q(t.sent[m] - e.last_sentence)
        ety = min(e.types) if e.types else "PRO"
        f = [
            f"el={el}|{t.level[m]}",
            f"ty={ety}|{t.type[m]}",
            "sd=" + sdq,
            "td=" + q(t.start[m] - t.end[e.last] - 1),
            "gd=" + q(m - e.last - 1),
            f"sd={sdq}|lv={t.level[c]}{t.level[m]}",
            "sz=" + q(e.size),
            f"pos={t.hcls[c]}|{t.hcls[m]}",
            f"gn={''.join(sorted(e.genders)) or 'u'}|{t.gender[m]}",
            f"nb={''.join(sorted(e.numbers)) or 'u'}|{t.number[m]}",
        ]
        if t.gender[m] != "u" and e.genders and t.gender[m] not in e.genders:
            f.append("gclash|" + t.level[m])
        if t.number[m] != "u" and e.numbers and t.number[m] not in e.numbers:
            f.append("nclash|" + t.level[m])
        members = e.candidates(t, m)
        if pm:
            self._entity_pronoun(e, m, members, el, sdq, f)
        else:
            self._entity_name(e, m, members, sdq, f)
        last = e.last
        if t.end[last] >= t.start[m]:
            f.append("nested")
        else:
            btw = t.between(last, m)
            if btw is not None:
                if btw in APPOSITION:
                    f.append("appos")
                f.append("btw=" + " ".join(btw))
        if self.hybrid:
            f.extend(self._entity_rules(e, m, root_of))
        return f

    def _entity_name(self, e: PartialEntity, m: int, members: set[int], sdq: str, f: list[str]) -> None:
        """A non-pronoun mention against the entity: lexical tests on its members, spelling of its canonical one."""
        t = self.tab
        if t.norm[m] in e.norms:
            f.append("exact")
            f.append(f"exact|ty={t.type[m]}")
            f.append("exact|sd=" + sdq)
        if t.head[m] in e.heads:
            f.append("hm")
            f.append("hm|sd=" + sdq)
        facts = self.member_facts(members, m)
        if facts:
            lsub, rsub, acro, ed = zip(*facts)
            if any(lsub):
                f.append("lsub")
            if any(rsub):
                f.append("rsub")
            if any(acro):
                f.append("acro")
            f.append("ed=" + str(min(ed)))
        c = e.canonical
        if t.pron[c]:
            f.append("allpron")
            return
        if len(t.norm[c]) <= 30 and len(t.norm[m]) <= 30:
            f.append(f"sp={t.norm[c]}|{t.norm[m]}")
        f.append(f"hp={t.head[c]}|{t.head[m]}")
        f.append("ncd=" + str(min(3, len(t.caps[c] ^ t.caps[m]))))
        f.append(f"cnt={t.count[c]}|{t.count[m]}")

    def _entity_pronoun(self, e: PartialEntity, m: int, members: set[int], el: str, sdq: str,
                        f: list[str]) -> None:
        """A pronoun against the entity: the pronoun word with distance and entity level, its kind."""
        t = self.tab
        self._pronoun_word(m, f"el={el}", sdq, f)
        if any(t.pron[a] and t.head[a] == t.head[m] for a in members):
            f.append("samepron|sd=" + sdq)

    def _pronoun_word(self, m: int, context: str, sdq: str, f: list[str]) -> None:
        """The pronoun itself, with the sentence distance and with ``context`` (mention-pair: the
        mention distance; entity: the entity's levels), and whether it is reflexive or possessive."""
        t = self.tab
        f.append(f"pw={t.head[m]}|sd={sdq}")
        f.append(f"pw={t.head[m]}|{context}")
        if t.refl[m]:
            f.append("refl|sd=" + sdq)
        if t.poss[m]:
            f.append("poss|sd=" + sdq)

    def _entity_rules(self, e: PartialEntity, m: int, root_of: Callable[[int], int]) -> list[str]:
        """The strongest decision of each pass over the entity's members (L > R > F), else whether
        its scope admits the types of the latest member and m (N) or not (X)."""
        r = self.rules
        got: dict[str, str] = {}
        same_cluster = r.cluster[e.last] == r.cluster[m] or r.cluster[e.canonical] == r.cluster[m]
        for a in r.touched[m]:
            if root_of(a) != e.root:
                continue
            for name, v in r.decisions[(a, m)].items():
                if _RANK[v] > _RANK.get(got.get(name, ""), 0):
                    got[name] = v
            if r.cluster[a] == r.cluster[m]:
                same_cluster = True
        concepts = self.tab.doc.concepts
        base = r.undecided(concepts[e.last].type, concepts[m].type)
        out = r.with_decisions(base, got) if got else list(base)
        out.append(("rc=same|lv=" if same_cluster else "rc=diff|lv=") + self.tab.level[m])
        return out


_RANK = {"L": 3, "R": 2, "F": 1}


def extractor(table: MentionTable, resolution: Any = None, passes: Sequence[tuple[str, Any]] = ()) -> FeatureExtractor:
    """The feature extractor of one document: its mention table, and (hybrid) the rules' decisions."""
    view = MentionView(table)
    rules = RuleView(resolution, passes, view.n) if resolution is not None else RuleView.empty(view.n)
    return FeatureExtractor(view, rules)
