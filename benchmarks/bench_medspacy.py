"""medspaCy's facts against rulecoref's own cue lists, on i2b2-typed notes (issue 25).

    python benchmarks/bench_medspacy.py ../shared/corpora/mtsamples [--rules i2b2]

Needs ``rulecoref[medspacy,eval]`` (its own venv on Python 3.11: docs/spacy.md, "medspaCy"). Each
note's text (its i2b2 tokens, lines joined by newlines) goes through medspaCy's tokenizer, its
sentences are its lines (``--sentences pyrush``: medspaCy's PyRuSH splits them), its gold concepts become the span group ``concepts`` (they may nest, so not ``doc.ents``),
and the ``rulecoref`` component resolves them in four settings:

    own             ConText and the sectionizer do not run (rulecoref's own cue lists)
    context         medspaCy's bundled ConText rules give negation, hedge, history, family
    context-on-problems  the same, with ConText run on the problems only (a span group of its own):
                    treatments and tests keep rulecoref's cues
    sections        the bundled section rules give the sections
    context+sections  both

Every setting is scored against the gold chains with the CoNLL definitions (``score_dirs``, as
``rulecoref evaluate``), overall and per gold type; ``resolve`` is ``rulecoref resolve`` on the
i2b2 files themselves, for reference (the spaCy route tokenises the text again). One JSON line per
setting.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from loguru import logger  # noqa: E402  (medspaCy's PyRuSH logs every sentence at DEBUG level)

logger.disable("PyRuSH")

import medspacy  # noqa: E402
from spacy.tokens import Doc  # noqa: E402

from rulecoref.batch import BatchOptions, run_batch  # noqa: E402
from rulecoref.chains import chain_types  # noqa: E402
from rulecoref.document import Document  # noqa: E402
from rulecoref.engine import Pipeline  # noqa: E402
from rulecoref.evaluate import score_dirs  # noqa: E402
from rulecoref.io.i2b2 import format_chains, read_document  # noqa: E402
from rulecoref.io.layout import find_records  # noqa: E402
from rulecoref.resources import Resources, named_file  # noqa: E402
from rulecoref.rules.compiler import compile_rules  # noqa: E402
from rulecoref.spacy_component import RulecorefComponent  # noqa: E402

GROUP = {"input_span_type": "group", "span_group_name": "concepts"}
PROBLEMS = {"input_span_type": "group", "span_group_name": "problems"}
SETTINGS: dict[str, list[tuple[str, dict]]] = {
    "own": [],
    "context": [("medspacy_context", GROUP)],
    "context-on-problems": [("medspacy_context", PROBLEMS)],
    "sections": [("medspacy_sectionizer", GROUP)],
    "context+sections": [("medspacy_context", GROUP), ("medspacy_sectionizer", GROUP)],
}


def spacy_doc(nlp, doc: Document) -> tuple[Doc, dict[tuple[int, int], list[int]]]:
    """The note as a spaCy Doc with its concepts in ``doc.spans["concepts"]``, and which concepts
    each (start token, end token) span stands for."""
    text, starts, pos = [], [], 0
    for tokens in doc.lines:
        offsets = []
        for tok in tokens:
            offsets.append(pos)
            pos += len(tok) + 1
        starts.append(offsets)
        text.append(" ".join(tokens))
        pos += 0 if tokens else 1
    sdoc = nlp.make_doc("\n".join(text))
    spans, where = [], {}
    for c in doc.concepts:
        a = starts[c.start[0] - 1][c.start[1]]
        b = starts[c.end[0] - 1][c.end[1]] + len(doc.lines[c.end[0] - 1][c.end[1]])
        span = sdoc.char_span(a, b, label=c.type, alignment_mode="expand")
        where.setdefault((span.start, span.end), []).append(c.index)
        if len(where[(span.start, span.end)]) == 1:
            spans.append(span)
    sdoc.spans["concepts"] = spans
    sdoc.spans["problems"] = [span for span in spans if span.label_ == "problem"]
    return sdoc, where


def line_sentences(doc: Doc) -> Doc:
    """i2b2 lines are sentences: each line's first token starts one (instead of PyRuSH's guess)."""
    for tok in doc:
        tok.is_sent_start = tok.i == 0 or "\n" in doc[tok.i - 1].text or "\n" in doc[tok.i - 1].whitespace_
    return doc


def resolve_setting(corpus: Path, out: Path, components: list[tuple[str, dict]], rules: str, resources: Resources,
                    sentences: str) -> None:
    nlp = medspacy.load(medspacy_enable=["medspacy_tokenizer", "medspacy_pyrush"] if sentences == "pyrush"
                        else ["medspacy_tokenizer"])
    for name, config in components:
        nlp.add_pipe(name, config=config)
    coref = RulecorefComponent(nlp, rules=rules, spans_key="concepts", find_mentions="off", resources=resources)
    records, _ = find_records([corpus])
    out.mkdir(parents=True)
    for rec in records:
        doc = read_document(rec.txt, rec.con).document
        sdoc, where = spacy_doc(nlp, doc)
        if sentences == "lines":
            sdoc = line_sentences(sdoc)
        for _, proc in nlp.pipeline:
            sdoc = proc(sdoc)
        sdoc = coref(sdoc)
        clusters = [sorted(i for s in group for i in where[(s.start, s.end)])
                    for key, group in sdoc.spans.items() if key.startswith("coref_clusters_")]
        (out / f"{rec.name}.txt.chains").write_text(format_chains(doc, clusters, chain_types(
            doc, clusters, coref.pipeline.ruleset.pronoun_types or ("pronoun",))), encoding="utf-8")


def scores(corpus: Path, out: Path) -> dict:
    report = score_dirs(corpus, out, mode="conll", by_type=True)
    return {"conll_f1": round(report.conll_f1, 4),
            **{f"{t}_conll_f1": round(r.conll_f1, 4) for t, r in sorted(report.by_type.items())}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--rules", default="i2b2")
    ap.add_argument("--sentences", choices=("lines", "pyrush"), default="lines",
                    help="sentence boundaries for ConText's scopes: the i2b2 lines, or medspaCy's PyRuSH")
    args = ap.parse_args(argv)
    resources = Resources()
    with tempfile.TemporaryDirectory(prefix="bench-medspacy-") as tmp:
        ref = Path(tmp) / "resolve"
        ref.mkdir()
        pipeline = Pipeline(compile_rules(named_file(args.rules, "rules", ".yaml")), resources)
        records, _ = find_records([args.corpus])
        list(run_batch(pipeline, records, BatchOptions(out_dir=ref, types=None)))
        print(json.dumps({"corpus": args.corpus.name, "setting": "resolve", **scores(args.corpus, ref)}), flush=True)
        for setting, components in SETTINGS.items():
            out = Path(tmp) / setting
            resolve_setting(args.corpus, out, components, args.rules, resources, args.sentences)
            print(json.dumps({"corpus": args.corpus.name, "setting": setting, "sentences": args.sentences,
                              **scores(args.corpus, out)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
