"""Offline WordNet 3.0 for the main linker (seed 001: adjectives in "Match by meaning", synonyms in
"Head and synonym match", adjective-only mentions in "Link filtering").

WordNet is read from a local dict folder (Debian's ``wordnet-base`` installs it in
``/usr/share/wordnet``) through NLTK's ``WordNetCorpusReader``; nothing is downloaded. Two things
stand between that reader and Debian's files, and this adapter handles both:

* NLTK refuses to open a corpus root outside ``nltk.data.path`` (its path sandbox), so the dict
  folder is appended to ``nltk.data.path`` once. That list is NLTK's own configuration, not ours;
  adding an entry only authorises the folder the user chose.
* Debian's files lack ``lexnames`` (the table of the 45 lexicographer files that every WordNet 3.0
  release shares), which the reader opens first. When the file is missing the reader is served
  the table from ``_LEXNAMES`` below instead of a temp folder of symlinks.

The folder is, in order: the ``path`` argument (``--wordnet``), ``$RULECOREF_WORDNET``,
``/usr/share/wordnet``. A folder that holds ``dict/`` (the Princeton tarball layout) also works.
Loading takes about a second, so ``Resources`` loads it once per process, before worker processes
fork, and the loaded objects are frozen out of the garbage collector's scans (``gc.freeze``). Lookups are cached in dictionaries owned by the instance (not ``functools.lru_cache`` on
methods, which would keep every instance alive).
"""

from __future__ import annotations

import gc
import importlib.abc
import io
import mmap
import os
import re
import sys
import warnings
from pathlib import Path

from ..errors import ResourceError, diagnostic

DEFAULT_PATH = "/usr/share/wordnet"
ENV_VAR = "RULECOREF_WORDNET"

# Files the reader needs besides lexnames; their absence means "no WordNet here".
_REQUIRED = tuple(f"{kind}.{pos}" for pos in ("noun", "verb", "adj", "adv") for kind in ("index", "data"))

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

_POS = ("n", "v", "a", "r")  # satellite adjectives ("s") are indexed under "a" in index.adj
_DATA_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
_NO_OFFSETS: dict[str, list[int]] = {}
_SYNTACTIC_MARK = re.compile(r"\([^()]*\)$")  # "galore(ip)": the marker NLTK strips from a lemma name
_CACHE_LIMIT = 500_000  # words remembered per cache; a cache is cleared when it grows past this


def lexnames_text() -> str:
    """The ``lexnames`` file of WordNet 3.0 (what Debian's package leaves out)."""
    return "".join(f"{i:02d}\t{name}\t{_CATEGORY[name.split('.')[0]]}\n" for i, name in enumerate(_LEXNAMES))


def wordnet_root(path: str | os.PathLike[str] | None = None) -> Path:
    """The dict folder to read: ``path``, else ``$RULECOREF_WORDNET``, else Debian's location."""
    chosen = Path(path or os.environ.get(ENV_VAR) or DEFAULT_PATH).expanduser()
    if not (chosen / "index.noun").is_file() and (chosen / "dict" / "index.noun").is_file():
        chosen = chosen / "dict"
    return chosen


def _reader_class():
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class DebianWordNetReader(WordNetCorpusReader):
        """NLTK's reader, serving the standard ``lexnames`` table when the folder has none, and the
        index and exception files as plain text files: the reader reads them once, line by line,
        while it starts, and NLTK's seekable stream reader made that 0.4 s of a 1 s start
        (the maps built are the same: ``tests/resources/test_wordnet.py``)."""

        plain_files = frozenset(name for pos in _DATA_FILES.values() for name in (f"index.{pos}", f"{pos}.exc"))

        def open(self, file):
            if file == "lexnames" and not Path(str(self.root), "lexnames").is_file():
                return io.StringIO(lexnames_text())
            if file in self.plain_files:
                return io.open(os.path.join(str(self.root), file), encoding="utf-8")
            return super().open(file)

        def map_wn(self, version="wordnet"):
            # The loaded files are WordNet 3.0 itself: no mapping to NLTK's bundled copy (which
            # would look for nltk_data/corpora/wordnet and fail offline).
            return None

    return DebianWordNetReader


