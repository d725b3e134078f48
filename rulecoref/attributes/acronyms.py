"""Acronyms and the initials of long forms: 'MRSA' and 'Methicillin-resistant Staphylococcus aureus'.

An acronym rule blocks the acronym (``acronym``) against the acronyms a long form admits
(``acronym_forms``), so it compares no pair whose letters cannot match.
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING

from ..words import BRACKETS, acronym_forms, acronym_letters, has_alnum, initials
from .registry import EMPTY, BlockingKey, attribute, setting, settings_group

if TYPE_CHECKING:
    from .registry import Table


# fmt: off
@settings_group("acronym", help="acronyms and the initials of long forms")
class Acronym:
    min_upper: int = setting("int", default=2, minimum=0, help="capitals an acronym shows in the text (0: any word)")
    min_letters: int = setting("int", default=2, minimum=1, help="shortest acronym and initials")
    min_words: int = setting("int", default=2, minimum=2, help="a long form has at least this many words")
    max_words: int = setting("int", default=8, minimum=2, help="longer concepts are no long forms")
    subsequence: bool = setting("bool", default=True, help="an acronym may use some of the initials, in order (as in the UHD system)")
    min_coverage: float = setting("float", default=0.6, minimum=0.0, maximum=1.0,
                                  help="share of the initials a partial acronym must use, starting with the first")
# fmt: on


def _content(t: Table, tokens: tuple[str, ...]) -> list[str]:
    """The tokens that carry content: no common word, some letter or digit ("of", "," are not)."""
    common = t.settings.words.common_words.words
    is_content = t.per_token("content", lambda tok: tok.lower() not in common and has_alnum(tok))
    return list(compress(tokens, map(is_content.__getitem__, tokens)))


@attribute("acronym", of_words=True, depends=("tokens",),
           help="the letters of a mention that is one acronym-like word: 'MRSA' -> mrsa, 'the CTs' -> ct",
           blocking=(BlockingKey(order=70, phrase=("acronym", "an acronym and a long form whose initials give it"),
                                 antecedent_key="acronym_forms", direction="backward_then_forward"),))
def _acronym(t: Table) -> list[str | None]:
    s = t.settings.acronym
    out: list[str | None] = []
    for toks in t["tokens"]:
        content = _content(t, toks)
        letters = acronym_letters(content[0], s.min_upper) if len(content) == 1 else None
        out.append(letters if letters and len(letters) >= s.min_letters else None)
    return out


@attribute("initials", of_words=True, depends=("tokens",),
           help="the initials of a long form (2-8 content words before a bracket): "
                "'Methicillin-resistant Staphylococcus aureus' -> mrsa", blocking=())
def _initials(t: Table) -> list[str | None]:
    s = t.settings.acronym
    out: list[str | None] = []
    for toks in t["tokens"]:
        cut = next((k for k in range(1, len(toks)) if toks[k] in BRACKETS), len(toks))
        long_form = _content(t, toks[:cut])
        init = initials(long_form) if s.min_words <= len(long_form) <= s.max_words else ""
        out.append(init if len(init) >= s.min_letters else None)
    return out


@attribute("acronym_forms", of_words=True, depends=("initials",),
           help="the acronyms a long form admits: its initials and, with acronym.subsequence, every run of them in "
                "order that starts with the first and covers acronym.min_coverage ('mrsa' -> mrsa, mrs, mra, msa); "
                "with acronym as the other side, the exact blocking keys of acronym rules", blocking=())
def _acronym_forms(t: Table) -> list[frozenset[str]]:
    s, memo = t.settings.acronym, t.settings.resources.memo
    question = ("acronym_forms", s.subsequence, s.min_letters, s.min_coverage)
    seen: dict[str | None, frozenset[str]] = {None: EMPTY, "": EMPTY}  # many long forms share their initials
    out = []
    for init in t["initials"]:
        forms = seen.get(init)
        if forms is None:  # a function of the initials alone: remembered in the process's memo
            forms = seen[init] = memo.get((*question, init), lambda init=init: acronym_forms(
                init, subsequence=s.subsequence, min_letters=s.min_letters, min_coverage=s.min_coverage))
        out.append(forms)
    return out
