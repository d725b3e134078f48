"""Word lists: plain UTF-8 text, bounded in size; a list that cannot be read names its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulecoref.errors import ResourceError
from rulecoref.resources import lexicon
from rulecoref.resources.lexicon import Lexicon


def test_lexicon_reads_words_phrases_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    path.write_text("\ufeff# a comment\nThe\nconsistent  with # trailing\n\n", encoding="utf-8")
    lex = Lexicon.from_file(path)
    assert "the" in lex and lex.find(["was", "Consistent", "with", "x"]) == "consistent with"


@pytest.mark.parametrize("content,line", [(b"ok\nfine\n\xe9t\xe9\n", 3), (b"ok\n\x00\x01\x02", 2), (b"\x89PNG\r\n", 1)])
def test_lexicon_binary_or_undecodable_list_names_file_and_line(tmp_path: Path, content: bytes, line: int) -> None:
    """Case 5 at load time: RC302 with the word list's file and the line of the first bad byte."""
    path = tmp_path / "w.txt"
    path.write_bytes(content)
    with pytest.raises(ResourceError) as err:
        Lexicon.from_file(path)
    d = err.value.diagnostics[0]
    assert (d.code, d.file, d.line) == ("RC302", str(path), line)


def test_lexicon_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    with open(path, "wb") as fh:
        fh.truncate(lexicon.MAX_WORDLIST_BYTES + 1)
    with pytest.raises(ResourceError) as err:
        Lexicon.from_file(path)
    assert err.value.code == "RC302" and "larger than" in str(err.value)
