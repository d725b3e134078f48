"""The learned rule file: the base file included, then the learned passes, most precise first.

The file is written as text, not dumped, so it reads like the bundled rule files: a header that
records how it was learned (the command, the split by document name and the names held back, the
CoNLL F1 of the base rules and of this file on both parts, measured with the engine), and for each
learned pass a comment with what it measured when it was chosen, then its entry with a name and a
description that say what it does and the examples generated from the rule (``examples.py``).
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import Pipeline
from ..errors import RulecorefError, diagnostic
from ..io.outdir import OutputFile, write_atomic
from ..resources import data_root
from ..rule_examples import run_examples
from ..rules.compiler import RuleSet, compile_rules
from ..rules.files import resolve_resource
from .ablate import corpus_f1
from .corpus import SPLIT_SALT, GoldDoc
from .examples import ExampleMaker
from .induce import Chosen, Induction, Stats
from .naming import filter_description, filter_name, match_description, match_name, unique
from .space import FilterRule, MatchRule, Pred, Scope

_BARE = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def scalar(value: Any) -> str:
    """A YAML scalar: bare when it is a plain word, else a double-quoted (JSON) string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    text = str(value)
    if _BARE.match(text) and text.lower() not in ("true", "false", "null", "yes", "no", "on", "off", "y", "n"):
        return text
    return json.dumps(text, ensure_ascii=False)


def flow(value: Any) -> str:
    """A YAML flow value: ``[a, b]``, ``{k: v}`` or a scalar."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    return scalar(value)


def include_path(base: Path, out: Path) -> tuple[str, Path | None]:
    """How the learned file names its base: relative to the learned file when the base is in its
    folder tree, ``rules/NAME`` for a bundled rule file, else the absolute path (and the folder that
    then needs ``--allow-path``)."""
    base, folder = base.resolve(), out.resolve().parent
    if base.is_relative_to(folder):
        return base.relative_to(folder).as_posix(), None
    bundled = (data_root() / "rules").resolve()
    if base.is_relative_to(bundled):
        name = "rules/" + base.relative_to(bundled).as_posix()
        found, _ = resolve_resource(name, out.resolve())
        if found is not None and found.resolve() == base:
            return name, None
    return os.fspath(base), base.parent


@dataclass
class LearnedPass:
    """A chosen rule as it is written: its entry, name, comment and examples."""

    chosen: Chosen
    order: int  # 1 = chosen first
    name: str = ""
    also: list[int] = field(default_factory=list)  # the order of filters merged into this one
    examples: dict[str, list[str]] = field(default_factory=dict)

    @property
    def rule(self) -> MatchRule | FilterRule:
        return self.chosen.rule

    def entry(self) -> dict[str, Any]:
        out = self.rule.entry()
        kind = out.pop("kind")
        described = match_description(self.rule) if isinstance(self.rule, MatchRule) else filter_description(self.rule)
        return {"kind": kind, "name": self.name, "description": described, **out}

    def comment(self) -> list[str]:
        c, s = self.chosen, self.chosen.stats
        when = _ordinal(self.order) if not self.also else (
            ", ".join(_ordinal(k) for k in [self.order, *self.also][:-1]) + f" and {_ordinal(self.also[-1])}, "
            "one type at a time")
        gains = (f"CoNLL F1 {100 * c.gain:+.2f} on the chosen-on documents, {100 * c.held_gain:+.2f} on the held-back "
                 f"ones (chosen {when})")
        if isinstance(self.rule, FilterRule):
            what = (f"learned: removed {s.links} links of the chosen-on documents, "
                    f"{100 * s.precision:.0f}% of them joining different gold entities;")
        else:
            what = (f"learned: {s.new} links join chains the rules before it keep apart, {100 * s.new_precision:.0f}% "
                    f"correctly ({s.links} links in all, {100 * s.precision:.0f}% correct);")
        return _wrap(f"{what} {gains}", "  # ")


def _ordinal(k: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(k, f"{k}th")


def _wrap(text: str, prefix: str, width: int = 104) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(prefix) + len(line) + 1 + len(word) > width:
            lines.append(prefix + line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(prefix + line)
    return lines


def order_passes(chosen: Sequence[Chosen], taken: Sequence[str]) -> list[LearnedPass]:
    """Match rules most precise first (the sieve order), then filters most precise first; names made
    unique against the base file's and each other's."""
    passes = [LearnedPass(c, k + 1) for k, c in enumerate(chosen)]
    matches = sorted((p for p in passes if isinstance(p.rule, MatchRule)), key=lambda p: -p.chosen.stats.new_precision)
    filters = sorted(_merged_filters([p for p in passes if isinstance(p.rule, FilterRule)]),
                     key=lambda p: -p.chosen.stats.precision)
    names = set(taken)
    for p in matches + filters:
        base = match_name(p.rule) if isinstance(p.rule, MatchRule) else filter_name(p.rule)
        p.name = unique(base, names)
        names.add(p.name)
    return matches + filters


def _merged_filters(filters: list[LearnedPass]) -> list[LearnedPass]:
    """Filters with one predicate, each for a list of types, become one filter for all those types:
    a filter judges a link when its scope admits either end, so the union removes exactly the links
    the separate filters remove."""
    out: list[LearnedPass] = []
    groups: dict[tuple[tuple[Pred, ...], tuple[str, ...]], list[LearnedPass]] = {}
    for p in filters:
        rule = p.rule
        assert isinstance(rule, FilterRule)
        if rule.scope.types is None:
            out.append(p)
        else:
            groups.setdefault((rule.remove_if, rule.made_by), []).append(p)
    for (remove_if, made_by), group in groups.items():
        if len(group) == 1:
            out.append(group[0])
            continue
        group.sort(key=lambda p: p.order)
        types = frozenset(t for p in group for t in p.rule.scope.types)
        st = [p.chosen.stats for p in group]
        stats = Stats(sum(x.links for x in st), sum(x.correct for x in st), sum(x.new for x in st),
                      sum(x.new_correct for x in st), sum(x.docs for x in st))
        last = group[-1].chosen
        chosen = Chosen(FilterRule(Scope(types=types), remove_if, made_by), stats, sum(p.chosen.gain for p in group),
                        sum(p.chosen.held_gain for p in group), last.f1_after, last.held_f1_after)
        out.append(LearnedPass(chosen, group[0].order, also=[p.order for p in group[1:]]))
    return out


#: characters that end a line for YAML (PyYAML: \x85, \u2028, \u2029 too) or are no text: in a
#: header comment each is written escaped, so text from the command line (a GOLD folder named
#: "x\npasses: []") stays inside its comment instead of becoming a live line of the file
_NOT_IN_COMMENT = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ufeff]")


def comment_text(text: str) -> str:
    """``text`` for one ``# ...`` comment line: line breaks and control characters escaped (``\n``)."""
    return _NOT_IN_COMMENT.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"), text)


