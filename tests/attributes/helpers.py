"""Reading one attribute column of a markup document, for the tests of each concern module."""

from __future__ import annotations

from rulecoref.engine import Pipeline
from rulecoref.markup import parse_markup
from tests.helpers import mention_table


def column(markup: str, name: str, **kwargs) -> list:
    """Column ``name`` of a markup document, with the bundled default settings (or ``pipeline=``)."""
    return mention_table(markup, name, **kwargs)[name]


def i2b2_column(pipeline: Pipeline, markup: str, name: str) -> list:
    """Column ``name`` of a markup document, with the pipeline's settings (``rules/i2b2.yaml``'s)."""
    doc, _ = parse_markup(markup)
    return pipeline.table(doc, [name])[name]
