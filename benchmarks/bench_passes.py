"""Where the time of a document goes: building the mention table (per attribute) and each pass.

Resolves a corpus once to warm the word-level memo (``--unseen``: no warm-up, so WordNet look-ups
of new words are counted where they happen), then once more with every attribute and every pass
timed on its own, in CPU milliseconds per document: an attribute where a rule first reads it, as
the engine's table computes them (``--eager``: all up front), without the attributes it needs; a
pass without the attributes it asks for. One JSON line.

    python benchmarks/bench_passes.py gum [--rules rules/i2b2.yaml] [--unseen]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulecoref.engine import Pipeline, Resolution  # noqa: E402
from rulecoref.io.i2b2 import read_document  # noqa: E402
from rulecoref.io.layout import find_records  # noqa: E402
from rulecoref.mentions import MentionTable  # noqa: E402
from rulecoref.passes import Context  # noqa: E402
from rulecoref.resources import Resources  # noqa: E402
from rulecoref.rules.compiler import compile_rules  # noqa: E402


class TimedTable(MentionTable):
    """A mention table that times each column where a rule first reads it (as the engine's table
    computes them: on first use), exclusive of the columns it depends on."""

    def __init__(self, *args, spent: collections.Counter):
        super().__init__(*args)
        self.spent = spent
        self.inner = 0.0  # seconds of the columns computed inside the one being computed

    def __missing__(self, name):
        outer, self.inner = self.inner, 0.0
        t0 = time.process_time()
        column = super().__missing__(name)
        took = time.process_time() - t0
        self.spent["attribute " + name] += took - self.inner
        self.inner = outer + took
        return column


def timed_run(pipe: Pipeline, doc, spent: collections.Counter, eager: bool) -> None:
    table = TimedTable(doc, pipe.settings, pipe.umls, spent=spent)
    if eager:
        table.build(pipe.attributes)
    res = Resolution(doc=doc, table=table)
    ctx = Context(doc=doc, links=res.kept, table=table)
    for step in pipe.steps:  # each pass as the engine runs it (plan.py), its columns timed apart
        table.inner = 0.0
        t0 = time.process_time()
        pipe.run_step(step, res, ctx)
        spent["pass " + step.pass_.name] += time.process_time() - t0 - table.inner
    t0 = time.process_time()
    pipe.decoder.decode(doc, res)
    spent["decode"] += time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", help="corpus folder name under ../shared/corpora, or a folder")
    ap.add_argument("--rules", default=str(ROOT / "rules" / "i2b2.yaml"))
    ap.add_argument("--unseen", action="store_true", help="no warm-up run: first look-ups of words count")
    ap.add_argument("--eager", action="store_true", help="compute every attribute the rules name up front "
                    "(as before issue 26), not where a rule first reads it")
    args = ap.parse_args()
    folder = Path(args.corpus) if "/" in args.corpus else ROOT.parent / "shared" / "corpora" / args.corpus
    pipe = Pipeline(compile_rules(args.rules), Resources())
    docs = [read_document(r.txt, r.con, name=r.name).document for r in find_records([folder])[0] if r.txt]
    if not args.unseen:
        for doc in docs:
            pipe.resolve(doc)
    spent: collections.Counter = collections.Counter()
    for doc in docs:
        timed_run(pipe, doc, spent, args.eager)
    per_doc = {k: round(1000 * v / len(docs), 3) for k, v in spent.most_common()}
    print(json.dumps({"corpus": folder.name, "rules": Path(args.rules).name, "documents": len(docs),
                      "unseen": args.unseen, "total_ms_per_doc": round(1000 * sum(spent.values()) / len(docs), 2),
                      "ms_per_doc": per_doc}))


if __name__ == "__main__":
    main()
