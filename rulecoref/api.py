"""The Python API, in spaCy's style: ``nlp = rulecoref.load("i2b2")``, then ``nlp(text, concepts)``.

A notebook or a service has a note's text and the concepts its NER found, as character offsets;
it wants the chains back in the same terms, joined to its own ids. This module is that door: the
same reader as a JSONL line (``io/jsonl.py``: the text tokenized internally, the concepts checked
with numbered errors), the same ``Pipeline.resolve`` as the command line (so the same mention
finder and rules), and the answer in the input's terms (``io/faithful.py``): each chain lists its
mentions with their offsets, type and id as given, the mentions rulecoref added marked ``added``,
and the links with the pass that made each (provenance). See docs/api.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .errors import Diagnostic, RulecorefError, diagnostic


@dataclass
class Mention:
    """A mention of a chain: an input concept as given (its offsets, type and id), or one rulecoref
    added (``added``, type ``pronoun``). Read as attributes or as a dict (``m["start"]``)."""

    index: int  # position in ``Result.mentions``: the input's concepts in their order, then the added ones
    start: int
    end: int
    type: str
    id: str | int | None
    text: str
    added: bool = False

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Chain:
    """One entity: its mentions in text order, its type, and the links that joined them (each with
    the pass that made it: ``{"from", "to", "pass", "kind", "evidence"}``, mention positions)."""

    type: str
    mentions: list[Mention]
    links: list[dict[str, Any]] = field(default_factory=list)

    def __iter__(self) -> Iterator[Mention]:
        return iter(self.mentions)

    def __len__(self) -> int:
        return len(self.mentions)

    def __getitem__(self, k: int) -> Mention:
        return self.mentions[k]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "mentions": [m.index for m in self.mentions],
                "ids": [m.id for m in self.mentions], "links": self.links}


@dataclass
class Result:
    """One document's answer: every mention (the input's, then the added ones) and the chains."""

    id: str
    text: str
    mentions: list[Mention]
    chains: list[Chain]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "mentions": [m.to_dict() for m in self.mentions],
                "chains": [c.to_dict() for c in self.chains]}


class Coref:
    """A loaded rule set: call it on a text and its concepts, or ``pipe`` records through it."""

    def __init__(self, pipeline: Any, type_map: Any = None, types: Sequence[str] | None = None):
        from .io.formats import default_abbreviations

        self.pipeline = pipeline
        self.type_map = type_map
        self.types = tuple(types) if types is not None else None
        self.abbreviations = default_abbreviations()

    def __call__(self, text: str, concepts: Iterable[Mapping[str, Any]] = (), *, id: str | int = "doc",
                 tokenized: bool = False) -> Result:
        """Resolve one text. ``concepts``: dicts with ``start``, ``end`` (character offsets, end
        exclusive), ``type`` and optional ``id`` and ``text`` (checked against the span). A bad
        concept raises InputError listing every problem (RC2xx, docs/formats.md)."""
        return self._resolve({"id": id, "text": text, "concepts": list(concepts), "tokenized": tokenized})

    def pipe(self, records: Iterable[Mapping[str, Any] | tuple[str, Iterable[Mapping[str, Any]]]], *,
             n_process: int = 1) -> Iterator[Result]:
        """Resolve many records, results in input order. A record is a dict like a JSONL line
        (``id``, ``text``, ``concepts``, optional ``tokenized``) or a ``(text, concepts)`` pair;
        ``n_process`` worker processes share the loaded rule set (forked, as ``resolve --jobs``)."""
        from .pool import parallel_map

        items = [_record(r, k) for k, r in enumerate(records)]
        for got in parallel_map(self._safe, items, n_process, _lost):
            if isinstance(got, _Failed):
                raise got.error(got.diagnostics)
            yield got

    def _safe(self, obj: dict[str, Any]) -> Result | _Failed:
        try:
            return self._resolve(obj)
        except RulecorefError as exc:  # its diagnostics go back to the parent, which raises it
            return _Failed(type(exc), exc.diagnostics)

    def _resolve(self, obj: dict[str, Any]) -> Result:
        from .batch import with_origin
        from .io.faithful import faithful
        from .io.jsonl import parse_jsonl_object

        read = parse_jsonl_object(obj, file=f"<{obj.get('id')}>", line=None, with_chains=False, types=self.types,
                                  type_map=self.type_map, abbreviations=self.abbreviations)
        res = self.pipeline.resolve(read.document)
        chains = res.chains()
        out = faithful(with_origin(res.doc, read.document), [c for c, _ in chains], [t for _, t in chains])
        text = out.origin.text
        mentions = [Mention(k, m.start, m.end, m.label, m.id, text[m.start:m.end], m.added)
                    for k, m in enumerate(out.mentions)]
        first = {i: ks[0] for i, ks in out.positions.items()}
        result = []
        for members, ctype in zip(out.chains, out.types):
            inside = set(members)
            links = [{"from": first[a], "to": first[b], **{k: v for k, v in link.provenance.to_dict().items()
                                                            if k in ("pass", "kind", "evidence")}}
                     for (a, b), found in res.kept.items() if first[a] in inside and first[b] in inside
                     for link in found]
            result.append(Chain(ctype, [mentions[k] for k in members], links))
        return Result(str(obj.get("id")), text, mentions, result)


@dataclass
class _Failed:
    """A record's error, as it crosses from a worker process to the parent."""

    error: type[RulecorefError]
    diagnostics: list[Diagnostic]


def _record(r: Any, k: int) -> dict[str, Any]:
    if isinstance(r, tuple) and len(r) == 2:
        return {"id": f"doc{k + 1}", "text": r[0], "concepts": list(r[1])}
    if isinstance(r, Mapping):
        return {"id": f"doc{k + 1}", **{key: r[key] for key in ("id", "text", "concepts", "tokenized") if key in r}}
    raise TypeError(f"record {k}: expected a dict or a (text, concepts) pair, got {type(r).__name__}")


def _lost(obj: dict[str, Any]) -> _Failed:
    return _Failed(RulecorefError, [diagnostic("RC551", file=str(obj.get("id")))])


def load(rules: str | Path = "i2b2", *, type_map: str | Path | Mapping[str, str | None] | None = None,
         types: Sequence[str] | str | None = None, wordnet: str | Path | None = None,
         allow_paths: Sequence[str | Path] = (), **decoder: Any) -> Coref:
    """A rule set ready to resolve: a bundled one by name ("i2b2", "odie", "i2b2-umls") or a rule
    file's path. ``type_map``: a type-map file or a dict of input type -> rule type (None drops
    the concepts of that type); ``types``: the concept types accepted after mapping (default: the
    rule file's; "auto": any); ``decoder``: settings of the rule file's decoder (``model=...``,
    ``beam=...``), as ``resolve --model`` overrides them."""
    from .engine import Pipeline
    from .io.formats import parse_types
    from .io.typemap import TypeMap, read_type_map
    from .resources import Resources
    from .rules.compiler import compile_rules

    ruleset = compile_rules(rules, decoder_overrides=decoder or None, allow_paths=allow_paths)
    pipeline = Pipeline(ruleset, Resources(wordnet_path=str(wordnet) if wordnet is not None else None))
    if isinstance(type_map, Mapping):
        tm: Any = TypeMap({str(k).strip().lower(): (v.strip().lower() if isinstance(v, str) else None)
                           for k, v in type_map.items()})
    else:
        tm = read_type_map(type_map) if type_map is not None else None
    return Coref(pipeline, tm, parse_types(types, ruleset.types))
