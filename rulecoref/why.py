"""Why two mentions were (or were not) linked, pass by pass: the answer ``rulecoref explain`` prints.

A resolution records the links that were made and the ones a filter removed, but "no pass linked
this pair" leaves the user guessing which rule compared them and what failed. Here every pass of
the rule file, in order, gets a verdict for the pair, asked again of the pass's own scope,
blocking keys, window and predicates (they are pure, so asking again gives the answer the run
got):

    linked                 the pass linked them (its evidence)
    not_in_scope           its ``applies_to`` does not admit the two types
    not_a_candidate        the blocking key's values of the two mentions share none
    outside_window         more sentences apart than the rule's window
    requirement_false      a ``require`` predicate does not hold (which, with the values it read)
    vetoed                 a ``veto`` predicate holds (which, with its evidence)
    nearer_linked          ``antecedent: nearest`` took a nearer candidate that passed
    not_proposed           a positional pass (a pronoun or a be-phrase rule) did not pair them
    disabled               the rule file switches the pass off (``enabled: false``)
    removed / kept / nothing_to_filter   a filter took the link out, left it, or had none to judge

and a last entry from the decoder: the two in one chain directly, joined through others (the
path of links), or in separate chains. The rows are plain dicts, ready for ``--json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .candidates import key_values
from .document import pair_key
from .passes import PassConfig
from .predicates import PREDICATES

if TYPE_CHECKING:
    from .candidates import TypeScope
    from .engine import Pipeline, Resolution
    from .mentions import MentionTable
    from .passes import Pass


def explain_pair(pipe: Pipeline, res: Resolution, a: int, b: int) -> dict[str, Any]:
    """Everything ``explain`` says about mentions ``a`` and ``b``: the resolution's own account
    (links, removal, path) and, under ``passes``, every pass's verdict in rule-file order."""
    why = res.explain(a, b)
    rows = pass_verdicts(pipe, res, a, b)
    why["vetoed_by"] = [{"pass": r["pass"], **v} for r in rows for v in r.get("vetoes", ())]
    why["passes"] = rows + [chain_verdict(res, why)]
    return why


def pass_verdicts(pipe: Pipeline, res: Resolution, a: int, b: int) -> list[dict[str, Any]]:
    """One row per pass: ``{"pass", "kind", "verdict", "reason"}`` (a veto row also ``vetoes``)."""
    pair = pair_key(a, b)
    linked_now = False  # whether a link between the two stands when the next filter runs
    rows = []
    for p in _in_order(pipe):
        if isinstance(p, PassConfig):  # switched off in the rule file
            where = f"{Path(p.rule_file).name}:{p.line}"
            rows.append({"pass": p.name, "kind": p.kind, "verdict": "disabled",
                         "reason": f"enabled: false ({where}); an include's enable: [{p.name}] switches it on"})
            continue
        if p.role == "filter":
            row = _filter_verdict(p, res, pair, linked_now)
            linked_now = linked_now and row["verdict"] != "removed"
        else:
            row = _link_verdict(p, res, pair)
            linked_now = linked_now or row["verdict"] == "linked"
        rows.append({"pass": p.name, "kind": p.config.kind, **row})
    return rows


def _in_order(pipe: Pipeline) -> list[Pass | PassConfig]:
    """The pipeline's passes with the rule file's switched-off ones (their configs) in their places."""
    live = {p.name: p for p in pipe.passes}
    every = pipe.ruleset.every_pass
    if not every or [c.name for c in every if c.enabled] != list(live):  # a rule set made in code
        return list(pipe.passes)
    return [live[c.name] if c.enabled else c for c in every]


