"""Offline WordNet 3.0 for the mention attributes (seed 001: adjectives in "Match by meaning",
synonyms in "Head and synonym match", adjective-only mentions in "Link filtering").

The rules ask WordNet four things: a word's base form under a part of speech, whether it has a
lemma there, whether it is an adjective, and the synonyms of its first senses. Those are read
straight from Debian's ``wordnet-base`` files (their format is ``wndb(5WN)``), without NLTK:

* ``index.POS`` (one line per lemma, sorted) becomes one ``dict`` per part of speech, lemma -> the
  rest of its line. Plain strings, so the garbage collector has nothing to walk, and a membership
  test is one hash look-up (a binary search over the file, as WordNet's own ``bin_search`` does,
  measured 16 us a look-up against the dicts' 50 ms load for 155,000 lemmas: a note batch asks
  tens of thousands of look-ups).
* ``POS.exc`` (irregular forms: "mice mouse") becomes one dict per part of speech.
* ``data.POS`` is never read whole: a synset's words are read from its byte offset (how WordNet
  addresses a synset) through a read-only memory map, which forked workers share safely.

The base form follows NLTK's ``morphy`` (the reference every answer is tested against): the word
itself when it is a lemma, else its exception-list bases, else the forms one of ``morphy(7WN)``'s
suffix rules makes, the first that WordNet lists. NLTK's full reader stays available as
``WordNet.reader`` for the features that need more of WordNet (hypernyms in ``web.py``); it loads
only when asked.

The folder is, in order: the ``path`` argument (``--wordnet``), ``$RULECOREF_WORDNET``,
``/usr/share/wordnet``; a folder holding ``dict/`` (the Princeton tarball) works too. Synonym
answers are remembered in the process's one memo (``Resources.memo``); base forms are a few dict
look-ups and are not.
"""

from __future__ import annotations

import io
import mmap
import os
import re
import warnings
from pathlib import Path
from typing import Any

from ..errors import ResourceError, diagnostic

DEFAULT_PATH = "/usr/share/wordnet"
ENV_VAR = "RULECOREF_WORDNET"

_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
_POS = ("n", "v", "a", "r")  # satellite adjectives are found under "a"
# Files the reader needs besides lexnames; their absence means "no WordNet here".
_REQUIRED = tuple(f"{kind}.{name}" for name in _FILES.values() for kind in ("index", "data"))

#: morphy(7WN)'s detachment rules, in NLTK's order (which decides among several bases)
SUFFIX_RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}
_MARKER = re.compile(r"\([^()]*\)$")  # an adjective's syntactic marker: "galore(ip)"
_INDEX_LINE = re.compile(r"\S+ ([nvar]) (\d+) (\d+) ")

# WordNet 3.0's lexicographer files, in file-number order (wninput(5WN)); the third column of
# ``lexnames`` is the syntactic category (1 noun, 2 verb, 3 adjective, 4 adverb).
_LEXNAMES = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body "
    "noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location "
    "noun.motive noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process "
    "noun.quantity noun.relation noun.shape noun.state noun.substance noun.time verb.body verb.change "
    "verb.cognition verb.communication verb.competition verb.consumption verb.contact verb.creation "
    "verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative verb.weather adj.ppl"
).split()
_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}


def lexnames_text() -> str:
    """The ``lexnames`` file of WordNet 3.0 (what Debian's package leaves out; NLTK opens it first)."""
    return "".join(f"{i:02d}\t{name}\t{_CATEGORY[name.split('.')[0]]}\n" for i, name in enumerate(_LEXNAMES))


def wordnet_root(path: str | os.PathLike[str] | None = None) -> Path:
    """The dict folder to read: ``path``, else ``$RULECOREF_WORDNET``, else Debian's location."""
    chosen = Path(path or os.environ.get(ENV_VAR) or DEFAULT_PATH).expanduser()
    if not (chosen / "index.noun").is_file() and (chosen / "dict" / "index.noun").is_file():
        chosen = chosen / "dict"
    return chosen


