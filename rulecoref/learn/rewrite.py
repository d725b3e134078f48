"""A rule file's top-level passes as blocks of its own text, so a search can write its result as
edits of the original: blocks moved, a pass switched off (``enabled: false``, an include commented
out), a number changed in place, and a comment above each changed block. Everything else (the
header, the comments, the examples) stays as the author wrote it.

A block is a ``passes:`` item with the comment lines right above it. Relative paths that resolve
from the original file's folder (includes, word lists) are rewritten so they resolve to the same
files from the new file's folder.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import RuleFileError, diagnostic
from ..resources import data_root
from ..rules.files import resolve_resource
from ..yaml_source import load


@dataclass
class Block:
    index: int  # position in the passes list
    start: int  # first line (0-based), leading comments included
    item: int  # the line of the "- " item
    end: int  # one past its last line
    entry: Any  # the item (an LDict)
    anchors: frozenset[str] = frozenset()  # the YAML anchors it defines (``&findings``)
    aliases: frozenset[str] = frozenset()  # the anchors it uses (``*findings``)

    @property
    def include(self) -> bool:
        return "include" in self.entry


class RuleText:
    """The text of a rule file cut into its top-level pass blocks."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.lines = self.path.read_text(encoding="utf-8").splitlines()
        self.tree = load("\n".join(self.lines))
        passes = self.tree.get("passes") if hasattr(self.tree, "get") else None
        if passes is None or not hasattr(passes, "item_lines"):
            raise RuleFileError(diagnostic("RC578", path=str(path), detail="no passes: list"))
        starts = [ln - 1 for ln in passes.item_lines]
        for s in starts:
            if not self.lines[s].lstrip().startswith("- ") or self.lines[s].lstrip().startswith("- {"):
                raise RuleFileError(diagnostic("RC578", path=str(path), line=s + 1,
                                               detail="a pass is not written as '- key: value' lines"))
        ends = [self._lead(s) for s in starts[1:]] + [self._tail(starts[-1])] if starts else []
        self.blocks = [Block(k, self._lead(s), s, e, passes[k], *_anchors(self.lines[s:e]))
                       for k, (s, e) in enumerate(zip(starts, ends))]
        self.head_anchors = _anchors(self.lines[: self.blocks[0].start] if self.blocks else self.lines)[0]

    def loads_in(self, order: Sequence[int]) -> bool:
        """Whether the blocks in ``order`` keep every alias after its anchor: YAML refuses
        ``*findings`` before ``&findings``, so a search must not move a pass above the anchor it uses."""
        defined = set(self.head_anchors)
        for k in order:
            block = self.blocks[k]
            if block.aliases - block.anchors - defined:
                return False
            defined |= block.anchors
        return True

    def _lead(self, item: int) -> int:
        """The first of the comment and blank lines right above ``item`` (not above ``passes:``)."""
        k = item
        while k > 0 and (not self.lines[k - 1].strip() or self.lines[k - 1].lstrip().startswith("#")):
            k -= 1
        while k < item and not self.lines[k].strip():
            k += 1
        return k

    def _tail(self, item: int) -> int:
        """One past the last line of the last pass: before the next top-level key, if any."""
        k = item + 1
        while k < len(self.lines):
            line = self.lines[k]
            if line.strip() and not line[0].isspace() and not line.startswith("#"):
                break
            k += 1
        while k > item + 1 and not self.lines[k - 1].strip():
            k -= 1
        return k

    # -- rendering ----------------------------------------------------------------------------------
    def render(self, order: list[int], *, dropped: set[int] = frozenset(), numbers: dict | None = None,
               notes: dict[int, list[str]] | None = None, out: Path | None = None) -> str:
        """The file with its blocks in ``order`` (indices), ``dropped`` ones switched off,
        ``numbers[(index, path)] = value`` set (path: ``("params", name)`` or ``("window", "sentences")``),
        ``notes[index]`` as comments above each block, and paths fixed for a file at ``out``."""
        numbers, notes = numbers or {}, notes or {}
        lines = list(self.lines)
        if out is not None:
            lines = self._relocated(lines, out)
        if not self.blocks:
            return "\n".join(lines) + "\n"
        head = lines[: self.blocks[0].start]
        tail = lines[self.blocks[-1].end:]
        body: list[str] = []
        for k in order:
            b = self.blocks[k]
            text = lines[b.start: b.end]
            item = b.item - b.start
            for (idx, path), value in numbers.items():
                if idx == k:
                    text = _set_number(text, item, path, value)
            if k in dropped:
                text = _switch_off(text, item, b.include)
            indent = _indent(text[item])
            text = text[:item] + [f"{indent}# ablate --search: {n}" for n in notes.get(k, [])] + text[item:]
            if body and body[-1].strip() and text and text[0].strip():
                body.append("")
            body += text
        return "\n".join(head + body + tail) + "\n"

    def _relocated(self, lines: list[str], out: Path) -> list[str]:
        """Paths that resolve from this file rewritten to resolve to the same files from ``out``."""
        lines = list(lines)
        for line, value in _strings(self.tree):
            if "/" not in value and not value.endswith((".txt", ".yaml", ".yml")):
                continue
            found, _ = resolve_resource(value, self.path.resolve())
            if found is None:
                continue
            again, _ = resolve_resource(value, out.resolve())
            if again is not None and again.resolve() == found.resolve():
                continue
            new = _path_from(found.resolve(), out.resolve())
            lines[line - 1] = lines[line - 1].replace(value, new, 1)
        return lines


