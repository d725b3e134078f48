"""The import order that docs/architecture.md writes down, read from the source with ``ast``.

Every ``rulecoref`` import counts, also those inside functions (a lazy import is still a
dependency); only imports under ``if TYPE_CHECKING:`` are left out of the layer order. A module may
import its own layer and the layers below it, never one above, and module-level imports form no
cycle, counting those under ``if TYPE_CHECKING:`` (a type named from a module that imports you is
a cycle in the design, even when Python never runs the import).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rulecoref"

#: lowest first; a component is a module or package directly under rulecoref/
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "document", "words", "chains", "extras", "markup", "medspacy_facts", "params", "phrases", "registry",
     "syntax", "tally", "yaml_source", "bounded", "pool"),
    ("io", "resources", "roles", "parsing"),
    ("attributes", "mentions", "finder", "predicates", "candidates"),
    ("passes", "decoders"),
    ("rules",),
    ("engine", "plan"),
    ("api", "batch", "belltree", "evaluate", "learn", "resume", "rule_examples", "spacy_component", "spark", "view",
     "why"),
    ("cli", "__main__"),
)
#: the compiler's layer: rules/ is this one layer, so everything below it declares and reads without it
COMPILER = LAYERS.index(("rules",))

#: the architecture's "never" lines: (importer prefix, imported prefix, why)
NEVER: tuple[tuple[str, str, str], ...] = (
    ("evaluate", "passes", "scoring reads chains, not rules"),
    ("belltree", "passes", "the Bell tree reads rule decisions as data (Resolution)"),
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def _under_type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


@cache
def imports(module: str, type_checking: bool = False) -> tuple[tuple[str, bool, int], ...]:
    """(imported rulecoref module, at module level, line) for each import outside TYPE_CHECKING
    (``type_checking``: those under it too)."""
    path = modules()[module]
    return read_imports(path.read_text(encoding="utf-8"), module, path.name == "__init__.py", set(modules()),
                        type_checking)


def read_imports(source: str, module: str, is_package: bool, known: set[str],
                 type_checking: bool = False) -> tuple[tuple[str, bool, int], ...]:
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[str, bool, int]] = []

    def targets(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
        mod = ".".join(base + ([node.module] if node.module else []))
        return [f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod for a in node.names]

    def visit(node: ast.AST, top: bool) -> None:
        if isinstance(node, ast.If) and _under_type_checking(node):
            for statement in (node.body + node.orelse) if type_checking else node.orelse:
                visit(statement, top)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.extend((t, top, node.lineno) for t in targets(node) if t.startswith("rulecoref"))
        else:
            inner = top and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            for child in ast.iter_child_nodes(node):
                visit(child, inner)

    visit(ast.parse(source), True)
    return tuple((_existing(t, known), top, line) for t, top, line in found)


def _existing(name: str, known: set[str]) -> str:
    while name not in known and "." in name:
        name = name.rpartition(".")[0]
    return name


def component(module: str) -> str:
    parts = module.split(".")[1:]
    return parts[0] if parts else ""


def layer(module: str) -> int:
    name = component(module)
    for n, members in enumerate(LAYERS):
        if name in members:
            return n
    raise AssertionError(f"{module}: component {name!r} is in no layer of tests/test_layers.py (docs/architecture.md)")


def test_every_component_has_a_layer() -> None:
    for module in modules():
        if module != "rulecoref":
            layer(module)


def test_imports_point_down_the_layers() -> None:
    upward = [f"{module} (layer {layer(module)}) imports {target} (layer {layer(target)}) at line {line}"
              for module in modules() if module != "rulecoref"
              for target, _, line in imports(module) if target != "rulecoref" and layer(target) > layer(module)]
    assert upward == []


def test_nothing_below_the_compiler_imports_rules() -> None:
    """``Param`` (params.py) and the YAML reader (yaml_source.py) sit at the bottom, so a pass, an
    attribute or a decoder declares its parameters without the compiler's package: counting imports
    under ``if TYPE_CHECKING:`` and inside functions."""
    below = [f"{m} imports {t} at line {line}" for m in modules() if m != "rulecoref" and layer(m) < COMPILER
             for t, _, line in imports(m, type_checking=True) if component(t) == "rules"]
    assert below == []


@pytest.mark.parametrize(("importer", "imported", "why"), NEVER)
def test_never_lines(importer: str, imported: str, why: str) -> None:
    broken = [f"{m} imports {t} at line {line}"
              for m in modules() if m.removeprefix("rulecoref.").startswith(importer)
              for t, _, line in imports(m) if t.removeprefix("rulecoref.").startswith(imported)]
    assert broken == [], why


def test_the_format_registry_imports_no_format_module() -> None:
    """A format module registers itself (io/formats.py's ``formats()`` imports the package), so a
    new format is one module and io/formats.py never changes for it."""
    formats = {m for m, p in modules().items() if component(m) == "io" and m != "rulecoref.io.formats"
               and "@register_format" in p.read_text(encoding="utf-8")}
    assert {"rulecoref.io.i2b2", "rulecoref.io.jsonl", "rulecoref.io.brat", "rulecoref.io.conll"} <= formats
    assert [t for t, _, _ in imports("rulecoref.io.formats") if t in formats] == []


def test_nothing_imports_cli() -> None:
    users = [f"{m} imports {t}" for m in modules() if component(m) not in ("cli", "__main__")
             for t, _, _ in imports(m) if component(t) == "cli"]
    assert users == []


def test_no_two_components_import_each_other() -> None:
    """Within a layer too, a component's imports go one way, counting every import (inside functions
    and under ``if TYPE_CHECKING:``): io reads files with ``bounded`` and resources with the same
    module below both, rather than resources importing io and io resources."""
    graph: dict[str, set[str]] = {}
    for m in modules():
        for t, _, _ in imports(m, type_checking=True):
            if component(m) and component(t) and component(t) != component(m):
                graph.setdefault(component(m), set()).add(component(t))
    assert [(a, b) for a, targets in sorted(graph.items()) for b in sorted(targets)
            if a < b and a in graph.get(b, set())] == [] and _acyclic(graph)


def _acyclic(graph: dict[str, set[str]]) -> bool:
    """True when no path returns to where it started (Kahn: repeatedly drop what nothing imports)."""
    left = {n: set(ts) for n, ts in graph.items()}
    while left:
        roots = [n for n in left if not any(n in ts for ts in left.values())]
        if not roots:
            return False
        for n in roots:
            del left[n]
    return True


def test_no_import_cycle_at_module_level() -> None:
    """Also through ``if TYPE_CHECKING:`` imports: attributes named ``mentions.MentionTable`` (now
    ``attributes.registry.Table``) and candidates named ``passes.TypeScope`` (now its own)."""
    graph = {m: {t for t, top, _ in imports(m, True) if top and t != m} for m in modules()}
    # a package's __init__ importing its own modules, which import their siblings, is one package
    cycles, state = [], {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = "open"
        for t in sorted(graph.get(m, ())):
            if state.get(t) == "open" and not _package_init_of(t, m):
                cycles.append(path[path.index(t):] + [t] if t in path else [m, t])
            elif t not in state:
                visit(t, path + [t])
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert cycles == []


def _package_init_of(package: str, module: str) -> bool:
    return modules()[package].name == "__init__.py" and module.startswith(package + ".")


#: top-level test files about a concern that spans modules, not one module: why each is kept
CROSS_CUTTING = {
    "test_docs": "docs/ and README hold: links, generated tables, commands",
    "test_docs_hold": "what the docs claim about behaviour, run",
    "test_layers": "this file: the import order of every module",
    "test_startup": "start-up time and what `import rulecoref` loads",
    "test_tutorial": "docs/rules.md's tutorial, step by step",
}


def test_each_top_level_test_file_names_the_module_it_tests() -> None:
    """tests/test_X.py or tests/test_X_<concern>.py tests rulecoref/X (a package's modules are
    tested under tests/<package>/; the bundled rule files under tests/bundled/)."""
    tops = {m.removeprefix("rulecoref.") for m in modules() if "." not in m.removeprefix("rulecoref.")}
    orphans = [p.name for p in sorted(ROOT.joinpath("tests").glob("test_*.py")) if p.stem not in CROSS_CUTTING
               and not _names_one_of(p.stem, tops)]
    assert orphans == [], "name the module tested, or say in CROSS_CUTTING why the file spans modules"


#: test files under tests/<package>/ that span that package's modules, and why
CROSS_CUTTING_IN_PACKAGES = {
    "evaluate/test_metrics": "hand-computed values for each metric module side by side (muc, bcubed, ceaf, blanc, "
                             "i2b2's), so one partition is read against all of them",
    "io/test_hostile_inputs": "one hostile input per reader (jsonl, typemap, layout, brat) and the batch going on "
                              "after it: the same promise for every surface",
}
#: test folders that mirror no package: the bundled rule sets are data files, fixtures are inputs
NOT_PACKAGES = {"bundled", "fixtures"}


def _names_one_of(stem: str, names: set[str]) -> bool:
    return any(stem == f"test_{n}" or stem.startswith(f"test_{n}_") for n in names)


def test_each_package_test_file_names_the_module_it_tests() -> None:
    """tests/<package>/test_X.py or test_X_<concern>.py tests rulecoref/<package>/X (X is the
    package's own name for what its ``__init__.py`` defines), so a module's tests are found by name."""
    orphans = []
    for folder in sorted(p for p in ROOT.joinpath("tests").iterdir() if p.is_dir() and p.name not in NOT_PACKAGES
                         and not p.name.startswith((".", "_"))):
        package = PACKAGE / folder.name
        assert package.is_dir(), f"tests/{folder.name}/ mirrors no package under rulecoref/"
        names = {p.stem for p in package.glob("*.py") if p.stem != "__init__"} | {folder.name}
        names |= {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}
        orphans += [f"{folder.name}/{p.name}" for p in sorted(folder.glob("test_*.py"))
                    if f"{folder.name}/{p.stem}" not in CROSS_CUTTING_IN_PACKAGES and not _names_one_of(p.stem, names)]
    assert orphans == [], "name the module tested, or say in CROSS_CUTTING_IN_PACKAGES why the file spans modules"


SAMPLE = """
from typing import TYPE_CHECKING
from ..errors import diagnostic
from . import match
if TYPE_CHECKING:
    from ..engine import Pipeline

def later():
    from ..cli import main
    import rulecoref.rules.compiler
"""


def test_the_reader_sees_relative_nested_and_package_imports_and_skips_type_checking() -> None:
    known = {"rulecoref.errors", "rulecoref.passes", "rulecoref.passes.match", "rulecoref.passes.filter",
             "rulecoref.engine", "rulecoref.cli", "rulecoref.rules.compiler"}
    found = read_imports(SAMPLE, "rulecoref.passes.filter", False, known)
    assert found == (("rulecoref.errors", True, 3), ("rulecoref.passes.match", True, 4),
                     ("rulecoref.cli", False, 9), ("rulecoref.rules.compiler", False, 10))
    with_types = read_imports(SAMPLE, "rulecoref.passes.filter", False, known, type_checking=True)
    assert ("rulecoref.engine", True, 6) in with_types and len(with_types) == len(found) + 1
    assert layer("rulecoref.cli.resolve") > layer("rulecoref.engine") > layer("rulecoref.passes.match")
    assert component("rulecoref.rules.compiler") == "rules" and component("rulecoref.io.brat") == "io"
