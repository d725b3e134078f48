"""HTML for the view: one self-contained page per document and an index of them all.

Plain HTML with the stylesheet and script inlined (``viewer.css``, ``viewer.js`` beside this file):
no template library, no CDN, nothing fetched, so a page opens from ``file://`` anywhere. The text
is rendered on the server (every mention an element with ``data-m``, ``data-type`` and, in a
chain, ``data-chain``), so a page shows its chains before any script runs; the script only adds
the highlighting and the side panel, from the page's JSON.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from importlib import resources
from pathlib import Path
from urllib.parse import quote

from ..document import Document
from .model import DocView

GOLDEN_ANGLE = 137.508  # successive chains get hues far apart, whatever their number
OPEN_LIST = 40  # diff lists up to this long are shown open


def asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _hue(k: int) -> int:
    return round((k * GOLDEN_ANGLE + 200) % 360)


def _pos(doc: Document, i: int) -> str:
    c = doc.concepts[i]
    return f"{c.start[0]}:{c.start[1]}" if c.start == c.end else f"{c.start[0]}:{c.start[1]}\u2013{c.end[0]}:{c.end[1]}"


def _json(data: object) -> str:
    """JSON safe inside <script>: no "</script>" or "<!--" can appear."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def render_text(doc: Document, attrs: Sequence[str]) -> str:
    """The note, one ``div.ln`` per line, each mention a ``span.m`` with ``attrs[i]``.

    Mentions may nest, cross each other or span lines; HTML elements only nest, so a mention is
    closed where an element around it closes and reopened right after: it then has several
    elements with the same ``data-m`` (the script treats them as one).
    """
    pieces: list[list[tuple[int, int, int]]] = [[] for _ in doc.lines]  # per line: (start, end, mention)
    for c in doc.concepts:
        for line in range(c.start[0], c.end[0] + 1):
            n = len(doc.lines[line - 1])
            start = c.start[1] if line == c.start[0] else 0
            end = c.end[1] if line == c.end[0] else n - 1
            if start <= end:
                pieces[line - 1].append((start, end, c.index))
    out = []
    for ln, (tokens, here) in enumerate(zip(doc.lines, pieces), 1):
        out.append(f'<div class="ln" data-line="{ln}"><span class="tx">{_render_line(tokens, here, attrs)}</span></div>')
    return "\n".join(out)


def _render_line(tokens: list[str], pieces: list[tuple[int, int, int]], attrs: Sequence[str]) -> str:
    starting: dict[int, list[tuple[int, int, int]]] = {}
    for p in pieces:
        starting.setdefault(p[0], []).append(p)
    end_of = {p[2]: p[1] for p in pieces}
    html: list[str] = []
    stack: list[int] = []  # open mentions, outermost first
    first_seen: set[int] = set()
    for t, tok in enumerate(tokens):
        reopen: list[int] = []
        ended = [k for k, m in enumerate(stack) if end_of[m] < t]
        if ended:
            k = ended[0]
            html.append("</span>" * (len(stack) - k))
            reopen = [m for m in stack[k:] if end_of[m] >= t]
            del stack[k:]
        if t:
            html.append(" ")
        new = reopen + [m for _, _, m in starting.get(t, ())]
        new.sort(key=lambda m: (-end_of[m], m))  # the longer one outside
        for m in new:
            anchor = "" if m in first_seen else f' id="m{m}"'
            first_seen.add(m)
            html.append(f'<span class="m"{anchor}{attrs[m]}>')
        stack.extend(new)
        html.append(escape(tok, quote=False))
    html.append("</span>" * len(stack))
    return "".join(html)


