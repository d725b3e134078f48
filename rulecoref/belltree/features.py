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
from collections.abc import Callable, Sequence
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
    def left_sub(self, a: int, m: int) -> bool:
        x, y = self.toks[a], self.toks[m]
        if len(x) > len(y):
            x, y = y, x
        return x != y and y[: len(x)] == x

    def right_sub(self, a: int, m: int) -> bool:
        x, y = self.toks[a], self.toks[m]
        if len(x) > len(y):
            x, y = y, x
        return x != y and y[len(y) - len(x) :] == x

    def acronym(self, a: int, m: int) -> bool:
        """'COPD' and 'chronic obstructive pulmonary disease': one is the acronym of the other's initials."""
        return any(self.acronyms[x] and self.acronyms[x] == self.initials[y] for x, y in ((a, m), (m, a)))

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
        self._allow: dict[tuple[int, str, str], bool] = {}
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

    def allows(self, k: int, concepts: Any, a: int, m: int) -> bool:
        ca, cm = concepts[a], concepts[m]
        key = (k, ca.type, cm.type)
        hit = self._allow.get(key)
        if hit is None:
            hit = self._allow[key] = bool(self.scopes[k].allows(ca, cm))
        return hit

    def pair_decisions(self, concepts: Any, a: int, m: int) -> list[str]:
        """Each pass's decision on the pair, as features ``r:<pass>=<L|R|F|N|X>``. Most pairs no pass
        touched: their features depend only on the two types, and are made once per type pair."""
        ta, tm = concepts[a].type, concepts[m].type
        base = self._undecided.get((ta, tm))
        if base is None:
            base = self._undecided[(ta, tm)] = [
                f"r:{name}={'N' if self.scopes[k].allows_types(ta, tm) else 'X'}" for k, name in enumerate(self.names)]
        d = self.decisions.get((a, m))
        if not d:
            return base
        out = list(base)
        for name, v in d.items():
            k = self._position.get(name)
            if k is not None:
                out[k] = f"r:{name}={v}"
        return out


class FeatureExtractor:
    """Mention-pair (eq. 9) and entity-mention (eq. 8) feature strings for one document."""

    def __init__(self, tab: MentionView, rules: RuleView | None = None):
        self.tab = tab
        self.rules = rules if rules is not None else RuleView.empty(tab.n)
        self.hybrid = bool(self.rules.names)

    # -- mention pair --------------------------------------------------------------------------
    def pair(self, a: int, m: int) -> list[str]:
        """Features of antecedent ``a`` and active mention ``m`` (a < m)."""
        t = self.tab
        pa, pm = t.pron[a], t.pron[m]
        lv = t.level[a] + t.level[m]
        sdq = q(t.sent[m] - t.sent[a])
        f = [
            "lv=" + lv,
            f"ty={t.type[a]}|{t.type[m]}",
            "sd=" + sdq,
            "td=" + q(t.start[m] - t.end[a] - 1),
            "gd=" + q(m - a - 1),
            f"sd={sdq}|lv={lv}",
            f"pos={t.hcls[a]}|{t.hcls[m]}",
            f"gn={t.gender[a]}|{t.gender[m]}",
            f"nb={t.number[a]}|{t.number[m]}",
        ]
        if t.type[a] == t.type[m]:
            f.append("samety|lv=" + lv)
        if not pa and not pm:
            self._lexical(a, m, f, sdq)
        else:
            ha, hm = t.head[a], t.head[m]
            if pm:
                self._pronoun_word(m, f"gd={q(m - a - 1)}", sdq, f)
            if pa and pm:
                f.append(f"pp={ha}|{hm}")
                if ha == hm:
                    f.append("samepron|sd=" + sdq)
            elif pm:
                f.append(f"ah={t.hcls[a]}|pw={hm}")
                f.append(f"gn={t.gender[a]}|{t.gender[m]}|nb={t.number[a]}|{t.number[m]}")
            else:
                f.append(f"pw={ha}|mh={t.hcls[m]}")
        self._syntax(a, m, f)
        if self.hybrid:
            r = self.rules
            f.extend(r.pair_decisions(t.doc.concepts, a, m))
            f.append(("rc=same|lv=" if r.cluster[a] == r.cluster[m] else "rc=diff|lv=") + lv)
        return f

    def _lexical(self, a: int, m: int, f: list[str], sdq: str) -> None:
        t = self.tab
        tya = t.type[a]
        if t.norm[a] == t.norm[m]:
            f.append("exact")
            f.append(f"exact|ty={tya}")
            f.append("exact|sd=" + sdq)
        if t.text[a] == t.text[m]:
            f.append("exact_raw")
        if t.left_sub(a, m):
            f.append("lsub")
        if t.right_sub(a, m):
            f.append("rsub")
        if t.acronym(a, m):
            f.append("acro")
        f.append("ed=" + str(int(5 * Levenshtein.normalized_distance(t.norm[a], t.norm[m]))))
        if t.head[a] == t.head[m]:
            f.append("hm")
            f.append("hm|sd=" + sdq)
            f.append(f"hm|ty={tya}")
        elif t.head[m] in t.head_synonyms[a]:
            f.append("hsyn")
        if len(t.norm[a]) <= 30 and len(t.norm[m]) <= 30:
            f.append(f"sp={t.norm[a]}|{t.norm[m]}")
        f.append(f"hp={t.head[a]}|{t.head[m]}")
        f.append("ncd=" + str(min(3, len(t.caps[a] ^ t.caps[m]))))
        f.append(f"cnt={t.count[a]}|{t.count[m]}")

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
        nonpron = [a for a in members if not t.pron[a]]
        if nonpron:
            if any(t.left_sub(a, m) for a in nonpron):
                f.append("lsub")
            if any(t.right_sub(a, m) for a in nonpron):
                f.append("rsub")
            if any(t.acronym(a, m) for a in nonpron):
                f.append("acro")
            best = min(Levenshtein.normalized_distance(t.norm[a], t.norm[m]) for a in nonpron)
            f.append("ed=" + str(int(5 * best)))
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
        r = self.rules
        rank = {"L": 3, "R": 2, "F": 1}
        got: dict[str, str] = {}
        same_cluster = r.cluster[e.last] == r.cluster[m] or r.cluster[e.canonical] == r.cluster[m]
        for a in r.touched[m]:
            if root_of(a) != e.root:
                continue
            for name, v in r.decisions[(a, m)].items():
                if rank[v] > rank.get(got.get(name, ""), 0):
                    got[name] = v
            if r.cluster[a] == r.cluster[m]:
                same_cluster = True
        out = []
        concepts = self.tab.doc.concepts
        for k, name in enumerate(r.names):
            v = got.get(name)
            if v is None:
                v = "N" if r.allows(k, concepts, e.last, m) else "X"
            out.append(f"r:{name}={v}")
        out.append(("rc=same|lv=" if same_cluster else "rc=diff|lv=") + self.tab.level[m])
        return out


def extractor(table: MentionTable, resolution: Any = None, passes: Sequence[tuple[str, Any]] = ()) -> FeatureExtractor:
    """The feature extractor of one document: its mention table, and (hybrid) the rules' decisions."""
    view = MentionView(table)
    rules = RuleView(resolution, passes, view.n) if resolution is not None else RuleView.empty(view.n)
    return FeatureExtractor(view, rules)
