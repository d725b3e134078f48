"""Finding a batch's records: nothing is skipped in silence and no document hides another."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulecoref.errors import InputError
from rulecoref.io.formats import input_folders
from rulecoref.io.layout import find_records
from tests.helpers import ROOT

EXAMPLES = ROOT / "resources" / "examples"


def flat_folder(path: Path, names: tuple[str, ...] = ("clinical-ex1",)) -> Path:
    path.mkdir(parents=True)
    for name in names:
        shutil.copy(EXAMPLES / "docs" / f"{name}.txt", path)
        shutil.copy(EXAMPLES / "concepts" / f"{name}.txt.con", path)
    return path


def release_folder(path: Path) -> Path:
    shutil.copytree(EXAMPLES, path, ignore=shutil.ignore_patterns("markup"))
    return path


@pytest.mark.parametrize("kind", ["flat", "release"])
def test_layout_text_without_concepts_is_reported(tmp_path: Path, kind: str) -> None:
    """Case 6: a NAME.txt with no NAME.txt.con is RC216 naming it, in both folder layouts."""
    if kind == "flat":
        data = flat_folder(tmp_path / "data")
        orphan = data / "orphan.txt"
    else:
        data = release_folder(tmp_path / "data")
        orphan = data / "docs" / "orphan.txt"
    orphan.write_text("lonely text .\n")
    records, problems = find_records([data])
    assert "orphan" not in {r.name for r in records}
    assert [(d.code, d.file) for d in problems] == [("RC216", str(orphan))]


def test_layout_explicit_text_without_concepts_is_reported(tmp_path: Path) -> None:
    orphan = tmp_path / "orphan.txt"
    orphan.write_text("lonely text .\n")
    records, problems = find_records([orphan])
    assert records == [] and [d.code for d in problems] == ["RC216"]


def test_layout_same_name_in_two_inputs_is_an_error(tmp_path: Path) -> None:
    """Case 7: two folders that both hold clinical-ex1 (different files) are RC217 naming both."""
    a = flat_folder(tmp_path / "a")
    b = flat_folder(tmp_path / "b", ("clinical-ex2",))
    (b / "clinical-ex2.txt").rename(b / "clinical-ex1.txt")
    (b / "clinical-ex2.txt.con").rename(b / "clinical-ex1.txt.con")
    with pytest.raises(InputError) as err:
        find_records([a, b])
    (d,) = err.value.diagnostics
    assert d.code == "RC217" and str(a / "clinical-ex1.txt.con") in d.message and str(b / "clinical-ex1.txt.con") in d.message


def test_layout_same_record_given_twice_counts_once(tmp_path: Path) -> None:
    """A folder given twice, or a text and its own concept file, is one record, not a clash."""
    a = flat_folder(tmp_path / "a")
    records, _ = find_records([a, a, a / "clinical-ex1.txt", a / "clinical-ex1.txt.con"])
    assert [r.name for r in records] == ["clinical-ex1"]


def test_layout_two_versions_of_one_name_in_a_folder_clash(tmp_path: Path) -> None:
    """Names are what comes before the first '.', so NAME.txt and NAME.v2.txt are one document name."""
    a = flat_folder(tmp_path / "a")
    shutil.copy(a / "clinical-ex1.txt", a / "clinical-ex1.v2.txt")
    shutil.copy(a / "clinical-ex1.txt.con", a / "clinical-ex1.v2.txt.con")
    with pytest.raises(InputError) as err:
        find_records([a])
    assert err.value.codes == ["RC217"]


def test_layout_input_folders(tmp_path: Path) -> None:
    """Folders an output may not be (every folder holding inputs) and may not be inside (a release's
    docs/, concepts/, chains/)."""
    rel = release_folder(tmp_path / "rel")
    exact, inside = input_folders([rel], find_records([rel])[0])
    assert inside == {(rel / sub).resolve() for sub in ("docs", "concepts", "chains")}
    assert exact == inside | {rel.resolve()}
    flat = flat_folder(tmp_path / "flat")
    assert input_folders([flat / "clinical-ex1.txt"], find_records([flat / "clinical-ex1.txt"])[0]) == (
        {flat.resolve()}, set())


def test_layout_folder_without_concept_files_is_rc210(tmp_path: Path) -> None:
    """A folder with no NAME.txt.con (flat or under concepts/) holds no documents: RC210 names it."""
    (tmp_path / "empty" / "docs").mkdir(parents=True)
    with pytest.raises(InputError) as err:
        find_records([tmp_path / "empty"])
    assert err.value.codes == ["RC210"] and str(tmp_path / "empty") in str(err.value)
