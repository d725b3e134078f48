"""Offline WordNet 3.0 for the mention attributes (seed 001: adjectives in "Match by meaning",
synonyms in "Head and synonym match", adjective-only mentions in "Link filtering").

WordNet is read from a local dict folder (Debian's ``wordnet-base`` installs it in
``/usr/share/wordnet``) through NLTK's ``WordNetCorpusReader``; nothing is downloaded. Two things
stand between that reader and Debian's files, and this adapter handles both:

* NLTK refuses to open a corpus root outside ``nltk.data.path`` (its path sandbox), so the dict
  folder is appended to ``nltk.data.path`` once. That list is NLTK's own configuration; adding an
  entry only authorises the folder the user chose.
* Debian's files lack ``lexnames`` (the table of the 45 lexicographer files every WordNet 3.0
  release shares), which the reader opens first; it is served from ``_LEXNAMES`` below.

The reader reads its index and exception files once, line by line, while it starts, and its data
files by byte offset (how WordNet addresses a synset) a line at a time; they are handed to it as
plain files (``open``), because NLTK's seekable unicode stream reader made that a third of the
start. A data file reopens itself in a forked worker, so processes never share a file position. The folder is, in order: the ``path`` argument
(``--wordnet``), ``$RULECOREF_WORDNET``, ``/usr/share/wordnet``; a folder holding ``dict/`` (the
Princeton tarball) works too. Answers are remembered in the process's one memo (``Resources.memo``).
"""

from __future__ import annotations

import io
import os
import warnings
from pathlib import Path
from typing import Any

from ..errors import ResourceError, diagnostic

DEFAULT_PATH = "/usr/share/wordnet"
ENV_VAR = "RULECOREF_WORDNET"

# Files the reader needs besides lexnames; their absence means "no WordNet here".
_REQUIRED = tuple(f"{kind}.{pos}" for pos in ("noun", "verb", "adj", "adv") for kind in ("index", "data"))
_PLAIN = frozenset(name for pos in ("noun", "verb", "adj", "adv") for name in (f"index.{pos}", f"{pos}.exc"))
_DATA = frozenset(f"data.{pos}" for pos in ("noun", "verb", "adj", "adv"))

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
_POS = ("n", "v", "a", "r")  # satellite adjectives are found under "a"


def lexnames_text() -> str:
    """The ``lexnames`` file of WordNet 3.0 (what Debian's package leaves out)."""
    return "".join(f"{i:02d}\t{name}\t{_CATEGORY[name.split('.')[0]]}\n" for i, name in enumerate(_LEXNAMES))


def wordnet_root(path: str | os.PathLike[str] | None = None) -> Path:
    """The dict folder to read: ``path``, else ``$RULECOREF_WORDNET``, else Debian's location."""
    chosen = Path(path or os.environ.get(ENV_VAR) or DEFAULT_PATH).expanduser()
    if not (chosen / "index.noun").is_file() and (chosen / "dict" / "index.noun").is_file():
        chosen = chosen / "dict"
    return chosen


class _DataFile:
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


def _reader_class():
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class DebianWordNetReader(WordNetCorpusReader):
        """NLTK's reader over a Debian dict folder (see the module docstring)."""

        def open(self, file):
            if file == "lexnames" and not Path(str(self.root), "lexnames").is_file():
                return io.StringIO(lexnames_text())
            if file in _PLAIN:
                return open(os.path.join(str(self.root), file), encoding="utf-8")
            if file in _DATA:
                return _DataFile(os.path.join(str(self.root), file))
            return super().open(file)

        def map_wn(self, version="wordnet"):
            # The files are WordNet 3.0 itself: no mapping to NLTK's bundled copy (which would
            # look for nltk_data/corpora/wordnet and fail offline).
            return None

    return DebianWordNetReader


def load_wordnet(path: str | os.PathLike[str] | None = None, memo: Any = None) -> WordNet:
    """Open WordNet offline; a missing or unreadable folder is one RC301/RC303 error at start-up."""
    root = wordnet_root(path)
    missing = [name for name in _REQUIRED if not (root / name).is_file()]
    if missing:
        raise ResourceError(diagnostic("RC301", path=f"{root} (missing {', '.join(missing[:3])}"
                                       + (", ..." if len(missing) > 3 else "") + ")"))
    import nltk

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
    if memo is None:
        from . import Memo

        memo = Memo()
    return WordNet(reader, memo, resolved)


class WordNet:
    """The questions rulecoref asks WordNet, through NLTK's public reader API.

    Words are looked up lowercased and through WordNet's morphology ("abscesses" -> "abscess",
    "larger" -> "large"). Hyphenated or unknown words ("methicillin-resistant", "mrsa") have no
    parts of speech, so they are never adjectives and always kept by conditioning.
    """

    def __init__(self, reader: Any, memo: Any, path: str = ""):
        self.reader = reader
        self.memo = memo
        self.path = path

    def base(self, word: str, pos: str = "n") -> str | None:
        """The word's base form under a part of speech, None when WordNet does not list it there:
        "abscesses" -> "abscess" (noun); "painful" -> None (noun)."""
        word = word.lower()
        return self.memo.get(("wn-base", word, pos), lambda: self.reader.morphy(word, pos) if word else None)

    def parts_of_speech(self, word: str) -> frozenset[str]:
        """WordNet parts of speech of a word: a subset of n, v, a (adjective, incl. satellites), r."""
        word = word.lower()
        return self.memo.get(("wn-pos", word), lambda: frozenset(p for p in _POS if self.base(word, p)))

    def knows(self, word: str) -> bool:
        return bool(self.parts_of_speech(word))

    def has_noun(self, word: str) -> bool:
        """True when some sense of the word is a noun ("cold", "abscesses", "left")."""
        return self.base(word, "n") is not None

    def is_adjective(self, word: str) -> bool:
        """An adjective for the seed's conditioning: WordNet lists it as an adjective and never as a
        noun. "painful", "chronic", "gluteal" are adjectives; "cold" (the illness), "left", "deep",
        "positive" also have noun senses and are kept, because a concept word that can be a noun
        may be the very thing the concept names ("a cold", "the left"). Numbers ("1", "54"), which
        WordNet files as adjectives, are not: they tell "type 1" from "type 2"."""
        if not any(ch.isalpha() for ch in word):
            return False
        return self.base(word, "a") is not None and not self.has_noun(word)

    def synonyms(self, word: str, pos: str | None = "n", senses: int = 0) -> frozenset[str]:
        """Lemma names (lowercased, "_" -> " ") sharing a synset with the word, the word included.

        ``senses`` > 0 keeps only the word's first ``senses`` synsets, which WordNet orders by
        corpus frequency, so that rare senses do not make "blood" a synonym of "line"
        (blood.n.02 = lineage)."""
        word = word.lower()

        def lookup() -> frozenset[str]:
            if senses == 1 and pos:  # the most frequent sense: the base form's first synset, parsed alone
                base = self.base(word, pos)
                found = [self.reader.synset(f"{base}.{pos}.01")] if base else []
            else:
                found = self.reader.synsets(word, pos) if word else []
                if senses > 0:
                    found = found[:senses]
            return frozenset({word, *(n.lower().replace("_", " ") for s in found for n in s.lemma_names())})

        return self.memo.get(("wn-synonyms", word, pos, senses), lookup)

    def __repr__(self) -> str:
        return f"WordNet({self.path!r})"
