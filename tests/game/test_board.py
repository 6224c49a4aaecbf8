"""Board text form, faces, neighbours, turns (boggle_cv/game/board.py)."""
import pytest

from boggle_cv.game.board import BLANK, Board, face_letters, normalise_face
from boggle_cv.errors import BoardTextError


def test_parse_and_round_trip():
    b = Board.parse("pers/latg/sine/ters")
    assert b.size == 4
    assert b.faces[0] == ("P", "E", "R", "S")
    assert Board.parse(b.to_text()) == b


def test_q_is_qu_and_qu_accepted():
    assert Board.parse("QAB/CDE/FGH").face(0, 0) == "Qu"
    assert Board.parse("QuAB/CDE/FGH").face(0, 0) == "Qu"
    assert Board.parse("QuAB/CDE/FGH").to_text() == "QAB/CDE/FGH"


def test_two_letter_faces_and_blank():
    b = Board.parse("[th]A#/[ER]BC/[In][an][He]")
    assert b.face(0, 0) == "Th" and b.face(0, 2) == BLANK
    assert b.faces[2] == ("In", "An", "He")
    assert Board.parse(b.to_text()) == b


@pytest.mark.parametrize("text, fragment", [
    ("", "empty"),
    ("ABC/DEF", "rows"),
    ("ABCD/EFG/HIJK/LMNO", "row 2"),
    ("AB1/CDE/FGH", "row 1, character 3"),
    ("A[Xy]B/CDE/FGH", "unknown face"),
    ("A[ThB/CDE/FGH", "never closed"),
    ("ABCDEFG/" * 6 + "ABCDEFG", "rows"),
])
def test_bad_board_text_names_the_problem(text, fragment):
    with pytest.raises(BoardTextError) as e:
        Board.parse(text)
    assert fragment in e.value.one_line()
    assert e.value.exit_code == 2


def test_normalise_face_and_letters():
    assert normalise_face("q") == "Qu"
    assert normalise_face("tH") == "Th"
    assert normalise_face("") == BLANK
    with pytest.raises(ValueError):
        normalise_face("Xy")
    assert face_letters("Qu") == "qu" and face_letters(BLANK) == ""


def test_neighbours_corner_edge_centre():
    b = Board.parse("ABCD/EFGH/IJKL/MNOP")
    assert len(b.neighbours(0, 0)) == 3
    assert len(b.neighbours(0, 1)) == 5
    assert sorted(b.neighbours(1, 1)) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]


def test_rotate_and_mirror():
    b = Board.parse("ABC/DEF/GHI")
    assert b.rotated().to_text() == "GDA/HEB/IFC"
    assert b.rotated(4) == b
    assert b.mirrored().to_text() == "CBA/FED/IHG"
    assert b.mirrored().mirrored() == b
