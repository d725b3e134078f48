"""What a rule file may read, and reading it: confined to allowed folders, bounded, UTF-8.

Rule files come from colleagues (docs/security.md): a rule file, the files it includes and the
word lists they name must lie in the top rule file's folder tree or in the bundled ``resources/``
and ``rules/``; ``allow_paths`` (``--allow-path DIR``) and ``$RULECOREF_ALLOW_PATH`` add folders.
A rule file is read whole up to ``MAX_RULE_FILE_BYTES`` and composed by the bounded safe loader
(``yaml_source``); a problem is one numbered diagnostic naming the file and line.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from ..errors import Diagnostic, diagnostic
from ..resources import data_root
from ..resources.lexicon import WordListError, read_wordlist
from ..yaml_source import BadScalar, DuplicateKey, RecursiveAlias, TooDeep, TooManyNodes, UnsafeTag, load

#: Largest rule file read (the bundled ones are under 8 kB). PyYAML scans a few hundred kB a second,
#: so this bounds the time a file takes to parse, whatever it holds.
MAX_RULE_FILE_BYTES = 256 * 1024
#: Most bytes of word lists (and files of patterns) one rule set reads, all together: a word list
#: takes about 20 times its size in memory once loaded (14 lists of 8 MiB took 2.5 GB), and the
#: bundled ones total 35 kB.
MAX_WORDLISTS_BYTES = 32 * 1024 * 1024
#: Folders (separated by os.pathsep) that rule files may read besides their own tree and the bundled data.
ALLOW_ENV = "RULECOREF_ALLOW_PATH"


def bundled_rules(name: str = "i2b2") -> Path:
    return data_root() / "rules" / f"{name}.yaml"


def allowed_roots(rule_file: Path, allow_paths: Sequence[str | Path] = ()) -> tuple[Path, ...]:
    """Folders a rule file may read from: its own folder tree, the bundled ``resources/`` and
    ``rules/``, the ``allow_paths`` and those in ``$RULECOREF_ALLOW_PATH`` (all resolved)."""
    extra = [p for p in os.environ.get(ALLOW_ENV, "").split(os.pathsep) if p.strip()]
    roots = [rule_file.resolve().parent, data_root() / "resources", data_root() / "rules",
             *(Path(p).expanduser() for p in (*allow_paths, *extra))]
    return tuple(dict.fromkeys(r.resolve() for r in roots))


def _within(path: Path, roots: Sequence[Path]) -> bool:
    real = path.resolve()  # symbolic links are followed: a link out of the tree is outside it
    return any(real == r or real.is_relative_to(r) for r in roots)


def resolve_resource(value: str, rule_file: Path, roots: Sequence[Path] | None = None,
                     refused: list[Path] | None = None) -> tuple[Path | None, list[str]]:
    """Find a word-list path: beside the rule file, in its parent folder, or in the bundled data.

    With ``roots``, a file outside all of them is passed over (and added to ``refused``).
    """
    p = Path(value).expanduser()
    bases = [Path("/")] if p.is_absolute() else [rule_file.parent, rule_file.parent.parent, data_root()]
    looked = []
    for base in bases:
        cand = base / p
        looked.append(str(cand))
        if cand.is_file():
            if roots is None or _within(cand, roots):
                return cand, looked
            if refused is not None:
                refused.append(cand)
    return None, looked


class RuleFiles:
    """The files one compilation may read (``allowed_roots``), each found and read once."""

    def __init__(self, roots: Sequence[Path] | None = None) -> None:
        self.roots = tuple(roots) if roots is not None else allowed_roots(bundled_rules())
        self._texts: dict[Path, str | WordListError] = {}  # word lists named by several passes are read once
        self._found: dict[tuple[str, Path], tuple[Path | None, list[str], list[Path]]] = {}
        #: every file found for the rule set (includes, word lists, pattern files), resolved, in order:
        #: ``RuleSet.inputs``, which learned files never overwrite (RC522)
        self.read: dict[Path, None] = {}
        self.total = 0  # bytes of the word lists read so far
        self.over = False  # the total limit was passed (RC126 reported)

    def locate(self, value: str, file: Path) -> tuple[Path | None, list[str], list[Path]]:
        """``resolve_resource`` within the allowed folders: (path, where it looked, refused paths)."""
        found = self._found.get((value, file))
        if found is None:
            refused: list[Path] = []
            path, looked = resolve_resource(value, file, self.roots, refused)
            found = self._found[(value, file)] = (path, looked, refused)
            if path is not None:
                self.read[path.resolve()] = None
        return found

    def text(self, path: Path) -> str | WordListError:
        """A word list's text as ``Lexicon`` reads it, or why it cannot be (RC121, RC122; RC126
        when the rule set's word lists together pass MAX_WORDLISTS_BYTES)."""
        text = self._texts.get(path)
        if text is None:
            try:
                text = read_wordlist(path)
                self.total += len(text.encode("utf-8"))
                if self.total > MAX_WORDLISTS_BYTES:  # reported once, on the list that crossed the limit
                    text = WordListError("total" if not self.over else "total-again", f"with this one, the word "
                                         f"lists read total {self.total} bytes, more than {MAX_WORDLISTS_BYTES}")
                    self.over = True
            except WordListError as exc:
                text = exc
            self._texts[path] = text
        return text


