"""The pipeline's own logic: marks mapped from photo cells to board cells, corner order."""
from __future__ import annotations

import numpy as np

from boggle_cv.vision.decode import decode
from boggle_cv.vision.marks import CellMarks
from boggle_cv.vision.pipeline import ScanResult, board_marks
from boggle_cv.vision.stages import Reading
from boggle_cv.vision.reader_model import FACES
from boggle_cv.vision.tray import TrayResult


def _reading_turned(n: int, turn_col: int) -> Reading:
    """Every crop reads 'A' with its letter turned turn_col quarter turns clockwise."""
    faces = np.full((n * n, len(FACES)), 0.001, np.float32)
    faces[:, FACES.index("A")] = 1.0
    turns = np.full((n * n, 4), 0.01, np.float32)
    turns[:, turn_col] = 1.0
    return Reading(faces / faces.sum(1, keepdims=True), turns / turns.sum(1, keepdims=True))


def _marks(n, bonus=(), challenge=()):
    return [[CellMarks((r, c) in bonus, (r, c) in challenge, 0.0, 0.9 if (r, c) in challenge else 0.1)
             for c in range(n)] for r in range(n)]


def test_marks_follow_the_board_rotation():
    n = 4
    # letters lie turned 90 degrees clockwise in the photo: the board is turned back once
    br = decode(_reading_turned(n, 1), n, use_prior=False)
    assert br.rotation in (1, 3)
    bonus, challenge = board_marks(_marks(n, bonus={(0, 0)}, challenge={(3, 3)}), br)
    # the board cell whose photo cell is (0, 0) must be the one reported
    where = {c.photo_cell: (c.row, c.col) for row in br.cells for c in row}
    assert bonus == [where[(0, 0)]]
    assert challenge == where[(3, 3)]
    assert bonus != [(0, 0)]  # the rotation really moved it


def test_no_marks_means_none():
    br = decode(_reading_turned(4, 0), 4, use_prior=False)
    assert board_marks(_marks(4), br) == ([], None)


def test_corners_start_at_the_reported_board_origin():
    n = 4
    br = decode(_reading_turned(n, 1), n, use_prior=False)
    corners = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)
    tray = TrayResult(n, corners, 0.9, np.zeros((n, n, 2)))
    res = ScanResult("x.jpg", (20, 20), tray, br, "classifier")
    got = res.corners_in_board_order()
    # corner 0 of the board is where the board's cell (0, 0) lies: its photo cell's corner
    pr, pc = br.cells[0][0].photo_cell
    photo_corner = {(0, 0): 0, (0, n - 1): 1, (n - 1, n - 1): 2, (n - 1, 0): 3}[(pr, pc)]
    assert np.allclose(got[0], corners[photo_corner])
    d = res.to_dict()
    assert d["board"]["size"] == n and len(d["board"]["cells"]) == n * n
    assert d["marks"] == {"bonus_cells": [], "challenge_cell": None}


def test_corner_error_ignores_order_and_scales_by_side():
    from boggle_cv.vision.metrics import corner_error
    truth = [[0, 0], [10, 0], [10, 10], [0, 10]]
    assert corner_error(truth[2:] + truth[:2], truth) == 0.0      # another start
    assert corner_error(truth[::-1], truth) == 0.0                 # other direction
    assert abs(corner_error([[1, 0], [11, 0], [11, 10], [1, 10]], truth) - 0.1) < 1e-9


class _FixedReader:
    """A reader that reads every crop as the same face with the given confidence."""

    def __init__(self, face: str, conf: float):
        self.face, self.conf = face, conf

    def read(self, crops):
        k = len(crops)
        f = np.full((k, len(FACES)), (1 - self.conf) / (len(FACES) - 1), np.float32)
        f[:, FACES.index(self.face)] = self.conf
        t = np.full((k, 4), 0.01, np.float32)
        t[:, 0] = 0.97
        return Reading(f, t)


def _fake_tray(image, size=None, *, debug=None):
    n = 4
    corners = np.array([[10, 10], [90, 10], [90, 90], [10, 90]], float)
    centres = np.stack(np.meshgrid(np.arange(20, 100, 20), np.arange(20, 100, 20)), -1).astype(float)
    return TrayResult(n, corners, 0.9, centres)


def test_scan_refuses_a_grid_that_reads_as_blanks():
    """A grid over an empty tray reads as blank cells: no board (exit code 5)."""
    import pytest

    from boggle_cv.errors import NoBoardError
    from boggle_cv.vision.pipeline import Scanner
    img = np.full((100, 100, 3), 200, np.uint8)
    with pytest.raises(NoBoardError, match="read as blank"):
        Scanner(reader=_FixedReader("#", 0.9), tray_finder=_fake_tray).scan_image(img)
    with pytest.raises(NoBoardError, match="could not be read"):
        Scanner(reader=_FixedReader("E", 0.1), tray_finder=_fake_tray).scan_image(img)
    res = Scanner(reader=_FixedReader("E", 0.9), tray_finder=_fake_tray).scan_image(img)
    assert res.board.size == 4


def _tray_with_a_debug_image(image, size=None, *, debug=None):
    if debug is not None:
        debug("0_work", image.copy())
    return _fake_tray(image, size)


def test_scan_hands_its_debug_sink_to_the_stages():
    """The sink gets the tray finder's images, then the rectified board and the
    cells: after a board and after a refusal alike."""
    import pytest

    from boggle_cv.errors import NoBoardError
    from boggle_cv.vision.pipeline import Scanner
    from boggle_cv.vision.stages import DebugImages
    img = np.full((100, 100, 3), 200, np.uint8)
    sink = DebugImages()
    Scanner(reader=_FixedReader("E", 0.9), tray_finder=_tray_with_a_debug_image).scan_image(img, debug=sink)
    assert list(sink.images) == ["0_work", "6_rectified", "7_cells"]
    refused = DebugImages()
    with pytest.raises(NoBoardError) as e:
        Scanner(reader=_FixedReader("#", 0.9), tray_finder=_tray_with_a_debug_image).scan_image(img, debug=refused)
    assert list(refused.images) == ["0_work", "6_rectified", "7_cells"]
    assert not hasattr(e.value, "debug")
