"""A run removes the temporary files of the files it claimed (issue 31, case 13): ``resolve --jobs 2``
stopped by SIGTERM left ``.NAME.txt.chains.*.tmp`` in OUT, from workers stopped while writing."""

from __future__ import annotations

from pathlib import Path

from rulecoref.io.outdir import OutputFolder, temp_name


def test_leftover_temporaries_of_claimed_files_are_removed_at_close(tmp_path: Path) -> None:
    out = tmp_path / "out"
    folder = OutputFolder(out, "resolve:i2b2", exclusive=(".txt.chains",)).check()
    long = "b" * 240 + ".txt.chains"
    with folder.open(["a.txt.chains", long]):
        left = [out / temp_name("a.txt.chains"), out / temp_name(long)]  # as a worker killed mid-write leaves them
        for path in left:
            path.write_text("half")
        (out / ".notes.txt.000000000000.tmp").write_text("someone else's")
        (out / "keep.tmp").write_text("x")
    assert not any(p.exists() for p in left)
    assert (out / ".notes.txt.000000000000.tmp").exists() and (out / "keep.tmp").exists()