def chain_verdict(res: Resolution, why: dict[str, Any]) -> dict[str, Any]:
    """The decoder's row: one chain by a direct link, through others (the path), or apart."""
    row = {"pass": f"decoder {res.decoder}", "kind": "decoder"}
    if not why["same_chain"]:
        return {**row, "verdict": "separate_chains", "reason": "the decoder put them in different chains"}
    path = why["path"]
    if len(path) == 1 or (not path and why["proposed_by"] and not why["removed_by"]):
        return {**row, "verdict": "linked", "reason": "a kept link joins them directly"}
    if not path:
        return {**row, "verdict": "same_chain", "reason": f"the {res.decoder} decoder put them in one chain"}
    steps = " -> ".join([path[0]["from"], *(step["to"] for step in path)])
    by = "; ".join(", ".join(b["pass"] for b in step["by"]) for step in path)
    return {**row, "verdict": "joined_through_others", "reason": f"{steps} (by {by})"}


def _link_verdict(p: Pass, res: Resolution, pair: tuple[int, int]) -> dict[str, Any]:
    links = [l for l in res.proposed if l.pair == pair and l.provenance.pass_name == p.name]
    if links:
        return {"verdict": "linked", "reason": "; ".join(l.provenance.evidence for l in links)}
    t = res.table
    assert t is not None  # set by run_passes
    earlier, later = pair
    outside = _out_of_scope(p.scope, t["type"][earlier], t["type"][later])
    if outside:
        return {"verdict": "not_in_scope", "reason": outside}
    spec = p.search()
    if spec is None:
        what = p.config.description or (type(p).__doc__ or p.config.kind).strip().splitlines()[0]
        return {"verdict": "not_proposed", "reason": f"the {p.config.kind} pass did not pair them ({what})"}
    orders = [(later, earlier)] + ([(earlier, later)] if spec.direction == "backward_then_forward" else [])
    shared = [(i, j, s) for i, j in orders if (s := _shared_keys(t, spec.keys, spec.antecedent_keys, i, j))]
    if not shared:
        return {"verdict": "not_a_candidate", "reason": _key_values(t, spec.keys, spec.antecedent_keys, later, earlier)}
    i, j, keys = shared[0]
    lines = t["line"]
    if spec.window and abs(lines[i] - lines[j]) > spec.window:
        return {"verdict": "outside_window", "reason": f"{abs(lines[i] - lines[j])} sentences apart; the window is "
                                                         f"{spec.window} (window: {{sentences: {spec.window}}})"}
    failed = _predicates(p, t, i, j)
    if failed is not None:
        return failed
    return _nearer(p, res, i, j, keys)


def _out_of_scope(scope: TypeScope, ta: str, tb: str) -> str:
    """Why ``applies_to`` does not admit the pair, or "" when it does."""
    if scope.allows_types(ta, tb):
        return ""
    for ty in dict.fromkeys((ta, tb)):
        if ty in scope.exclude:
            return f"type {ty!r} is excluded (applies_to: exclude_types: [{', '.join(sorted(scope.exclude))}])"
        if scope.types is not None and ty not in scope.types:
            return f"type {ty!r} is not one of applies_to: types: [{', '.join(sorted(scope.types))}]"
    return f"types {ta!r} and {tb!r} differ and neither is a pronoun type (applies_to: same_type: true)"


def _shared_keys(t: MentionTable, keys: tuple[str, ...], other_keys: tuple[str, ...] | None, i: int, j: int
                 ) -> list[str]:
    """The blocking values mention ``i`` and candidate ``j`` share, as 'key: value' texts."""
    out = []
    for key, other in zip(keys, other_keys or keys):
        common = set(key_values(t[key][i])).intersection(key_values(t[other][j]))
        out += [f"{key if key == other else f'{key} / {other}'} {v!r}" for v in sorted(map(str, common))]
    return out


def _key_values(t: MentionTable, keys: tuple[str, ...], other_keys: tuple[str, ...] | None, i: int, j: int) -> str:
    """The blocking key's values for both mentions, for "not a candidate"."""
    parts = []
    for key, other in zip(keys, other_keys or keys):
        parts.append(f"{key} of {_mention(t, i)} is {_value(t[key][i])}, {other} of {_mention(t, j)} is "
                     f"{_value(t[other][j])}")
    return "no blocking value in common: " + "; ".join(parts)


