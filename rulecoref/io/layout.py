"""Find the records of a batch: the i2b2 release layout, a flat folder, or explicit files.

Layouts accepted (records are matched on the name before the first '.'):
  DIR/docs/NAME.txt + DIR/concepts/NAME.txt.con [+ DIR/chains/NAME.txt.chains]   (i2b2 release)
  DIR/NAME.txt + DIR/NAME.txt.con [+ DIR/NAME.txt.chains]                         (flat folder)
  explicit NAME.txt or NAME.txt.con paths (the partner file is looked for beside it or in the
  sibling docs/ or concepts/ folder, the gold chains beside it or in the sibling chains/).
A concept file without its text is reported (RC204) rather than skipped in silence, and so is a
text without its concept file (RC216). Two different files with one document name are an error
(RC217): their outputs would have one name, so one would be lost.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..bounded import Limit, NotRegular, lines, open_regular
from ..errors import Diagnostic, InputError, diagnostic
from .formats import Record, doc_name


def _partner_txt(con: Path) -> Path | None:
    name = con.name[: -len(".con")] if con.name.endswith(".con") else con.name
    for cand in (con.with_name(name), con.parent.parent / "docs" / name):
        if is_file(cand):
            return cand
    return None


def _partner_con(txt: Path) -> Path:
    for cand in (txt.with_name(txt.name + ".con"), txt.parent.parent / "concepts" / (txt.name + ".con")):
        if is_file(cand):
            return cand
    return txt.with_name(txt.name + ".con")


def is_file(path: Path) -> bool:
    """``path.is_file()``, False for a name the file system cannot hold (ENAMETOOLONG: a 247-character
    document name has a legal 255-byte ``.con`` but no ``.txt.chains``), which ``Path.is_file``
    raises as OSError."""
    try:
        return path.is_file()
    except OSError:
        return False


def _present(path: Path) -> bool:
    """A chains file that is there, regular or not: a named pipe or a device named like gold chains
    is read and refused as not a regular file (RC220), not passed over as missing (RC570)."""
    try:
        return path.is_file() or (os.path.lexists(path) and not path.is_dir())
    except OSError:
        return False


def _chains_for(base: Path, name: str) -> Path | None:
    for cand in (base / "chains" / f"{name}.txt.chains", base / f"{name}.txt.chains"):
        if _present(cand):
            return cand
    return None


def _partner_chains(file: Path, name: str) -> Path | None:
    """The gold chains of an explicitly named text or concept file: beside it, or in its
    release's chains/ (so ``convert`` and ``view`` of one file keep them)."""
    for cand in (file.with_name(f"{name}.txt.chains"), file.parent.parent / "chains" / f"{name}.txt.chains"):
        if _present(cand) and (cand.parent == file.parent or file.parent.name in ("docs", "concepts")):
            return cand
    return None


def records_in_dir(root: Path) -> tuple[list[Record], list[Diagnostic]]:
    """Records of one folder, sorted by name, plus RC204 for concept files without text and RC216
    for texts without a concept file."""
    problems: list[Diagnostic] = []
    if (root / "concepts").is_dir():
        con_dir, txt_dir = root / "concepts", root / "docs"
    else:
        con_dir, txt_dir = root, root
    cons = sorted(con_dir.glob("*.con"))
    out: list[Record] = []
    for con in cons:
        name = doc_name(con)
        txt = txt_dir / con.name[: -len(".con")]
        if not is_file(txt):
            problems.append(diagnostic("RC204", file=str(con), path=str(con), expected=str(txt)))
            out.append(Record(name, None, con, _chains_for(root, name)))
            continue
        out.append(Record(name, txt, con, _chains_for(root, name)))
    if not cons:
        raise InputError(diagnostic("RC210", path=str(root), hint="expected DIR/concepts/*.txt.con or DIR/*.txt.con"))
    for txt in sorted(txt_dir.glob("*.txt")):
        con = con_dir / (txt.name + ".con")
        if not is_file(con):
            problems.append(diagnostic("RC216", file=str(txt), path=str(txt), expected=str(con)))
    return out, problems


def find_records(inputs: Iterable[str | Path]) -> tuple[list[Record], list[Diagnostic]]:
    """Expand folders and files into records. The same record given twice (a folder twice, or a
    text and its concept file) counts once; two different records with one name raise RC217."""
    records: list[Record] = []
    problems: list[Diagnostic] = []
    for item in inputs:
        path = Path(item)
        if path.is_dir():
            recs, probs = records_in_dir(path)
            records.extend(recs)
            problems.extend(probs)
        elif path.name.endswith(".con"):
            txt = _partner_txt(path)
            if txt is None:
                problems.append(diagnostic("RC204", file=str(path), path=str(path), expected=path.name[:-4]))
            records.append(Record(doc_name(path), txt, path, _partner_chains(path, doc_name(path))))
        elif is_file(path):
            con = _partner_con(path)
            if not is_file(con):
                problems.append(diagnostic("RC216", file=str(path), path=str(path), expected=str(con)))
                continue
            records.append(Record(doc_name(path), path, con, _partner_chains(path, doc_name(path))))
        else:
            raise InputError(diagnostic("RC213", file=str(path), detail="no such file or directory"))
    seen: dict[str, Record] = {}
    unique = []
    clashes = []
    for rec in records:
        first = seen.get(rec.name)
        if first is None:
            seen[rec.name] = rec
            unique.append(rec)
        elif _files(first) != _files(rec):
            clashes.append(diagnostic("RC217", file=str(rec.con), name=rec.name, first=str(first.con), second=str(rec.con)))
    if clashes:
        raise InputError(clashes)
    return unique, problems


def _files(rec: Record) -> tuple[Path | None, Path]:
    return (rec.txt.resolve() if rec.txt else None), rec.con.resolve()


#: A file list (``--file-list``): at most this many bytes, and lines no longer than a path can be.
MAX_FILE_LIST_BYTES = 64 * 1024 * 1024
MAX_FILE_LIST_LINE = 4096


def iter_file_list(path: Path) -> Iterator[str]:
    """Paths listed one per line in a file (``#`` comments allowed), read within bounds: a file
    list that is missing, a folder or a device, binary (a NUL byte), not UTF-8, too large or with
    a line longer than a path is RC218 naming the file (and line), before any document is read."""
    def bad(detail: str, line: int | None = None) -> InputError:
        return InputError(diagnostic("RC218", file=str(path), line=line, path=str(path), detail=detail))

    found: list[str] = []
    try:
        with open_regular(path) as fh:
            for lineno, _, raw in lines(fh, MAX_FILE_LIST_LINE, MAX_FILE_LIST_BYTES):
                if b"\0" in raw:
                    raise bad("it holds a NUL byte: it is binary, not a list of paths", lineno)
                try:
                    text = raw.decode("utf-8-sig" if lineno == 1 else "utf-8")
                except UnicodeDecodeError as exc:
                    raise bad(f"it is not UTF-8 text (byte {raw[exc.start]:#04x})", lineno) from exc
                item = text.split("#", 1)[0].strip()
                if item:
                    found.append(item)
    except FileNotFoundError as exc:
        raise bad("no such file") from exc
    except OSError as exc:
        raise bad(exc.strerror or str(exc)) from exc
    except NotRegular as exc:
        raise bad(f"it is {exc.kind}, not a file") from exc
    except Limit as exc:
        raise bad(str(exc), exc.line) from exc
    yield from found
