"""Build the bundled example notes (resources/examples/{docs,concepts,chains}) from their markup.

The notes are invented (no real patient). Each line of resources/examples/markup/NAME.txt is one
sentence; ``[text|type|chain]`` marks a concept and its gold chain. Run after editing the markup:
    python scripts/build_examples.py
tests/io/test_i2b2_examples.py checks the committed files equal what this script builds.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rulecoref.chains import chain_type
from rulecoref.io.i2b2 import format_chains
from rulecoref.io.outdir import write_atomic
from rulecoref.markup import parse_markup


def build(markup_dir: Path, out_dir: Path) -> list[str]:
    names = []
    for src in sorted(markup_dir.glob("*.txt")):
        doc, gold = parse_markup(src.read_text(encoding="utf-8"), name=src.stem)
        write_atomic(out_dir / "docs" / f"{src.stem}.txt", "".join(" ".join(t) + "\n" for t in doc.lines))
        con = "".join(f'{c.i2b2()}||t="{c.type}"\n' for c in doc.concepts)
        write_atomic(out_dir / "concepts" / f"{src.stem}.txt.con", con)
        clusters = [sorted(m) for m in gold.values() if len(m) > 1]
        write_atomic(out_dir / "chains" / f"{src.stem}.txt.chains",
                     format_chains(doc, clusters, [chain_type(doc, c) for c in clusters]))
        names.append(src.stem)
    return names


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent / "resources" / "examples"
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else root
    print("built:", ", ".join(build(root / "markup", out)))
