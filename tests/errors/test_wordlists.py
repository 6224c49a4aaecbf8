"""Players' word lists and names: odd lists are read, unusable files refused (exit 2)."""
from __future__ import annotations

import json

import pytest

from boggle_cv.errors import WordListError
from boggle_cv.game.wordlists import MAX_TOKEN, parse_player_option, read_word_list

from .conftest import BOARD, one_error_line, run


@pytest.mark.parametrize("content, words", [
    ("\ufeffcat\nsire\n".encode(), ["cat", "sire"]),                      # BOM
    (b"cat\r\nsire\r\n", ["cat", "sire"]),                                # CRLF
    (b"CAT\nSiRe\n", ["cat", "sire"]),                                    # upper case
    (b"ice cream\n", ["ice", "cream"]),                                   # spaces
    (b"cat, sire; rest,\n", ["cat", "sire", "rest"]),                     # stray commas
    ('"cat".\n(sire)\n\u201crest\u201d\n'.encode(), ["cat", "sire", "rest"]),  # quotes, punctuation
    (b"b4\ndon't\nx-ray\n", ["b4", "don't", "x-ray"]),                    # kept, not_a_word
    ("caf\u00e9\n".encode(), ["caf\u00e9"]),                             # accent: kept, not_a_word
    ("cat\nsire\n".encode("utf-16"), ["cat", "sire"]),                    # UTF-16 with BOM
])
def test_odd_lists_are_read(tmp_path, content, words):
    p = tmp_path / "l.txt"
    p.write_bytes(content)
    assert read_word_list(p) == words


@pytest.mark.parametrize("content, fragment", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
    (b"caf\xe9\n", "not UTF-8"),
    (b"", "no words"),
    (b"\n \n--\n123 456\n", "no words"),
])
def test_unusable_lists_exit_2(tmp_path, content, fragment):
    p = tmp_path / "l.txt"
    p.write_bytes(content)
    with pytest.raises(WordListError, match=fragment):
        read_word_list(p)
    one_error_line(run("score", BOARD, "-p", f"ann={p}"), 2, fragment)


def test_missing_and_directory_exit_2(tmp_path):
    one_error_line(run("score", BOARD, "-p", f"ann={tmp_path / 'nope.txt'}"), 2, "does not exist")
    one_error_line(run("score", BOARD, "-p", f"ann={tmp_path}"), 2, "directory")


def test_odd_entries_scored_not_a_word_with_one_warning(tmp_path):
    p = tmp_path / "bob.txt"
    p.write_text("PERTS, b4;\nrats\ndon't\n" + "z" * 500 + "\n")
    out = run("score", BOARD, "-p", f"bob={p}", "--json")
    assert out.returncode == 0, out.stderr
    words = {w["word"]: w["status"] for w in json.loads(out.stdout)["players"][0]["words"]}
    assert words["perts"] == "scored" and words["rats"] == "scored"
    assert words["b4"] == words["don't"] == "not_a_word"
    assert words["z" * MAX_TOKEN] == "not_on_board"  # no path spells it (said before "not a word")
    warn = [ln for ln in out.stderr.splitlines() if ln.startswith("boggle-cv: warning:")]
    assert len(warn) == 2 and "2 entries are not a word" in warn[0] and "cut" in warn[1], out.stderr
    text = run("score", BOARD, "-p", f"bob={p}")
    assert "not a word" in text.stdout and text.returncode == 0


def test_very_long_line_cut(tmp_path):
    p = tmp_path / "long.txt"
    p.write_text("a" * 1_000_000 + "\n")
    notes: list[str] = []
    assert read_word_list(p, notes=notes) == ["a" * MAX_TOKEN]
    assert "cut" in notes[0]


def test_100000_lines(tmp_path):
    """A 100,000-line list (mostly not on the board) scores in one run, exit 0."""
    import random
    rng = random.Random(1)
    words = ["".join(rng.choice("abcdefghijklmnoprstuvwy") for _ in range(rng.randint(3, 9))) for _ in range(100_000)]
    p = tmp_path / "many.txt"
    p.write_text("\n".join(words + ["rats"]))
    out = run("score", BOARD, "-p", f"ann={p}", "--json")
    assert out.returncode == 0, out.stderr[-500:]
    d = json.loads(out.stdout)
    assert len(d["players"][0]["words"]) == 100_001
    assert any(w["word"] == "rats" and w["status"] == "scored" for w in d["players"][0]["words"])


def test_same_player_twice(tmp_path):
    p = tmp_path / "a.txt"
    p.write_text("rats\n")
    one_error_line(run("score", BOARD, "-p", f"ann={p}", "-p", f"ann={p}"), 2, "same name")
    one_error_line(run("scan", tmp_path / "x.jpg", "--board", BOARD, "-p", f"ann={p}", "-p", f" ann ={p}"),
                   2, "same name")


def test_odd_player_names(tmp_path):
    p = tmp_path / "a.txt"
    p.write_text("rats\n")
    name = "Zo\u00eb O'Brien \U0001f642"
    out = run("score", BOARD, "-p", f"{name}={p}", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["players"][0]["name"] == name
    assert parse_player_option("ann=dir/a=b.txt") == ("ann", "dir/a=b.txt")  # '=' in the file name
    for bad in ("ann", "=a.txt", "ann=", "a\x1b[31mnn=a.txt", "a\nb=a.txt", "x" * 41 + "=a.txt"):
        with pytest.raises(WordListError):
            parse_player_option(bad)
    one_error_line(run("score", BOARD, "-p", f"a\x1b[2Jb={p}"), 2, "control characters")


def test_two_lists_on_stdin(tmp_path):
    one_error_line(run("score", BOARD, "-p", "ann=-", "-p", "bob=-", stdin="rats\n"), 2, "stdin")
