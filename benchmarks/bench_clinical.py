"""Clinical quality on the shared MTSamples notes, chosen-on and held-back side by side.

    python benchmarks/bench_clinical.py [--rules R.yaml] [--ner] [--sets choose,held] [--json]
    python benchmarks/bench_clinical.py --list          # which note is in which set
    python benchmarks/bench_clinical.py --sets held --bootstrap 1000   # how far a set's score can move

The 23 notes of ``../shared/corpora/mtsamples`` (``RULECOREF_SHARED`` names another ``shared``)
fall into fixed sets, so that a rule is chosen on some notes and judged on others:

    first8  the 8 notes the bundled rules were first tuned on
    choose  first8 and 7 of the 15 added notes: rules are chosen here, errors read here
    held    the other 8 added notes: scored, never read while choosing
    new15   choose's 7 added notes and held: every note added after the first tuning

The 7/8 cut of the added notes is ``blake2b("clinical-heldback:" + name)``, lowest 8 held back:
fixed by the names, not by any score. ``--ner`` resolves the notes the way a named-entity tagger
hands them over (every pronoun concept taken out, no chains) and scores the chains against the full
gold (mentions rulecoref finds itself count as system mentions; one without a gold twin is scored as
docs/evaluation.md says). Each set is resolved with ``rulecoref resolve`` as a user runs it, without
options (the mention finder's default, ``mentions.find: auto``, is what finds the pronouns), and
scored with ``rulecoref evaluate`` (i2b2 overall and CoNLL F1). With ``--ner`` a row also counts the
chain mentions that are no input concept (``found``: what the finder added and the rules linked).

``--bootstrap N`` resamples a set's notes with replacement N times (seed 0) and prints the median and
the 95% interval of both scores: how much of a difference between two rule sets the set can tell from
the luck of which notes it holds. Eight notes hold few links of each kind, so the interval is wide.
``--against R.yaml`` resolves each set with that rule file too and resamples both systems' chains
together (a paired bootstrap): the interval of the difference says whether a change is more than luck.

    python benchmarks/bench_clinical.py --sets held --bootstrap 1000 --rules new.yaml --against rules/i2b2.yaml
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
FIRST8 = ("allergic-rhinitis", "discharge-summary-urology-nephrology", "hematuria-er-visit", "hpv-consult",
          "neurogenic-bladder-consult", "testicular-pain", "upper-endoscopy", "urinary-retention")
HELD_BACK = 8
PRONOUN_TYPES = frozenset({"pronoun"})


def corpus() -> Path:
    shared = Path(os.environ.get("RULECOREF_SHARED", ROOT.parent / "shared"))
    return shared / "corpora" / "mtsamples"


def split(names: list[str]) -> dict[str, list[str]]:
    """The fixed sets, by note name (``mts-...``)."""
    first8 = [n for n in names if n.removeprefix("mts-") in FIRST8]
    added = sorted((n for n in names if n not in first8),
                   key=lambda n: hashlib.blake2b(f"clinical-heldback:{n}".encode(), digest_size=8).digest())
    held, chosen = sorted(added[:HELD_BACK]), sorted(added[HELD_BACK:])
    return {"first8": first8, "choose": sorted(first8 + chosen), "held": held, "new15": sorted(chosen + held)}


def materialise(src: Path, names: list[str], out: Path, *, ner: bool) -> None:
    """An i2b2 folder of ``names``: gold as it is, or (``ner``) the text and non-pronoun concepts only."""
    for sub in ("docs", "concepts") + (() if ner else ("chains",)):
        (out / sub).mkdir(parents=True)
    for n in names:
        (out / "docs" / f"{n}.txt").write_bytes((src / "docs" / f"{n}.txt").read_bytes())
        con = (src / "concepts" / f"{n}.txt.con").read_text(encoding="utf-8").splitlines(keepends=True)
        if ner:
            con = [line for line in con if line.rstrip().rpartition('||t="')[2].rstrip('"') not in PRONOUN_TYPES]
        (out / "concepts" / f"{n}.txt.con").write_text("".join(con), encoding="utf-8")
        if not ner:
            chains = src / "chains" / f"{n}.txt.chains"
            (out / "chains" / chains.name).write_bytes(chains.read_bytes())


def found_in_chains(inp: Path, out: Path) -> int:
    """Chain mentions of ``out`` that are no concept of ``inp``: the mentions rulecoref added."""
    n = 0
    for chains in out.glob("*.txt.chains"):
        con = (inp / "concepts" / chains.name.replace(".txt.chains", ".txt.con")).read_text(encoding="utf-8")
        given = {line.rpartition("||")[0].rpartition('" ')[2] for line in con.splitlines()}
        for line in chains.read_text(encoding="utf-8").splitlines():
            n += sum(m.rpartition('" ')[2] not in given for m in line.split("||")[:-1])
    return n


def rulecoref(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulecoref", *args], capture_output=True, text=True, cwd=ROOT)


def score(gold: Path, system: Path, mode: str) -> float:
    proc = rulecoref("evaluate", str(gold), str(system), "--mode", mode, "--json", "--quiet")
    if proc.returncode != 0:
        raise SystemExit(f"evaluate {gold} {system}: exit {proc.returncode}\n{proc.stderr}")
    report = json.loads(proc.stdout)
    return report["i2b2_overall"] if mode == "i2b2" else report["conll_f1"]


class Interval(NamedTuple):
    """A score over resamples: median, 95% interval, and (for a difference) the share above zero."""

    median: float
    low: float
    high: float
    above_zero: float

    @classmethod
    def of(cls, values: list[float]) -> Interval:
        v, n = sorted(values), len(values)
        return cls(statistics.median(v), v[int(0.025 * (n - 1))], v[int(0.975 * (n - 1))], sum(x > 0 for x in v) / n)

    def show(self, label: str, form: str, signed: bool = False) -> str:
        f = ("+" if signed else "") + form
        text = f"{label} {self.median:{f}} [{self.low:{f}}, {self.high:{f}}]"
        return text + (f" (above 0 in {100 * self.above_zero:.0f}%)" if signed else "")


def bootstrap(gold: Path, system: Path, n: int, *, against: Path | None = None,
              seed: int = 0) -> dict[str, Interval]:
    """i2b2 overall and CoNLL F1 over ``n`` resamples of the notes; with ``against`` (another system's
    chains for the same notes) also their differences ``system - against`` on the same resamples
    (``i2b2_diff``, ``conll_f1_diff``)."""
    from rulecoref.evaluate import load_i2b2, score_partitions

    docs = load_i2b2(gold, system).documents
    other = load_i2b2(gold, against).documents if against is not None else None
    if other is not None and [d.name for d in other] != [d.name for d in docs]:
        raise SystemExit(f"{system} and {against}: not the same notes")

    def scores(sample: list) -> tuple[float, float]:
        return (score_partitions(sample, mode="i2b2").i2b2_overall or 0.0,
                100 * score_partitions(sample, mode="conll").conll_f1)

    rng = random.Random(seed)
    draws: dict[str, list[float]] = {"i2b2": [], "conll_f1": []}
    if other is not None:
        draws |= {"i2b2_diff": [], "conll_f1_diff": []}
    for _ in range(n):
        picks = [rng.randrange(len(docs)) for _ in docs]
        i2b2, conll = scores([docs[k] for k in picks])
        draws["i2b2"].append(i2b2)
        draws["conll_f1"].append(conll)
        if other is not None:
            i2b2_o, conll_o = scores([other[k] for k in picks])
            draws["i2b2_diff"].append(i2b2 - i2b2_o)
            draws["conll_f1_diff"].append(conll - conll_o)
    return {key: Interval.of(values) for key, values in draws.items()}


def resolve(inp: Path, out: Path, rules: str | None, extra: str, label: str) -> None:
    """``rulecoref resolve`` as a user runs it; a failure ends the benchmark."""
    proc = rulecoref("resolve", str(inp), "--out", str(out), "--no-progress", "--quiet",
                     *(["--rules", rules] if rules else []), *extra.split())
    if proc.returncode != 0:
        raise SystemExit(f"resolve {label}: exit {proc.returncode}\n{proc.stderr}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default=None, help="rule file (default: rulecoref's default)")
    ap.add_argument("--sets", default="choose,held", help="comma-separated sets to score (first8, choose, held, new15)")
    ap.add_argument("--ner", action="store_true", help="pronoun concepts taken out of the input, scored against full gold")
    ap.add_argument("--extra", default="", help="more resolve arguments, one string (e.g. '--parser en_core_web_sm')")
    ap.add_argument("--bootstrap", type=int, default=0, metavar="N",
                    help="also resample each set's notes N times: median and 95%% interval")
    ap.add_argument("--against", default=None, metavar="R.yaml",
                    help="with --bootstrap: also resolve with this rule file; the paired difference's interval")
    ap.add_argument("--list", action="store_true", help="print the sets and exit")
    ap.add_argument("--json", action="store_true", help="one JSON line per set")
    args = ap.parse_args(argv)
    if args.against and not args.bootstrap:
        ap.error("--against compares two rule files over resamples: give --bootstrap N too")
    src = corpus()
    sets = split(sorted(p.name[:-4] for p in (src / "docs").glob("*.txt")))
    if args.list:
        for name, notes in sets.items():
            print(f"{name} ({len(notes)}): {' '.join(notes)}")
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-clinical-") as tmp:
        for name in args.sets.split(","):
            gold, inp, out = Path(tmp, name, "gold"), Path(tmp, name, "input"), Path(tmp, name, "out")
            materialise(src, sets[name], gold, ner=False)
            if args.ner:
                materialise(src, sets[name], inp, ner=True)
            resolve(inp if args.ner else gold, out, args.rules, args.extra, name)
            row = {"set": name, "notes": len(sets[name]), "ner": args.ner,
                   "i2b2": round(score(gold, out, "i2b2"), 4), "conll_f1": round(100 * score(gold, out, "conll"), 2)}
            if args.ner:
                row["found"] = found_in_chains(inp, out)
            print(json.dumps(row) if args.json else
                  f"{name:<7} {row['notes']:>2} notes  i2b2 {row['i2b2']:.3f}  CoNLL F1 {row['conll_f1']:.2f}"
                  + (f"  (NER-style input; {row['found']} found mentions in chains)" if args.ner else ""))
            if args.bootstrap:
                against = None
                if args.against:
                    against = Path(tmp, name, "against")
                    resolve(inp if args.ner else gold, against, args.against, args.extra, f"{name} (--against)")
                boot = bootstrap(gold, out, args.bootstrap, against=against)
                if args.json:
                    print(json.dumps({"set": name, "bootstrap": args.bootstrap,
                                      **{k: [round(x, 4) for x in iv] for k, iv in boot.items()}}))
                    continue
                print(f"{'':<7} {args.bootstrap} resamples  {boot['i2b2'].show('i2b2', '.3f')}  "
                      f"{boot['conll_f1'].show('CoNLL F1', '.2f')}")
                if against is not None:
                    print(f"{'':<7} minus --against  {boot['i2b2_diff'].show('i2b2', '.3f', signed=True)}  "
                          f"{boot['conll_f1_diff'].show('CoNLL F1', '.2f', signed=True)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
