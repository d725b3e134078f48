"""A hand-made gold/system case with known correct, wrong and missing links (used by the view tests)."""

from __future__ import annotations

import json
from pathlib import Path

TEXT = "Mr. Lee has pain .\nHe said the pain is gone .\nLee left .\n"
CONCEPTS = ['c="mr. lee" 1:0 1:1||t="person"', 'c="pain" 1:3 1:3||t="problem"', 'c="he" 2:0 2:0||t="pronoun"',
            'c="the pain" 2:2 2:3||t="problem"', 'c="lee" 3:0 3:0||t="person"']
GOLD = ['c="mr. lee" 1:0 1:1||c="he" 2:0 2:0||c="lee" 3:0 3:0||t="coref person"',
        'c="pain" 1:3 1:3||c="the pain" 2:2 2:3||t="coref problem"']
SYSTEM = ['c="mr. lee" 1:0 1:1||c="lee" 3:0 3:0||t="coref person"',
          'c="he" 2:0 2:0||c="the pain" 2:2 2:3||t="coref problem"']
# antecedent links: system (0,4) correct, (2,3) wrong; gold (0,2), (2,4), (1,3) missing
CORRECT = [(0, 4)]
WRONG = [(2, 3)]
MISSING = [(0, 2), (1, 3), (2, 4)]
CHAINS = [[0, 4], [2, 3]]  # the system chains the page colours
PROVENANCE = {
    "document": "case",
    "links": [
        {"a": 'c="mr. lee" 1:0 1:1', "b": 'c="lee" 3:0 3:0', "kept": True, "pass": "partial-name",
         "kind": "partial_name", "rule_file": "/x/rules/people.yaml", "rule_line": 7, "evidence": "surname 'lee'"},
        {"a": 'c="he" 2:0 2:0', "b": 'c="the pain" 2:2 2:3', "kept": True, "pass": "bad-rule",
         "kind": "exact_match", "rule_file": "/x/rules/i2b2.yaml", "rule_line": 3, "evidence": "a test link"},
        {"a": 'c="pain" 1:3 1:3', "b": 'c="the pain" 2:2 2:3', "kept": False, "pass": "head-match",
         "kind": "head_synonym", "rule_file": "/x/rules/i2b2.yaml", "rule_line": 9, "evidence": "head 'pain'"},
    ],
    "removed": [{"a": 'c="pain" 1:3 1:3', "b": 'c="the pain" 2:2 2:3', "pass": "different-dates",
                 "kind": "filter_date", "rule_file": "/x/rules/i2b2.yaml", "rule_line": 40, "evidence": "dates differ"}],
    "chains": [],
}


def write_case(root: Path, *, provenance: bool = True) -> tuple[Path, Path]:
    """(DATA folder with gold chains, system output folder) for the document 'case'."""
    data, system = root / "data", root / "system"
    for sub in ("docs", "concepts", "chains"):
        (data / sub).mkdir(parents=True)
    system.mkdir()
    (data / "docs" / "case.txt").write_text(TEXT)
    (data / "concepts" / "case.txt.con").write_text("\n".join(CONCEPTS) + "\n")
    (data / "chains" / "case.txt.chains").write_text("\n".join(GOLD) + "\n")
    (system / "case.txt.chains").write_text("\n".join(SYSTEM) + "\n")
    if provenance:
        (system / "case.links.json").write_text(json.dumps(PROVENANCE))
    return data, system