def missing_rule_file(path: Path) -> Diagnostic | None:
    """Why ``path`` cannot be a rule file before it is read: not there (RC113), or there but a
    folder or a device (RC127: it said "not found"); None for a regular file."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return diagnostic("RC113", file=str(path), path=str(path), hint="name a rule file, or a bundled rule set: "
                          + ", ".join(sorted(f.stem for f in bundled_rules().parent.glob("*.yaml"))) + ".")
    if stat.S_ISREG(mode):
        return None
    kind = "a folder" if stat.S_ISDIR(mode) else "a named pipe" if stat.S_ISFIFO(mode) else "a device or socket"
    return diagnostic("RC127", file=str(path), path=str(path), kind=kind)


def read_rule_yaml(path: Path) -> tuple[Any, Diagnostic | None]:
    """A rule file composed with its lines (``yaml_source.load``), or the problem that stopped it."""
    def problem(code: str, line: int, **fields: Any) -> tuple[None, Diagnostic]:
        return None, diagnostic(code, file=str(path), line=line, **fields)

    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_RULE_FILE_BYTES + 1)
    except OSError as exc:
        return None, diagnostic("RC113", file=str(path), path=str(path), hint=str(exc.strerror or exc))
    if len(raw) > MAX_RULE_FILE_BYTES:
        return problem("RC115", 0, limit=MAX_RULE_FILE_BYTES)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return problem("RC119", raw.count(b"\n", 0, exc.start) + 1, detail=f"byte {raw[exc.start]:#04x}")
    try:
        return load(text), None
    except (DuplicateKey, UnsafeTag, BadScalar) as exc:
        return problem("RC101", exc.line, detail=str(exc))
    except TooManyNodes as exc:
        return problem("RC116", exc.line, limit=exc.limit)
    except TooDeep as exc:
        return problem("RC117", exc.line, limit=exc.limit)
    except RecursiveAlias as exc:
        return problem("RC118", exc.line, name=exc.name)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return problem("RC101", (mark.line + 1) if mark else 0, detail=getattr(exc, "problem", None) or str(exc))


def rule_set_inputs(path: Path, read: Sequence[Path] | dict[Path, None], attributes: dict[str, Any],
                    decoder: Any) -> tuple[Path, ...]:
    """Every file a compiled rule set reads (``RuleSet.inputs``): the rule file, what it found
    (includes, word lists), its decoder's model and its UMLS SQLite file when they are files."""
    out = [path.resolve(), *read]
    for pname in getattr(decoder, "params", None) or {}:
        value = decoder.params[pname]
        if pname == "model" and isinstance(value, str) and value and Path(value).expanduser().is_file():
            out.append(Path(value).expanduser().resolve())
    umls = attributes.get("umls") or {}
    db = str(umls.get("db") or os.environ.get(str(umls.get("db_env") or ""), "")).strip()
    if db and "://" not in db:
        cand = Path(db).expanduser()
        cand = cand if cand.is_absolute() else path.parent / cand
        if cand.is_file():
            out.append(cand.resolve())
    elif db.startswith("sqlite:///"):
        out.append(Path(db[len("sqlite:///"):]).expanduser().resolve())
    return tuple(dict.fromkeys(out))
