"""Fuzzing the rule compiler: any bytes in a rule file end in a compiled rule set or a RuleFileError
(numbered diagnostics), never another exception, a hang or a memory blow-up.

Inputs: YAML built from the rule-file vocabulary (passes, kinds, params, includes) and then
roughened with anchors and aliases (including alias bombs and self-references), explicit tags,
deep nesting, odd scalars, random text, and encodings other than UTF-8 (Latin-1, UTF-16, random
bytes). Bounds checked per example: 2 s (hypothesis deadline) and 50 MB of Python allocations
(tracemalloc peak). The default run tries 25 and 40 examples (about a second); the ``slow``
variants try 600 and 2,000 (about 1 and 1.5 minutes). The full
"billion laughs" is left to tests/rules/test_compiler_limits.py, which bounds it in a child process.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulecoref.errors import RuleFileError
from rulecoref.rules.compiler import compile_rules
from tests.helpers import memory_bound

SECONDS = 2.0
MEGABYTES = 50


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples, deadline=SECONDS * 1000,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


KEYS = ["version", "name", "types", "passes", "kind", "params", "applies_to", "examples", "include", "enable",
        "enabled", "decoder", "link", "no_link", "types", "exclude_types", "same_type", "pronouns", "attributes",
        "key", "require", "veto", "clues", "dates", "determiners",
        "antecedents", "min_chars", "phrases", "dates", "model", "beam", "<<"]
KINDS = ["match", "filter", "be_phrase", "relative_pronoun", "people_roles", "exact_match", "nope"]
PATHS = ["words.txt", "../words.txt", "/etc/passwd", "/dev/zero", "sub/inc.yaml", "inc.yaml", "rules/people.yaml",
         "resources/lexicons/determiners.txt", "../../../../../../etc/hostname", "~/x", ""]
scalars = st.one_of(
    st.sampled_from(KINDS + PATHS + ["person", "problem", "[a|problem] and [b|problem]", "all", "yes", "~", "null"]),
    st.integers(min_value=-10**6, max_value=10**6), st.booleans(), st.none(), st.floats(allow_nan=True),
    st.text(max_size=20),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)), max_leaves=25)
documents = st.fixed_dictionaries({}, optional={
    "version": st.one_of(st.just(1), scalars), "types": values,
    "passes": st.lists(st.one_of(
        st.fixed_dictionaries({"kind": st.sampled_from(KINDS)}, optional={"name": scalars, "params": values,
                                                                          "applies_to": values, "examples": values}),
        st.fixed_dictionaries({"include": st.sampled_from(PATHS)}, optional={"enable": values}),
        values), max_size=4),
    "decoder": values,
})


def roughen(text: str, data: st.DataObject) -> str:
    """Splice YAML features that yaml.safe_dump never writes into a dumped document."""
    lines = text.splitlines() or [""]
    for _ in range(data.draw(st.integers(0, 3))):
        at = data.draw(st.integers(0, len(lines)))
        piece = data.draw(st.sampled_from([
            "x: &a [1, 2, 3]", "y: *a", "z: &b [*b]", "w: &c {k: *c}", "v: *undefined",
            "bomb: &l0 [q,q,q,q,q,q,q,q,q,q]\nb1: &l1 [*l0,*l0,*l0,*l0,*l0,*l0,*l0,*l0,*l0,*l0]\n"
            "b2: [*l1,*l1,*l1,*l1,*l1,*l1,*l1,*l1,*l1,*l1]",  # a small one: test_compiler_limits.py has the billion
            "t: !!python/object/apply:os.system ['true']", "u: !custom x", "s: !!binary aGVsbG8=", "d: 2001-12-14",
            "n: " + "[" * 300 + "]" * 300, "m: " + "{a: " * 80 + "1" + "}" * 80, "big: " + "9" * 5000,
            "merge: {<<: {a: 1}}", "? [a, b]\n: c", "%YAML 1.1\n---", "--- \n...", "\t- tab", "dup: 1\ndup: 2",
            "x: 'unterminated", "\x00", "\ufeff", "- \u202e\u0301",
        ]))
        lines.insert(at, piece)
    return "\n".join(lines) + "\n"


def encode(text: str, data: st.DataObject) -> bytes:
    how = data.draw(st.sampled_from(["utf-8", "utf-8-sig", "latin-1", "utf-16", "bytes", "truncated"]))
    if how == "bytes":
        return data.draw(st.binary(max_size=300))
    if how == "truncated":
        raw = text.encode("utf-8")
        return raw[: data.draw(st.integers(0, len(raw)))]
    return text.encode(how, errors="replace")


def compile_bytes(folder: Path, raw: bytes) -> None:
    path = folder / "rules.yaml"
    path.write_bytes(raw)
    with memory_bound(MEGABYTES):
        try:
            compile_rules(path)
        except RuleFileError as exc:
            assert exc.diagnostics and all(d.code.startswith("RC") and len(str(d)) < 5000 for d in exc.diagnostics)


def _folder(tmp_path: Path) -> Path:
    (tmp_path / "words.txt").write_text("the\na\n")
    (tmp_path / "sub").mkdir(exist_ok=True)
    (tmp_path / "sub" / "inc.yaml").write_text("passes:\n  - include: ../rules.yaml\n")  # an include cycle
    (tmp_path / "inc.yaml").write_bytes(b"passes: [\xff\xfe]\n")
    return tmp_path


def structured_yaml(tmp_path: Path, doc: dict, data: st.DataObject) -> None:
    text = roughen(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), data)
    compile_bytes(_folder(tmp_path), encode(text, data))


def yaml_punctuation(tmp_path: Path, pieces: list[str]) -> None:
    compile_bytes(_folder(tmp_path), "".join(pieces).encode("utf-8"))


PIECES = st.lists(st.sampled_from(list("[]{}&*!:-|>?%@`'\",#\n\t abc1")
                                  + ["&a ", "*a", "!!str ", "\u00e9", "passes:", "- include: ", "kind: "]), max_size=120)
test_compiler_fuzz_structured_yaml = fuzz(25)(given(doc=documents, data=st.data())(structured_yaml))
test_compiler_fuzz_yaml_punctuation = fuzz(40)(given(pieces=PIECES)(yaml_punctuation))
test_compiler_fuzz_structured_yaml_many = pytest.mark.slow(fuzz(600)(given(doc=documents, data=st.data())(structured_yaml)))
test_compiler_fuzz_yaml_punctuation_many = pytest.mark.slow(fuzz(2000)(given(pieces=PIECES)(yaml_punctuation)))