def document_page(view: DocView, *, index_href: str = "index.html") -> str:
    """One document's page."""
    doc = view.doc
    chains, types = view.shown
    chain_of = {m: k for k, c in enumerate(chains) for m in c}
    diff = view.diff()
    marks: dict[int, list[str]] = {}
    if diff is not None:
        for kind in ("wrong", "missing"):
            for _, b in diff[kind]:
                marks.setdefault(b, []).append(kind)
    attrs = []
    for c in doc.concepts:
        a = f' data-m="{c.index}" data-type="{escape(c.type)}"'
        k = chain_of.get(c.index)
        if k is not None:
            a += f' data-chain="{k}" style="--h:{_hue(k)}"'
        if c.index in marks:
            a += f' data-diff="{" ".join(sorted(set(marks[c.index])))}"'
        attrs.append(a)
    mentions = [[doc.surface(c), c.type, _pos(doc, c.index)] for c in doc.concepts]
    prov = view.provenance
    rules: dict[tuple[str, str, str], int] = {}  # (pass, kind, file:line) -> index: thousands of links share a few

    def rule(row: dict) -> int:
        return rules.setdefault(_why(row), len(rules))
    data = {
        "doc": doc.name,
        "system": view.system is not None,
        "m": mentions,
        "chains": [[t, list(c)] for c, t in zip(chains, types)],
        "gold": [[t, list(c)] for c, t in zip(view.gold, view.gold_types or [""] * len(view.gold))]
        if view.gold is not None else None,
        "links": [[l["a"], l["b"], 1 if l.get("kept") else 0, rule(l), l.get("evidence", "")] for l in prov.links]
        if prov else [],
        "removed": [[r["a"], r["b"], rule(r), r.get("evidence", "")] for r in prov.removed] if prov else [],
        "diff": {k: [list(p) for p in v] for k, v in diff.items()} if diff is not None else None,
    }
    data["rules"] = [list(r) for r in rules]  # after the links: they fill it
    source = "system chains" if view.system is not None else "gold chains" if view.gold is not None else "no chains"
    stats = (f"{len(doc.concepts)} mentions \u00b7 {len(chains)} {source}"
             + (f" \u00b7 {len(view.gold or [])} gold chains" if view.system is not None and view.gold is not None else ""))
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{escape(doc.name)} \u00b7 rulecoref view</title><style>{asset('viewer.css')}</style></head>\n"
        f"<body><header><a href=\"{escape(index_href)}\">all documents</a><h1>{escape(doc.name)}</h1>"
        f"<span class=\"stats\">{escape(stats)}</span></header>\n"
        f"<main><article id=\"text\" class=\"text\">\n{render_text(doc, attrs)}\n</article>\n"
        f"<aside><section id=\"summary\">{_summary(view, diff)}</section>"
        "<section id=\"detail\"><p class=\"note\">Click or hover a mention to see its chain"
        + (" and who linked it" if prov else "") + ".</p></section></aside></main>\n"
        f"<script type=\"application/json\" id=\"data\">{_json(data)}</script>\n"
        f"<script>{asset('viewer.js')}</script>\n</body></html>\n"
    )


def _why(row: dict) -> tuple[str, str, str]:
    """(pass, kind, rule file:line) of a provenance row."""
    rule = Path(str(row.get("rule_file") or "")).name
    where = f"{rule}:{row.get('rule_line')}" if rule else ""
    return (str(row.get("pass", "")), str(row.get("kind", "")), where)


def _summary(view: DocView, diff: dict[str, list[tuple[int, int]]] | None) -> str:
    parts = ['<div class="legend"><span><i class="key chain"></i>chain (one colour each)</span>'
             '<span><i class="key single"></i>singleton</span>']
    if diff is not None:
        parts.append('<span><i class="key wrong"></i>wrong link</span><span><i class="key missing"></i>missing link</span>')
    parts.append("</div>")
    if view.system is None and view.gold is not None:
        parts.append('<p class="note">Gold chains (no --system output given).</p>')
    if view.system is not None and view.provenance is None:
        parts.append('<p class="note">No provenance: run <code>rulecoref resolve --provenance</code> to see who linked what.</p>')
    for w in view.warnings:
        parts.append(f'<p class="note">{escape(str(w))}</p>')
    if diff is None:
        return "".join(parts)
    parts.append(f'<h2>Against the gold</h2><p>{len(diff["correct"])} correct, {len(diff["wrong"])} wrong, '
                 f'{len(diff["missing"])} missing links (each mention to the one before it in its chain)</p>')
    for kind in ("wrong", "missing"):
        if not diff[kind]:
            continue
        # the script fills the list from the page's data when it is opened: a long one starts folded,
        # and thousands of items would slow the page's opening
        parts.append(f'<details data-kind="{kind}"{" open" if len(diff[kind]) <= OPEN_LIST else ""}><summary>'
                     f'{kind.capitalize()} links ({len(diff[kind])})</summary><ul class="diff {kind}"></ul></details>')
    return "".join(parts)


