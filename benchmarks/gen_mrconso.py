"""Write a synthetic MRCONSO.RRF in the real 18-field layout, for load and lookup benchmarks.

Real UMLS content is licensed, so benchmarks cannot ship it; this makes rows whose shape matches a
release closely enough to time a loader: the same 18 ``|``-separated fields plus the trailing ``|``,
no newline after the last row, ~3.3 rows per CUI with a long tail (1% of CUIs carry 20-120 names),
strings with a 29-character median and a tail to ~150 (118 bytes a row; a 2024 release's
MRFILES.RRF gives 127 for MRCONSO: 2,719,518,477 bytes, 21,385,114 rows), MeSH-style inverted names
("Failure, Kidney"), SNOMED-style semantic tags ("... (disorder)"), mixed case, digits and
punctuation, ~25% non-English rows (some with accents) and ~10% suppressed rows. Deterministic for
a given seed.

    python benchmarks/gen_mrconso.py /tmp/MRCONSO.RRF --rows 1000000 --seed 5
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

# (SAB, share of rows, typical term types); shares roughly follow a 2024AA release.
SOURCES = [
    ("SNOMEDCT_US", 0.22, ("PT", "FN", "SY")),
    ("MSH", 0.12, ("MH", "ET", "PEP", "ENTRY")),
    ("NCI", 0.10, ("PT", "SY", "AB")),
    ("MDR", 0.10, ("PT", "LLT")),
    ("LNC", 0.10, ("LN", "CN", "LC")),
    ("RXNORM", 0.08, ("SCD", "IN", "BN", "SY")),
    ("MTH", 0.06, ("PN", "SY")),
    ("ICD10CM", 0.06, ("PT", "HT")),
    ("MEDLINEPLUS", 0.04, ("PT", "SY")),
    ("CHV", 0.06, ("PT", "SY")),
    ("HPO", 0.06, ("PT", "SY")),
]
LANGS = [("ENG", 0.75), ("SPA", 0.08), ("FRE", 0.04), ("GER", 0.03), ("DUT", 0.03), ("POR", 0.03),
         ("ITA", 0.02), ("CZE", 0.02)]
SUPPRESS = [("N", 0.90), ("O", 0.07), ("Y", 0.02), ("E", 0.01)]
TAGS = ["disorder", "finding", "procedure", "body structure", "substance", "qualifier value"]
SYLLABLES = ("ab ac ad al an ar as at ba be bi bo ca ce ci co cu da de di do du fa fe fi ga ge "
             "gi he hy in ka ke la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po pu ra "
             "re ri ro ru sa se si so su ta te ti to tu va ve vi xy ze").split()
SUFFIXES = ("itis", "osis", "emia", "oma", "al", "ic", "ine", "ase", "ectomy", "ology", "ia", "", "", "")
ACCENTED = "éèàüöñçâíóú"


def _weighted(rng: random.Random, items: list[tuple]) -> tuple:
    r = rng.random()
    acc = 0.0
    for item in items:
        acc += item[1]
        if r < acc:
            return item
    return items[-1]


def _vocabulary(rng: random.Random, size: int) -> list[str]:
    words = set()
    while len(words) < size:
        n = rng.choice((1, 2, 2, 3, 3, 4))
        words.add("".join(rng.choice(SYLLABLES) for _ in range(n)) + rng.choice(SUFFIXES))
    return sorted(words)


def _fan_out(rng: random.Random) -> int:
    """Rows per CUI: mostly 1-4, mean ~3.5, a long tail (geometric body + rare big concepts)."""
    if rng.random() < 0.01:
        return rng.randint(20, 120)
    k = 1
    while rng.random() < 0.62 and k < 25:
        k += 1
    return k


def _base_name(rng: random.Random, vocab: list[str]) -> list[str]:
    n = min(12, max(1, int(rng.lognormvariate(1.2, 0.55))))
    words = [rng.choice(vocab) for _ in range(n)]
    if rng.random() < 0.15:
        words.insert(rng.randrange(len(words) + 1), str(rng.randint(1, 500)))
    if rng.random() < 0.1:
        words.append(rng.choice(("NOS", "unspecified", "type 2", "[Ambiguous]", "(finding)")))
    return words


def _variant(rng: random.Random, words: list[str], sab: str, tty: str, lat: str) -> str:
    w = list(words)
    if lat != "ENG":
        w = [x[:-1] + rng.choice(ACCENTED) if rng.random() < 0.3 and len(x) > 3 else x for x in w]
    r = rng.random()
    if len(w) > 1 and r < 0.2:  # MeSH-style inversion: "Failure, Kidney"
        w = [w[-1] + ","] + w[:-1]
    elif len(w) > 2 and r < 0.3:
        rng.shuffle(w)
    s = " ".join(w)
    r = rng.random()
    if r < 0.45:
        s = s.capitalize()
    elif r < 0.6:
        s = s.title()
    elif r < 0.65:
        s = s.upper()
    if sab == "SNOMEDCT_US" and tty == "FN":
        s += f" ({rng.choice(TAGS)})"
    if rng.random() < 0.05:
        s = s.replace(" ", "-", 1)
    return s


def generate(path: Path, rows: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    vocab = _vocabulary(rng, 60000)
    written = cuis = 0
    lui = sui = aui = 1
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        buf: list[str] = []
        cui_n = 0
        while written < rows:
            cui_n += 1
            cuis += 1
            cui = f"C{cui_n:07d}"
            base = _base_name(rng, vocab)
            for k in range(min(_fan_out(rng), rows - written)):
                sab, _, ttys = _weighted(rng, SOURCES)
                tty = rng.choice(ttys)
                lat = _weighted(rng, LANGS)[0]
                sup = _weighted(rng, SUPPRESS)[0]
                words = base if k == 0 or rng.random() < 0.6 else _base_name(rng, vocab)
                s = _variant(rng, words, sab, tty, lat)
                code = f"D{rng.randint(0, 999999):06d}"
                fields = [cui, lat, "P" if k == 0 else "S", f"L{lui:07d}", "PF" if k == 0 else "VO",
                          f"S{sui:07d}", "Y" if k == 0 else "N", f"A{aui:08d}", "", code, "", sab, tty, code,
                          s, "0", sup, "256" if rng.random() < 0.5 else ""]
                lui += rng.random() < 0.5
                sui += 1
                aui += 1
                buf.append("|".join(fields) + "|")
                written += 1
            if len(buf) >= 10000:
                out.write("\n".join(buf) + "\n")
                buf.clear()
        # A real MRCONSO has no newline after its last row.
        out.write("\n".join(buf))
    return {"rows": written, "cuis": cuis}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="where to write the file (e.g. /tmp/MRCONSO.RRF; never commit it)")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    stats = generate(args.out, args.rows, args.seed)
    stats.update(bytes=args.out.stat().st_size, seconds=round(time.perf_counter() - t0, 2), seed=args.seed)
    print(json.dumps(stats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
