"""Safe YAML with line numbers: compose nodes with the safe loader and keep each node's line.

Error messages must name the rule file's line, which plain ``yaml.safe_load`` forgets. We only
compose (no constructors run beyond the safe scalar ones), so a rule file can never execute code.
"""

from __future__ import annotations

from typing import Any

import yaml


class LDict(dict):
    """A mapping that remembers its own line and each key's line (1-based)."""

    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class LList(list):
    """A sequence that remembers its own line and each item's line (1-based)."""

    line: int = 0
    item_lines: list[int]


class DuplicateKey(Exception):
    def __init__(self, key: str, line: int, first: int):
        super().__init__(f"duplicate key {key!r} (first on line {first})")
        self.key, self.line, self.first = key, line, first


class UnsafeTag(Exception):
    """A node carries an explicit tag beyond plain YAML (``!!python/...``, custom ``!tag``)."""

    def __init__(self, tag: str, line: int):
        super().__init__(f"tag {tag!r} is not allowed in rule files (plain YAML only)")
        self.tag, self.line = tag, line


_scalars = yaml.constructor.SafeConstructor()
_PLAIN_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map")}


def _build(node: yaml.Node) -> Any:
    if node.tag not in _PLAIN_TAGS:
        raise UnsafeTag(node.tag, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        out = LDict()
        out.line = node.start_mark.line + 1
        out.key_lines = {}
        for knode, vnode in node.value:
            key = _build(knode)
            key = str(key) if not isinstance(key, str) else key
            kline = knode.start_mark.line + 1
            if key in out:
                raise DuplicateKey(key, kline, out.key_lines[key])
            out[key] = _build(vnode)
            out.key_lines[key] = kline
        return out
    if isinstance(node, yaml.SequenceNode):
        seq = LList(_build(item) for item in node.value)
        seq.line = node.start_mark.line + 1
        seq.item_lines = [item.start_mark.line + 1 for item in node.value]
        return seq
    return _scalars.construct_object(node)


def load(text: str) -> Any:
    """Parse YAML text into LDict/LList/scalars. Raises yaml.YAMLError, DuplicateKey or UnsafeTag."""
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    return None if node is None else _build(node)
