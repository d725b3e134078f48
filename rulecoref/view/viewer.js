// rulecoref view: chain highlighting and the side panel (inlined by rulecoref/view/page.py).
// The page's data is the JSON in <script id="data">: mentions, chains, gold chains, provenance, diff.
(function () {
  "use strict";
  const D = JSON.parse(document.getElementById("data").textContent);
  const text = document.getElementById("text");
  const detail = document.getElementById("detail");
  const els = new Map(); // mention index -> its elements (a mention crossing a line or another has several)
  for (const e of text.querySelectorAll(".m")) {
    const m = +e.dataset.m;
    if (!els.has(m)) els.set(m, []);
    els.get(m).push(e);
  }
  const chainOf = new Map();
  D.chains.forEach((c, k) => c[1].forEach((m) => chainOf.set(m, k)));
  const goldOf = new Map();
  (D.gold || []).forEach((c, k) => c[1].forEach((m) => goldOf.set(m, k)));
  const members = (m) => (chainOf.has(m) ? D.chains[chainOf.get(m)][1] : [m]);
  const marked = { sel: [], hl: [], gsel: [] };

  function mark(list, cls) {
    for (const m of list) for (const e of els.get(m) || []) { e.classList.add(cls); marked[cls].push(e); }
  }
  function clear(cls) {
    for (const e of marked[cls]) e.classList.remove(cls);
    marked[cls] = [];
  }
  function node(tag, cls, txt) {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (txt !== undefined) n.textContent = txt;
    return n;
  }
  function mentionItem(m) {
    const li = node("li");
    li.dataset.m = m;
    li.append(node("span", "", D.m[m][0]), node("span", "ty", D.m[m][1]), " ", node("span", "pos", D.m[m][2]));
    return li;
  }
  function pairItem(a, b, cls) {
    const li = node("li", cls);
    li.dataset.a = a;
    li.dataset.b = b;
    li.append(node("span", "", D.m[a][0] + " \u2194 " + D.m[b][0]), " ", node("span", "pos", D.m[a][2] + " / " + D.m[b][2]));
    return li;
  }
  function why(li, r, evidence) { // r: index into D.rules, each [pass, kind, "file:line"]
    const p = D.rules[r];
    li.append(node("span", "ev", p[0] + " [" + p[1] + "] " + p[2] + (evidence ? ": " + evidence : "")));
    return li;
  }

  function showDetail(m) {
    detail.replaceChildren();
    const mine = new Set(members(m));
    detail.append(node("h2", "", D.m[m][0]));
    detail.lastChild.append(node("span", "ty", D.m[m][1]), " ", node("span", "pos", D.m[m][2]));
    if (chainOf.has(m)) {
      const c = D.chains[chainOf.get(m)];
      detail.append(node("h3", "", (D.gold && !D.system ? "Gold chain " : "Chain ") + (chainOf.get(m) + 1) + " \u00b7 " + c[0] + " \u00b7 " + c[1].length + " mentions"));
    } else {
      detail.append(node("h3", "", "Singleton: in no chain"));
    }
    const list = node("ul");
    for (const x of members(m)) list.append(mentionItem(x));
    detail.append(list);
    const linked = D.links.filter((l) => l[2] && mine.has(l[0]) && mine.has(l[1]));
    if (linked.length) {
      detail.append(node("h3", "", "Linked by"));
      const ul = node("ul");
      for (const l of linked) ul.append(why(pairItem(l[0], l[1], "link"), l[3], l[4]));
      detail.append(ul);
    }
    const removed = D.removed.filter((r) => mine.has(r[0]) || mine.has(r[1]));
    if (removed.length) {
      detail.append(node("h3", "", "Removed by filters"));
      const ul = node("ul");
      for (const r of removed) ul.append(why(pairItem(r[0], r[1], "removed"), r[2], r[3]));
      detail.append(ul);
    }
    if (D.gold && D.system) {
      const g = goldOf.has(m) ? D.gold[goldOf.get(m)][1] : [m];
      const gs = new Set(g);
      const extra = [...mine].filter((x) => !gs.has(x));
      const lost = g.filter((x) => !mine.has(x));
      detail.append(node("h3", "", "Gold chain: " + g.length + " mention(s)" + (extra.length || lost.length ? "" : ", the same")));
      if (lost.length) { detail.append(node("div", "note", "not in this system chain:")); const ul = node("ul"); lost.forEach((x) => ul.append(mentionItem(x))); detail.append(ul); }
      if (extra.length) { detail.append(node("div", "note", "in this system chain, not in the gold one:")); const ul = node("ul"); extra.forEach((x) => ul.append(mentionItem(x))); detail.append(ul); }
      const touching = [];
      for (const kind of ["wrong", "missing", "correct"]) for (const [a, b] of D.diff[kind]) if (mine.has(a) || mine.has(b)) touching.push([a, b, kind]);
      if (touching.length) {
        detail.append(node("h3", "", "Links against the gold"));
        const ul = node("ul");
        for (const [a, b, kind] of touching) { const li = pairItem(a, b, "link " + kind); li.prepend(node("b", "", kind + " ")); ul.append(li); }
        detail.append(ul);
      }
    }
  }

  function select(m, scroll) {
    clear("sel"); clear("gsel");
    mark(members(m), "sel");
    if (D.gold && D.system && goldOf.has(m)) mark(D.gold[goldOf.get(m)][1], "gsel");
    document.body.classList.add("has-sel");
    showDetail(m);
    if (scroll) (els.get(m) || [])[0]?.scrollIntoView({ block: "center", behavior: "smooth" });
  }
  function deselect() {
    clear("sel"); clear("gsel");
    document.body.classList.remove("has-sel");
  }

  for (const det of document.querySelectorAll("#summary details[data-kind]")) {
    const fill = () => {
      const ul = det.querySelector("ul");
      for (const [a, b] of D.diff[det.dataset.kind]) ul.append(pairItem(a, b, "link " + det.dataset.kind));
    };
    if (det.open) fill(); else det.addEventListener("toggle", fill, { once: true });
  }

  text.addEventListener("click", (ev) => {
    const e = ev.target.closest(".m");
    if (e) select(+e.dataset.m, false); else deselect();
  });
  text.addEventListener("mouseover", (ev) => {
    const e = ev.target.closest(".m");
    clear("hl");
    if (e) mark(members(+e.dataset.m), "hl");
  });
  text.addEventListener("mouseleave", () => clear("hl"));
  document.querySelector("aside").addEventListener("click", (ev) => {
    const li = ev.target.closest("li[data-m], li[data-a]");
    if (li) select(+(li.dataset.m ?? li.dataset.b), true);
  });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") deselect(); });
  window.rulecorefView = { select, deselect, members }; // for tests and the console
  document.body.dataset.ready = "1";
})();
