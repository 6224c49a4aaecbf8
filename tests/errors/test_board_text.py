"""Board text from the user (`solve`, `score`, `scan --board`, `--fix`): exit 2, one line."""
from __future__ import annotations

import pytest

from boggle_cv.game.board import Board
from boggle_cv.errors import BoardTextError

from .conftest import one_error_line, run


@pytest.mark.parametrize("text, fragment", [
    ("", "empty"),
    ("PERS/LATG/SINE", "row 1 has 4 faces"),            # 3 rows of 4
    ("PERS/LATG/SINE/TER", "row 4 has 3 faces"),
    ("PERS/LATG/SINE/TERS/", "row 5 of 5 is empty"),     # trailing slash
    ("PE RS/LATG/SINE/TERS", "' ' is not a face"),
    ("PERS/LA1G/SINE/TERS", "'1' is not a face"),
    ("PERS/LA\u00c9G/SINE/TERS", "is not a face"),
    ("PERS/LATG/SINE/TER[Xy]", "unknown face '[Xy]'"),
    ("PERS/LATG/SINE/TER[Th", "never closed"),
    ("PERS/LATG/SINE/TER[]", "empty brackets"),
    ("QUAB/CDEF/GHIJ/KLMN", "Q already stands for the Qu face"),  # QU is one face
    ("AB/CD", "2 rows"),                                  # size out of range
    ("ABCDEFG/" * 6 + "ABCDEFG", "7 rows"),
])
def test_bad_board_text(text, fragment):
    with pytest.raises(BoardTextError) as e:
        Board.parse(text)
    assert fragment in e.value.one_line() and "\n" not in e.value.one_line()


def test_lone_q_is_the_qu_face():
    b = Board.parse("QABC/DEFG/HIJK/LMNO")
    assert b.faces[0][0] == "Qu" and Board.parse("[Qu]ABC/DEFG/HIJK/LMNO") == b
    assert Board.parse("QUUAB/CDEF/GHIJ/KLMN").faces[0][:2] == ("Qu", "U")


@pytest.mark.parametrize("cmd", [("solve", "PERS/LATG/SINE"), ("solve", "P3RS/LATG/SINE/TERS")])
def test_cli_bad_board_exit_2(cmd):
    one_error_line(run(*cmd), 2)


def test_scan_bad_board_and_fix(tmp_path):
    p = tmp_path / "x.jpg"
    p.write_bytes(b"\xff\xd8\xff")
    one_error_line(run("scan", p, "--board", "AB/CD"), 2, "rows")
    one_error_line(run("scan", p, "--board", "PERS/LATG/SINE/TERS", "--fix", "r9c1=A"), 2, "outside")
    one_error_line(run("scan", p, "--board", "PERS/LATG/SINE/TERS", "--fix", "r1c1=7"), 2, "not a face")
    one_error_line(run("scan", p, "--size", "7"), 2, "--size")
