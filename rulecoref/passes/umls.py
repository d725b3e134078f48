"""``umls``: two concepts whose strings name the same UMLS concept (CUI) are one thing.

Seed 001, "UMLS match": both concepts are looked up in MRCONSO after common-word conditioning and
linked when their concept numbers match ("renal" and "kidney" share a CUI; so do "ARF" and "acute
renal failure"). The database is the user's own licensed UMLS, loaded once with
``rulecoref umls load`` (docs/umls.md); the pass opens it at start-up, so a missing or unloaded
database stops the run before the first document (RC401), not in the middle of a batch.

Choices beyond the seed, each a parameter:
* ``literal_first``: the mention is looked up as written first, then without determiners, and only
  then conditioned (common words dropped, the seed's form); the first form with CUIs wins. UMLS
  strings keep their function words ("Loss of consciousness", "Pain in chest"), which conditioning
  with a list that holds prepositions would remove; the literal form is also the least ambiguous.
* ``drop_adjectives`` is off: WordNet adjectives carry the meaning UMLS encodes ("renal failure"
  would become "failure" and then match "respiratory failure"; the seed's own "renal" would vanish).
* ``max_cuis``: a string with more CUIs than this is ambiguous ("cold": the illness, the
  temperature, the sensation, ...) and links nothing.
* Overlapping mentions are never linked (a phrase does not corefer with a part of itself).
* ``antecedents: nearest`` links a mention to the nearest earlier mention per shared CUI. Every
  mention sharing a CUI is pairwise linked under the seed's rule, so the chains are the same as
  with ``all``, but the number of links stays linear.

Concepts are indexed by CUI in one pass over the document and all their strings are looked up in
one query per document (and cached per process), so the cost is linear in the number of concepts.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ..document import Concept, Document
from ..resources.umls import DB_ENV, normalize, resolve_url
from ..rules.schema import Param
from . import Context, Pass, register
from .conditioning import Conditioner


@register("umls")
class Umls(Pass):
    params = {
        "db": Param("str", default="",
                    help="SQLAlchemy URL or SQLite file of a loaded UMLS (a relative file is relative to the rule "
                         "file); empty: the URL in the variable db_env names, else ~/.cache/rulecoref/umls.sqlite"),
        "db_env": Param("str", default=DB_ENV, help="environment variable that holds the URL when db is empty"),
        "match": Param("choice", default="exact", allowed=("exact", "sorted"),
                       help="exact normalised string, or sorted: word order ignored (needs umls load --sorted-index)"),
        "common_words": Param("wordlist", default="resources/lexicons/common_words.txt",
                              help="words conditioning drops before the seed's lookup (conjunctions, pronouns, ...)"),
        "determiners": Param("wordlist", default="resources/lexicons/determiners.txt",
                             help="words dropped for the second lookup form ('the kidney' -> 'kidney')"),
        "literal_first": Param("bool", default=True,
                               help="look up the mention as written, then without determiners, then conditioned; "
                                    "false: the conditioned string only (seed)"),
        "drop_adjectives": Param("bool", default=False, help="conditioning also drops WordNet adjectives (seed)"),
        "languages": Param("str_list", default=[], help="only strings of these MRCONSO languages (LAT, e.g. ENG)"),
        "sabs": Param("str_list", default=[], help="only strings of these source vocabularies (SAB, e.g. SNOMEDCT_US)"),
        "semantic_types": Param("str_list", default=[],
                                help="only CUIs of these semantic types, as TUIs (T047) or names (needs umls load --mrsty)"),
        "min_chars": Param("int", default=3, minimum=1, help="looked-up strings shorter than this never match"),
        "max_cuis": Param("int", default=0, minimum=0,
                          help="a string with more CUIs than this is ambiguous and links nothing (0: no limit)"),
        "antecedents": Param("choice", default="nearest", allowed=("nearest", "all"),
                             help="link to the nearest earlier mention per shared CUI, or to every earlier one (seed)"),
    }

    def setup(self) -> None:
        self.url = self._url()
        self.db = self.resources.umls(self.url)  # RC401 here, at start-up, when it is missing or unloaded
        self.mode = self.p["match"]
        self.types = tuple(t.strip() for t in self.p["semantic_types"] if t.strip())
        self.db.require(self.mode, semantic_types=bool(self.types))
        self.languages = tuple(self.p["languages"]) or None
        self.sabs = tuple(self.p["sabs"]) or None
        wordnet = self.resources.wordnet if self.p["drop_adjectives"] else None
        # keep_digits: "type 2 diabetes" is a UMLS string; the seed's digit stripping would break it.
        self.condition = Conditioner(self.lexicon("common_words"), wordnet,
                                     drop_adjectives=self.p["drop_adjectives"], keep_digits=True)
        self.determiners = self.lexicon("determiners").words
        self._wanted_types = {t.lower() for t in self.types}

    def _url(self) -> str:
        db = self.p["db"].strip()
        if db and "://" not in db and not Path(db).expanduser().is_absolute() and self.config.rule_file:
            db = str(Path(self.config.rule_file).parent / db)
        return resolve_url(db or None, self.p["db_env"].strip() or None)

    # -- strings -----------------------------------------------------------------------------
    def forms(self, tokens: list[str]) -> list[str]:
        """Normalised strings to look up, most literal first: "the Loss of consciousness" ->
        ["the loss of consciousness", "loss of consciousness", "loss consciousness"]."""
        conditioned = normalize(" ".join(t for t in tokens if self.condition((t,))))
        if not self.p["literal_first"]:
            return [conditioned]
        out = [normalize(" ".join(tokens)), normalize(" ".join(t for t in tokens if t.lower() not in self.determiners)),
               conditioned]
        return list(dict.fromkeys(out))  # unique, in order

    def _keep_cuis(self, cuis: frozenset[str]) -> frozenset[str]:
        if cuis and self._wanted_types:
            types = self.db.semantic_types(cuis)
            cuis = frozenset(c for c in cuis if any(t.lower() in self._wanted_types or n.lower() in self._wanted_types
                                                    for t, n in types.get(c, ())))
        return cuis

    # -- linking -----------------------------------------------------------------------------
    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        cands = self.candidates(doc)
        if len(cands) < 2:
            return
        min_chars = self.p["min_chars"]
        forms = {c.index: [f for f in self.forms(doc.tokens(c)) if len(f) >= min_chars] for c in cands}
        found = self.db.cuis_many({f for fs in forms.values() for f in fs}, self.mode,
                                  languages=self.languages, sabs=self.sabs)
        max_cuis = self.p["max_cuis"]
        hits: dict[int, tuple[str, frozenset[str]]] = {}  # concept -> (string that matched, its CUIs)
        for c in cands:
            for f in forms[c.index]:
                cuis = self._keep_cuis(found[f])
                if cuis:
                    if not max_cuis or len(cuis) <= max_cuis:
                        hits[c.index] = (f, cuis)
                    break  # the most literal form with CUIs decides, ambiguous or not

        same_type = self.scope.same_type
        nearest = self.p["antecedents"] == "nearest"
        buckets: dict[tuple[str, str], list[Concept]] = {}
        for c in cands:
            hit = hits.get(c.index)
            if hit is None:
                continue
            shared: dict[int, list[str]] = {}  # earlier concept -> CUIs it shares with c
            for cui in sorted(hit[1]):
                bucket = buckets.setdefault((c.type if same_type else "", cui), [])
                for e in reversed(bucket):
                    if doc.start_of(e) <= doc.end_of(c) and doc.start_of(c) <= doc.end_of(e):
                        continue  # overlapping mentions
                    shared.setdefault(e.index, []).append(cui)
                    if nearest:
                        break
                bucket.append(c)
            for i in sorted(shared):
                yield i, c.index, self._evidence(doc.concepts[i], c, shared[i], hits)

    def _evidence(self, a: Concept, b: Concept, cuis: list[str], hits: dict[int, tuple[str, frozenset[str]]]) -> str:
        def side(c: Concept) -> str:
            form = hits[c.index][0]
            return f"'{c.text}'" if form == normalize(c.text) else f"'{c.text}' (as '{form}')"

        more = f" (+{len(cuis) - 1} more)" if len(cuis) > 1 else ""
        return f"UMLS CUI {cuis[0]}{more} shared by {side(a)} and {side(b)}"
