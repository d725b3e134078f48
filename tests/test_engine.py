"""Engine: passes in order, type scope from YAML, provenance and explain."""

from __future__ import annotations

from pathlib import Path

from rulecoref.engine import Pipeline
from rulecoref.markup import parse_markup
from rulecoref.passes import Context, Pass, register  # noqa: F401  (public API used by pass authors)
from tests.helpers import compile_text


def test_engine_links_same_type_only_and_records_provenance(tmp_path: Path) -> None:
    rs = compile_text(tmp_path, """
        passes:
          - kind: match
            name: exact
            applies_to: {same_type: true}
            key: text_norm
    """)
    doc, _ = parse_markup("[cold|problem] and [cold|treatment] then [Cold|problem] .")
    res = Pipeline(rs).resolve(doc)
    assert list(res.kept) == [(0, 2)]
    prov = res.kept[(0, 2)][0].provenance
    assert (prov.pass_name, prov.kind, prov.rule_line) == ("exact", "match", 2)
    assert prov.rule_file.endswith("rules.yaml") and prov.evidence == "same text_norm 'cold'"
    assert res.chains() == [([0, 2], "problem")]


def test_engine_explain_names_the_path_of_links(tmp_path: Path) -> None:
    rs = compile_text(tmp_path, """
        passes:
          - kind: match
            name: exact
            key: text_norm
    """)
    doc, _ = parse_markup("[pain|problem] . [pain|problem] . [pain|problem] . [rash|problem]")
    res = Pipeline(rs).resolve(doc)
    why = res.explain(0, 2)
    assert why["same_chain"] and why["proposed_by"] == []  # linked only through the middle mention
    assert [step["by"][0]["pass"] for step in why["path"]] == ["exact", "exact"]
    assert res.explain(0, 3)["same_chain"] is False
    d = res.to_dict()
    assert len(d["links"]) == 2 and all(link["kept"] for link in d["links"])


def test_provenance_evidence_can_be_built_lazily_and_once() -> None:
    from rulecoref.document import Evidence, Provenance

    calls: list[int] = []

    def build(table, i: int, j: int) -> str:
        calls.append(1)
        return "all words match"

    lazy = Provenance("p", "head_synonym", "r.yaml", 3, Evidence(build, None, 1, 0))
    assert calls == []  # nothing is built until somebody asks why
    assert lazy.evidence == "all words match" and lazy.to_dict()["evidence"] == "all words match"
    assert "all words match" in lazy.describe()
    assert calls == [1]  # built once, then remembered
    assert lazy == Provenance("p", "head_synonym", "r.yaml", 3, "all words match")
    assert lazy != Provenance("p", "head_synonym", "r.yaml", 3, "other words")
