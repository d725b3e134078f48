"""``rulecoref explain`` names the ``veto:`` predicates that kept a pair apart (issue 16)."""

from __future__ import annotations

import json

from rulecoref.cli import main
from rulecoref.cli.explain import _print_passes


def test_explain_lists_the_vetoes_that_hold(tmp_path, capsys) -> None:
    (tmp_path / "n.txt").write_text("NECK :\nNo masses .\nABDOMEN :\nNo masses .\n", encoding="utf-8")
    (tmp_path / "n.txt.con").write_text('c="masses" 2:1 2:1||t="problem"\nc="masses" 4:1 4:1||t="problem"\n',
                                        encoding="utf-8")
    assert main(["explain", str(tmp_path), "masses", "masses#2", "--json"]) == 0
    why = json.loads(capsys.readouterr().out)
    assert not why["same_chain"] and not why["proposed_by"]
    vetoes = {(v["pass"], v["veto"]) for v in why["vetoed_by"]}
    assert ("exact-string", "site_clash") in vetoes and ("exact-string", "negated_apart") in vetoes
    _print_passes(why)
    assert "veto site_clash: sites differ: neck vs abdomen" in capsys.readouterr().out


def test_explain_spells_out_the_evidence_of_a_veto(tmp_path, capsys) -> None:
    """Regression (issue 23): a veto whose evidence is spelt out when read (``words_covered``) printed
    ``<function words_covered.<locals>.evidence ...>`` and made ``explain --json`` fail with a TypeError."""
    rules = tmp_path / "rules.yaml"
    rules.write_text("version: 1\npasses:\n  - kind: match\n    name: same-text\n    key: text_norm\n"
                     "    veto: [words_covered]\n", encoding="utf-8")
    (tmp_path / "n.txt").write_text("the chest pain .\nchest pain again .\n", encoding="utf-8")
    (tmp_path / "n.txt.con").write_text('c="the chest pain" 1:0 1:2||t="problem"\nc="chest pain" 2:0 2:1||t="problem"\n',
                                        encoding="utf-8")
    expected = "all words of 'chest pain' match 'the chest pain': chest, pain"
    assert main(["explain", str(tmp_path), "1:0", "2:0", "--rules", str(rules)]) == 0
    assert f"vetoed: veto words_covered: {expected}" in capsys.readouterr().out
    assert main(["explain", str(tmp_path), "1:0", "2:0", "--rules", str(rules), "--json"]) == 0
    why = json.loads(capsys.readouterr().out)  # valid JSON
    assert why["vetoed_by"] == [{"pass": "same-text", "veto": "words_covered", "evidence": expected}]
