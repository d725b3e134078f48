"""Write the reference tables of docs/rules.md (mention attributes, `attributes:` settings, pair
predicates, the keys of a `filter` entry, the `mentions:` settings) from the registries, so the documentation says what the
code does.

    python scripts/rules_reference.py          # rewrite docs/rules.md in place
    python scripts/rules_reference.py --check  # exit 1 when docs/rules.md is out of date
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulecoref.attributes import ATTRIBUTES, SETTINGS  # noqa: E402
from rulecoref.finder import SETTINGS as MENTION_SETTINGS  # noqa: E402
from rulecoref.predicates import PREDICATES  # noqa: E402

DOC = ROOT / "docs" / "rules.md"


def attributes_table() -> str:
    rows = [f"| `{n}` | {', '.join(a.depends) or '-'} | {a.help} |" for n, a in ATTRIBUTES.items()]
    return "\n".join(["| attribute | depends on | what it holds |", "|---|---|---|", *rows])


def settings_table(specs=SETTINGS, top: str = "") -> str:
    rows = []

    def walk(specs, prefix=""):
        for key, spec in specs.items():
            if spec.fields:
                walk(spec.fields, f"{prefix}{key}.")
            else:
                default = spec.default.replace("resources/lexicons/", "…/") if isinstance(spec.default, str) else spec.default
                rows.append(f"| `{prefix}{key}` | `{default}` | {spec.help} |")

    walk(specs, top)
    return "\n".join(["| key | default | meaning |", "|---|---|---|", *rows])


def mentions_table() -> str:
    return settings_table(MENTION_SETTINGS, "mentions.")


def predicates_table() -> str:
    rows = []
    for n, p in PREDICATES.items():  # every predicate's ``types`` is said once, above the table
        settings = "; ".join(f"`{k}` ({v.describe()}, default `{v.default}`): {v.help}" for k, v in p.params.items()
                             if k != "types")
        rows.append(f"| `{n}` | {', '.join(p.attributes)} | {p.help} | {settings or '-'} |")
    return "\n".join(["| predicate | reads | holds when | settings |", "|---|---|---|---|", *rows])


def filter_table() -> str:
    from rulecoref.passes import get_kind

    rows = []
    for key, spec in get_kind("filter").rule_keys.items():
        default = "required" if spec.required else f"`{spec.default}`"
        rows.append(f"| `{key}` | {spec.kind} | {default} | {spec.help} |")
    return "\n".join(["| key | kind | default | meaning |", "|---|---|---|---|", *rows])


TABLES = {"attributes-table": attributes_table, "settings-table": settings_table, "predicates-table": predicates_table,
          "filter-table": filter_table, "mentions-table": mentions_table}


def rewritten(text: str) -> str:
    for name, make in TABLES.items():
        pattern = re.compile(rf"(<!-- {name}:[^\n]*-->\n).*?(\n<!-- end {name} -->)", re.S)
        if not pattern.search(text):
            raise SystemExit(f"docs/rules.md has no <!-- {name}: ... --> block")
        text = pattern.sub(lambda m, make=make: m.group(1) + make() + m.group(2), text)
    return text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="only say whether docs/rules.md is up to date")
    args = ap.parse_args()
    text = DOC.read_text(encoding="utf-8")
    new = rewritten(text)
    if args.check:
        if new != text:
            print("docs/rules.md is out of date: run python scripts/rules_reference.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
