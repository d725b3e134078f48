"""Every ``examples:`` block in rules/*.yaml runs here: a rule edit that breaks its own examples fails.

For ``link`` the pass (with only the passes its kind requires before it) must put the first and the
last concept of the example in one chain; for ``no_link`` it must not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.engine import Pipeline
from rulecoref.markup import parse_markup
from rulecoref.passes import get_kind
from rulecoref.rules.compiler import compile_rules
from tests.helpers import ROOT, shared_resources

RULE_FILES = sorted((ROOT / "rules").glob("*.yaml"))


def _cases():
    for path in RULE_FILES:
        rs = compile_rules(path)
        for idx, cfg in enumerate(rs.passes):
            for expect in ("link", "no_link"):
                for ex in cfg.examples.get(expect, []):
                    yield pytest.param(path, idx, expect, ex, id=f"{path.stem}:{cfg.name}:{expect}:{ex[:40]}")


CASES = list(_cases())


@pytest.mark.parametrize("path,idx,expect,example", CASES)
def test_rule_examples(path: Path, idx: int, expect: str, example: str) -> None:
    rs = compile_rules(path)
    cfg = rs.passes[idx]
    cls = get_kind(cfg.kind)
    needed = [p for p in rs.passes[:idx] if p.kind in cls.requires]
    rs.passes = needed + [cfg]
    rs.decoder = None
    pipe = Pipeline(rs, shared_resources())
    doc, _ = parse_markup(example)
    res = pipe.resolve(doc)
    first, last = 0, len(doc.concepts) - 1
    together = res.cluster_of()[first] == res.cluster_of()[last]
    assert together == (expect == "link"), (
        f"{path.name}:{cfg.line}: pass {cfg.name!r} example {expect}: {example!r}; links: "
        + "; ".join(f"{doc.concepts[l.a].text}~{doc.concepts[l.b].text} ({l.provenance.evidence})" for l in res.proposed)
    )


def test_every_rule_file_has_examples() -> None:
    assert CASES, "rules/*.yaml carry no examples"
