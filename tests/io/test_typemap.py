"""Type maps: input entity types -> rule types, with numbered errors naming the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.errors import InputError
from rulecoref.io.typemap import TypeMap, read_type_map


def test_typemap_reads_types_unmapped_and_coreference(tmp_path: Path) -> None:
    path = tmp_path / "map.yaml"
    path.write_text("version: 1\ntypes:\n  Disease: problem\n  ORG: null\nunmapped: drop\ncoreference: IDENT\n")
    tm = read_type_map(path)
    assert tm.map_type("disease") == "problem" and tm.map_type("Org") is None and tm.map_type("Drug") is None
    assert tm.is_coreference("ident") and not tm.is_coreference("Coreference")


def test_typemap_default_keeps_every_type_lowercased() -> None:
    tm = TypeMap()
    assert tm.map_type(" Problem ") == "problem" and tm.known("anything") and tm.is_coreference("Coref")


def test_typemap_errors_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "map.yaml"
    path.write_text("types:\n  Disease: problem\n  disease: test\n  Drug: [a]\nunmaped: keep\nunmapped: sometimes\n")
    with pytest.raises(InputError) as err:
        read_type_map(path)
    assert [(d.code, d.line) for d in err.value.diagnostics] == [
        ("RC241", 5), ("RC242", 3), ("RC242", 4), ("RC242", 6)]
    assert all(d.file == str(path) for d in err.value.diagnostics)


@pytest.mark.parametrize("text", ["types: [1, 2\n", "a: 1\na: 2\n", "!!python/object:os.system {}\n"])
def test_typemap_unreadable_yaml_is_rc240(tmp_path: Path, text: str) -> None:
    path = tmp_path / "map.yaml"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        read_type_map(path)
    assert err.value.codes == ["RC240"]


def test_typemap_missing_file_is_rc240(tmp_path: Path) -> None:
    with pytest.raises(InputError) as err:
        read_type_map(tmp_path / "none.yaml")
    assert err.value.codes == ["RC240"]
