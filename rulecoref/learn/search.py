"""Greedy search over a rule file's top-level passes: move one, switch one off, or change one of its
numbers, whichever raises the CoNLL F1 most; repeat while a change helps.

What can change the chains is small and known, so the search tries only that: the order of linking
passes among themselves changes nothing (each ``match`` rule and positional kind proposes links from
the mention table alone), only which linking passes run before each filter (filters judge the
links made so far), so a move is tried only when it changes that, once per distinct outcome. A
number is a pass's ``int``/``float`` parameter or a ``match`` rule's ``window``, tried a step or two
and a factor of two either way within its declared bounds. An include is moved or switched off as a
whole. Each candidate runs through the engine on every document.

As ``induce`` does, the documents are split by name: a change is chosen on one part and kept only if
it raises the F1 of the part held back, so the file is not tuned to the documents it is judged on.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import Pipeline
from ..io.outdir import OutputFile, temp_name, write_atomic
from ..passes import PassConfig, get_kind
from ..resources import Resources
from ..rules.compiler import RuleSet, compile_rules
from .ablate import corpus_f1
from .corpus import GoldDoc, split_by_name
from .rewrite import RuleText

Progress = Callable[[int], None]


@dataclass(frozen=True)
class Unit:
    """A top-level entry: one pass, or an include (its passes), or a pass that is off (none)."""

    index: int
    passes: tuple[PassConfig, ...]
    label: str
    include: bool = False


@dataclass(frozen=True)
class Config:
    order: tuple[int, ...]
    dropped: frozenset[int] = frozenset()
    numbers: tuple[tuple[tuple[int, tuple[str, str]], Any], ...] = ()

    def number(self, unit: int, path: tuple[str, str]) -> Any:
        return next((v for (u, p), v in self.numbers if u == unit and p == path), None)

    def with_number(self, unit: int, path: tuple[str, str], value: Any) -> Config:
        rest = tuple(x for x in self.numbers if x[0] != (unit, path))
        return Config(self.order, self.dropped, rest + (((unit, path), value),))


@dataclass
class Change:
    what: str  # "move", "off", "set"
    unit: int
    label: str
    detail: str
    config: Config
    gain: float = 0.0
    held_gain: float = 0.0
    f1_after: float = 0.0

    def describe(self) -> str:
        return {"move": f"moved {self.label} {self.detail}", "off": f"switched off {self.label}",
                "set": f"{self.label}: {self.detail}"}[self.what]


@dataclass
class SearchResult:
    path: Path
    text: RuleText
    units: list[Unit]
    config: Config
    start_f1: float
    final_f1: float
    held_start_f1: float
    held_final_f1: float
    held_names: list[str]
    changes: list[Change] = field(default_factory=list)
    tried: int = 0
    allow_paths: tuple[Path, ...] = ()

    def render(self, out: Path) -> str:
        notes: dict[int, list[str]] = {}
        for ch in self.changes:
            notes.setdefault(ch.unit, []).append(
                f"{ch.describe()}: CoNLL F1 {100 * ch.gain:+.2f} on the chosen-on documents, "
                f"{100 * ch.held_gain:+.2f} on the held-back ones")
        numbers = {k: v for k, v in self.config.numbers}
        return self.text.render(list(self.config.order), dropped=set(self.config.dropped), numbers=numbers,
                                notes=notes, out=out)

    def write(self, sink: OutputFile) -> None:
        """Write the winning file (atomically: ``io/outdir.py``) once it compiles where it will lie:
        it reads what the original reads, so the original's folder is allowed (``needs_allow``)."""
        text = self.render(sink.path)
        tmp = sink.path.parent / temp_name(sink.path.name)
        try:
            write_atomic(tmp, text)
            compile_rules(tmp, allow_paths=(*self.allow_paths, *self.needs_allow(sink.path)))
        finally:
            tmp.unlink(missing_ok=True)
        sink.write(text)

    def needs_allow(self, out: Path) -> tuple[Path, ...]:
        """The original's folder when ``out`` lies outside its tree: the written file includes and
        reads files there, and commands need ``--allow-path`` for it."""
        home = self.path.resolve().parent
        return () if home.is_relative_to(out.resolve().parent) else (home,)

    def to_dict(self) -> dict[str, Any]:
        return {"rules": str(self.path), "conll_f1": self.start_f1, "final_conll_f1": self.final_f1,
                "held_back_conll_f1": self.held_start_f1, "held_back_final_conll_f1": self.held_final_f1,
                "held_back": self.held_names, "tried": self.tried,
                "changes": [{"change": c.describe(), "gain": c.gain, "held_gain": c.held_gain,
                             "conll_f1_after": c.f1_after} for c in self.changes]}


