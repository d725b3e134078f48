"""Pure matching functions shared by passes (the dcoref ``Rules.java`` idea): plain strings and
lexicons in, a bool or a string out. No document mutation, no I/O.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate, compress, repeat
from operator import add, and_, attrgetter, gt, is_, itemgetter, not_, or_, sub
from typing import TypeVar

from ..rules.schema import Param

_ALNUM = re.compile(r"[0-9a-z]")
#: ``has_alnum(token)``: whether some character of the token is alphanumeric, i.e.
#: ``any(ch.isalnum() for ch in token)`` in one C call (``\w`` is ``str.isalnum`` or "_" for every
#: code point; a test checks them all).
has_alnum = re.compile(r"[^\W_]").search
_index = attrgetter("index")
_first, _second = itemgetter(0), itemgetter(1)
T = TypeVar("T")


def scope_mask(doc, admits_type: Callable[[str], bool], state: dict | None = None) -> list[bool] | None:
    """Per concept index, whether ``admits_type`` admits its type; None when it admits every type of
    the document (the usual case: no list is built). With ``state`` (a document's ``ctx.state``) the
    passes of one document that admit the same types share one mask, built from the document's
    per-type lists, touching only the concepts of the smaller side."""
    types = doc.types
    admitted = tuple(t for t in types if admits_type(t))
    if len(admitted) == len(types):
        return None
    key = ("scope_mask", admitted)
    if state is not None and key in state:
        return state[key]
    n = len(doc.concepts)
    value = sum(map(len, map(doc.of_type, admitted))) * 2 <= n  # set the admitted ones, or clear the excluded
    mask = [not value] * n
    for t in admitted if value else (t for t in types if t not in admitted):
        for i in map(_index, doc.of_type(t)):
            mask[i] = value
    if state is not None:
        state[key] = mask
    return mask


def judged_concepts(n: int, pairs: list[tuple[int, int]], mask: list[bool] | None) -> Sequence[int]:
    """The concepts a link filter judges, in text order: those the links ``pairs`` touch when the
    links are few (fewer than half the ``n`` concepts), else every concept, which is cheaper than
    collecting them; either way only those ``mask`` (from ``scope_mask``) admits. Judging a concept
    no link touches is wasted but harmless: a filter only removes links."""
    if 2 * len(pairs) < n:
        touched = set(map(_first, pairs))
        touched.update(map(_second, pairs))
        ids: Sequence[int] = sorted(touched)
    else:
        ids = range(n)
    if mask is not None:
        ids = list(compress(ids, mask)) if isinstance(ids, range) else list(compress(ids, map(mask.__getitem__, ids)))
    return ids


def judged_pairs(pairs: list[tuple[int, int]], mask: list[bool] | None,
                 judge: Callable[[list[int]], dict[int, T]]) -> tuple[list[tuple[int, int]], dict[int, T]]:
    """For a link filter that judges a link only when both its ends are in scope (``mask``, from
    ``scope_mask``) and both have a finding (a date, keywords): the links (in their order) whose
    two ends have one, and the findings by concept. ``judge`` takes concept indices in text order
    and returns the findings of those that have one. The first ends are judged first, and the
    second ends only of the links whose first end has a finding, so about half the mentions are
    judged, not all."""
    if mask is not None:
        pairs = list(compress(pairs, map(and_, map(mask.__getitem__, map(_first, pairs)),
                                         map(mask.__getitem__, map(_second, pairs)))))
    found = judge(sorted(set(map(_first, pairs))))
    if not found:
        return [], found
    pairs = list(compress(pairs, map(found.__contains__, map(_first, pairs))))
    more = set(map(_second, pairs)).difference(found)
    if more:
        found.update(judge(sorted(more)))
    return list(compress(pairs, map(found.__contains__, map(_second, pairs)))), found


def normalise(tokens: Sequence[str], ignore: Iterable[str] | frozenset[str] = frozenset()) -> str:
    """Lowercase, drop tokens without letters or digits and ignored words, join with one space.

    "The  Chest-pain ." -> "chest-pain" (with "the" ignored); punctuation tokens never decide a match.
    """
    if not isinstance(ignore, (set, frozenset)):
        ignore = frozenset(ignore)
    search = _ALNUM.search
    return " ".join(
        low for low in map(str.lower, tokens) if low not in ignore and (low.isalnum() or search(low))
    )


def prefix_match(a: str, b: str, ratio: float = 0.8, *, min_prefix: int = 1, max_ending: int = 0) -> bool:
    """Seed 001's word comparison: the first ``ratio`` of the shorter word's characters equal the
    longer word's same characters ("abscess" / "abscesses": 6 of 7 letters agree -> match).

    The prefix length is ceil(ratio * len(shorter)) so that short words need (nearly) all letters.
    Optional guards (off by default, as in the seed): a prefix shorter than ``min_prefix`` means
    the words must be equal; ``max_ending`` > 0 lets the two words differ only by endings of at
    most that many letters and no digits ("abscess" / "abscesses" match, "actin" / "activation",
    "abcg5" / "abcg8" do not).
    """
    if a == b:
        return True
    if len(a) > len(b):
        a, b = b, a
    if not a:
        return False
    k = prefix_len(len(a), ratio)
    if k < min_prefix or a[:k] != b[:k]:
        return False
    return endings_ok(a, b, k, max_ending)


def endings_ok(a: str, b: str, k: int, max_ending: int) -> bool:
    """After a shared prefix of ``k`` characters, are the rest of ``a`` and ``b`` short endings?"""
    if max_ending <= 0:
        return True
    ta, tb = a[k:], b[k:]
    if len(ta) > max_ending or len(tb) > max_ending:
        return False
    return not any(ch.isdigit() for ch in ta + tb)


def initials(words: Sequence[str]) -> str:
    """First letters of the words of a multi-word concept, with hyphenated parts counted as words:
    "Methicillin-resistant Staphylococcus aureus" -> "mrsa"."""
    out = []
    for w in words:
        for part in w.split("-"):
            part = part.strip()
            if part and part[0].isalnum():
                out.append(part[0].lower())
    return "".join(out)


def is_subsequence(short: str, long: str) -> bool:
    """True when the letters of ``short`` occur in ``long`` in order ("mrsa" in "mrssa")."""
    it = iter(long)
    return all(ch in it for ch in short)


def prefix_len(n: int, ratio: float = 0.8) -> int:
    """Characters two words must share when the shorter has ``n``: ceil(ratio * n)."""
    return -int(-ratio * n // 1)


def find_phrases(tokens: Sequence[str], phrases: Iterable[tuple[str, ...]] | frozenset[tuple[str, ...]],
                 max_len: int | None = None) -> list[tuple[int, int, str]]:
    """Every non-overlapping occurrence of a phrase (token tuple) in ``tokens``, longest first at
    each position, left to right, as (start, end_exclusive, phrase). Tokens compare lowercased:
    "was thought to be" with phrases {("was",), ("thought", "to", "be")} -> two hits."""
    table = phrases if isinstance(phrases, (set, frozenset)) else frozenset(phrases)
    longest = max_len if max_len is not None else max((len(p) for p in table), default=0)
    low = [t.lower() for t in tokens]
    out: list[tuple[int, int, str]] = []
    i, n = 0, len(low)
    while i < n:
        for k in range(min(longest, n - i), 0, -1):
            cand = tuple(low[i : i + k])
            if cand in table:
                out.append((i, i + k, " ".join(cand)))
                i += k
                break
        else:
            i += 1
    return out


# The only characters whose lowercase is ASCII are ASCII characters themselves and the Kelvin sign
# (U+212A -> "k"); str.lower maps character by character apart from the capital sigma, whose
# lowercase is not ASCII (tests/passes/test_predicates.py checks both over every code point).
_KELVIN = "\u212a"


def case_variants(words: Iterable[str], limit: int = 100_000) -> frozenset[str] | None:
    """Every string whose ``str.lower()`` is one of ``words``: {"is"} -> {"is", "Is", "iS", "IS"}.

    A pass then finds the tokens a word list matches case-insensitively with one set lookup per
    token instead of a ``lower()`` per token. None when a word is not ASCII or there would be more
    than ``limit`` variants (the caller then lowercases)."""
    out: set[str] = set()
    for word in words:
        if not word.isascii():
            return None
        variants = [""]
        for ch in word:
            options = {x for x in (ch, ch.upper(), _KELVIN) if x.lower() == ch}
            variants = [v + x for v in variants for x in options]
            if len(out) + len(variants) > limit:
                return None
        out.update(variants)
    return frozenset(out)


def acronym_letters(token: str, min_upper: int = 2) -> str | None:
    """The lowercased letters of a token that is written like an acronym, else None.

    An acronym has at least ``min_upper`` capitals and more capitals than lowercase letters, with a
    plural "s" allowed: "MRSA", "COPD", "FGFs" -> "fgf", "CTs" -> "ct"; "Shh", "Mr", "CP49" -> None.
    With ``min_upper=0`` any alphabetic token counts (for text that is all lowercase).
    """
    word = token[:-1] if len(token) > 2 and token.endswith("s") and token[-2].isupper() else token
    if any(ch.isdigit() for ch in word):
        return None  # "CP49", "IE6": names with numbers, not initials
    letters = "".join(ch for ch in word if ch.isalpha())
    if not letters:
        return None
    if min_upper > 0:
        upper = sum(ch.isupper() for ch in letters)
        if upper < min_upper or upper <= len(letters) - upper:
            return None
    return letters.lower()


def acronym_matches(word: str, letters: str, *, subsequence: bool = True, min_coverage: float = 0.6,
                    min_letters: int = 2) -> bool:
    """Seed 001's acronym test: ``word`` equals the initials ``letters`` of a multi-word concept, or
    (``subsequence``) some of them in order, starting with the first and covering at least
    ``min_coverage`` of them: "mrsa" ~ "mrsa"; "copd" ~ "copd"; "ms" !~ "mrsa" (coverage 0.5)."""
    if len(word) < min_letters or not letters:
        return False
    if word == letters:
        return True
    if not subsequence or word[0] != letters[0] or len(word) > len(letters):
        return False
    return len(word) >= min_coverage * len(letters) and is_subsequence(word, letters)


_DATE_PART = re.compile(r"[a-z]+|\d+")
_MONTHS = {m: str(i) for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}


def date_parts(text: str) -> frozenset[str]:
    """The components of a date written in any of the usual ways, as comparable strings: numbers
    without leading zeros, month names as numbers. "03/12/2010" and "March 12 , 2010" ->
    {"3", "12", "2010"}."""
    out = set()
    for part in _DATE_PART.findall(text.lower()):
        if part.isdigit():
            out.add(str(int(part)))
        elif part[:3] in _MONTHS:
            out.add(_MONTHS[part[:3]])
    return frozenset(out)


def dates_compatible(a: str, b: str) -> bool:
    """Two dates may be the same day when the parts of one are all parts of the other: "3/12" and
    "03/12/2010" may; "3/12" and "3/19", or "2009" and "3/12/2010", may not."""
    pa, pb = date_parts(a), date_parts(b)
    return pa <= pb or pb <= pa


_CLAUSE_END = frozenset({".", ";", ":", "?", "!"})
# a clause end as a whole token in words joined by spaces: the first one, and everything up to the last one
_FIRST_END = re.compile(r"(?:^| )[.;:?!](?= |$)")
_LAST_END = re.compile(r".*(?:^| )[.;:?!](?: |$)")


def trigger_windows(before: Sequence[str], after: Sequence[str], triggers: frozenset[str] | set[str],
                    window: int, *, look_before: bool = True) -> list[list[str]]:
    """Where seed 001's link filters look for clues: when the word right after a mention is a
    trigger word ("in", "on", "is", ...), the ``window`` words after that trigger; when the word right
    before it is one (and ``look_before``), the ``window`` words before that trigger. A window stops
    at a clause end (". ; : ? !"). "[pain] in the left leg ." -> [["the", "left", "leg"]]."""
    out = []
    if after and after[0].lower() in triggers:
        words = []
        for tok in after[1 : 1 + window]:
            if tok in _CLAUSE_END:
                break
            words.append(tok)
        out.append(words)
    if look_before and before and before[-1].lower() in triggers:
        words = []
        for tok in reversed(before[max(0, len(before) - 1 - window) : -1]):
            if tok in _CLAUSE_END:
                break
            words.append(tok)
        out.append(words[::-1])
    return [w for w in out if w]


# Parameters every clue filter shares (seed 001, "Link filtering": clues are searched only next to a
# trigger word such as "in", "on", "is").
CLUE_WINDOW_PARAMS = {
        "triggers": Param("wordlist", default="resources/lexicons/filter_triggers.txt",
                          help="a mention's clues are searched only after/before one of these words"),
        "window": Param("int", default=4, minimum=1, help="words searched after (before) the trigger word"),
        "sides": Param("choice", default="both", allowed=("both", "after"),
                       help="search after a trigger that follows the mention and before one that precedes it "
                            "(seed), or only after"),
}


# trigger list -> (its usual spellings, all its spellings or None); a handful of lists per process
_TRIGGER_SPELLINGS: dict[frozenset[str], tuple[frozenset[str], frozenset[str] | None]] = {}


class ClueWindows:
    """``trigger_windows`` of the concepts of one Document (read only), computed on demand and
    remembered, so the filters of a document share them (they keep it in ``ctx.state``). Whether a
    trigger word lies next to a mention is one set lookup of the token there (in the trigger's usual
    spellings); the window after a token (before one) is built once for all the nested mentions
    that end (start) there.

    ``texts`` answers the same question for many concepts at once, as window texts: the filters
    ask it for every mention a kept link touches (tens of thousands in a long document), so it does
    the per-mention work with C-level maps over the concept lists and builds each window once.
    """

    def __init__(self, doc, triggers: frozenset[str], window: int, look_before: bool = True):
        self.doc = doc
        self.triggers = triggers
        self.window = window
        self.look_before = look_before
        # a trigger in its usual spellings ("in", "In", "IN"): these say that a mention has windows,
        # with no lower() per token (the windows themselves check the lowercased word, against all
        # its spellings when there are not too many); both made once per trigger list
        spellings = _TRIGGER_SPELLINGS.get(triggers)
        if spellings is None:
            if len(_TRIGGER_SPELLINGS) > 64:
                _TRIGGER_SPELLINGS.clear()
            usual = triggers | {t.title() for t in triggers} | {t.upper() for t in triggers}
            spellings = _TRIGGER_SPELLINGS[triggers] = (frozenset(usual), case_variants(triggers, limit=10_000))
        self._spellings, self._trigger_variants = spellings
        self._cache: dict[int, list[list[str]]] = {}
        self._after: dict[int, list[list[str]]] = {}  # last token of a mention -> window after it
        self._before: dict[int, list[list[str]]] = {}  # first token of a mention -> window before it
        self._lines: tuple[list[int], set[int], set[int]] | None = None  # see _line_starts
        self._after_text: dict[int, str] = {}  # token right after a mention -> its window's text
        self._before_text: dict[int, str] = {}  # token right before a mention -> its window's text
        self._texts: dict[int, tuple[str, str] | tuple[()]] = {}  # concept -> texts(), () for no windows

    @classmethod
    def shared(cls, state: dict, doc, triggers: frozenset[str], window: int, look_before: bool = True) -> ClueWindows:
        """The instance kept in a document's ``ctx.state`` for these settings (made on first use)."""
        key = ("clue_windows", id(triggers), window, look_before)
        found = state.get(key)
        if found is None:
            found = state[key] = cls(doc, triggers, window, look_before)
        return found

    def _spelled_trigger(self, k: int) -> bool:
        flat = self.doc.flat_tokens
        return 0 <= k < len(flat) and flat[k] in self._spellings

    def __call__(self, i: int) -> list[list[str]]:
        hit = self._cache.get(i)
        if hit is None:
            doc = self.doc
            c = doc.concepts[i]
            start, end = doc.concept_starts[i], doc.concept_ends[i]
            after = self._spelled_trigger(end + 1) and c.end[1] + 1 < len(doc.lines[c.end[0] - 1])
            before = self.look_before and c.start[1] > 0 and self._spelled_trigger(start - 1)
            hit = []
            if after or before:
                # trigger_windows(before, after) is its after-side windows plus its before-side ones
                hit = self._window_after(c, end)
                if self.look_before:
                    hit = hit + self._window_before(c, start)
            self._cache[i] = hit
        return hit

    def _line_starts(self) -> tuple[list[int], set[int], set[int]]:
        """The flat index of each line's first token, then the token count; the set of those; and
        the set of the indices right before them (each line's last token, and -1)."""
        if self._lines is None:
            offsets = list(accumulate(map(len, self.doc.lines), initial=0))
            self._lines = (offsets, set(offsets), set(map(sub, offsets, repeat(1))))
        return self._lines

    def texts(self, indices: Sequence[int]) -> tuple[list[int], list[str], list[str]]:
        """Of the concepts ``indices``, those that may have windows (a trigger word right next to
        them; the others have none), with the text of the window ``self(i)`` gives after each and
        of the one it gives before each: words joined by one space, "" where that side has none.
        For each returned concept, ``self(i)`` is ``[after.split(" ")]`` if after, then
        ``[before.split(" ")]`` if before (tokens hold no spaces). Answers are remembered per
        concept, so a second filter asking about the same concepts costs a lookup each."""
        known = self._texts
        pairs = list(map(known.get, indices))
        unknown = list(compress(indices, map(is_, pairs, repeat(None))))
        if unknown:
            found, after, before = self._texts_of(unknown)
            known.update(zip(unknown, repeat(())))
            known.update(zip(found, zip(after, before)))
            pairs = list(map(known.__getitem__, indices))
        found = list(compress(indices, pairs))  # () for a concept without windows
        pairs = list(compress(pairs, pairs))
        return found, list(map(_first, pairs)), list(map(_second, pairs))

    def findings(self, indices: Sequence[int], known: dict[str, T], find: Callable[[str], T]) -> list[tuple[int, T | None, T | None]]:
        """Of the concepts ``indices``, those with a finding (dates, keywords) in a window: (concept,
        finding after it or None, finding before it or None). ``find(text)`` gives a window text's
        finding (false when there is none) and caches it in ``known``, which is read first for all
        texts at once, so a text seen in an earlier document costs a lookup."""
        found, after, before = self.texts(indices)
        texts = list(set(after).union(before).difference(("",)))
        values = list(map(known.get, texts))
        for k in compress(range(len(texts)), map(is_, values, repeat(None))):  # texts not seen before
            values[k] = find(texts[k])
        with_any = set(compress(texts, values))
        return [(i, find(a) if a else None, find(b) if b else None)
                for i, a, b in compress(zip(found, after, before), map(or_, map(with_any.__contains__, after),
                                                                       map(with_any.__contains__, before)))]

    def _texts_of(self, indices: list[int]) -> tuple[list[int], list[str], list[str]]:
        doc = self.doc
        flat = doc.flat_tokens
        if not flat:
            return [], [], []
        offsets, line_starts, line_lasts = self._line_starts()
        spelled = self._spellings.__contains__
        ends = list(map(doc.concept_ends.__getitem__, indices))
        after_at = list(map(add, ends, repeat(1)))  # the token after each
        # the conditions of __call__: a trigger spelling right after the mention on its line (the
        # past-the-end index is clamped, and masked as it is a line start), or (look_before) right
        # before it with the mention not first on its line
        flags = list(map(gt, map(spelled, map(flat.__getitem__, map(min, after_at, repeat(len(flat) - 1)))),
                         map(line_starts.__contains__, after_at)))
        if self.look_before:
            starts = list(map(doc.concept_starts.__getitem__, indices))
            before_at = list(map(sub, starts, repeat(1)))  # -1 reads the last token, masked likewise
            flags = list(map(or_, flags, map(gt, map(spelled, map(flat.__getitem__, before_at)),
                                             map(line_starts.__contains__, starts))))
        found = list(compress(indices, flags))
        after_at = list(compress(after_at, flags))
        self._fill_after(set(after_at).difference(self._after_text), offsets, line_starts)
        after = list(map(self._after_text.__getitem__, after_at))
        if not self.look_before:
            return found, after, [""] * len(found)
        before_at = list(compress(before_at, flags))
        self._fill_before(set(before_at).difference(self._before_text), offsets, line_lasts)
        return found, after, list(map(self._before_text.__getitem__, before_at))

    def _trigger_tokens(self, positions: list[int], outside: set[int]) -> list[bool]:
        """Whether each position holds a trigger word (exactly: its lowercase is one), positions in
        ``outside`` (not on the mention's line) excepted. Positions past either end are clamped to a
        token, so the caller must list them in ``outside``."""
        flat = self.doc.flat_tokens
        words = map(flat.__getitem__, map(max, map(min, positions, repeat(len(flat) - 1)), repeat(0)))
        if self._trigger_variants is None:
            trigger = map(self.triggers.__contains__, map(str.lower, words))
        else:
            trigger = map(self._trigger_variants.__contains__, words)
        return list(map(gt, trigger, map(outside.__contains__, positions)))

    def _fill_after(self, positions: set[int], offsets: list[int], line_starts: set[int]) -> None:
        """Window texts after the tokens at ``positions`` (each right after a mention's last token):
        up to ``window`` words after it on its line, up to the first clause end."""
        if not positions:
            return
        ps = list(positions)
        ok = self._trigger_tokens(ps, line_starts)
        self._after_text.update(zip(compress(ps, map(not_, ok)), repeat("")))
        ps = list(compress(ps, ok))
        line_ends = map(offsets.__getitem__, map(bisect_right, repeat(offsets), ps))
        lo = list(map(add, ps, repeat(1)))
        hi = map(min, map(add, lo, repeat(self.window)), line_ends)
        flat = self.doc.flat_tokens
        texts = list(map(" ".join, map(flat.__getitem__, map(slice, lo, hi))))
        for k in compress(range(len(texts)), map(_FIRST_END.search, texts)):
            texts[k] = texts[k][: _FIRST_END.search(texts[k]).start()]
        self._after_text.update(zip(ps, texts))

    def _fill_before(self, positions: set[int], offsets: list[int], line_lasts: set[int]) -> None:
        """Window texts before the tokens at ``positions`` (each right before a mention's first
        token, on its line): up to ``window`` words before it on its line, after the last clause end."""
        if not positions:
            return
        ps = list(positions)
        ok = self._trigger_tokens(ps, line_lasts)  # a line's last token is not before a mention on its line
        self._before_text.update(zip(compress(ps, map(not_, ok)), repeat("")))
        ps = list(compress(ps, ok))
        line_begins = map(offsets.__getitem__, map(sub, map(bisect_right, repeat(offsets), ps), repeat(1)))
        lo = map(max, map(sub, ps, repeat(self.window)), line_begins)
        flat = self.doc.flat_tokens
        texts = list(map(" ".join, map(flat.__getitem__, map(slice, lo, ps))))
        for k in compress(range(len(texts)), map(_LAST_END.match, texts)):
            texts[k] = texts[k][_LAST_END.match(texts[k]).end():]
        self._before_text.update(zip(ps, texts))

    def _window_after(self, c, end: int) -> list[list[str]]:
        """The after side of ``trigger_windows`` for a mention ending at flat index ``end``."""
        found = self._after.get(end)
        if found is None:
            after = self.doc.after(c, self.window + 1)
            found = self._after[end] = trigger_windows((), after, self.triggers, self.window)
        return found

    def _window_before(self, c, start: int) -> list[list[str]]:
        """The before side of ``trigger_windows`` for a mention starting at flat index ``start``."""
        found = self._before.get(start)
        if found is None:
            before = self.doc.before(c, self.window + 1)
            found = self._before[start] = trigger_windows(before, (), self.triggers, self.window)
        return found


def clues_conflict(a: frozenset[str] | set[str], b: frozenset[str] | set[str]) -> bool:
    """Clue sets of two mentions contradict when both have clues and neither set contains the
    other: {"left", "leg"} vs {"right", "leg"} conflict; {"left", "leg"} vs {"leg"} do not."""
    return bool(a) and bool(b) and not (a <= b or b <= a)


#: Kinds whose links seed 001's filters judge ("after the semantic links are made in the main
#: linker, they are passed over to filters"); filter kinds list them in ``requires`` so their
#: ``examples:`` run with the links those passes make.
MAIN_LINKER_KINDS: tuple[str, ...] = ("exact_match", "relative_pronoun", "be_phrase", "head_synonym", "umls", "acronym")
