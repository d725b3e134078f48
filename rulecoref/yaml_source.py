"""Safe YAML with line numbers: compose nodes with the safe loader and keep each node's line.

Error messages must name the rule file's line, which plain ``yaml.safe_load`` forgets. We only
compose (no constructors run beyond the safe scalar ones), so a rule file can never execute code.

Rule files come from colleagues, so the loader is also bounded (docs/security.md): the text may
nest ``MAX_DEPTH`` levels at most, and hold ``MAX_NODES`` nodes at most once its aliases are
expanded (a "billion laughs" file stops after that many, in milliseconds), and an alias inside its
own anchor is refused. Nothing recurses deeper than ``MAX_DEPTH`` levels, so no input reaches
Python's recursion limit. PyYAML composes some 10-50 thousand nodes a second, so the node limit is
also what bounds the time a file of up to ``files.MAX_RULE_FILE_BYTES`` takes (a few seconds).
"""

from __future__ import annotations

from typing import Any

import yaml

#: Deepest nesting of lists and mappings, in the text and after aliases are expanded (the bundled
#: rule files nest 6 levels).
MAX_DEPTH = 50
#: Most nodes a rule file may have once its aliases are expanded (the bundled i2b2.yaml has 299).
MAX_NODES = 20_000


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


def short(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters: a message never echoes a whole file."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 20]}... ({len(text)} characters)"


class DuplicateKey(Exception):
    def __init__(self, key: str, line: int, first: int):
        super().__init__(f"duplicate key {short(key)} (first on line {first})")
        self.key, self.line, self.first = key, line, first


class UnsafeTag(Exception):
    """A node carries an explicit tag beyond plain YAML (``!!python/...``, custom ``!tag``)."""

    def __init__(self, tag: str, line: int):
        super().__init__(f"tag {short(tag)} is not allowed in rule files (plain YAML only)")
        self.tag, self.line = tag, line


class BadScalar(Exception):
    """A scalar the safe constructor cannot build (e.g. an integer of more than 4,300 digits)."""

    def __init__(self, detail: str, line: int):
        super().__init__(detail)
        self.line = line


class TooManyNodes(Exception):
    """The document has more than ``limit`` nodes, counting every alias as a copy of its anchor
    (aliases of aliases: "billion laughs")."""

    def __init__(self, limit: int, line: int):
        super().__init__(f"more than {limit} nodes once aliases are expanded")
        self.limit, self.line = limit, line


class TooDeep(Exception):
    """Lists and mappings nest deeper than ``limit`` levels (in the text or through aliases)."""

    def __init__(self, limit: int, line: int):
        super().__init__(f"nested deeper than {limit} levels")
        self.limit, self.line = limit, line


class RecursiveAlias(Exception):
    """An alias inside the node its anchor names (``&a [*a]``): the value would be infinite."""

    def __init__(self, name: str, line: int):
        super().__init__(f"alias *{name} refers to a node that contains it")
        self.name, self.line = name, line


class _Loader(yaml.SafeLoader):
    """The safe composer with a depth and node-count guard (composing recurses once per level)."""

    def __init__(self, stream: str, max_depth: int, max_nodes: int):
        super().__init__(stream)
        self._depth = 0
        self._nodes = 0
        self._max_depth = max_depth
        self._max_nodes = max_nodes
        self.names: dict[int, str] = {}  # node id -> anchor name, for messages

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        line = event.start_mark.line + 1
        self._nodes += 1  # an alias counts too: it becomes at least one node (_Builder counts its copy)
        if self._nodes > self._max_nodes:
            raise TooManyNodes(self._max_nodes, line)
        if isinstance(event, yaml.AliasEvent):
            return super().compose_node(parent, index)
        self._depth += 1
        if self._depth > self._max_depth + 1:  # the document node itself is level 0
            raise TooDeep(self._max_depth, line)
        try:
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        if event.anchor is not None:
            self.names[id(node)] = event.anchor
        return node


_PLAIN_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map")}


class _Builder:
    """Nodes -> LDict/LList/scalars. Every alias is expanded into a fresh copy, so the count of
    built nodes is what bounds a "billion laughs" file; a node met again on its own path is a
    recursive alias. Problems are reported on the line where the alias is used, not where its
    anchor is: ``lines`` holds, for the current path, the line of the nearest node that is not a copy."""

    def __init__(self, anchors: dict[int, str], max_depth: int, max_nodes: int):
        self.anchors = anchors
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.built = 0
        self.path: set[int] = set()
        self.seen: set[int] = set()
        self.lines: list[int] = [1]
        self.scalars = yaml.constructor.SafeConstructor()  # one per load: it caches what it built

    def build(self, node: yaml.Node, depth: int = 0) -> Any:
        line = node.start_mark.line + 1
        self.built += 1
        if self.built > self.max_nodes:
            raise TooManyNodes(self.max_nodes, self.lines[-1])
        if node.tag not in _PLAIN_TAGS:
            raise UnsafeTag(node.tag, line)
        if isinstance(node, yaml.ScalarNode):
            try:
                return self.scalars.construct_object(node)
            except (ValueError, yaml.YAMLError) as exc:
                raise BadScalar(f"cannot read the value: {str(exc)[:100]}", line) from exc
        if depth >= self.max_depth:
            raise TooDeep(self.max_depth, self.lines[-1] if id(node) in self.seen else line)
        if id(node) in self.path:
            raise RecursiveAlias(self.anchors.get(id(node), "?"), self.lines[-1])
        self.lines.append(self.lines[-1] if id(node) in self.seen else line)
        self.seen.add(id(node))
        self.path.add(id(node))
        try:
            if isinstance(node, yaml.MappingNode):
                out = LDict()
                out.line = line
                out.key_lines = {}
                for knode, vnode in node.value:
                    key = self.build(knode, depth + 1)
                    key = str(key) if not isinstance(key, str) else key
                    kline = knode.start_mark.line + 1
                    if key in out:
                        raise DuplicateKey(key, kline, out.key_lines[key])
                    out[key] = self.build(vnode, depth + 1)
                    out.key_lines[key] = kline
                return out
            seq = LList(self.build(item, depth + 1) for item in node.value)
            seq.line = line
            seq.item_lines = [item.start_mark.line + 1 for item in node.value]
            return seq
        finally:
            self.path.discard(id(node))
            self.lines.pop()


def load(text: str, *, max_depth: int = MAX_DEPTH, max_nodes: int = MAX_NODES) -> Any:
    """Parse YAML text into LDict/LList/scalars.

    Raises yaml.YAMLError, DuplicateKey, UnsafeTag, BadScalar, TooManyNodes, TooDeep or RecursiveAlias.
    """
    loader = _Loader(text, max_depth, max_nodes)
    try:
        node = loader.get_single_node()
        anchors = loader.names
    finally:
        loader.dispose()
    return None if node is None else _Builder(anchors, max_depth, max_nodes).build(node)
