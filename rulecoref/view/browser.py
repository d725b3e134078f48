"""Open pages in the system's Chromium, for the browser tests, the screenshot script and the
page-open benchmark (never at run time: the pages need no browser to be written).

Playwright for Python drives Debian's ``chromium`` package through ``executable_path``; its own
browser download (``playwright install``) is never used, so nothing is fetched. Needs the
``browser`` extra (``pip install 'rulecoref[browser]'``) and ``apt-get install chromium``.
"""

from __future__ import annotations

import os
import shutil
from typing import Any

#: headless, and nothing that talks to the network on its own (updates, sync, QUIC)
CHROMIUM_ARGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync")


def find_chromium() -> str | None:
    """The Chromium to drive: $RULECOREF_CHROMIUM, else chromium on PATH (Debian's package)."""
    env = os.environ.get("RULECOREF_CHROMIUM")
    if env:
        return env if os.path.isfile(env) else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def launch(playwright: Any, executable: str | None = None) -> Any:
    """A headless Chromium browser from a started ``sync_playwright()``."""
    path = executable or find_chromium()
    if path is None:
        raise RuntimeError("no Chromium found: apt-get install chromium, or set RULECOREF_CHROMIUM")
    return playwright.chromium.launch(executable_path=path, args=list(CHROMIUM_ARGS))