def render(header: Sequence[str], top: dict[str, Any], include: str, passes: Sequence[LearnedPass]) -> str:
    """The learned file's text."""
    out = [f"# {comment_text(line)}" if line else "#" for line in header]
    for key in ("version", "name", "description", "types", "pronoun_types"):
        if key in top:
            out.append(f"{key}: {flow(top[key])}")
    out += ["", "passes:", f"  - include: {scalar(include)}"]
    if passes:
        out += ["", "  # --- learned passes: match rules most precise first, then filters " + "-" * 30]
    for p in passes:
        out.append("")
        out += p.comment()
        entry = p.entry()
        out.append(f"  - kind: {entry.pop('kind')}")
        for key, value in entry.items():
            out.append(f"    {key}: {flow(value)}")
        if p.examples.get("link") or p.examples.get("no_link"):
            out.append("    examples:")
            for expect in ("link", "no_link"):
                items = p.examples.get(expect) or []
                if items:
                    out.append(f"      {expect}:")
                    out += [f"        - {json.dumps(x, ensure_ascii=False)}" for x in items]
    return "\n".join(out) + "\n"


@dataclass
class Written:
    """What ``write_learned`` wrote and measured (CoNLL F1 0-1, engine-measured)."""

    path: Path
    passes: list[LearnedPass]
    base_f1: float
    held_base_f1: float
    f1: float
    held_f1: float
    examples: int = 0
    examples_dropped: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "base_f1": self.base_f1, "held_base_f1": self.held_base_f1,
                "f1": self.f1, "held_f1": self.held_f1, "examples": self.examples,
                "examples_dropped": self.examples_dropped,
                "passes": [{"name": p.name, **p.rule.entry(), "precision": p.chosen.stats.new_precision,
                            "gain": p.chosen.gain, "held_gain": p.chosen.held_gain} for p in self.passes]}