def read_index(path: Path, pos: str) -> dict[str, str]:
    """lemma -> the rest of its index line ("n 1 3 @ ~ %p 1 1 14312172  "); the licence lines,
    which begin with spaces, are left out. A file not shaped like wndb(5WN)'s is a ValueError."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    index = {lemma: rest for lemma, _, rest in (line.partition(" ") for line in text.splitlines()) if lemma}
    ends = (next(iter(index.items()), None), next(reversed(index.items()), None))
    for entry in ends:  # the first and the last entry: a wrong file fails here, not mid-batch
        m = _INDEX_LINE.match(" ".join(entry)) if entry else None
        if not m or m.group(1) != pos:
            raise ValueError(f"{path.name}: not a WordNet index file ({' '.join(entry or ('empty',))[:60]!r})")
    return index


def read_exceptions(path: Path) -> dict[str, tuple[str, ...]]:
    """inflected form -> its base forms ("mice" -> ("mouse",)); a later line for a form wins, as in NLTK."""
    with open(path, encoding="utf-8") as f:
        return {terms[0]: tuple(terms[1:]) for terms in map(str.split, f) if terms}


def offsets(rest: str) -> list[int]:
    """The synset offsets of an index line's rest, most frequent sense first (wndb(5WN):
    ``pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...``)."""
    fields = rest.split()
    return [int(x) for x in fields[len(fields) - int(fields[1]):]]


_STEM = 5  # letters a spelling variant's derivation shares with the word


def synset_words(line: bytes) -> list[str]:
    """The words of a data-file line as NLTK's ``lemma_names()`` gives them (markers removed):
    ``offset lex_filenum ss_type w_cnt word lex_id [word lex_id...] ...``, ``w_cnt`` in hex."""
    _, _, _, count, rest = line.split(b" ", 4)
    n = int(count, 16)
    return [_MARKER.sub("", w.decode("utf-8")) for w in rest.split(b" ", 2 * n)[: 2 * n: 2]]


def pointers(line: bytes) -> list[tuple[bytes, int, bytes, int, int]]:
    """A data-file line's pointers as (symbol, target offset, target pos, source word, target word):
    ``... w_cnt words p_cnt [ptr_symbol synset_offset pos source/target]...``, source/target two hex
    digits each, 00 for the whole synset (wndb(5WN))."""
    fields = line.split(b" ")
    at = 4 + 2 * int(fields[3], 16)
    out = []
    for k in range(int(fields[at])):
        sym, off, pos, st = fields[at + 1 + 4 * k: at + 5 + 4 * k]
        out.append((sym, int(off), pos, int(st[:2], 16), int(st[2:], 16)))
    return out


def load_wordnet(path: str | os.PathLike[str] | None = None, memo: Any = None) -> WordNet:
    """Open WordNet offline; a missing or unreadable folder is one RC301/RC303 error at start-up."""
    root = wordnet_root(path)
    missing = [name for name in _REQUIRED if not (root / name).is_file()]
    if missing:
        raise ResourceError(diagnostic("RC301", path=f"{root} (missing {', '.join(missing[:3])}"
                                       + (", ..." if len(missing) > 3 else "") + ")"))
    resolved = root.resolve()
    try:
        index = {pos: read_index(resolved / f"index.{name}", pos) for pos, name in _FILES.items()}
        exc = {pos: read_exceptions(resolved / f"{name}.exc") for pos, name in _FILES.items()}
        data = {pos: _DataFile(resolved / f"data.{name}") for pos, name in _FILES.items()}
    except (OSError, ValueError) as exc_:  # UnicodeDecodeError is a ValueError
        raise ResourceError(diagnostic("RC303", path=str(resolved), detail=f"{type(exc_).__name__}: {exc_}")) from exc_
    if memo is None:
        from . import Memo

        memo = Memo()
    return WordNet(index, exc, data, memo, str(resolved))


class _DataFile:
    """A ``data.POS`` file read by byte offset through a read-only memory map, mapped on first use
    (a memory map has no file position, so processes forked after it share it safely)."""

    def __init__(self, path: Path):
        self.path = path
        self._map: mmap.mmap | None = None
        with open(path, "rb") as f:  # a data file's lines begin with their own offset: check one
            head = f.read(1 << 15)
        at = head.find(b"\n", 0) + 1
        while head[at: at + 2] == b"  ":  # the licence lines
            at = head.find(b"\n", at) + 1
        if not head[at: at + 8].isdigit() or int(head[at: at + 8]) != at:
            raise ValueError(f"{path.name}: not a WordNet data file")

    def line(self, offset: int) -> bytes:
        if self._map is None:
            with open(self.path, "rb") as f:
                self._map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        m = self._map
        return m[offset: m.find(b"\n", offset)]


class WordNet:
    """The questions rulecoref asks WordNet, from its files (see the module docstring).

    Words are looked up lowercased and through WordNet's morphology ("abscesses" -> "abscess",
    "larger" -> "large"). Hyphenated or unknown words ("methicillin-resistant", "mrsa") have no
    parts of speech, so they are never adjectives and always kept by conditioning. ``pos`` is one
    of n, v, a (adjectives, satellites included), r; "s" (satellites) is answered as NLTK does.
    """

    def __init__(self, index: dict[str, dict[str, str]], exceptions: dict[str, dict[str, tuple[str, ...]]],
                 data: dict[str, _DataFile], memo: Any, path: str = ""):
        self.index = index
        self.exceptions = exceptions
        self.data = data
        self.memo = memo
        self.path = path
        self._reader: Any = None

    def bases(self, word: str, pos: str) -> list[str]:
        """Every base form WordNet lists for a lowercase word under ``pos``, the first the likeliest
        (NLTK's ``_morphy``): the word, then its exception-list bases or what one suffix rule makes."""
        p = "a" if pos == "s" else pos
        index = self.index[p]
        listed = self.exceptions[p].get(word)
        forms = listed if listed is not None else [word[: -len(old)] + new for old, new in SUFFIX_RULES[p]
                                                   if word.endswith(old)]
        if not forms:
            return [word] if word in index else []
        return [f for f in dict.fromkeys((word, *forms)) if f in index]

    def listed(self, word: str, pos: str) -> bool:
        """Whether WordNet lists a base form of the lowercase word under ``pos``: ``bases`` is not
        empty (without building the list; the question conditioning asks of every token)."""
        p = "a" if pos == "s" else pos
        index = self.index[p]
        if word in index:
            return True
        forms = self.exceptions[p].get(word)
        if forms is not None:
            return any(f in index for f in forms)
        return any(word.endswith(old) and word[: -len(old)] + new in index for old, new in SUFFIX_RULES[p])

    def base(self, word: str, pos: str | None = "n") -> str | None:
        """The word's base form under a part of speech (any, tried n, v, a, r, for None), None when
        WordNet does not list it there: "abscesses" -> "abscess" (noun); "painful" -> None (noun)."""
        word = word.lower()
        if not word:
            return None
        for p in (pos,) if pos else _POS:
            found = self.bases(word, p)
            if found:
                return found[0]
        return None

    def parts_of_speech(self, word: str) -> frozenset[str]:
        """WordNet parts of speech of a word: a subset of n, v, a (adjective, incl. satellites), r."""
        word = word.lower()
        return frozenset(p for p in _POS if word and self.listed(word, p))

    def knows(self, word: str) -> bool:
        word = word.lower()
        return bool(word) and any(self.listed(word, p) for p in _POS)

    def has_noun(self, word: str) -> bool:
        """True when some sense of the word is a noun ("cold", "abscesses", "left")."""
        word = word.lower()
        return bool(word) and self.listed(word, "n")

    def is_adjective(self, word: str) -> bool:
        """An adjective for the seed's conditioning: WordNet lists it as an adjective and never as a
        noun. "painful", "chronic", "gluteal" are adjectives; "cold" (the illness), "left", "deep",
        "positive" also have noun senses and are kept, because a concept word that can be a noun
        may be the very thing the concept names ("a cold", "the left"). Numbers ("1", "54"), which
        WordNet files as adjectives, are not: they tell "type 1" from "type 2"."""
        if not (word.isalpha() or any(ch.isalpha() for ch in word)):
            return False
        word = word.lower()
        return self.listed(word, "a") and not self.listed(word, "n")

    def synonyms(self, word: str, pos: str | None = "n", senses: int = 0) -> frozenset[str]:
        """Lemma names (lowercased, "_" -> " ") sharing a synset with the word, the word included.

        ``senses`` > 0 keeps only the word's first ``senses`` synsets, which WordNet orders by
        corpus frequency, so that rare senses do not make "blood" a synonym of "line"
        (blood.n.02 = lineage)."""
        word = word.lower()
        return self.memo.get(("wn-synonyms", word, pos, senses), lambda: self._synonyms(word, pos, senses))

    def _synonyms(self, word: str, pos: str | None, senses: int) -> frozenset[str]:
        found = self._synsets(word, pos, 1 if senses == 1 and pos else 0) if word else []
        if senses > 0:
            found = found[:senses]
        return frozenset({word, *(n.lower().replace("_", " ") for p, off in found
                                  for n in synset_words(self.data[p].line(off)))})

    def _synsets(self, word: str, pos: str | None, first_base_only: int) -> list[tuple[str, int]]:
        """(file, offset) of the word's synsets in NLTK's ``synsets()`` order: by part of speech,
        then by base form, then by sense. ``first_base_only``: the first base form's alone."""
        out: list[tuple[str, int]] = []
        for p in pos if pos else _POS:  # "n", or each letter of "nv"
            f = "a" if p == "s" else p
            forms = self.bases(word, p)
            for form in forms[:1] if first_base_only else forms:
                found = offsets(self.index[f][form])
                if p == "s":  # satellites only (NLTK keeps index.adj's order)
                    found = [o for o in found if self.data["a"].line(o).split(b" ", 3)[2] == b"s"]
                out.extend((f, o) for o in found)
        return out

    def derived_nouns(self, word: str, senses: int = 1, kinds: frozenset[str] | None = None) -> frozenset[str]:
        """Nouns WordNet derives from the word, or gives as what an adjective pertains to, in the first
        ``senses`` senses of its base form under each part of speech (derivationally related forms,
        "+", and pertainyms, "\\"): "catheterizing" -> {catheterization, catheterisation, catheter},
        "febrile" -> {fever}. ``kinds``: only nouns of these lexicographer files ("noun.act": the
        catheterization, not the catheter, "noun.artifact")."""
        word = word.lower()
        return self.memo.get(("wn-derived", word, senses, kinds), lambda: self._derived_nouns(word, senses, kinds))

    def _derived_nouns(self, word: str, senses: int, kinds: frozenset[str] | None) -> frozenset[str]:
        out: set[str] = set()
        for p in _POS if word.isalpha() else ():
            for form in self.bases(word, p)[:1]:
                for off in offsets(self.index[p][form])[:senses]:
                    line = self.data[p].line(off)
                    # a derivation relates one word, not its synonyms: "mesh" shares a synset with
                    # "operate", whose noun "operation" is no form of "mesh". A synonym's derivation counts
                    # when it keeps the word's stem (WordNet links "catheterise", not "catheterize", to
                    # "catheterization").
                    words = [w.lower() for w in synset_words(line)]
                    own = words.index(form) + 1 if form in words else 0
                    for sym, target, pos, source, k in pointers(line):
                        if sym not in (b"+", b"\\") or pos != b"n":
                            continue
                        noun = self.data["n"].line(target)
                        if kinds is None or _LEXNAMES[int(noun.split(b" ", 2)[1])] in kinds:
                            found = [w.lower() for w in synset_words(noun)]
                            out.update(w for w in (found[k - 1: k] if k else found)
                                       if source in (0, own) or w[:_STEM] == form[:_STEM])
        return frozenset(w for w in out if "_" not in w and w != word)

    @property
    def reader(self) -> Any:
        """NLTK's ``WordNetCorpusReader`` over the same folder, for questions beyond the four above
        (hypernyms); imported and loaded on first use, a second or so."""
        if self._reader is None:
            self._reader = nltk_reader(self.path)
        return self._reader

    def __repr__(self) -> str:
        return f"WordNet({self.path!r})"


class _ForkSafeFile:
    """A WordNet data file as NLTK's reader uses it (seek, tell, readline, iteration), read as
    UTF-8 lines from a binary file; reopened after a fork, so workers never share a position."""

    def __init__(self, path: str):
        self.path = path
        self._pid = -1
        self._file: Any = None

    def _fh(self) -> Any:
        if self._pid != os.getpid():
            self._file, self._pid = open(self.path, "rb"), os.getpid()
        return self._file

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._fh().seek(offset, whence)

    def tell(self) -> int:
        return self._fh().tell()

    def readline(self) -> str:
        return self._fh().readline().decode("utf-8")

    def __iter__(self):
        return (line.decode("utf-8") for line in iter(self._fh().readline, b""))

    def close(self) -> None:
        if self._file is not None and self._pid == os.getpid():
            self._file.close()
        self._file = None


def nltk_reader(path: str) -> Any:
    """NLTK's reader over a Debian dict folder. NLTK refuses a corpus root outside ``nltk.data.path``
    (its path sandbox), so the folder is appended there once (that list is NLTK's own
    configuration); Debian's files lack ``lexnames``, served from ``lexnames_text()``; files are
    handed over as plain files (NLTK's seekable unicode stream reader is slow), data files reopened
    in a forked worker."""
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class DebianWordNetReader(WordNetCorpusReader):
        def open(self, file):
            if file == "lexnames" and not Path(str(self.root), "lexnames").is_file():
                return io.StringIO(lexnames_text())
            if file.startswith("data."):
                return _ForkSafeFile(os.path.join(str(self.root), file))
            if file.startswith("index.") or file.endswith(".exc"):
                return open(os.path.join(str(self.root), file), encoding="utf-8")
            return super().open(file)

        def map_wn(self, version="wordnet"):
            # The files are WordNet 3.0 itself: no mapping to NLTK's bundled copy (which would
            # look for nltk_data/corpora/wordnet and fail offline).
            return None

    if path not in nltk.data.path:
        nltk.data.path.append(path)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "The multilingual functions are not available"
            return DebianWordNetReader(path, None)
    except Exception as exc:  # NLTK raises OSError, PermissionError, WordNetError, AssertionError...
        raise ResourceError(diagnostic("RC303", path=path, detail=f"{type(exc).__name__}: {exc}")) from exc
