"""Fuzzing the i2b2 readers: any text, concept and chain files end in a document or an InputError
(numbered diagnostics naming the file), never another exception, a hang or a memory blow-up.

Inputs: texts of a few tokenised lines; concept and chain lines that are well formed, almost well
formed (offsets out of range or reversed, quotes and pipes inside the text, unknown types, stray
fields) or random; odd bytes (invalid UTF-8, a BOM, NUL, CR line ends, UTF-16). Readers covered:
``read_document`` (.txt + .con), ``read_chains`` (.chains) and the scorer's light
``evaluate.data.read_concepts`` (.con). Bounds checked per example: 2 s (hypothesis deadline)
and 20 MB of Python allocations (tracemalloc peak). The default run tries 40 examples per
reader; the ``slow`` variants 2,000.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulecoref.errors import InputError
from rulecoref.evaluate.data import read_concepts
from rulecoref.io.i2b2 import read_chains, read_document
from tests.helpers import memory_bound

SECONDS = 2.0
MEGABYTES = 20


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples, deadline=SECONDS * 1000,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


words = st.sampled_from(["the", "patient", "he", "chest", "pain", ".", ",", "Dr.", "x|y", '"', "é", "\t", "||"])
texts = st.lists(st.lists(words, max_size=8).map(" ".join), min_size=0, max_size=6).map("\n".join)
offsets = st.integers(min_value=-1, max_value=9)
mention_text = st.one_of(st.sampled_from(["the patient", "he", "chest pain", 'a "quoted" one', "x||y", ""]),
                         st.text(max_size=12))
types = st.sampled_from(["person", "problem", "treatment", "test", "pronoun", "Problem", "alien", "", 'x"y'])


@st.composite
def mention(draw: st.DrawFn) -> str:
    return f'c="{draw(mention_text)}" {draw(offsets)}:{draw(offsets)} {draw(offsets)}:{draw(offsets)}'


concept_lines = st.one_of(
    st.builds(lambda m, t: f'{m}||t="{t}"', mention(), types),
    st.builds(lambda m, t: f"{m}||t={t}", mention(), types),
    st.text(max_size=40),
)
chain_lines = st.one_of(
    st.builds(lambda ms, t: "||".join(ms) + f'||t="coref {t}"', st.lists(mention(), max_size=4), types),
    st.builds(lambda ms: "||".join(ms), st.lists(mention(), max_size=3)),
    st.text(max_size=40),
)


def encode(text: str, how: str, noise: bytes) -> bytes:
    if how == "crlf":
        return text.replace("\n", "\r\n").encode()
    if how == "bom":
        return b"\xef\xbb\xbf" + text.encode()
    if how == "utf-16":
        return text.encode("utf-16")
    if how == "noise":
        raw = text.encode()
        return raw[: len(raw) // 2] + noise + raw[len(raw) // 2 :]
    return text.encode()


encodings = st.sampled_from(["utf-8", "utf-8", "crlf", "bom", "utf-16", "noise"])


def read_record(tmp_path: Path, text: str, con: list[str], how: str, noise: bytes, typed: bool) -> None:
    txt, conf = tmp_path / "rec.txt", tmp_path / "rec.txt.con"
    txt.write_bytes(encode(text, how, noise))
    conf.write_bytes(encode("\n".join(con), how, noise))
    with memory_bound(MEGABYTES):
        for reader in (lambda: read_document(txt, conf, types=("person", "problem") if typed else None),
                       lambda: read_concepts(conf)):
            try:
                reader()
            except InputError as exc:
                assert exc.diagnostics and all(d.code.startswith("RC2") and d.file for d in exc.diagnostics)


def read_chain_file(tmp_path: Path, lines: list[str], how: str, noise: bytes) -> None:
    path = tmp_path / "rec.txt.chains"
    path.write_bytes(encode("\n".join(lines), how, noise))
    with memory_bound(MEGABYTES):
        try:
            read_chains(path)
        except InputError as exc:
            assert exc.diagnostics and all(d.code.startswith("RC2") and d.file for d in exc.diagnostics)


RECORD = {"text": texts, "con": st.lists(concept_lines, max_size=8), "how": encodings,
          "noise": st.binary(min_size=1, max_size=6), "typed": st.booleans()}
CHAINS = {"lines": st.lists(chain_lines, max_size=6), "how": encodings, "noise": st.binary(min_size=1, max_size=6)}

test_i2b2_fuzz_concept_readers = fuzz(40)(given(**RECORD)(read_record))
test_i2b2_fuzz_chain_reader = fuzz(40)(given(**CHAINS)(read_chain_file))
test_i2b2_fuzz_concept_readers_many = pytest.mark.slow(fuzz(2000)(given(**RECORD)(read_record)))
test_i2b2_fuzz_chain_reader_many = pytest.mark.slow(fuzz(2000)(given(**CHAINS)(read_chain_file)))
