"""``partial_name``: two mentions of one person's name ("Edward L, Smith" ... "Dr Smith's").

Seed 001, "Partial match": remove salutations, titles, pronouns and single letters and punctuation,
then link two mentions when every word of the shorter one matches a word of the other by the main
linker's 80%-prefix comparison (``predicates.prefix_match``): "Edward L, Smith" -> {edward, smith},
"Dr Smith's" -> {smiths}; "smith" is a prefix match of "smiths", so they are linked.

Three guards the seed did not have, each a parameter:

* ``names_only``: both mentions must hold a capitalised word after the removals (one that starts
  a sentence counts only if the document never writes it in lower case), since the seed meant this
  match for names; without it "a man" would match "another man".
* ``min_prefix``: a word shorter than 3 letters must be equal, not a prefix ("Li" / "Lindqvist").
* ``drop_possessor``: in "Dr Smith's nurse" the mention is the nurse, so the words up to a
  possessive that is not the last word are dropped before comparing.
* ``gender_check``: mentions whose own words give different genders ("Mr. Bennet", "Mrs. Bennet")
  are different people.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..document import Document
from ..resources.lexicon import Lexicon
from ..rules.schema import Param
from . import Context, Pass, register
from .conditioning import Conditioner
from .people import facts
from .predicates import prefix_match

_LEX = "resources/lexicons/people/"


def _is_possessive(token: str) -> bool:
    low = token.lower()
    return low.endswith(("'s", "\u2019s", "s'", "s\u2019")) and len(low) > 2


@register("partial_name")
class PartialName(Pass):
    requires = ("people_roles",)
    params = {
        "salutations": Param("wordlist", default=_LEX + "salutations.txt", help="'Mr', 'Mrs', ... removed before comparing"),
        "doctor_salutations": Param("wordlist", default=_LEX + "doctor_salutations.txt", help="'Dr' removed before comparing"),
        "titles": Param("wordlist", default=_LEX + "medical_titles.txt", help="'MD', 'RN' removed before comparing"),
        "pronouns": Param("wordlist", default=_LEX + "pronouns.txt", help="pronouns removed before comparing"),
        "ignore_words": Param("wordlist", default="resources/lexicons/determiners.txt", help="other words removed ('the', 'a')"),
        "prefix_ratio": Param("float", default=0.8, minimum=0.0, maximum=1.0, help="share of the shorter word that must agree"),
        "min_word_length": Param("int", default=2, minimum=1, help="shorter words (initials such as 'L') are removed"),
        "min_prefix": Param("int", default=3, minimum=1,
                            help="a word shorter than this must equal the other word ('Li' is no prefix of 'Lindqvist')"),
        "names_only": Param("bool", default=True, help="both mentions must hold a capitalised word (a name)"),
        "drop_possessor": Param("bool", default=True, help="'Dr Smith's nurse' is compared as 'nurse'"),
        "gender_check": Param("bool", default=True, help="'Mr. X' and 'Mrs. X' are never linked"),
        "antecedents": Param("choice", default="nearest", allowed=("nearest", "all"),
                             help="link each mention to its nearest earlier match (as the main linker does), or to every one (the seed)"),
    }

    def setup(self) -> None:
        removed: list[str] = []
        for name in ("salutations", "doctor_salutations", "titles", "pronouns", "ignore_words"):
            removed.extend(self.lexicon(name))
        self.condition = Conditioner(Lexicon(removed, name=f"{self.name}.removed"), None, drop_adjectives=False)

    def words(self, tokens: Sequence[str], first: int, lower: frozenset[str]) -> tuple[tuple[str, ...], bool]:
        """Compared words of a mention, and whether one of them looks like a name.

        A capitalised token is a name unless it starts the sentence (``first`` is the flat index of
        the line's first token among ``tokens``, or -1) and the document also writes it in lower case
        ("Students ..." ... "students" is no name; "Smith said ..." is).
        """
        if self.p["drop_possessor"]:
            cut = max((k for k, t in enumerate(tokens[:-1]) if _is_possessive(t)), default=-1)
            tokens = tokens[cut + 1 :]
            first -= cut + 1
        min_len = self.p["min_word_length"]
        out: list[str] = []
        capital = False
        for k, tok in enumerate(tokens):
            kept = self.condition([tok])
            if kept and len(kept[0]) >= min_len:
                out.append(kept[0])
                if tok[:1].isupper() and not (k == first and tok.lower() in lower):
                    capital = True
        return tuple(out), capital

    def same_word(self, a: str, b: str) -> bool:
        if len(a) > len(b):
            a, b = b, a
        if len(a) < self.p["min_prefix"]:
            return a == b
        return prefix_match(a, b, self.p["prefix_ratio"])

    def propose(self, doc: Document, ctx: Context) -> Iterator[tuple[int, int, str]]:
        f = facts(ctx.state, self.name)
        names_only = self.p["names_only"]
        lower = frozenset(t for t in doc.flat_tokens if t.islower())
        prepared = []
        for i in f.persons:
            c = doc.concepts[i]
            first = 0 if c.start[1] == 0 else -1
            words, capital = self.words(doc.tokens(c), first, lower)
            if words and (capital or not names_only):
                prepared.append((i, words, f.gender_of(i)))
        nearest = self.p["antecedents"] == "nearest"
        for k, (j, wj, gj) in enumerate(prepared):
            for i, wi, gi in reversed(prepared[:k]):
                if self.p["gender_check"] and gi and gj and gi != gj:
                    continue
                short, long_ = (wi, wj) if len(wi) <= len(wj) else (wj, wi)
                if all(any(self.same_word(w, x) for x in long_) for w in short):
                    yield i, j, f"name words {' '.join(short)!r} in {' '.join(long_)!r}"
                    if nearest:
                        break
