"""The HTML of a page, read back with the standard library's parser (the browser tests drive it)."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

from rulecoref.document import Concept, Document
from rulecoref.io.formats import ReadOptions, find_inputs
from rulecoref.view.build import load_view
from rulecoref.view.model import DocView
from rulecoref.view.page import IndexRow, document_page, index_page, render_text
from tests.view.cases import MISSING, WRONG, write_case


class Elements(HTMLParser):
    """Every element's tag and attributes, the text inside each mention, and nesting errors."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.mention_text: dict[str, str] = {}
        self.scripts: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        if tag not in ("meta", "br"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]}")
        else:
            self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "script":
            self.scripts.append(data)

    def mentions(self) -> list[dict[str, str | None]]:
        return [a for t, a in self.elements if t == "span" and a.get("class") == "m"]


def parse(html: str) -> Elements:
    p = Elements()
    p.feed(html)
    assert not p.errors and not p.stack
    return p


def _doc() -> Document:
    lines = [["a", "b", "c", "d", "e"], ["f", "<g>", "h"]]
    concepts = [
        Concept(0, "a b c", "x", (1, 0), (1, 2)),
        Concept(1, "b", "x", (1, 1), (1, 1)),     # nested in 0
        Concept(2, "c d", "y", (1, 2), (1, 3)),   # crosses 0
        Concept(3, "e f", "y", (1, 4), (2, 0)),   # crosses a line break
        Concept(4, "<g>", "z", (2, 1), (2, 1)),
    ]
    return Document("t", lines, concepts)


def test_page_render_text_nests_splits_and_escapes() -> None:
    doc = _doc()
    attrs = [f' data-m="{i}"' for i in range(5)]
    html = render_text(doc, attrs)
    p = parse(html)
    spans = p.mentions()
    by_m: dict[str, int] = {}
    for a in spans:
        by_m[a["data-m"]] = by_m.get(a["data-m"], 0) + 1
    # every mention has an element; the crossing one and the line-crossing one are split in two
    assert by_m == {"0": 1, "1": 1, "2": 2, "3": 2, "4": 1}
    assert "&lt;g&gt;" in html and "<g>" not in html
    assert html.count('id="m2"') == 1  # only the first piece is the anchor


def test_page_of_the_hand_made_case_carries_the_contract(tmp_path: Path) -> None:
    data, system = write_case(tmp_path)
    view = load_view(find_inputs([data])[0][0], ReadOptions(), system)
    p = parse(document_page(view))
    mentions = p.mentions()
    assert sorted({m["data-m"] for m in mentions}, key=int) == ["0", "1", "2", "3", "4"]
    assert all(m["data-type"] for m in mentions)
    chain_of = {m["data-m"]: m.get("data-chain") for m in mentions}
    assert chain_of == {"0": "0", "1": None, "2": "1", "3": "1", "4": "0"}
    diff_of = {m["data-m"]: m.get("data-diff") for m in mentions}
    assert diff_of == {"0": None, "1": None, "2": "missing", "3": "missing wrong", "4": "missing"}
    lists = [(a["data-kind"], "open" in a) for t, a in p.elements if t == "details"]
    assert lists == [("wrong", True), ("missing", True)]  # short lists open; the script fills them
    data_json = json.loads(next(a for a in p.scripts if a.lstrip().startswith("{")))
    assert data_json["diff"] == {"correct": [[0, 4]], "wrong": [list(WRONG[0])], "missing": [list(m) for m in MISSING]}
    assert data_json["chains"] == [["person", [0, 4]], ["problem", [2, 3]]]
    (a, b, r, evidence), = data_json["removed"]
    assert (a, b, evidence, data_json["rules"][r]) == (1, 3, "dates differ", ["different-dates", "filter_date", "i2b2.yaml:40"])
    assert [data_json["rules"][l[3]][0] for l in data_json["links"]] == ["partial-name", "bad-rule", "head-match"]


def test_page_long_diff_lists_start_folded(tmp_path: Path) -> None:
    doc = Document("t", [["a"] * 60], [Concept(i, "a", "x", (1, i), (1, i)) for i in range(60)])
    view = DocView(doc, gold=[list(range(60))], system=[[i] for i in range(60)])
    p = parse(document_page(view))
    assert [(a["data-kind"], "open" in a) for t, a in p.elements if t == "details"] == [("missing", False)]


def test_page_script_data_cannot_close_the_script(tmp_path: Path) -> None:
    doc = Document("t", [["</script>", "<!--"]], [Concept(0, "</script>", "x", (1, 0), (1, 0))])
    html = document_page(DocView(doc))
    assert html.count("</script>") == 2  # the two real ones: data and code
    parse(html)


def test_page_index_lists_documents_scores_and_problems() -> None:
    rows = [IndexRow("a", 5, 2, 2, {"correct": 1, "wrong": 1, "missing": 3}, 0.5, 0.625),
            IndexRow("b & c", problem="not shown: RC202")]
    p = parse(index_page(rows, None, "note"))
    links = [a["href"] for t, a in p.elements if t == "a"]
    assert links == ["a.html"]  # a failed document has no page to link
    cells = [a.get("data-v") for t, a in p.elements if t == "td"]
    assert cells[:9] == ["a", "5", "2", "2", "1", "1", "3", "0.500000", "0.625000"]
    assert cells[9] == "b & c"
