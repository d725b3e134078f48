"""Time and memory of hostile inputs: each case of issue 15 runs as its own `rulecoref` process.

Rule files: the alias bomb, a recursive alias, 20,000-deep nesting, Latin-1, includes and word
lists outside the tree, a binary and an oversized word list, an oversized rule file, and the
costliest shapes PyYAML meets at the size limit (nested flow lists, a flat list, block pairs, one
long plain scalar, many aliases). MRCONSO: a truncated .gz, an empty file, /dev/zero. Prints one
JSON line per case: the command, its exit code, the numbered codes it printed, wall and CPU
seconds and the child's peak RSS (ru_maxrss). Each child runs under a 2 GB address-space cap and
a 120 s timeout, so the code before the limits (which took minutes at 6-7 GB) is measurable too.

    python benchmarks/bench_limits.py            # the rulecoref beside this script
    PYTHONPATH=OTHER_CHECKOUT python benchmarks/bench_limits.py --root OTHER_CHECKOUT
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CAP = 2 * 1024**3


def rule_cases(folder: Path) -> dict[str, str | bytes]:
    outside = folder.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "passwd").write_text("".join(f"user{i}:x:{i}:{i}::/home/u{i}:/bin/sh\n" for i in range(100)))
    (folder / "binary.txt").write_bytes(os.urandom(4096).replace(b"\n", b"\x00"))
    with open(folder / "huge.txt", "wb") as fh:
        fh.truncate(64 * 1024 * 1024)
    bomb = ["version: 1", "a0: &a0 [" + ", ".join(['"lol"'] * 10) + "]"]
    bomb += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)] + ["passes: []"]
    size = 250 * 1024  # just under the 256 KiB limit
    return {
        "alias-bomb": "\n".join(bomb) + "\n",
        "recursive-alias": "version: 1\npasses: &a [*a]\n",
        "deep-20000": "version: 1\npasses: " + "[" * 20_000 + "]" * 20_000 + "\n",
        "latin1": "version: 1\n# règles\npasses: []\n".encode("latin-1"),
        "include-outside": f"version: 1\npasses:\n  - include: {outside / 'passwd'}\n",
        "wordlist-escape": "version: 1\npasses:\n  - kind: relative_pronoun\n    params: {pronouns: "
                           + "../" * (len(folder.parts) + 3) + str(outside / "passwd").lstrip("/") + "}\n",
        "wordlist-binary": "version: 1\npasses:\n  - kind: relative_pronoun\n    params: {pronouns: binary.txt}\n",
        "wordlist-64MB": "version: 1\npasses:\n  - kind: relative_pronoun\n    params: {pronouns: huge.txt}\n",
        "rule-file-4MB": "version: 1\npasses: []\n" + "# padding\n" * 400_000,
        "nested-flow-at-limit": "x: [" + ("[" * 48 + "]" * 48 + ",") * (size // 97) + "]\n",
        "flat-list-at-limit": "x: [" + "a," * (size // 2) + "]\n",
        "block-pairs-at-limit": "".join(f"k{i}: v\n" for i in range(size // 10)),
        "plain-scalar-at-limit": "x: " + "a " * (size // 2) + "\n",
        "aliases-at-limit": "a: &a [1]\nx: [" + "*a," * (size // 3) + "]\n",
    }


def mrconso_cases(folder: Path) -> dict[str, Path]:
    rows = "".join(f"C{i:07d}|ENG|P|L1|PF|S1|Y|A1||||MSH|PT|X|term {i * 7919}|0|N||\n" for i in range(50_000))
    packed = gzip.compress(rows.encode())
    (folder / "cut.RRF.gz").write_bytes(packed[: len(packed) // 2])
    (folder / "empty.RRF").write_bytes(b"")
    return {"mrconso-truncated-gz": folder / "cut.RRF.gz", "mrconso-empty": folder / "empty.RRF",
            "mrconso-dev-zero": Path("/dev/zero")}


def run(args: list[str], root: Path) -> dict[str, object]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, "-m", "rulecoref", *args], capture_output=True, text=True, timeout=120,
                              preexec_fn=cap, cwd=root, env={**os.environ, "PYTHONPATH": str(root)})
        code: object = proc.returncode
        err = proc.stderr
    except subprocess.TimeoutExpired:
        code, err = "timeout", ""
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    last = (err.strip().splitlines() or [""])[-1]
    return {"exit": code, "codes": sorted(set(re.findall(r"\[(RC\d+)\]", err))), "seconds": round(wall, 2),
            "cpu_seconds": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2),
            # ru_maxrss of RUSAGE_CHILDREN is the largest child so far: cases run smallest-first would
            # hide nothing, but a later case never reports less than an earlier one
            "max_rss_mb": after.ru_maxrss // 1024, "traceback": "Traceback" in err,
            "last_line": re.sub(r"/tmp/\S+/", ".../", last)[:140]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=ROOT, help="checkout whose rulecoref runs (default: this one)")
    ap.add_argument("--commands", default="check,resolve", help="rulecoref commands for the rule-file cases")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rules = Path(tmp) / "rules"
        rules.mkdir()
        data = ROOT / "resources" / "examples"
        for name, text in rule_cases(rules).items():
            path = rules / f"{name}.yaml"
            path.write_bytes(text if isinstance(text, bytes) else text.encode())
            for command in args.commands.split(","):
                cli = ["check", str(path)] if command == "check" else [
                    "resolve", str(data), "--rules", str(path), "--out", str(Path(tmp) / f"out-{name}"), "--no-progress"]
                print(json.dumps({"case": name, "command": command, **run(cli, args.root)}), flush=True)
        for name, src in mrconso_cases(Path(tmp)).items():
            cli = ["umls", "load", str(src), "--db", str(Path(tmp) / f"{name}.sqlite"), "--no-progress"]
            result = run(cli, args.root)
            result["database_file_left"] = (Path(tmp) / f"{name}.sqlite").exists()
            print(json.dumps({"case": name, "command": "umls load", **result}), flush=True)


if __name__ == "__main__":
    main()
