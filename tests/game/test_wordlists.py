"""Players' word lists (boggle_cv/game/wordlists.py)."""
import io

import pytest

from boggle_cv.errors import WordListError
from boggle_cv.game.wordlists import parse_player_option, read_word_list


def test_bom_crlf_case_blank_lines(tmp_path):
    p = tmp_path / "ann.txt"
    p.write_bytes("\ufeffCat\r\n\r\n  DOGS \r\ncat\r\n".encode())
    assert read_word_list(p) == ["cat", "dogs", "cat"]


def test_stdin():
    assert read_word_list("-", stdin=io.BytesIO(b"Tea\nEAT\n")) == ["tea", "eat"]
    with pytest.raises(WordListError, match="stdin"):
        read_word_list("-", stdin=io.BytesIO(b""))


@pytest.mark.parametrize("content, fragment", [
    (b"", "no words"),
    (b"\n  \n", "no words"),
    (b"\x00\x00PK", "binary"),
    (b"caf\xe9\n", "not UTF-8"),
    (b"12 34\n--\n", "no words"),
])
def test_bad_lists(tmp_path, content, fragment):
    p = tmp_path / "x.txt"
    p.write_bytes(content)
    with pytest.raises(WordListError) as e:
        read_word_list(p)
    assert fragment in e.value.one_line() and "\n" not in e.value.one_line()


def test_odd_entries_are_kept_not_refused(tmp_path):
    """A stray comma, digits or an apostrophe do not refuse the list (docs/errors.md)."""
    p = tmp_path / "x.txt"
    p.write_bytes(b"cat\nice cream\nb4, don't;\n")
    notes: list[str] = []
    assert read_word_list(p, notes=notes) == ["cat", "ice", "cream", "b4", "don't"]
    assert len(notes) == 1 and "2 entries" in notes[0]


def test_missing_and_directory(tmp_path):
    with pytest.raises(WordListError, match="does not exist"):
        read_word_list(tmp_path / "nope.txt")
    with pytest.raises(WordListError, match="directory"):
        read_word_list(tmp_path)


def test_player_option():
    assert parse_player_option("ann=a.txt") == ("ann", "a.txt")
    assert parse_player_option("bob=-") == ("bob", "-")
    for bad in ("ann", "=a.txt", "ann="):
        with pytest.raises(WordListError):
            parse_player_option(bad)
