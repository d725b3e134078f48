"""The Bell tree's view of a hand-written document: the mention table the engine would build."""

from __future__ import annotations

import dataclasses

from rulecoref.belltree.features import ATTRIBUTES, MentionView
from rulecoref.document import Document
from rulecoref.engine import Pipeline
from rulecoref.markup import parse_markup
from rulecoref.mentions import MentionTable
from rulecoref.rules.compiler import compile_rules
from tests.helpers import ROOT, shared_resources


def table_of(doc: Document) -> MentionTable:
    """The document's mention table with the attributes the features read (rules/belltree.yaml's settings)."""
    ruleset = dataclasses.replace(compile_rules(ROOT / "rules" / "belltree.yaml"), decoder=None)
    return Pipeline(ruleset, shared_resources()).table(doc, list(ATTRIBUTES))


def view(markup: str) -> MentionView:
    doc, _ = parse_markup(markup)
    return MentionView(table_of(doc))