def write_learned(result: Induction, docs: Sequence[GoldDoc], base_path: Path, base: RuleSet, sink: OutputFile,
                  resources: Any, *, examples: bool = True, command: str = "", settings_note: str = "") -> Written:
    """Write the learned file to ``sink`` (checked, atomically: ``io/outdir.py``), after measuring
    it with the engine on both parts of the split and checking its examples as ``rulecoref check`` does."""
    out = sink.path
    passes = order_passes(result.chosen, [p.name for p in base.passes])
    include, allow = include_path(base_path, out)
    allow_paths = [allow] if allow else []
    corpus_types = sorted({c.type for gd in docs for c in gd.doc.concepts} - set(base.types))
    top = {"version": 1, "name": out.name.split(".")[0],
           "description": f"{base.name} with {len(passes)} pass{'' if len(passes) == 1 else 'es'} learned from gold "
                          "chains (rulecoref induce)",
           "types": [*base.types, *corpus_types], "pronoun_types": sorted(base.pronoun_types)}
    tmp = out.parent / f".{out.name}.{secrets.token_hex(4)}.tmp.yaml"
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        write_atomic(tmp, render([], top, include, passes))
        ruleset = compile_rules(tmp, allow_paths=allow_paths)
        written = Written(out, passes, result.base_f1, result.held_base_f1, 0.0, 0.0)
        if examples and passes:
            seen = sorted({c.type for gd in docs for c in gd.doc.concepts})
            ruleset = _add_examples(ruleset, passes, len(base.passes), tmp, top, include, resources, allow_paths,
                                    written, seen)
        held = set(result.held_names)
        pipeline = Pipeline(ruleset, resources, find_mentions="off")  # the gold concepts
        written.f1 = corpus_f1(pipeline, [gd for gd in docs if gd.name not in held])
        written.held_f1 = corpus_f1(pipeline, [gd for gd in docs if gd.name in held]) if held else 0.0
        header = _header(result, written, base_path, include, command, settings_note, allow)
        sink.write(render(header, top, include, passes))
        compile_rules(out, allow_paths=allow_paths)
    finally:
        tmp.unlink(missing_ok=True)
    return written


def _add_examples(ruleset: RuleSet, passes: Sequence[LearnedPass], first: int, tmp: Path, top: dict[str, Any],
                  include: str, resources: Any, allow_paths: list[Path], written: Written,
                  prefer: Sequence[str]) -> RuleSet:
    """Generate each learned pass's examples, then run them all as ``rulecoref check`` does and drop
    any that does not behave as stated (RC576 if the file still fails)."""
    maker = ExampleMaker(ruleset, resources, prefer)
    for k, p in enumerate(passes):
        p.examples = maker.examples(first + k)
    write_atomic(tmp, render([], top, include, passes))
    ruleset = compile_rules(tmp, allow_paths=allow_paths)
    for r in run_examples(ruleset, resources):
        mine = next((p for p in passes if p.name == r.pass_name), None)
        if r.ok:
            written.examples += mine is not None
            continue
        if mine is None:
            raise RulecorefError(diagnostic("RC576", path=str(tmp), detail=r.describe()))
        mine.examples[r.expect].remove(r.example)
        written.examples_dropped += 1
    if written.examples_dropped:
        write_atomic(tmp, render([], top, include, passes))
        ruleset = compile_rules(tmp, allow_paths=allow_paths)
    return ruleset


def _header(result: Induction, w: Written, base_path: Path, include: str, command: str, note: str,
            allow: Path | None) -> list[str]:
    kept, held = result.train_names, result.held_names
    lines = [f"Learned by `rulecoref induce` from the gold chains of {len(kept) + len(held)} documents, on top of "
             f"{include}.", *(["command: " + command] if command else [])]
    lines += _wrap(f"Rules were chosen on {len(kept)} documents; each was kept only if it also raised the CoNLL F1 of "
                   f"the {len(held)} documents held back (split by document name: the {len(held)} names with the lowest "
                   f"blake2b('{SPLIT_SALT}:' + name), {result.holdout:.0%} of them). Held back:", "")
    lines += _wrap(", ".join(held) or "(none)", "  ")
    last = result.chosen[-1] if result.chosen else None
    rows = [("CoNLL F1, measured with the engine", "chosen-on", "held back"),
            (f"  base rules ({base_path.name})", f"{100 * w.base_f1:.2f}", f"{100 * w.held_base_f1:.2f}"),
            ("  with the learned passes", f"{100 * w.f1:.2f}", f"{100 * w.held_f1:.2f}")]
    if last is not None:
        rows.append(("  (the search's own estimate)", f"{100 * last.f1_after:.2f}", f"{100 * last.held_f1_after:.2f}"))
    lines += [""] + [f"{a:<40}{b:>10}{c:>11}" for a, b, c in rows]
    lines.append("")
    if note:
        lines += _wrap(note, "")
    lines += _wrap("Every learned pass is an ordinary rule: edit or delete it, then run `rulecoref check` on this file "
                   "(docs/induce.md). Its examples are generated from the rule and the rule file's word lists, not "
                   "taken from the training documents.", "")
    if allow is not None:
        lines += _wrap(f"The base file lies outside this file's folder: commands need --allow-path {allow}.", "")
    return lines
