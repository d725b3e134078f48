"""Run the ``examples:`` of a rule file: each pass must link (or not link) its own tiny documents.

"link" means: with this pass alone (plus the earlier passes its kind ``requires``; for a filter,
every earlier linking pass, whose links it judges), the first and the last concept of the example
end in one chain; "no_link" means they do not. Used by
``rulecoref check`` and by the test suite, so a rule edit that breaks its own examples is caught.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .engine import Pipeline, mention_settings
from .markup import parse_markup
from .passes import PassConfig, get_kind
from .rules.compiler import RuleSet


@dataclass(frozen=True)
class ExampleResult:
    rule_file: str
    line: int
    pass_name: str
    expect: str  # "link" or "no_link"
    example: str
    ok: bool
    links: tuple[str, ...] = ()

    def describe(self) -> str:
        status = "ok" if self.ok else "FAILED"
        got = "; ".join(self.links) or "no links"
        return f"{self.rule_file}:{self.line}: {status} {self.pass_name} {self.expect}: {self.example!r} ({got})"


def iter_examples(ruleset: RuleSet) -> Iterator[tuple[int, PassConfig, str, str]]:
    for idx, cfg in enumerate(ruleset.passes):
        for expect in ("link", "no_link"):
            for ex in cfg.examples.get(expect, []):
                yield idx, cfg, expect, ex


def run_example(ruleset: RuleSet, idx: int, expect: str, example: str, resources: Any,
                settings: Any = None) -> ExampleResult:
    """Run one example; ``settings`` (``engine.mention_settings``) may be shared by a file's examples."""
    cfg = ruleset.passes[idx]
    cls = get_kind(cfg.kind)
    assert cls is not None  # the compiler checked it
    if cls.role == "filter":
        needed = [p for p in ruleset.passes[:idx] if getattr(get_kind(p.kind), "role", "") == "link"]
    else:
        needed = [p for p in ruleset.passes[:idx] if p.kind in cls.requires]
    sub = copy.copy(ruleset)
    sub.passes, sub.decoder = needed + [cfg], None
    doc, _ = parse_markup(example)
    # an example marks its concepts: the rule is judged on those alone
    res = Pipeline(sub, resources, settings=settings, find_mentions="off").resolve(doc)
    owner = res.cluster_of()
    together = owner[0] == owner[len(doc.concepts) - 1]
    links = tuple(
        f"{doc.concepts[l.a].text} ~ {doc.concepts[l.b].text} [{l.provenance.pass_name}: {l.provenance.evidence}]"
        for l in res.proposed
    )
    return ExampleResult(cfg.rule_file, cfg.line, cfg.name, expect, example, together == (expect == "link"), links)


def run_examples(ruleset: RuleSet, resources: Any) -> list[ExampleResult]:
    settings = mention_settings(ruleset, resources)
    return [run_example(ruleset, idx, expect, ex, resources, settings) for idx, _, expect, ex in iter_examples(ruleset)]
