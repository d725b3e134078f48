"""A local search engine (127.0.0.1, a free port) and a tiny i2b2 batch for the web provider tests."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import yaml

from tests.helpers import ROOT

STAFF_WORDS = {"chiropodist", "orthoptist", "doula"}  # what the fake search engine calls medical


class _Engine(BaseHTTPRequestHandler):
    log: list[dict] = []

    def do_GET(self):  # noqa: N802 (http.server's name)
        url = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(url.query).get("q", [""])[0]
        self.log.append({"path": self.path, "q": q, "headers": dict(self.headers)})
        route = url.path.strip("/")
        if route == "slow":
            time.sleep(0.6)
        if route == "fail":
            self._send(500, "oops")
        elif route == "bad":
            self._send(200, "{\"results\": [ oops")
        elif route == "empty":
            self._send(200, "")
        elif route == "json":
            snippet = "Doctors at the clinic and hospital" if q in STAFF_WORDS else "a word of the day"
            self._send(200, json.dumps({"results": [{"title": q, "snippet": snippet}]}))
        else:
            body = f"{q}: medical doctors in a clinic near you" if q in STAFF_WORDS else f"{q}: pictures and lyrics"
            self._send(200, body)

    def _send(self, status, body):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except OSError:
            pass  # the client timed out and went away

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def search_engine():
    """A search engine on 127.0.0.1 (a free port), stopped on exit; yields (base URL, request log)."""
    log: list[dict] = []
    handler = type("Engine", (_Engine,), {"log": log})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", log
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


NOTES = {
    "note-a": [
        ("Ms. Alvarez is a 71 year old woman seen on 2019-01-16 at 8:30 .", ["ms. alvarez", "a 71 year old woman"]),
        ("She was seen by the chiropodist , Dr Quill , in Bed12 .", ["she", "the chiropodist", "dr quill"]),
        ("Her daughter Rosa and the orthoptist on March 3 .", ["her daughter rosa", "the orthoptist"]),
    ],
    "note-b": [
        ("Mr. OBrien , 58 , met the gardener and jones and the march .", ["mr. obrien", "the gardener", "jones", "the march"]),
        ("JOHN SMITH MD and the Podiatrist and the will .", ["john smith md", "the podiatrist", "the will"]),
        ("The STAFF NURSE and the 3rd visitor and the doula .", ["the staff nurse", "the 3rd visitor", "the doula"]),
    ],
}


def span(tokens: list[str], mention: str) -> tuple[int, int]:
    want = mention.split()
    low = [t.lower() for t in tokens]
    for i in range(len(low) - len(want) + 1):
        if low[i : i + len(want)] == want:
            return i, i + len(want) - 1
    raise AssertionError(f"{mention!r} not in {tokens}")


def write_batch(root: Path) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "concepts").mkdir()
    for name, lines in NOTES.items():
        (root / "docs" / f"{name}.txt").write_text("\n".join(text for text, _ in lines) + "\n", encoding="utf-8")
        con = []
        for ln, (text, mentions) in enumerate(lines, 1):
            for mention in mentions:
                t1, t2 = span(text.split(), mention)
                ctype = "pronoun" if mention == "she" else "person"
                con.append(f'c="{mention}" {ln}:{t1} {ln}:{t2}||t="{ctype}"')
        (root / "concepts" / f"{name}.txt.con").write_text("\n".join(con) + "\n", encoding="utf-8")
    return root


def rules_with_web(tmp_path: Path, web: dict) -> Path:
    data = yaml.safe_load((ROOT / "rules" / "people.yaml").read_text(encoding="utf-8"))
    for entry in data["passes"]:
        entry.pop("examples", None)
        if entry["kind"] == "people_roles":
            entry["params"]["web"] = web
    path = tmp_path / "web-rules.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