def _predicates(p: Pass, t: MentionTable, i: int, j: int) -> dict[str, Any] | None:
    """The first ``require`` that fails (with the values it read), else every ``veto`` that holds."""
    rule = p.config.rule
    for name, params in rule.get("require", ()):
        if PREDICATES[name].bind(params)(t, i, j) is None:
            spec = PREDICATES[name]
            limited = spec.limited_to(params)
            values = "; ".join(f"{a} {_value(t[a][i])} / {_value(t[a][j])}" for a in spec.reads(params))
            scope = f" (only between {', '.join(sorted(limited))})" if limited else ""
            return {"verdict": "requirement_false", "reason": f"require {name} does not hold{scope} for "
                                                              f"{_mention(t, i)} / {_mention(t, j)}: {values}"}
    vetoes = []
    for name, params in rule.get("veto", ()):
        evidence = PREDICATES[name].bind(params)(t, i, j)
        if evidence is not None:
            vetoes.append({"veto": name, "evidence": str(evidence)})
    if vetoes:
        return {"verdict": "vetoed", "reason": "; ".join(f"veto {v['veto']}: {v['evidence']}" for v in vetoes),
                "vetoes": vetoes}
    return None


def _nearer(p: Pass, res: Resolution, i: int, j: int, keys: list[str]) -> dict[str, Any]:
    """A candidate that passed every test and still was not linked: a nearer one was taken."""
    t = res.table
    assert t is not None
    others = [l for l in res.proposed if l.provenance.pass_name == p.name and i in l.pair and j not in l.pair]
    if p.config.rule.get("antecedent", "nearest") == "nearest" and others:
        took = others[0].b if others[0].a == i else others[0].a
        return {"verdict": "nearer_linked", "reason": f"antecedent: nearest; {_mention(t, i)} was linked to the "
                                                      f"nearer candidate {_mention(t, took)} (shared {', '.join(keys)})"}
    return {"verdict": "not_linked", "reason": f"a candidate (shared {', '.join(keys)}) that passes every test, "
                                               "yet the pass did not link it"}


def _mention(t: MentionTable, i: int) -> str:
    c = t.doc.concepts[i]
    return f"'{c.text}' ({c.start[0]}:{c.start[1]})"


def _value(value: Any) -> str:
    """An attribute value as a reader wants it: a set sorted, nothing as 'none'."""
    if value is None or value == "" or value == () or value == frozenset():
        return "none"
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(map(str, value))) + "}"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(map(str, value)) + ")"
    return repr(value)


def _filter_verdict(p: Pass, res: Resolution, pair: tuple[int, int], linked: bool) -> dict[str, Any]:
    """A filter's verdict: a ``filter`` entry's ``remove_if`` asked again; other filter kinds (the
    people linker's) as the run recorded them."""
    if not linked:
        return {"verdict": "nothing_to_filter", "reason": "no pass before this filter linked them"}
    t = res.table
    assert t is not None
    earlier, later = pair
    types = t["type"]
    if not (p.scope.admits_type(types[earlier]) or p.scope.admits_type(types[later])):
        return {"verdict": "kept", "reason": f"its applies_to admits neither {types[earlier]!r} nor {types[later]!r}"}
    made_by = p.config.rule.get("made_by") or ()
    makers = sorted({l.provenance.pass_name for l in res.proposed if l.pair == pair} - set(made_by)) if made_by else []
    if makers:
        return {"verdict": "kept", "reason": f"also linked by {', '.join(makers)}, which made_by does not name"}
    remove_if = p.config.rule.get("remove_if")
    if remove_if is None:
        removal = res.removed.get(pair)
        if removal is not None and removal.by.pass_name == p.name:
            return {"verdict": "removed", "reason": removal.by.evidence}
        return {"verdict": "kept", "reason": f"the {p.config.kind} filter left the link"}
    for name, params in remove_if:
        evidence = PREDICATES[name].bind(params)(t, later, earlier)
        if evidence is not None:
            return {"verdict": "removed", "reason": f"remove_if {name}: {evidence}"}
    return {"verdict": "kept", "reason": f"none of remove_if holds: {', '.join(name for name, _ in remove_if)}"}