def _path_from(target: Path, out: Path) -> str:
    """A path to ``target`` as a rule file at ``out`` names it."""
    folder = out.parent
    if target.is_relative_to(folder):
        return target.relative_to(folder).as_posix()
    root = data_root().resolve()
    if target.is_relative_to(root):
        return target.relative_to(root).as_posix()
    return os.fspath(target)


def _strings(node: Any, line: int = 0) -> Iterator[tuple[int, str]]:
    """Every string scalar of a loaded tree with its line."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _strings(value, node.line_of(key) if hasattr(node, "line_of") else line)
    elif isinstance(node, list):
        lines = getattr(node, "item_lines", [line] * len(node))
        for value, ln in zip(node, lines):
            yield from _strings(value, ln)
    elif isinstance(node, str) and line:
        yield line, node


_ANCHOR = re.compile(r"(?<![\w&*])([&*])([A-Za-z0-9_-]+)")


def _anchors(lines: Sequence[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The anchors defined and the aliases used in ``lines`` (comments and quoted text left out)."""
    found: dict[str, set[str]] = {"&": set(), "*": set()}
    for line in lines:
        code = re.sub(r"'[^']*'|\"[^\"]*\"", "", line).split(" #", 1)[0]
        if code.lstrip().startswith("#"):
            continue
        for mark, name in _ANCHOR.findall(code):
            found[mark].add(name)
    return frozenset(found["&"]), frozenset(found["*"])


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _key_indent(item_line: str) -> str:
    """The indentation of an item's keys: '  - kind: x' -> 4 spaces."""
    stripped = item_line.lstrip()
    return _indent(item_line) + " " * (len(stripped) - len(stripped[1:].lstrip()))


def _switch_off(text: list[str], item: int, include: bool) -> list[str]:
    if include:
        return text[:item] + [f"{_indent(text[item])}# {line.strip()}" if line.strip() else line
                              for line in text[item:]]
    key = _key_indent(text[item])
    for k in range(item + 1, len(text)):
        if re.match(rf"^{key}enabled\s*:", text[k]):
            return text[:k] + [f"{key}enabled: false"] + text[k + 1:]
    return text[: item + 1] + [f"{key}enabled: false"] + text[item + 1:]


def _set_number(text: list[str], item: int, path: tuple[str, str], value: int | float) -> list[str]:
    """Set a pass's number in place, or add it (``params: {name: v}`` / ``window: {sentences: v}``)."""
    group, name = path
    key = _key_indent(text[item])
    pattern = re.compile(rf"(\b{re.escape(name)}\s*:\s*)(-?\d+(?:\.\d+)?)")
    inside = False
    for k in range(item, len(text)):
        line = text[k]
        if k == item or re.match(rf"^{key}\w", line):
            inside = bool(re.match(rf"^(?:{key}|\s*- ){group}\s*:", line))
        if inside and pattern.search(line):
            return text[:k] + [pattern.sub(lambda m: m.group(1) + str(value), line, count=1)] + text[k + 1:]
    for k in range(item, len(text)):
        m = re.match(rf"^({key}|\s*- ){group}\s*:\s*\{{(.*)\}}\s*(#.*)?$", text[k])
        if m:
            inner = m.group(2).strip()
            new = f"{m.group(1)}{group}: {{{inner + ', ' if inner else ''}{name}: {value}}}"
            return text[:k] + [new + (f"  {m.group(3)}" if m.group(3) else "")] + text[k + 1:]
        if re.match(rf"^{key}{group}\s*:\s*(#.*)?$", text[k]):
            return text[: k + 1] + [f"{key}  {name}: {value}"] + text[k + 1:]
    return text[: item + 1] + [f"{key}{group}: {{{name}: {value}}}"] + text[item + 1:]
