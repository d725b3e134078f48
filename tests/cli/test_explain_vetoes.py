"""``rulecoref explain`` names the ``veto:`` predicates that kept a pair apart (issue 16)."""

from __future__ import annotations

import json

from rulecoref.cli import main
from rulecoref.cli.explain import _print


def test_explain_lists_the_vetoes_that_hold(tmp_path, capsys) -> None:
    (tmp_path / "n.txt").write_text("NECK :\nNo masses .\nABDOMEN :\nNo masses .\n", encoding="utf-8")
    (tmp_path / "n.txt.con").write_text('c="masses" 2:1 2:1||t="problem"\nc="masses" 4:1 4:1||t="problem"\n',
                                        encoding="utf-8")
    assert main(["explain", str(tmp_path), "masses", "masses#2", "--json"]) == 0
    why = json.loads(capsys.readouterr().out)
    assert not why["same_chain"] and not why["proposed_by"]
    vetoes = {(v["pass"], v["veto"]) for v in why["vetoed_by"]}
    assert ("exact-string", "site_clash") in vetoes and ("exact-string", "negated_apart") in vetoes
    _print(why)
    assert "vetoed in exact-string by site_clash: sites differ: neck vs abdomen" in capsys.readouterr().out
