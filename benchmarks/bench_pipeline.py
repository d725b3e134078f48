"""A clinical team's NER output through every door: the command line, the Python API, spaCy, Spark.

    python benchmarks/bench_pipeline.py [--sets new15] [--spark] [--json]

The notes of a ``bench_clinical.py`` set are turned into what a named-entity tagger hands over:
JSONL records with the raw text, concepts under the tagger's own ids and upper-case labels
(``PERSON``, ``PROBLEM``...), in a shuffled order, a metadata key per note, and no pronoun concept
and no chains. Then:

1. ``rulecoref resolve ner.jsonl --type-map map.yaml --out OUT --format jsonl`` (no
   ``--input-format``, no ``--find-mentions``): every record must come back with its text, its
   metadata and every concept's id, offsets, label and order unchanged;
2. ``rulecoref evaluate gold.jsonl OUT``: CoNLL F1 and the i2b2 score against the full gold;
3. the same records through ``rulecoref.load("i2b2").pipe``, the spaCy component (a blank English
   pipeline, the concepts as a span group) and, with ``--spark``, ``rulecoref spark-resolve``
   (``local[2]``): each must give the command line's chains (mention offsets), note by note.

Prints one line per check; exits 1 when a check fails.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_clinical  # noqa: E402  (the fixed sets and the materialised gold)

TYPE_MAP = {"PERSON": "person", "PROBLEM": "problem", "TREATMENT": "treatment", "TEST": "test"}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulecoref", *args], capture_output=True, text=True, check=True)


def ner_records(gold: Path) -> list[dict[str, Any]]:
    """The gold JSONL as a tagger's output: no pronouns, own ids, labels upper-cased, order shuffled."""
    rng = random.Random(30)
    out = []
    for line in gold.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        concepts = [{"id": f"ner-{rec['id']}-{k}", "start": c["start"], "end": c["end"], "label": c["type"].upper()}
                    for k, c in enumerate(rec["concepts"]) if c["type"] != "pronoun"]
        rng.shuffle(concepts)
        out.append({"id": rec["id"], "patient_mrn": f"MRN{rng.randrange(10**6):06d}", "text": rec["text"],
                    "concepts": [{"id": c["id"], "start": c["start"], "end": c["end"], "type": c["label"]}
                                 for c in concepts]})
    return out


def faithful(given: list[dict[str, Any]], out_dir: Path) -> list[str]:
    """What the JSONL output changed of its input (nothing, when it keeps its promise)."""
    problems = []
    for rec in given:
        back = json.loads((out_dir / f"{rec['id']}.jsonl").read_text(encoding="utf-8").splitlines()[0])
        if back["text"] != rec["text"] or back.get("patient_mrn") != rec["patient_mrn"]:
            problems.append(f"{rec['id']}: text or metadata changed")
        kept = [(c["id"], c["start"], c["end"], c["type"]) for c in back["concepts"] if c.get("source") != "rulecoref"]
        if kept != [(c["id"], c["start"], c["end"], c["type"]) for c in rec["concepts"]]:
            problems.append(f"{rec['id']}: concepts changed")
    return problems


def chains_of_output(out_dir: Path, name: str) -> set[frozenset[tuple[int, int]]]:
    back = json.loads((out_dir / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()[0])
    spans = [(c["start"], c["end"]) for c in back["concepts"]]
    return {frozenset(spans[i] for i in ch["mentions"]) for ch in back["chains"]}


def api_chains(records: list[dict[str, Any]]) -> dict[str, set[frozenset[tuple[int, int]]]]:
    import rulecoref

    nlp = rulecoref.load("i2b2", type_map=TYPE_MAP)
    return {r.id: {frozenset((m.start, m.end) for m in ch) for ch in r.chains} for r in nlp.pipe(records)}


def spacy_chains(records: list[dict[str, Any]]) -> dict[str, set[frozenset[tuple[int, int]]]]:
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("rulecoref", config={"label_map": TYPE_MAP, "spans_key": "ner"})
    got = {}
    for rec in records:
        doc = nlp.make_doc(rec["text"])
        spans = [doc.char_span(c["start"], c["end"], label=c["type"], alignment_mode="expand") for c in rec["concepts"]]
        doc.spans["ner"] = [s for s in spans if s is not None]
        doc = nlp.get_pipe("rulecoref")(doc)
        got[rec["id"]] = {frozenset((s.start_char, s.end_char) for s in group)
                          for key, group in doc.spans.items() if key.startswith("coref_clusters_")}
    return got


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="new15", help="bench_clinical sets, comma-separated (default new15)")
    ap.add_argument("--spark", action="store_true", help="also run spark-resolve (local[2]; needs Java)")
    ap.add_argument("--json", action="store_true", help="one JSON line per set")
    args = ap.parse_args(argv)
    sets = bench_clinical.split(sorted(p.name[:-len(".txt")] for p in (bench_clinical.corpus() / "docs").glob("*.txt")))
    failed = False
    for name in args.sets.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            t = Path(tmp)
            bench_clinical.materialise(bench_clinical.corpus(), sets[name], t / "gold", ner=False)
            run("convert", str(t / "gold"), str(t / "gold.jsonl"), "--to", "jsonl")
            records = ner_records(t / "gold.jsonl")
            (t / "ner.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
            (t / "map.yaml").write_text("types:\n" + "".join(f"  {k}: {v}\n" for k, v in TYPE_MAP.items()),
                                        encoding="utf-8")
            run("resolve", str(t / "ner.jsonl"), "--type-map", str(t / "map.yaml"), "--out", str(t / "out"),
                "--format", "jsonl", "--no-progress")
            scores = json.loads(run("evaluate", str(t / "gold.jsonl"), str(t / "out"), "--json").stdout)
            cli = {r["id"]: chains_of_output(t / "out", r["id"]) for r in records}
            doors = {"api": api_chains(records), "spacy": spacy_chains(records)}
            if args.spark:
                run("spark-resolve", str(t / "ner.jsonl"), "--type-map", str(t / "map.yaml"), "--out",
                    str(t / "spark"), "--format", "jsonl", "--master", "local[2]", "--quiet")
                doors["spark"] = {r["id"]: chains_of_output(t / "spark", r["id"]) for r in records}
            result = {"set": name, "notes": len(records), "unchanged_problems": faithful(records, t / "out"),
                      "conll_f1": round(100 * scores["conll_f1"], 2),
                      "same_chains": {d: sum(got.get(k) == v for k, v in cli.items()) for d, got in doors.items()}}
            result.update({k: scores[k] for k in ("i2b2_overall",) if k in scores})
        failed |= bool(result["unchanged_problems"]) or any(n != len(records) for n in result["same_chains"].values())
        print(json.dumps(result) if args.json else
              f"{name}: {len(records)} notes, CoNLL F1 {result['conll_f1']}, input kept: "
              f"{'yes' if not result['unchanged_problems'] else result['unchanged_problems']}, same chains as resolve: "
              + ", ".join(f"{d} {n}/{len(records)}" for d, n in result["same_chains"].items()))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
