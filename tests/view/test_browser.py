"""The view in a real browser (Debian's Chromium, driven by Playwright): mentions render, a click
highlights exactly its chain, and the gold/system diff colours the known wrong and missing links.

Slow (a browser start and a resolve with WordNet): CI's second step runs them. They skip, saying
why, without Playwright (the ``browser`` extra) or without Chromium (``apt-get install chromium``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="needs Playwright: pip install 'rulecoref[browser]'")

from rulecoref.cli import main  # noqa: E402
from rulecoref.io.formats import ReadOptions, find_inputs, read_record  # noqa: E402
from rulecoref.io.i2b2 import chains_by_index  # noqa: E402
from rulecoref.view.browser import find_chromium, launch  # noqa: E402
from tests.helpers import ROOT  # noqa: E402
from tests.view.cases import MISSING, WRONG, write_case  # noqa: E402

EXAMPLES = ROOT / "resources" / "examples"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(find_chromium() is None, reason="needs Chromium: apt-get install chromium"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


@pytest.fixture(scope="module")
def example_pages(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """``rulecoref view resources/examples --system OUT --out HTML``, as the README says."""
    root = tmp_path_factory.mktemp("view")
    out, html = root / "out", root / "html"
    assert main(["resolve", str(EXAMPLES), "--out", str(out), "--provenance", "--no-progress"]) == 0
    assert main(["view", str(EXAMPLES), "--system", str(out), "--out", str(html)]) == 0
    return out, html


@pytest.fixture
def page(browser) -> Iterator[object]:
    pg = browser.new_page(viewport={"width": 1300, "height": 900})
    errors: list[str] = []
    requests: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("request", lambda r: requests.append(r.url))
    yield pg
    assert errors == [], errors
    assert all(url.startswith(("file://", "data:", "about:")) for url in requests), requests  # offline
    pg.close()


def open_page(page, path: Path) -> None:
    page.goto(path.as_uri())
    page.wait_for_selector("body[data-ready='1']")


def selected(page) -> set[int]:
    return set(page.eval_on_selector_all("#text .m.sel", "els => els.map(e => +e.dataset.m)"))


def system_chains(out: Path, name: str) -> tuple[int, list[list[int]]]:
    rec = next(r for r in find_inputs([EXAMPLES])[0] if r.name == name)
    doc = read_record(rec, ReadOptions()).document
    return len(doc.concepts), chains_by_index(doc, out / f"{name}.txt.chains")[0]


@pytest.mark.parametrize("name", ["clinical-ex1", "clinical-ex3", "clinical-ex4"])
def test_browser_mentions_render_and_a_click_highlights_exactly_its_chain(page, example_pages, name: str) -> None:
    out, html = example_pages
    n, chains = system_chains(out, name)
    open_page(page, html / f"{name}.html")
    shown = page.eval_on_selector_all(
        "#text .m", "els => els.map(e => { const r = e.getBoundingClientRect(); return [+e.dataset.m, r.width, r.height,"
        " e.dataset.chain ?? null, getComputedStyle(e).backgroundColor]; })")
    assert {m for m, *_ in shown} == set(range(n))  # every concept has an element
    assert all(w > 0 and h > 0 for _, w, h, *_ in shown)  # and it is visible
    chain_of = {m: k for k, c in enumerate(chains) for m in c}
    for m, _, _, chain, background in shown:
        assert (chain is not None) == (m in chain_of)
        if chain is not None:
            assert background != "rgba(0, 0, 0, 0)"  # chain mentions are coloured
    for chain in chains:
        page.click(f"#m{chain[-1]}")
        assert selected(page) == set(chain)
    singleton = next(i for i in range(n) if i not in chain_of)
    page.click(f"#m{singleton}")
    assert selected(page) == {singleton}
    assert "Singleton" in page.inner_text("#detail")
    page.keyboard.press("Escape")
    assert selected(page) == set()


def test_browser_hover_previews_the_chain_and_the_panel_names_the_rule(page, example_pages) -> None:
    out, html = example_pages
    _, chains = system_chains(out, "clinical-ex1")
    chain = max(chains, key=len)
    open_page(page, html / "clinical-ex1.html")
    page.hover(f"#m{chain[0]}")
    hl = set(page.eval_on_selector_all("#text .m.hl", "els => els.map(e => +e.dataset.m)"))
    assert hl == set(chain)
    page.click(f"#m{chain[0]}")
    detail = page.inner_text("#detail")
    assert f"{len(chain)} mentions" in detail and "Linked by" in detail and ".yaml:" in detail


def test_browser_diff_colours_the_known_missing_and_wrong_links(page, tmp_path: Path) -> None:
    data, system = write_case(tmp_path)
    html = tmp_path / "html"
    assert main(["view", str(data), "--system", str(system), "--out", str(html)]) == 0
    open_page(page, html / "case.html")
    marks = page.eval_on_selector_all(
        "#text .m[data-diff]", "els => els.map(e => [+e.dataset.m, e.dataset.diff, getComputedStyle(e).boxShadow,"
        " getComputedStyle(e).borderTopStyle, getComputedStyle(e).borderTopColor])")
    wrong = {m for m, diff, *_ in marks if "wrong" in diff.split()}
    missing = {m for m, diff, *_ in marks if "missing" in diff.split()}
    assert wrong == {b for _, b in WRONG} and missing == {b for _, b in MISSING}
    for _, diff, shadow, border_style, border_color in marks:
        if "wrong" in diff:
            assert "rgb(198, 40, 40)" in shadow  # red underline
        if "missing" in diff:
            assert border_style == "dashed" and border_color == "rgb(224, 138, 0)"  # orange dashes
    items = page.eval_on_selector_all(
        "#summary li.link", "els => els.map(e => [e.className, +e.dataset.a, +e.dataset.b,"
        " getComputedStyle(e).borderLeftColor])")
    assert [(c, a, b) for c, a, b, _ in items] == [("link wrong", *WRONG[0])] + [("link missing", a, b) for a, b in MISSING]
    assert {c: col for c, _, _, col in items} == {"link wrong": "rgb(198, 40, 40)", "link missing": "rgb(224, 138, 0)"}
    unmarked = page.eval_on_selector("#m1", "e => getComputedStyle(e).borderTopStyle")
    assert unmarked != "dashed"  # 'pain' starts a gold chain: no link of its own is missing
    # the panel of a wrongly linked mention shows the rule that linked it and the gold chain's members
    page.click("#m3")
    detail = page.inner_text("#detail")
    assert "bad-rule [exact_match] i2b2.yaml:3" in detail and "wrong" in detail
    assert "different-dates [filter_date] i2b2.yaml:40: dates differ" in detail
    gold_marked = set(page.eval_on_selector_all("#text .m.gsel", "els => els.map(e => +e.dataset.m)"))
    assert gold_marked == {1, 3}


def test_browser_index_sorts_by_a_column(page, example_pages) -> None:
    _, html = example_pages
    open_page(page, html / "index.html")
    col = ["document", "mentions"].index("mentions")
    page.click(f"table.docs th:nth-child({col + 1})")
    values = page.eval_on_selector_all("table.docs tbody tr:not(.all) td:nth-child(2)", "els => els.map(e => +e.dataset.v)")
    assert values == sorted(values) and len(values) == 4
    page.click(f"table.docs th:nth-child({col + 1})")
    values = page.eval_on_selector_all("table.docs tbody tr:not(.all) td:nth-child(2)", "els => els.map(e => +e.dataset.v)")
    assert values == sorted(values, reverse=True)
    names = page.eval_on_selector_all("table.docs tbody a", "els => els.map(e => e.getAttribute('href'))")
    assert sorted(names) == [f"clinical-ex{i}.html" for i in range(1, 5)]


def test_browser_a_folded_diff_list_fills_when_opened(page, tmp_path: Path) -> None:
    from rulecoref.document import Concept, Document
    from rulecoref.view.model import DocView
    from rulecoref.view.page import document_page

    doc = Document("long", [["w"] * 60], [Concept(i, "w", "x", (1, i), (1, i)) for i in range(60)])
    path = tmp_path / "long.html"
    path.write_text(document_page(DocView(doc, gold=[list(range(60))], system=[[i] for i in range(60)])))
    open_page(page, path)
    assert page.eval_on_selector_all("#summary li.link.missing", "els => els.length") == 0
    page.click("#summary details[data-kind='missing'] summary")
    page.wait_for_selector("#summary li.link.missing")  # the list fills on the 'toggle' event, a task after the click
    pairs = page.eval_on_selector_all("#summary li.link.missing", "els => els.map(e => [+e.dataset.a, +e.dataset.b])")
    assert pairs == [[i, i + 1] for i in range(59)]
    page.click("#summary li.link.missing >> nth=30")
    assert selected(page) == {31}  # the later mention of the link, a singleton of the system
