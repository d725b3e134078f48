"""Small gold corpora written from markup, for the learning tests.

``[text|type|id]`` marks a concept in gold chain ``id`` (rulecoref.markup); a folder gets the i2b2
layout (docs/, concepts/, chains/). The words are invented; ``NOUNS`` gives each document its own
head nouns so that no rule can be learned from one word.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.io.i2b2 import format_chains
from rulecoref.markup import parse_markup

NOUNS = ("survey", "kettle", "anvil", "engine", "garden", "ledger", "tunnel", "harbour", "lantern", "quarry",
         "orchard", "tablet", "furnace", "meadow", "cannon", "glacier")


def write_corpus(folder: Path, docs: dict[str, str]) -> Path:
    """Write markup documents as an i2b2 folder; chains from the ``|id`` marks."""
    for sub in ("docs", "concepts", "chains"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    for name, markup in docs.items():
        doc, chains = parse_markup(markup, name=name)
        (folder / "docs" / f"{name}.txt").write_text("\n".join(" ".join(t) for t in doc.lines) + "\n")
        cons = [f'{c.i2b2()}||t="{c.type}"' for c in doc.concepts]
        (folder / "concepts" / f"{name}.txt.con").write_text("\n".join(cons) + "\n")
        clusters = [sorted(members) for members in chains.values() if len(members) > 1]
        types = [doc.concepts[c[0]].type for c in clusters]
        (folder / "chains" / f"{name}.txt.chains").write_text(format_chains(doc, clusters, types))
    return folder


def head_documents(corefer: bool, n: int = 12) -> dict[str, str]:
    """Documents where 'the yearly X' ... 'the X' recur: one entity each when ``corefer``, else two.
    Other mentions ('a visitor', 'the weather') never corefer."""
    docs = {}
    for k in range(n):
        a, b = NOUNS[k % len(NOUNS)], NOUNS[(k + 5) % len(NOUNS)]
        ida, idb = ("a", "b") if corefer else ("a1", "b1")
        ida2, idb2 = ("a", "b") if corefer else ("a2", "b2")
        docs[f"doc{k:02d}"] = "\n".join([
            f"We studied [the yearly {a}|problem|{ida}] in spring .",
            f"[A visitor|problem|v{k}] arrived with [the heavy {b}|problem|{idb}] .",
            f"Later [the {a}|problem|{ida2}] was discussed again .",
            f"[The weather|problem|w{k}] changed and [the {b}|problem|{idb2}] was moved .",
        ])
    return docs


@pytest.fixture
def supported(tmp_path: Path) -> Path:
    """A corpus whose gold supports 'a later mention with the same head is the same thing'."""
    return write_corpus(tmp_path / "supported", head_documents(True))


@pytest.fixture
def unsupported(tmp_path: Path) -> Path:
    """The same words, but the gold says the same head names another thing each time."""
    return write_corpus(tmp_path / "unsupported", head_documents(False))
