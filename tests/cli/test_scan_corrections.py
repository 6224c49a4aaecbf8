"""Corrections of a reading: --fix parsing, applying, and the terminal questions."""
from __future__ import annotations

import io
import re

import numpy as np
import pytest

from boggle_cv.game.board import Board
from boggle_cv.cli import questions
from boggle_cv.cli.options import parse_fixes
from boggle_cv.game.referee import apply_fixes
from boggle_cv.errors import UsageError
from boggle_cv.vision.decode import decode
from boggle_cv.vision.stages import Reading
from boggle_cv.vision.reader_model import FACES


def test_parse_fixes_is_one_based_and_normalises_faces():
    assert parse_fixes(["r2c3=w", "R1C1=qu", "r4c4=#"]) == {(1, 2): "W", (0, 0): "Qu", (3, 3): "#"}


@pytest.mark.parametrize("bad", ["r0c1=A", "r1c0=A", "r2c3", "r2c3=12", "c3r2=A", "r2c3=Xy"])
def test_parse_fixes_refuses_bad_items(bad):
    with pytest.raises(UsageError):
        parse_fixes([bad])


def test_parse_fixes_refuses_two_faces_for_one_cell_but_not_a_repeat():
    assert parse_fixes(["r1c1=W", "r1c1=w"]) == {(0, 0): "W"}
    with pytest.raises(UsageError, match="r1c1 two different faces"):
        parse_fixes(["r1c1=W", "r1c1=M"])


def test_apply_fixes_and_off_board_cell():
    b = Board.parse("ABCD/EFGH/IJKL/MNOP")
    assert apply_fixes(b, {(0, 0): "Z"}).to_text() == "ZBCD/EFGH/IJKL/MNOP"
    with pytest.raises(UsageError, match="outside"):
        apply_fixes(b, {(4, 0): "Z"})


class _Scan:
    """The part of a ScanResult that ask_cells reads (without the photo)."""

    def __init__(self, reading):
        self.reading = reading


def _doubtful_reading():
    """4x4 of 'A' read confidently, except cell (1, 2): M 60% / W 35%."""
    n = 4
    faces = np.full((n * n, len(FACES)), 1e-4, np.float32)
    faces[:, FACES.index("A")] = 1.0
    k = 1 * n + 2
    faces[k, :] = 1e-4
    faces[k, FACES.index("M")] = 0.60
    faces[k, FACES.index("W")] = 0.35
    faces /= faces.sum(1, keepdims=True)
    turns = np.tile(np.array([[0.97, 0.01, 0.01, 0.01]], np.float32), (n * n, 1))
    return decode(Reading(faces, turns), n, use_prior=False)


def test_ask_doubtful_asks_once_per_flagged_cell(monkeypatch, capsys):
    br = _doubtful_reading()
    assert br.flagged == [(1, 2)]
    monkeypatch.setattr("sys.stdin", io.StringIO("w\n"))
    assert questions.ask_cells(_Scan(br), br.board) == {(1, 2): "W"}
    out = capsys.readouterr().out
    assert re.search(r"row 2, col 3: M \(6\d%\) or W \(3\d%\)\? \[M\]", out), out


def test_ask_doubtful_enter_keeps_the_reading_and_bad_answer_asks_again(monkeypatch, capsys):
    br = _doubtful_reading()
    monkeypatch.setattr("sys.stdin", io.StringIO("7\n\n"))
    assert questions.ask_cells(_Scan(br), br.board) == {}
    assert "a letter, Qu" in capsys.readouterr().out


def test_ask_doubtful_end_of_input_keeps_the_reading(monkeypatch):
    br = _doubtful_reading()
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert questions.ask_cells(_Scan(br), br.board) == {}


def _report_of(reading) -> str:
    """The text report of a round on `reading` (a photo's reading, no players)."""
    from boggle_cv.game.dictionary import load_default
    from boggle_cv.game.referee import RoundRequest, referee_round
    from boggle_cv.game.report import round_text
    from boggle_cv.vision.pipeline import ScanResult
    from boggle_cv.vision.stages import TrayResult
    n = reading.size
    tray = TrayResult(n, np.array([[0, 0], [100, 0], [100, 100], [0, 100]], float), 0.9, np.zeros((n, n, 2)))
    scan = ScanResult(None, (100, 100), tray, reading, "classifier")
    return round_text(referee_round(RoundRequest(scan), load_default()))


def test_no_known_cube_set_says_why_truly():
    """A board no cube set can make: with doubtful cells the report points at them;
    with none, it does not send the reader to check doubtful cells that are not there."""
    doubtful = _report_of(_doubtful_reading()).splitlines()[0]
    assert "1 doubtful cell; cube sets that fit: no known cube set (check the doubtful cells)" in doubtful
    n = 4
    faces = np.full((n * n, len(FACES)), 1e-4, np.float32)
    faces[:, FACES.index("A")] = 1.0
    turns = np.tile(np.array([[0.97, 0.01, 0.01, 0.01]], np.float32), (n * n, 1))
    sure = _report_of(decode(Reading(faces / faces.sum(1, keepdims=True), turns), n, use_prior=False))
    first = sure.splitlines()[0]
    assert "0 doubtful cells" in first and "no known cube set" in first, first
    assert "doubtful cells)" not in first and "compare the board with the tray" in first