@dataclass
class IndexRow:
    """One document's line in the index."""

    name: str
    mentions: int = 0
    gold_chains: int | None = None
    system_chains: int | None = None
    diff: dict[str, int] | None = None
    conll_f1: float | None = None
    i2b2: float | None = None
    problem: str = ""  # why the document has no page


#: The index page; a document of that name gets another page name (``page_name``).
INDEX_PAGE = "index.html"


def page_name(name: str) -> str:
    """A document's page: NAME.html, but NAME.doc.html for a document named "index" (in any case,
    for case-insensitive file systems), whose page would be the index page. Document names hold
    no '.', so no other document's page can be NAME.doc.html."""
    return f"{name}.doc.html" if f"{name}.html".casefold() == INDEX_PAGE else f"{name}.html"


def index_page(rows: Sequence[IndexRow], total: IndexRow | None, note: str = "") -> str:
    """The index: every document, sortable by any column; scores where gold and system are given."""
    head = ["document", "mentions", "gold chains", "system chains", "correct", "wrong", "missing", "CoNLL F1", "i2b2"]

    def cells(r: IndexRow, link: bool) -> str:
        d = r.diff or {}
        values: list[object] = [r.mentions, r.gold_chains, r.system_chains, d.get("correct"), d.get("wrong"),
                                d.get("missing"), r.conll_f1, r.i2b2]
        name = (f'<a href="{quote(page_name(r.name))}">{escape(r.name)}</a>' if link and not r.problem
                else escape(r.name) + (f" \u2014 {escape(r.problem)}" if r.problem else ""))
        out = [f'<td data-v="{escape(r.name)}">{name}</td>']
        for v in values:
            if v is None:
                out.append('<td data-v="">\u2013</td>')
            elif isinstance(v, float):
                out.append(f'<td data-v="{v:.6f}">{100 * v:.1f}</td>')
            else:
                out.append(f'<td data-v="{v}">{v}</td>')
        return "".join(out)

    body = []
    if total is not None:
        body.append(f'<tr class="all">{cells(total, False)}</tr>')
    for r in rows:
        body.append(("<tr class=\"failed\">" if r.problem else "<tr>") + f"{cells(r, True)}</tr>")
    ths = "".join(f"<th>{escape(h)}</th>" for h in head)
    script = """
(function () {
  const table = document.querySelector("table.docs");
  const ths = [...table.querySelectorAll("th")];
  ths.forEach((th, col) => th.addEventListener("click", () => {
    const dir = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
    ths.forEach((h) => h.removeAttribute("aria-sort"));
    th.setAttribute("aria-sort", dir);
    const body = table.tBodies[0];
    const rows = [...body.querySelectorAll("tr:not(.all)")];
    const key = (tr) => tr.children[col].dataset.v;
    const numeric = col > 0;
    rows.sort((a, b) => {
      const x = key(a), y = key(b);
      if (x === "" || y === "") return (x === "") - (y === "");
      const c = numeric ? (+x) - (+y) : x.localeCompare(y);
      return dir === "ascending" ? c : -c;
    });
    body.append(...rows);
  }));
  document.body.dataset.ready = "1";
})();
"""
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>rulecoref view</title><style>{asset('viewer.css')}</style></head>\n"
        f"<body><header><h1>rulecoref view</h1><span class=\"stats\">{len(rows)} document(s)</span></header>\n"
        + (f'<p class="index-note">{note}</p>' if note else "")
        + f'<table class="docs"><thead><tr>{ths}</tr></thead><tbody>\n' + "\n".join(body) + "\n</tbody></table>\n"
        f"<script>{script}</script>\n</body></html>\n"
    )
