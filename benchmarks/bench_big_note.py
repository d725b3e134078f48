"""One very long note: time and memory of ``rulecoref resolve`` as a note's mentions grow.

Writes a synthetic i2b2 note into a temporary folder and resolves it in a child process
(``rulecoref resolve DIR --rules R``), printing one JSON line per size: concepts, distinct words,
CPU seconds (user+sys of the child) and the child's peak RSS. Two shapes:

  words    LINES lines of PER_LINE one-token concepts ("w1 , w2 , ... ."), the words drawn with a
           fixed seed from WORDS one-word WordNet nouns, types problem/treatment/test (issue 26:
           50,000 concepts on 2,500 lines, ~1,000 distinct words, at most 30 s CPU and 1 GB)
  repeat   one mention (``--mention "chest pain|problem"``) repeated N times, PER_LINE a line
           (issue 22: memory must be bounded by the document, not by the square of the repeats)

    python benchmarks/bench_big_note.py                        # the issue's 50,000-concept note
    python benchmarks/bench_big_note.py --lines 500,1000,2500  # a scaling series
    python benchmarks/bench_big_note.py --shape repeat --repeats 3000,12000 --per-line 1
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TYPES = ("problem", "treatment", "test")


def wordnet_nouns(count: int, seed: int, wordnet: Path = Path("/usr/share/wordnet")) -> list[str]:
    """``count`` one-word, all-letter noun lemmas of WordNet, chosen with ``seed``."""
    with open(wordnet / "index.noun", encoding="utf-8") as f:
        nouns = [line.split(" ", 1)[0] for line in f if line[:1] != " "]
    plain = [w for w in nouns if w.isalpha() and 3 <= len(w) <= 12]
    return random.Random(seed).sample(plain, count)


def words_note(lines: int, per_line: int, words: int, seed: int = 26) -> tuple[str, str]:
    """(text, concepts) of a note of ``lines`` x ``per_line`` one-token concepts."""
    rng = random.Random(seed)
    vocab = wordnet_nouns(words, seed)
    text, con = [], []
    for li in range(1, lines + 1):
        toks = []
        for k in range(per_line):
            w = rng.choice(vocab)
            con.append(f'c="{w}" {li}:{len(toks)} {li}:{len(toks)}||t="{rng.choice(TYPES)}"')
            toks += [w, "," if k < per_line - 1 else "."]
        text.append(" ".join(toks))
    return "\n".join(text) + "\n", "\n".join(con) + "\n"


def repeat_note(repeats: int, mention: str = "chest pain|problem", per_line: int = 1) -> tuple[str, str]:
    """(text, concepts) of one mention ("words|type") written ``repeats`` times, ``per_line`` a line."""
    words, _, type_ = mention.partition("|")
    n = len(words.split())
    text, con = [], []
    for li in range(1, -(-repeats // per_line) + 1):
        toks: list[str] = []
        for _ in range(min(per_line, repeats - (li - 1) * per_line)):
            con.append(f'c="{words.lower()}" {li}:{len(toks)} {li}:{len(toks) + n - 1}||t="{type_ or "problem"}"')
            toks += [*words.split(), ","]
        text.append(" ".join(toks[:-1] + ["."]))
    return "\n".join(text) + "\n", "\n".join(con) + "\n"


def resolve(text: str, con: str, rules: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "note"
        folder.mkdir()
        (folder / "big.txt").write_text(text, encoding="utf-8")
        (folder / "big.txt.con").write_text(con, encoding="utf-8")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        exe = Path(sys.executable).parent / "rulecoref"
        done = subprocess.run([str(exe), "resolve", str(folder), "--rules", rules, "--out", str(Path(tmp) / "out"),
                               "--overwrite", "-q", "--no-progress"], capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(done.stderr)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cpu_s": round(cpu, 2), "peak_rss_mib": round(after.ru_maxrss / 1024, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shape", choices=("words", "repeat"), default="words")
    ap.add_argument("--lines", default="2500", help="comma-separated line counts (shape words)")
    ap.add_argument("--per-line", type=int, default=20)
    ap.add_argument("--words", type=int, default=1000, help="vocabulary size (shape words)")
    ap.add_argument("--repeats", default="12000", help="comma-separated repeat counts (shape repeat)")
    ap.add_argument("--mention", default="chest pain|problem", help="the repeated mention, words|type (shape repeat)")
    ap.add_argument("--rules", default=str(ROOT / "rules" / "i2b2.yaml"))
    args = ap.parse_args()
    sizes = [int(x) for x in (args.lines if args.shape == "words" else args.repeats).split(",")]
    for n in sizes:
        text, con = words_note(n, args.per_line, args.words) if args.shape == "words" else repeat_note(n, args.mention, args.per_line)
        concepts = con.count("\n")
        distinct = len({line.split('"', 2)[1] for line in con.splitlines()})
        # the peak RSS of RUSAGE_CHILDREN is the largest child so far: run the sizes in ascending order
        print(json.dumps({"shape": args.shape, "concepts": concepts, "distinct_words": distinct,
                          "rules": Path(args.rules).name, **resolve(text, con, args.rules)}), flush=True)


if __name__ == "__main__":
    main()
