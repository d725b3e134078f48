"""Decoders turn a document's kept links into a partition.

``union_find`` (default) is seed 001's chain builder: every kept link merges two chains.
``belltree`` (rulecoref/belltree/decoder.py) is Luo et al. 2004's beam search over the Bell tree,
with the rule links available to it as features. A rule file picks one with ``decoder: {kind: ...}``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .chains import clusters_from_pairs
from .document import Document
from .params import Param
from .registry import Registry

#: every decoder, by its ``decoder: {kind: ...}`` name; one in its own package is imported on
#: first lookup (``lazy``), so a missing extra (scikit-learn for the Bell tree) costs nothing until asked for
DECODERS: Registry[type[Decoder]] = Registry("decoder", code="RC112", field="kind",
                                             lazy={"belltree": "rulecoref.belltree.decoder"})


def register_decoder(kind: str):
    def deco(cls: type[Decoder]) -> type[Decoder]:
        DECODERS.register(kind, cls)
        cls.kind = kind
        return cls

    return deco


def get_decoder(kind: str) -> type[Decoder] | None:
    return DECODERS.get(kind)


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