# Packages NLTK imports when installed, each in a try/except ImportError, for features rulecoref
# never calls (Fisher's exact test, significance tests, its scikit-learn classifier wrapper, the
# transition parser); SciPy and scikit-learn are installed with the Bell-tree decoder's
# scikit-learn, and importing them is 0.6 s of NLTK's 0.9 s import.
_NLTK_OPTIONAL = frozenset({"scipy", "sklearn"})


class _RefuseOptional(importlib.abc.MetaPathFinder):
    """An import finder that reports NLTK's optional packages missing (see ``import_nltk``)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname.partition(".")[0] in _NLTK_OPTIONAL:
            raise ModuleNotFoundError(f"{fullname} is not imported while NLTK starts", name=fullname)
        return None


def import_nltk(*, lean: bool = False):
    """Import NLTK; with ``lean``, without the optional packages it would import (``_NLTK_OPTIONAL``).

    Lean, NLTK's features that need them fail when called (as they do where those packages are not
    installed); nothing rulecoref uses does. Only packages not yet imported are refused, only
    during this import, and only when NLTK itself is not imported yet. The ``rulecoref`` command
    imports lean, because its process is its own; a program that imports rulecoref as a library
    gets NLTK whole unless it asks (``Resources(lean_import=True)``)."""
    if not lean or "nltk" in sys.modules:
        import nltk

        return nltk
    finder = _RefuseOptional()
    sys.meta_path.insert(0, finder)
    try:
        import nltk
    finally:
        sys.meta_path.remove(finder)
    return nltk


def load_wordnet(path: str | os.PathLike[str] | None = None, *, lean_import: bool = False) -> WordNet:
    """Open WordNet offline; a missing or unreadable folder is one RC301/RC303 error at start-up.
    ``lean_import``: import NLTK without its optional packages (``import_nltk``)."""
    root = wordnet_root(path)
    missing = [name for name in _REQUIRED if not (root / name).is_file()]
    if missing:
        raise ResourceError(diagnostic("RC301", path=f"{root} (missing {', '.join(missing[:3])}"
                                       + (", ..." if len(missing) > 3 else "") + ")"))
    # Importing NLTK and reading the index builds ~450,000 objects that live as long as the process,
    # so automatic collections while they are built only rescan them, ever more of them: 0.5 s of a
    # 1.4 s load. They are built with the collector off and moved to its permanent generation
    # (``gc.freeze``), which also spares every later full collection a 0.2 s scan of them and keeps
    # worker processes forked later from dirtying the pages they share with the parent. They are
    # not collected first (the recipe of the ``gc.freeze`` documentation): that would take another
    # 0.2 s to free about 1,000 objects of import-time garbage.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        nltk = import_nltk(lean=lean_import)
        resolved = str(root.resolve())
        if resolved not in nltk.data.path:
            nltk.data.path.append(resolved)
        try:
            with warnings.catch_warnings():
                # "The multilingual functions are not available": we never ask for them.
                warnings.simplefilter("ignore")
                reader = _reader_class()(resolved, None)
        except Exception as exc:  # NLTK raises OSError, PermissionError, WordNetError, AssertionError...
            raise ResourceError(diagnostic("RC303", path=resolved, detail=f"{type(exc).__name__}: {exc}")) from exc
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()
    return WordNet(reader, resolved)


class WordNet:
    """The questions the passes ask WordNet, answered from one reader with per-instance caches.

    Words are looked up lowercased and through WordNet's own morphology ("abscesses" -> "abscess",
    "larger" -> "large"). Hyphenated or unknown words ("methicillin-resistant", "mrsa") have no
    parts of speech, so they are never adjectives and always kept by conditioning.
    """

    def __init__(self, reader, path: str = ""):
        self.reader = reader
        self.path = path
        self._pos: dict[str, frozenset[str]] = {}
        self._syn: dict[tuple[str, str | None, int], frozenset[str]] = {}
        self._adj: dict[str, bool] = {}
        self._names: dict[tuple[str, int], tuple[str, ...]] = {}  # (pos, offset) -> lemma names
        self._maps: dict[str, mmap.mmap] = {}  # data file name -> read-only map (fork-safe: no file position)
        # what NLTK's morphy reads, held here so that a lookup is a few dict probes (``bases``)
        self._index: dict[str, dict[str, list[int]]] = reader._lemma_pos_offset_map
        self._exceptions: dict[str, dict[str, list[str]]] = {p: reader._exception_map[p] for p in (*_POS, "s")}
        # the suffix rules of each part of speech, filed by their last letter (most words match none)
        self._rules: dict[str, dict[str, tuple[tuple[str, str], ...]]] = {}
        for p in (*_POS, "s"):
            by_last: dict[str, list[tuple[str, str]]] = {}
            for old, new in reader.MORPHOLOGICAL_SUBSTITUTIONS[p]:
                by_last.setdefault(old[-1], []).append((old, new))
            self._rules[p] = {last: tuple(rules) for last, rules in by_last.items()}

    def bases(self, word: str, pos: str) -> list[str]:
        """The base forms of a (lowercase) word in one part of speech, in order: exactly what NLTK's
        ``reader._morphy(word, pos)`` returns (the word itself and its exception-list bases, or else
        the bases its suffix rules give, that WordNet lists under ``pos``), without its per-call
        closures and lists. ``tests/resources/test_wordnet.py`` checks the two agree."""
        get = self._index.get
        found = [word] if pos in get(word, _NO_OFFSETS) else []
        forms = self._exceptions[pos].get(word)
        if forms is None:
            rules = self._rules[pos].get(word[-1:])
            if rules is None:
                return found
            forms = [word[: -len(old)] + new for old, new in rules if word.endswith(old)]
        for form in forms:
            if pos in get(form, _NO_OFFSETS) and form not in found:
                found.append(form)
        return found

    def parts_of_speech(self, word: str) -> frozenset[str]:
        """WordNet parts of speech of a word: a subset of n, v, a (adjective, incl. satellites), r."""
        word = word.lower()
        hit = self._pos.get(word)
        if hit is None:
            if len(self._pos) > _CACHE_LIMIT:
                self._pos.clear()
            bases = self.bases
            hit = frozenset(p for p in _POS if word and bases(word, p))
            self._pos[word] = hit
        return hit

    def knows(self, word: str) -> bool:
        return bool(self.parts_of_speech(word))

    def has_noun(self, word: str) -> bool:
        """True when some sense of the word is a noun ("cold", "abscesses", "left")."""
        return "n" in self.parts_of_speech(word)

    def is_adjective(self, word: str) -> bool:
        """An adjective for the seed's conditioning: WordNet lists it as an adjective and never as a
        noun. "painful", "chronic", "gluteal" are adjectives; "cold" (the illness), "left", "deep",
        "positive" also have noun senses and are kept, because a concept word that can be a noun
        may be the very thing the concept names ("a cold", "the left"). Numbers ("1", "54"), which
        WordNet files as adjectives, are not: they tell "type 1" from "type 2"."""
        hit = self._adj.get(word)
        if hit is None:
            if len(self._adj) > _CACHE_LIMIT:
                self._adj.clear()
            if word.isalpha() or any(ch.isalpha() for ch in word):
                pos = self._pos.get(word.lower())
                if pos is None and not self.bases(word.lower(), "a"):
                    hit = False  # no adjective: the other parts of speech are not needed (most words)
                else:
                    pos = self.parts_of_speech(word) if pos is None else pos
                    hit = "a" in pos and "n" not in pos
            else:
                hit = False
            self._adj[word] = hit
        return hit

    def synonyms(self, word: str, pos: str | None = "n", senses: int = 0) -> frozenset[str]:
        """Lemma names (lowercased, "_" -> " ") sharing a synset with the word, the word included.

        ``pos`` limits the synsets to one part of speech (None: all); ``senses`` > 0 keeps only the
        word's first ``senses`` synsets, which WordNet orders by corpus frequency, so that rare
        senses do not make "blood" a synonym of "line" (blood.n.02 = lineage).
        """
        word = word.lower()
        key = (word, pos, senses)
        hit = self._syn.get(key)
        if hit is None:
            if len(self._syn) > _CACHE_LIMIT:
                self._syn.clear()
            out = {word}
            if word:
                # the synsets NLTK's ``reader.synsets(word, pos)`` lists, in its order (duplicates
                # included, as ``senses`` counts them), as (pos, offset) pairs
                index = self._index
                bases = self.bases
                found = [(p, offset) for p in (pos or _POS) for form in bases(word, p)
                         for offset in index.get(form, _NO_OFFSETS).get(p, ())]
                if senses > 0:
                    found = found[:senses]
                for p, offset in found:
                    out.update(name.lower().replace("_", " ") for name in self.lemma_names(p, offset))
            hit = self._syn[key] = frozenset(out)
        return hit

    def lemma_names(self, pos: str, offset: int) -> tuple[str, ...]:
        """The lemma names of the synset at ``offset`` of a data file, as NLTK's
        ``synset_from_pos_and_offset(pos, offset).lemma_names()`` gives them, read straight from the
        line: NLTK would build the whole synset (gloss, pointers, Lemma objects), which made
        synonym lookups 90% of the time of a batch's first documents. Cached per synset."""
        key = (pos, offset)
        hit = self._names.get(key)
        if hit is None:
            if len(self._names) > _CACHE_LIMIT:
                self._names.clear()
            words = self._synset_words(pos, offset)
            if words is None:  # not a synset line: NLTK's own reading decides (and warns)
                synset = self.reader.synset_from_pos_and_offset(pos, offset)
                hit = tuple(synset.lemma_names()) if synset is not None else ()
            else:
                names = [w.decode("utf-8", "replace") for w in words]
                hit = tuple(_SYNTACTIC_MARK.sub("", n) if n[-1:] == ")" else n for n in names)
            self._names[key] = hit
        return hit

    def _synset_words(self, pos: str, offset: int) -> list[bytes] | None:
        """The word fields of the synset line at ``offset`` of the data file of ``pos``, or None when
        no synset starts there. The file is mapped read-only once: slicing the map costs no system
        call, and a map has no file position, so forked workers can share it. Only the fields up to
        the words are split (a line goes on with up to hundreds of pointers and the gloss)."""
        name = "data." + _DATA_FILES["a" if pos == "s" else pos]
        data = self._maps.get(name)
        if data is None:
            with open(os.path.join(str(self.reader.root), name), "rb") as fh:
                data = self._maps[name] = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        if not 0 <= offset < len(data) or data[offset: offset + 8] != b"%08d" % offset:
            return None
        end = data.find(b"\n", offset)
        # "offset lex_filenum ss_type w_cnt word lex_id [word lex_id ...] p_cnt ... | gloss"
        cols = data[offset: end if end >= 0 else len(data)].split(None, 4)
        if len(cols) < 5:
            return None
        count = int(cols[3], 16)
        return cols[4].split(None, 2 * count)[: 2 * count: 2]

    def are_synonyms(self, a: str, b: str, pos: str | None = "n", senses: int = 0) -> bool:
        """True when either word is among the other's synonyms ("exam" / "examination")."""
        a, b = a.lower(), b.lower()
        return a == b or b in self.synonyms(a, pos, senses) or a in self.synonyms(b, pos, senses)

    def __repr__(self) -> str:
        return f"WordNet({self.path!r})"