def units_of(ruleset: RuleSet, text: RuleText) -> list[Unit]:
    """The file's top-level entries with the compiled passes each holds, in file order."""
    top = Path(ruleset.path).resolve()
    passes = list(ruleset.passes)
    out = []
    k = 0
    for b in text.blocks:
        if b.include:
            mine = []
            while k < len(passes) and Path(passes[k].rule_file).resolve() != top:
                mine.append(passes[k])
                k += 1
            out.append(Unit(b.index, tuple(mine), f"include {b.entry['include']}", include=True))
        elif k < len(passes) and passes[k].line == b.item + 1 and Path(passes[k].rule_file).resolve() == top:
            out.append(Unit(b.index, (passes[k],), repr(passes[k].name)))
            k += 1
        else:
            out.append(Unit(b.index, (), f"pass at line {b.item + 1} (off)"))
    return out


def build(ruleset: RuleSet, units: Sequence[Unit], config: Config) -> RuleSet | None:
    """The rule set of a configuration, or None when a pass would run before one it requires."""
    passes: list[PassConfig] = []
    for k in config.order:
        if k in config.dropped:
            continue
        for cfg in units[k].passes:
            passes.append(_with_numbers(cfg, k, config))
    seen: set[str] = set()
    for cfg in passes:
        cls = get_kind(cfg.kind)
        if cls is not None and any(r not in seen for r in cls.requires):
            return None
        seen.add(cfg.kind)
    sub = copy.copy(ruleset)
    sub.passes = passes
    return sub


def _with_numbers(cfg: PassConfig, unit: int, config: Config) -> PassConfig:
    params, rule = dict(cfg.params), dict(cfg.rule)
    changed = False
    for (u, (group, name)), value in config.numbers:
        if u != unit:
            continue
        changed = True
        if group == "params":
            params[name] = value
        else:
            rule[group] = {**rule.get(group, {}), name: value}
    return dataclasses.replace(cfg, params=params, rule=rule) if changed else cfg


def signature(units: Sequence[Unit], config: Config) -> tuple:
    """What decides the chains besides the passes themselves: the linking passes before each filter."""
    before: list[str] = []
    out = []
    for k in config.order:
        if k in config.dropped:
            continue
        for cfg in units[k].passes:
            if getattr(get_kind(cfg.kind), "role", "link") == "filter":
                out.append((cfg.name, frozenset(before)))
            else:
                before.append(cfg.name)
    return tuple(out)


def candidates(units: Sequence[Unit], config: Config, text: RuleText) -> list[Change]:
    """Every single change of ``config`` worth running: moves that change a filter's input (and keep
    each YAML alias of ``text`` after its anchor), passes switched off, numbers stepped."""
    out: list[Change] = []
    order = list(config.order)
    current = signature(units, config)
    seen = {current}
    for pos, k in enumerate(order):
        u = units[k]
        if not u.passes or k in config.dropped:
            continue
        out.append(Change("off", k, u.label, "", Config(config.order, config.dropped | {k}, config.numbers)))
        moves = sorted((t for t in range(len(order)) if t != pos), key=lambda t: abs(t - pos))
        for t in moves:
            new = order[:pos] + order[pos + 1:]
            new.insert(t, k)
            cfg = Config(tuple(new), config.dropped, config.numbers)
            sig = signature(units, cfg)
            if sig in seen or not text.loads_in(new):
                continue
            seen.add(sig)
            neighbour = units[new[t + 1]].label if t + 1 < len(new) else None
            where = f"before {neighbour}" if neighbour else "to the end"
            out.append(Change("move", k, u.label, where, cfg))
        if len(u.passes) == 1 and not u.include:
            out += _number_changes(k, u.passes[0], config)
    return out


