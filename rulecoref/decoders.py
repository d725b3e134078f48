"""Decoders turn a document's kept links into a partition.

``union_find`` (default) is seed 001's chain builder: every kept link merges two chains.
``belltree`` (rulecoref/belltree/decoder.py) is Luo et al. 2004's beam search over the Bell tree,
with the rule links available to it as features. A rule file picks one with ``decoder: {kind: ...}``.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

from .chains import clusters_from_pairs
from .document import Document
from .params import Param

_DECODERS: dict[str, type[Decoder]] = {}
# Decoders that live in their own package are imported on first lookup.
_LAZY = {"belltree": "rulecoref.belltree.decoder"}


def register_decoder(kind: str):
    def deco(cls: type[Decoder]) -> type[Decoder]:
        cls.kind = kind
        _DECODERS[kind] = cls
        return cls

    return deco


def get_decoder(kind: str) -> type[Decoder] | None:
    if kind not in _DECODERS and kind in _LAZY:
        try:
            importlib.import_module(_LAZY[kind])
        except ImportError:
            return None
    return _DECODERS.get(kind)


def known_decoders() -> list[str]:
    return sorted(set(_DECODERS) | set(_LAZY))


class Decoder:
    """Base decoder: ``decode`` returns clusters (lists of concept indices) covering every concept."""

    kind: ClassVar[str] = ""
    params: ClassVar[dict[str, Param]] = {}
    #: mention attributes the decoder reads; the engine builds them into each document's table
    attributes: ClassVar[tuple[str, ...]] = ()
    #: parameters that are file paths, resolved against the rule file's folder
    path_params: ClassVar[tuple[str, ...]] = ()

    def __init__(self, params: dict[str, Any], resources: Any, ruleset: Any = None):
        self.p = params
        self.resources = resources
        self.ruleset = ruleset

    def decode(self, doc: Document, resolution: Any) -> list[list[int]]:
        raise NotImplementedError


@register_decoder("union_find")
class UnionFindDecoder(Decoder):
    """Seed 001's chain builder: the transitive closure of the kept links."""

    def decode(self, doc: Document, resolution: Any) -> list[list[int]]:
        return clusters_from_pairs(len(doc.concepts), resolution.kept)
