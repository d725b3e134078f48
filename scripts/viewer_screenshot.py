"""Write docs/img/viewer.png: the view of a bundled example note with one chain selected.

    python scripts/viewer_screenshot.py [--doc clinical-ex3] [--mention 0] [--out docs/img/viewer.png]

It resolves resources/examples with the default rules and --provenance, writes the pages with
``rulecoref view`` (the gold chains of the examples give the diff), opens one page in Chromium
(``rulecoref.view.browser``: Debian's chromium, driven by Playwright) and clicks a mention.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulecoref.cli import main  # noqa: E402
from rulecoref.extras import require  # noqa: E402
from rulecoref.view.browser import launch  # noqa: E402


def run() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--doc", default="clinical-ex3", help="which example note (default clinical-ex3)")
    ap.add_argument("--mention", type=int, default=0, help="concept index to click (default 0)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "viewer.png")
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--height", type=int, default=760)
    args = ap.parse_args()
    require("browser", "the viewer screenshot")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        out, html = Path(tmp) / "out", Path(tmp) / "html"
        examples = ROOT / "resources" / "examples"
        if main(["resolve", str(examples), "--out", str(out), "--provenance", "--no-progress", "--quiet"]) != 0:
            return 1
        if main(["view", str(examples), "--system", str(out), "--out", str(html)]) != 0:
            return 1
        with sync_playwright() as p:
            browser = launch(p)
            page = browser.new_page(viewport={"width": args.width, "height": args.height}, device_scale_factor=1)
            page.goto((html / f"{args.doc}.html").as_uri())
            page.wait_for_selector("body[data-ready='1']")
            page.click(f"#m{args.mention}")
            args.out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(args.out))
            browser.close()
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(run())