def _number_changes(k: int, cfg: PassConfig, config: Config) -> list[Change]:
    cls = get_kind(cfg.kind)
    found: list[tuple[tuple[str, str], Any, Any]] = []  # (path, spec, current)
    for name, spec in (cls.params if cls else {}).items():
        if spec.kind in ("int", "float"):
            found.append((("params", name), spec, cfg.params.get(name, spec.default)))
    if "window" in (cls.rule_keys if cls else {}):
        spec = cls.rule_keys["window"].fields["sentences"]
        found.append((("window", "sentences"), spec, cfg.rule.get("window", {}).get("sentences", 0)))
    out = []
    for path, spec, value in found:
        now = config.number(k, path)
        value = value if now is None else now
        for new in steps(value, spec.kind, spec.minimum, spec.maximum, window=path[0] == "window"):
            out.append(Change("set", k, cfg.name, f"{path[1]} {value} -> {new}", config.with_number(k, path, new)))
    return out


def steps(value: Any, kind: str, lo: float | None, hi: float | None, window: bool = False) -> list[Any]:
    """Values near ``value`` within [lo, hi]: a step or two and a factor of two either way."""
    if kind == "float":
        raw = [round(value + d, 4) for d in (-0.1, -0.05, 0.05, 0.1)]
    elif window and value == 0:
        raw = [1, 3, 10]  # 0 is any distance
    elif value < 0:
        raw = [0, 1, 2, 5, 10]  # a negative int means "any" (who_pronoun's -1)
    else:
        raw = [value - 2, value - 1, value + 1, value + 2, value * 2, value // 2] + ([0] if window else [])
    out = []
    for v in raw:
        if v == value or (lo is not None and v < lo) or (hi is not None and v > hi) or v in out:
            continue
        out.append(v)
    return out


def search_rules(path: Path, ruleset: RuleSet, docs: Sequence[GoldDoc], resources: Resources | None = None, *,
                 max_changes: int = 8, min_gain: float = 0.0005, holdout: float = 0.33,
                 progress: Progress | None = None, allow_paths: Sequence[Path] = ()) -> SearchResult:
    """Greedy search (module docstring); ``result.write(sink)`` writes the winning file."""
    resources = resources or Resources()
    text = RuleText(path)
    units = units_of(ruleset, text)
    kept, back = split_by_name([gd.name for gd in docs], holdout)
    train = [gd for gd in docs if gd.name in set(kept)]
    held = [gd for gd in docs if gd.name in set(back)]
    settings = Pipeline(ruleset, resources).settings

    def measure(cfg: Config) -> tuple[float, float] | None:
        rs = build(ruleset, units, cfg)
        if rs is None:
            return None
        pipe = Pipeline(rs, resources, settings=settings, find_mentions="off")  # the gold concepts
        f = corpus_f1(pipe, train), (corpus_f1(pipe, held) if held else 0.0)
        if progress:
            progress(1)
        return f

    config = Config(tuple(range(len(units))))
    start = measure(config)
    assert start is not None  # the compiler accepted the file
    f1, held_f1 = start
    result = SearchResult(path, text, units, config, f1, f1, held_f1, held_f1, back, allow_paths=tuple(allow_paths))
    while len(result.changes) < max_changes:
        measured = []
        for ch in candidates(units, result.config, text):
            got = measure(ch.config)
            result.tried += 1
            if got is not None:
                ch.gain, ch.held_gain, ch.f1_after = got[0] - f1, got[1] - held_f1, got[0]
                measured.append(ch)
        measured.sort(key=lambda c: -c.gain)
        best = next((c for c in measured if c.gain >= min_gain and (not held or c.held_gain > 0)), None)
        if best is None:
            break
        result.changes.append(best)
        result.config = best.config
        f1, held_f1 = best.f1_after, held_f1 + best.held_gain
    result.final_f1, result.held_final_f1 = f1, held_f1
    return result
