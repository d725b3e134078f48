"""Write an ODIE-typed copy of an i2b2-typed corpus (mtsamples), to measure rules/odie.yaml on notes.

    python benchmarks/odie_corpus.py ../shared/corpora/mtsamples /tmp/mtsamples-odie

ODIE (i2b2/VA 2011 Track 1B) has no pronoun type: a pronoun concept carries the type of what it
refers to. The copy types every concept as ODIE would (the input is never modified):

    person -> people, problem -> disease_or_syndrome, treatment -> procedure,
    test -> laboratory_or_test_result; a pronoun -> the ODIE type of its gold chain (a chain of
    pronouns only, or an unchained personal pronoun, -> people; another unchained one -> other);
    any other type (GUM's place, CRAFT's noun_phrase) stays, so the non-clinical corpora can be
    given the ODIE treatment of people and pronouns too

The pronoun's type comes from the gold chains, as ODIE's annotators typed pronouns by their
referent: the system reads it as input, as it would from ODIE data. i2b2's problem holds both of
ODIE's disease_or_syndrome and sign_or_symptom; one type for both is this copy's simplification.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

ODIE = {"person": "people", "problem": "disease_or_syndrome", "treatment": "procedure",
        "test": "laboratory_or_test_result", "pronoun": "people"}
PERSONAL = frozenset("i me my mine myself we us our ours ourselves you your yours yourself he him his himself she her "
                     "hers herself they them their theirs themselves who whom whose".split())
_MENTION = re.compile(r'^c="(.*)" (\d+:\d+) (\d+:\d+)$')  # one "||" field; the text may hold quotes
_TYPE = re.compile(r'\|\|t="([^"]*)"\s*$')


def odie_type(ctype: str) -> str:
    """The ODIE name of an i2b2 type; a corpus's own types (GUM's place, CRAFT's noun_phrase) stay."""
    return ODIE.get(ctype.lower(), ctype.lower())


def chain_types(chains: Path) -> dict[str, str]:
    """Each chained mention's position ("L:T L:T") -> the ODIE type of its chain."""
    out: dict[str, str] = {}
    for line in chains.read_text(encoding="utf-8").splitlines():
        found = _TYPE.search(line)
        if not found:
            continue
        ctype = odie_type(found.group(1).removeprefix("coref ").strip())
        for field in line[: found.start()].split("||"):
            m = _MENTION.match(field.strip())
            if m:
                out[f"{m.group(2)} {m.group(3)}"] = ctype
    return out


def convert(src: Path, dst: Path) -> int:
    """The ODIE copy of one corpus folder (docs/, concepts/, chains/); returns the documents written."""
    for sub in ("docs", "concepts", "chains"):
        (dst / sub).mkdir(parents=True, exist_ok=True)
    n = 0
    for txt in sorted((src / "docs").glob("*.txt")):
        shutil.copyfile(txt, dst / "docs" / txt.name)
        chains = src / "chains" / f"{txt.name}.chains"
        by_chain = chain_types(chains) if chains.exists() else {}
        lines = []
        for line in (src / "concepts" / f"{txt.name}.con").read_text(encoding="utf-8").splitlines():
            t = _TYPE.search(line)
            m = _MENTION.match(line[: t.start()].strip()) if t else None
            if not (m and t):
                lines.append(line)
                continue
            ctype = t.group(1).lower()
            if ctype == "pronoun":
                new = by_chain.get(f"{m.group(2)} {m.group(3)}") or ("people" if m.group(1).lower() in PERSONAL else "other")
            else:
                new = odie_type(ctype)
            lines.append(line[: t.start()] + f'||t="{new}"')
        (dst / "concepts" / f"{txt.name}.con").write_text("\n".join(lines) + "\n", encoding="utf-8")
        if chains.exists():
            out = [_TYPE.sub(lambda m: f'||t="coref {odie_type(m.group(1).removeprefix("coref ").strip())}"', ln)
                   for ln in chains.read_text(encoding="utf-8").splitlines()]
            (dst / "chains" / chains.name).write_text("\n".join(out) + "\n", encoding="utf-8")
        n += 1
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", type=Path, help="an i2b2-typed corpus folder (docs/, concepts/, chains/)")
    ap.add_argument("out", type=Path, help="a new folder for the ODIE-typed copy")
    args = ap.parse_args(argv)
    if args.out.exists() and any(args.out.iterdir()):
        print(f"{args.out} is not empty", file=sys.stderr)
        return 2
    if args.out.resolve().is_relative_to(args.source.resolve()):
        print("the copy must lie outside the source corpus", file=sys.stderr)
        return 2
    print(f"{convert(args.source, args.out)} documents written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
