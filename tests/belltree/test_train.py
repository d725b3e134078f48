"""Training end to end on a tiny hand-written i2b2 folder: train -> resolve, both models, hybrid."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from rulecoref.belltree.features import extractor
from rulecoref.belltree.train import TrainSettings, entity_mention_events, gold_owner, mention_pair_events
from rulecoref.cli import main
from rulecoref.errors import ModelError
from rulecoref.markup import parse_markup
from rulecoref.rules.compiler import compile_rules
from tests.belltree.support import table_of
from tests.helpers import ROOT, shared_resources

NOTES = [
    "[Mr. Brown|person|p] was admitted with [chest pain|problem|c] .\n"
    "[He|pronoun|p] had [an ECG|test|e] ; [the ECG|test|e] was normal .\n"
    "[His chest pain|problem|c] resolved after [aspirin|treatment|a] .",
    "[Ms. Green|person|g] reports [fever|problem|f] and [cough|problem] .\n"
    "[She|pronoun|g] was given [tylenol|treatment|t] ; [the fever|problem|f] improved .\n"
    "[tylenol|treatment|t] was stopped .",
    "[The patient|person|x] has [diabetes|problem|d] .\n"
    "[diabetes|problem|d] is controlled with [insulin|treatment|i] and [she|pronoun|x] checks [glucose|test] .\n"
    "[Insulin|treatment|i] was continued .",
]


def write_folder(root: Path, notes: list[str], custom_type: str | None = None) -> Path:
    for sub in ("docs", "concepts", "chains"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    for k, markup in enumerate(notes):
        if custom_type:
            markup = markup.replace("|problem", f"|{custom_type}")
        doc, chains = parse_markup(markup, name=f"note{k}")
        name = f"note{k}"
        (root / "docs" / f"{name}.txt").write_text("\n".join(" ".join(t) for t in doc.lines) + "\n")
        (root / "concepts" / f"{name}.txt.con").write_text("".join(f'{c.i2b2()}||t="{c.type}"\n' for c in doc.concepts))
        rows = []
        for members in chains.values():
            if len(members) > 1:
                types = [doc.concepts[i].type for i in members if doc.concepts[i].type != "pronoun"]
                rows.append("||".join(doc.concepts[i].i2b2() for i in members) + f'||t="coref {types[0]}"')
        (root / "chains" / f"{name}.txt.chains").write_text("".join(r + "\n" for r in rows))
    return root


def read_chains(out: Path) -> str:
    return "".join(p.read_text() for p in sorted(out.glob("*.txt.chains")))


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["mention-pair", "entity-mention"])
def test_train_then_resolve_end_to_end(tmp_path, kind):
    gold = write_folder(tmp_path / "gold", NOTES * 3)
    model = tmp_path / "m.json"
    assert main(["train", str(gold), "--model", str(model), "--kind", kind, "--min-count", "1", "-q"]) == 0
    assert model.is_file()
    out = tmp_path / "out"
    code = main(["resolve", str(gold), "--rules", str(ROOT / "rules" / "belltree.yaml"), "--model", str(model),
                 "--out", str(out), "--no-progress", "-q"])
    assert code == 0
    chains = read_chains(out)
    # Repeated strings in one note are the easiest links: a trained model must find them.
    assert 'c="an ecg" 2:2 2:3||c="the ecg" 2:5 2:6' in chains


@pytest.mark.slow
def test_train_accepts_any_concept_types(tmp_path):
    gold = write_folder(tmp_path / "gold", NOTES * 3, custom_type="abstract")
    model = tmp_path / "m.json"
    assert main(["train", str(gold), "--model", str(model), "--min-count", "1", "--types", "auto", "-q"]) == 0
    out = tmp_path / "out"
    assert main(["resolve", str(gold), "--rules", str(ROOT / "rules" / "belltree.yaml"), "--model", str(model),
                 "--out", str(out), "--types", "auto", "--no-progress", "-q"]) == 0
    assert "coref abstract" in read_chains(out)


@pytest.mark.slow
def test_train_hybrid_model_uses_rule_decisions(tmp_path):
    gold = write_folder(tmp_path / "gold", NOTES * 3)
    (tmp_path / "resources").symlink_to(ROOT / "resources")
    (tmp_path / "base.yaml").write_text(textwrap.dedent("""
        version: 1
        name: base
        types: [person, problem, treatment, test, pronoun]
        passes:
          - kind: match
            name: exact-string
            applies_to: {same_type: true, exclude_types: [pronoun]}
            key: text_norm
    """))
    rules = tmp_path / "hybrid.yaml"
    rules.write_text(textwrap.dedent("""
        version: 1
        types: [person, problem, treatment, test, pronoun]
        passes:
          - include: base.yaml
        decoder: {kind: belltree, model: hybrid.json, beam: 4}
    """))
    assert compile_rules(rules).passes[0].name == "exact-string"  # a full rule file can be included
    model = tmp_path / "hybrid.json"
    assert main(["train", str(gold), "--model", str(model), "--rules", str(rules), "--min-count", "1", "-q"]) == 0
    from rulecoref.belltree.maxent import MaxEntModel

    m = MaxEntModel.load(model)
    assert m.settings["rule_passes"] == ["exact-string"]
    assert any(f.startswith("r:exact-string=") for f in m.weights)
    out = tmp_path / "out"
    assert main(["resolve", str(gold), "--rules", str(rules), "--out", str(out), "--no-progress", "-q"]) == 0
    assert 'c="tylenol" 2:3 2:3||c="tylenol" 3:0 3:0' in read_chains(out)
    # A hybrid model refuses a rule file without its passes (RC604).
    from rulecoref.belltree.decoder import BellTreeDecoder

    with pytest.raises(ModelError) as err:
        BellTreeDecoder({"model": str(model)}, shared_resources(), compile_rules(ROOT / "rules" / "belltree.yaml"))
    assert err.value.code == "RC604"


def test_train_missing_model_stops_resolve_at_start(tmp_path, capsys):
    gold = write_folder(tmp_path / "gold", NOTES[:1])
    code = main(["resolve", str(gold), "--rules", str(ROOT / "rules" / "belltree.yaml"), "--out", str(tmp_path / "o"),
                 "--no-progress"])
    assert code == 2
    assert "RC603" in capsys.readouterr().err


def test_train_entity_mention_events_follow_the_true_path():
    doc, chains = parse_markup("[fever|problem|f] [cough|problem] [the fever|problem|f] [it|pronoun|f]")
    fx = extractor(table_of(doc))
    owner = gold_owner(len(doc.concepts), [sorted(v) for v in chains.values() if len(v) > 1])
    events = list(entity_mention_events(fx, owner, TrainSettings(kind="entity-mention")))
    # mention 1: one negative (vs [fever]); mention 2: [fever]+, [cough]-; mention 3: [fever the fever]+, [cough]-
    assert [y for _, y in events] == [0, 1, 0, 1, 0]
    pairs = list(mention_pair_events(fx, owner, TrainSettings()))
    assert [y for _, y in pairs] == [0, 1, 0, 1, 0, 1]
