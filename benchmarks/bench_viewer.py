"""Page-open time of the view for the largest document of a corpus, measured in Chromium.

    python benchmarks/bench_viewer.py [--corpus ../shared/corpora/craft] [--doc NAME] [--repeat 7]

The document is the corpus's largest by mention count (unless --doc): it is resolved with the
default rules (``--types auto --provenance``), its page is written by ``rulecoref view`` against its
gold chains, and the page is opened ``--repeat`` times in a fresh tab of one headless Chromium
(``rulecoref.view.browser``). Printed, as one JSON line, medians and maxima of:
  open_ms   from page.goto() to the script's ready mark (load, parse, layout, first script run),
            measured from Python, so it includes the browser round trip;
  dcl_ms / load_ms / fcp_ms   the browser's own navigation timing and first contentful paint;
  click_ms  a click on the first mention of the largest chain until its chain is highlighted
            and the side panel is filled (measured in the page).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulecoref.cli import main  # noqa: E402
from rulecoref.extras import require  # noqa: E402
from rulecoref.io.formats import ReadOptions, find_inputs, read_record  # noqa: E402
from rulecoref.view.browser import launch  # noqa: E402

CLICK_JS = """(m) => {
  const t0 = performance.now();
  document.getElementById('m' + m).dispatchEvent(new MouseEvent('click', {bubbles: true}));
  const n = document.querySelectorAll('#text .m.sel').length;
  return [performance.now() - t0, n];
}"""
TIMING_JS = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  return [nav.domContentLoadedEventEnd, nav.loadEventEnd, fcp ? fcp.startTime : null];
}"""


def largest(corpus: Path) -> str:
    counts = {p.name.split(".")[0]: sum(1 for line in p.open(encoding="utf-8") if line.strip())
              for p in (corpus / "concepts").glob("*.txt.con")}
    return max(sorted(counts), key=counts.__getitem__)


def run() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpora" / "craft")
    ap.add_argument("--doc", default=None, help="record name (default: the most mentions)")
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    require("browser", "the page-open benchmark")
    from playwright.sync_api import sync_playwright

    name = args.doc or largest(args.corpus)
    with tempfile.TemporaryDirectory() as tmp:
        data, out, html = Path(tmp) / "data", Path(tmp) / "out", Path(tmp) / "html"
        for sub, suffix in (("docs", ".txt"), ("concepts", ".txt.con"), ("chains", ".txt.chains")):
            (data / sub).mkdir(parents=True)
            shutil.copy(args.corpus / sub / f"{name}{suffix}", data / sub)
        t0 = time.perf_counter()
        assert main(["resolve", str(data), "--types", "auto", "--provenance", "--out", str(out), "--no-progress",
                     "--quiet"]) == 0
        resolve_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        assert main(["view", str(data), "--system", str(out), "--out", str(html)]) == 0
        view_s = time.perf_counter() - t0
        read = read_record(find_inputs([data])[0][0], ReadOptions(), with_chains=True)
        doc = read.document
        chains = [c for c in json.loads((out / f"{name}.links.json").read_text())["chains"]]
        page_path = html / f"{name}.html"
        page_text = page_path.read_text(encoding="utf-8")
        biggest = page_text.index('data-chain="')  # first chain mention in the text
        first_chained = int(page_text[page_text.rindex('data-m="', 0, biggest) + 8:].split('"', 1)[0])
        opens, dcl, load, fcp, clicks = [], [], [], [], []
        with sync_playwright() as p:
            browser = launch(p)
            for _ in range(args.repeat):
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                t0 = time.perf_counter()
                page.goto(page_path.as_uri())
                page.wait_for_selector("body[data-ready='1']")
                opens.append(1000 * (time.perf_counter() - t0))
                d, lo, f = page.evaluate(TIMING_JS)
                dcl.append(d)
                load.append(lo)
                if f is not None:
                    fcp.append(f)
                ms, selected = page.evaluate(CLICK_JS, first_chained)
                assert selected > 0
                clicks.append(ms)
                page.close()
            browser.close()

    def stats(xs: list[float]) -> dict[str, float]:
        return {"median": round(statistics.median(xs), 1), "max": round(max(xs), 1)} if xs else {}

    print(json.dumps({
        "corpus": str(args.corpus), "doc": name, "mentions": len(doc.concepts),
        "tokens": len(doc.flat_tokens), "lines": doc.n_lines, "system_chains": len(chains),
        "gold_chains": len(read.chains or []), "page_bytes": len(page_text.encode("utf-8")),
        "repeat": args.repeat, "open_ms": stats(opens), "dcl_ms": stats(dcl), "load_ms": stats(load),
        "fcp_ms": stats(fcp), "click_ms": stats(clicks), "resolve_s": round(resolve_s, 2), "view_s": round(view_s, 2),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(run())
