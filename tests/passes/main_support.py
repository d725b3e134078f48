"""Helpers for the main-linker and filter tests: a pipeline from a few pass entries, or from the
bundled rule files' own passes."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path

from rulecoref.document import Concept, Document
from rulecoref.engine import Pipeline, Resolution
from rulecoref.markup import parse_markup
from rulecoref.rules.compiler import RuleSet, compile_rules
from tests.helpers import ROOT, pipeline_from_entries, shared_resources

MAIN = {"exclude_types": ["person", "pronoun"]}


def pipeline(tmp_path: Path, *entries: dict, types: list[str] | None = None) -> Pipeline:
    """Passes from dicts with kind (and optional params/applies_to); names are generated."""
    passes = [{"name": f"p{k}-{e['kind'].replace('_', '-')}", **e} for k, e in enumerate(entries)]
    return pipeline_from_entries(tmp_path, passes, types, name="main-test.yaml")


@cache
def _ruleset(file: str) -> RuleSet:
    return compile_rules(ROOT / "rules" / file)


def bundled_entry(name: str, file: str = "i2b2.yaml") -> dict:
    """A pass of a bundled rule file as an entry dict (kind, applies_to and its rule keys), to be
    varied by a test: the entry as rules/FILE writes it."""
    import yaml

    from rulecoref.rules.files import resolve_resource

    def find(path: Path) -> dict | None:
        for entry in yaml.safe_load(path.read_text(encoding="utf-8"))["passes"]:
            if "include" in entry:
                inner, _ = resolve_resource(entry["include"], path)
                hit = find(inner) if inner else None
            else:
                hit = entry if entry.get("name") == name else None
            if hit:
                return hit
        return None

    entry = find(ROOT / "rules" / file)
    assert entry is not None, name
    return {k: v for k, v in entry.items() if k not in ("examples", "description", "enabled")}


def bundled(*names: str, file: str = "i2b2.yaml") -> Pipeline:
    """The passes ``names`` of the bundled rule file (in its order, with its attributes), alone."""
    rs = _ruleset(file)
    sub = copy.copy(rs)
    sub.passes, sub.decoder = [p for p in rs.passes if p.name in names], None
    assert len(sub.passes) == len(names), [p.name for p in rs.passes]
    return Pipeline(sub, shared_resources(), find_mentions="off")  # the passes alone, on the marked concepts


def nested(pipe: Pipeline, text: str, spans: list[tuple[int, int, str]]) -> Resolution:
    """Resolve a one-line document whose concepts may nest (markup cannot): spans are inclusive
    token ranges with a type."""
    tokens = text.split()
    concepts = [Concept(index=k, text=" ".join(tokens[a : b + 1]).lower(), type=t, start=(1, a), end=(1, b))
                for k, (a, b, t) in enumerate(sorted(spans))]
    return pipe.resolve(Document(name="nested", lines=[tokens], concepts=concepts))


def run(pipe: Pipeline, markup: str) -> Resolution:
    doc, _ = parse_markup(markup)
    return pipe.resolve(doc)


def together(res: Resolution, a: str, b: str) -> bool:
    """Whether the first concept with text ``a`` and the last with text ``b`` share a chain."""
    texts = [c.text for c in res.doc.concepts]
    ia = texts.index(a.lower())
    ib = len(texts) - 1 - texts[::-1].index(b.lower())
    owner = res.cluster_of()
    return owner[ia] == owner[ib]


def pairs(res: Resolution) -> list[tuple[int, int]]:
    """The proposed links, in the order they were made."""
    return [l.pair for l in res.proposed]


def evidence(res: Resolution) -> list[str]:
    return [l.provenance.evidence for l in res.proposed]


def removals(res: Resolution) -> list[str]:
    return [r.by.evidence for r in res.removed.values()]
