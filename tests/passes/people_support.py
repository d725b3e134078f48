"""Helpers for the people-linker tests: a pipeline of people_roles plus the passes under test."""

from __future__ import annotations

from pathlib import Path

from rulecoref.engine import Pipeline, Resolution
from rulecoref.markup import parse_markup
from tests.helpers import pipeline_from_entries

SCOPE = {"types": ["person", "pronoun"]}


def people_pipeline(tmp_path: Path, *passes: dict, roles: dict | None = None, types: list[str] | None = None) -> Pipeline:
    """people_roles (with ``roles`` params) followed by ``passes`` (dicts with kind/params)."""
    entries = [{"kind": "people_roles", "name": "roles", "applies_to": SCOPE, "params": roles or {}}]
    entries += [{"name": f"p{k}-{p['kind'].replace('_', '-')}", "applies_to": SCOPE, **p} for k, p in enumerate(passes)]
    return pipeline_from_entries(tmp_path, entries, types, name="people-test.yaml")


def run(pipe: Pipeline, markup: str) -> Resolution:
    doc, _ = parse_markup(markup)
    return pipe.resolve(doc)


def idx(res: Resolution, text: str, nth: int = 0) -> int:
    hits = [c.index for c in res.doc.concepts if c.text == text.lower()]
    return hits[nth]


def together(res: Resolution, a: str, b: str, nth_a: int = 0, nth_b: int = 0) -> bool:
    owner = res.cluster_of()
    return owner[idx(res, a, nth_a)] == owner[idx(res, b, nth_b)]


def roles_of(pipe: Pipeline, markup: str):
    """The PeopleFacts people_roles leaves for a markup document."""
    doc, _ = parse_markup(markup)
    return doc, pipe.passes[0].detect(pipe.table(doc))
