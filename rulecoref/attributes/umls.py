"""UMLS concept numbers of a mention (seed 001, "UMLS match"), one query per document (docs/umls.md)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from .heads import NON_ALNUM
from .registry import EMPTY, attribute, setting, settings_group

if TYPE_CHECKING:
    from .registry import MentionSettings, Table


# fmt: off
@settings_group("umls", help="the UMLS lookup behind cuis (docs/umls.md)")
class Umls:
    db: str = setting("str", default="", help="SQLAlchemy URL or SQLite file (relative: to the rule file); "
                                              "empty: $RULECOREF_UMLS_DB, else ~/.cache/rulecoref/umls.sqlite")
    db_env: str = setting("str", default="RULECOREF_UMLS_DB", help="the variable that holds the URL when db is empty")
    match: str = setting("choice", default="exact", allowed=("exact", "sorted"),
                         help="exact normalised string, or sorted: word order ignored (umls load --sorted-index)")
    literal_first: bool = setting("bool", default=True, help="look the mention up as written first, then without "
                                                             "determiners, then conditioned (the UHD system: conditioned only)")
    drop_adjectives: bool = setting("bool", default=False, help="conditioning for the lookup drops adjectives (the UHD system)")
    languages: tuple[str, ...] = setting("str_list", default=[], help="only strings of these languages (LAT, e.g. ENG)")
    sabs: tuple[str, ...] = setting("str_list", default=[], help="only strings of these sources (SAB, e.g. SNOMEDCT_US)")
    semantic_types: tuple[str, ...] = setting("str_list", default=[], help="only CUIs of these semantic types (T047 or names)")
    min_chars: int = setting("int", default=3, minimum=1, help="shorter lookup strings never match")
    max_cuis: int = setting("int", default=0, minimum=0, help="a string with more CUIs is ambiguous: none (0: no limit)")
# fmt: on


class UmlsStrings:
    """How the ``cuis`` attribute asks UMLS (seed 001, "UMLS match"): each mention's strings, most
    literal first ("the Loss of consciousness" -> "the loss of consciousness", "loss of
    consciousness", "loss consciousness"), looked up in one query per document; the first string
    with CUIs decides. UMLS strings keep their function words ("Pain in chest"), which the seed's
    conditioning would drop, and the literal form is the least ambiguous. Opened at start-up, so a
    missing database stops the run before the first document (RC401)."""

    def __init__(self, settings: MentionSettings, rule_file: str = ""):
        from pathlib import Path

        from ..resources.umls import DB_ENV, normalize, resolve_url

        u: Umls = settings.umls
        self.settings, self.u = settings, u
        self.common, self.determiners = settings.words.common_words.words, settings.words.determiners.words
        self.normalize = normalize
        db = u.db.strip()
        if db and "://" not in db and not Path(db).expanduser().is_absolute() and rule_file:
            db = str(Path(rule_file).parent / db)
        env = u.db_env.strip() or None
        # the rule file names the database itself (db:), or the variable to read it from: a server
        # it names is refused without --allow-network (docs/security.md)
        named_by = (rule_file or "the rule file") if db or (env not in (None, DB_ENV) and os.environ.get(env or "")) else None
        self.db: Any = settings.resources.umls(resolve_url(db or None, env), named_by)
        self.types = {x.strip().lower() for x in u.semantic_types if x.strip()}
        self.db.require(u.match, semantic_types=bool(self.types))

    def _kept(self, token: str) -> bool:
        low = token.lower()
        letters = NON_ALNUM.sub("", low)
        if low in self.common or not letters or letters in self.common:
            return False
        return not (self.u.drop_adjectives and self.settings.wordnet.is_adjective(low if low.isalpha() else letters))

    def forms(self, tokens: tuple[str, ...]) -> list[str]:
        norm, u = self.normalize, self.u
        conditioned = norm(" ".join(filter(self._kept, tokens)))
        if not u.literal_first:
            out = [conditioned]
        else:
            dets = self.determiners
            out = [norm(" ".join(tokens)), norm(" ".join(t for t in tokens if t.lower() not in dets)), conditioned]
        return [f for f in dict.fromkeys(out) if len(f) >= u.min_chars]

    def lookup(self, token_lists: list[tuple[str, ...]]) -> list[tuple[str | None, frozenset[str]]]:
        """Per mention: the string that decided and its CUIs (empty when none, or ambiguous)."""
        u = self.u
        forms = [self.forms(toks) for toks in token_lists]
        found = self.db.cuis_many({f for fs in forms for f in fs}, u.match,
                                  languages=u.languages or None, sabs=u.sabs or None)
        out: list[tuple[str | None, frozenset[str]]] = []
        for fs in forms:
            hit: tuple[str | None, frozenset[str]] = (None, EMPTY)
            for f in fs:
                cuis = self._typed(found[f])
                if cuis:  # the most literal string with CUIs decides, ambiguous or not
                    if not u.max_cuis or len(cuis) <= u.max_cuis:
                        hit = (f, cuis)
                    break
            out.append(hit)
        return out

    def _typed(self, cuis: frozenset[str]) -> frozenset[str]:
        if not cuis or not self.types:
            return cuis
        types = self.db.semantic_types(cuis)
        return frozenset(c for c in cuis if any(t.lower() in self.types or n.lower() in self.types
                                                for t, n in types.get(c, ())))


@attribute("umls_hit", depends=("tokens",), needs=("umls",),
           help="(the string that decided, its CUIs): one UMLS query for the document", blocking=())
def _umls_hit(t: Table) -> list[tuple[str | None, frozenset[str]]]:
    return t.umls.lookup(t["tokens"])


@attribute("cuis", depends=("umls_hit",), needs=("umls",),
           help="UMLS concept numbers of the mention's string (its most literal form that has some): "
                "'renal' -> {C0022646}; empty when ambiguous (more than umls.max_cuis)", blocking=())
def _cuis(t: Table) -> list[frozenset[str]]:
    return [cuis for _, cuis in t["umls_hit"]]
