"""What the pipeline refuses rather than read wrong: a size the photo contradicts,
and cells whose cube tops lie beyond the photo's edge."""
from __future__ import annotations

import numpy as np
import pytest

from boggle_cv.errors import NoBoardError
from boggle_cv.game import dice
from boggle_cv.vision.pipeline import Scanner
from boggle_cv.vision.reader_model import FACES
from boggle_cv.vision.stages import Reading
from boggle_cv.vision.tray import TrayResult

IMAGE = np.full((100, 100, 3), 200, np.uint8)


class _Reader:
    """Reads the crops of an N x N grid as a board shaken from a cube set of that size
    (the letters a tray shows), each face upright, 90% sure."""

    def read(self, crops):
        k = len(crops)
        n = int(round(k ** 0.5))
        board = dice.roll(dice.sets_of_size(n)[0], seed=n)
        f = np.full((k, len(FACES)), 0.1 / (len(FACES) - 1), np.float32)
        for i, (r, c) in enumerate(board.cells()):
            f[i, FACES.index(board.face(r, c))] = 0.9
        t = np.full((k, 4), 0.01, np.float32)
        t[:, 0] = 0.97
        return Reading(f, t)


def _grid(n: int, x0: float = 10, side: float = 80) -> TrayResult:
    pitch = side / n
    corners = np.array([[x0, x0], [x0 + side, x0], [x0 + side, x0 + side], [x0, x0 + side]], float)
    c = x0 + pitch / 2 + pitch * np.arange(n)
    centres = np.stack(np.meshgrid(c, c), -1).astype(float)
    return TrayResult(n, corners, 0.9, centres)


def _finder(shown: int | None, forced_ok: bool = True):
    """A tray finder over a photo of a shown x shown board (None: it sees none):
    asked for a size, it grows a grid of that size (as a window can grow over the rim)."""
    calls: list[int | None] = []

    def find(image, size=None, *, debug=None):
        calls.append(size)
        if size is None:
            if shown is None:
                raise NoBoardError("no board found: no grid of cube tops was seen")
            return _grid(shown)
        if not forced_ok:
            raise NoBoardError(f"no board found: the cube tops form a 3x3 grid, not a full {size}x{size} board")
        return _grid(size)
    find.calls = calls  # type: ignore[attr-defined]
    return find


@pytest.mark.parametrize("shown,given", [(4, 5), (5, 4), (5, 6), (6, 4)])
def test_a_size_the_photo_contradicts_is_refused_naming_size(shown, given):
    scanner = Scanner(reader=_Reader(), tray_finder=_finder(shown))
    with pytest.raises(NoBoardError) as e:
        scanner.scan_image(IMAGE, given)
    line = e.value.one_line()
    assert f"--size {given}" in line and f"{shown}x{shown}" in line, line
    assert "4x4, 5x5 or 6x6" not in line


def test_the_size_the_photo_shows_is_read_with_one_search():
    finder = _finder(5)
    res = Scanner(reader=_Reader(), tray_finder=finder).scan_image(IMAGE, 5)
    assert res.board.size == 5 and finder.calls == [None]


def test_a_size_helps_only_where_the_photo_shows_no_board():
    finder = _finder(None)
    res = Scanner(reader=_Reader(), tray_finder=finder).scan_image(IMAGE, 6)
    assert res.board.size == 6 and finder.calls == [None, 6]
    with pytest.raises(NoBoardError) as e:
        Scanner(reader=_Reader(), tray_finder=_finder(None, forced_ok=False)).scan_image(IMAGE, 4)
    assert "--size 4" in e.value.one_line() and "not a full 4x4 board" in e.value.one_line()


def test_cells_beyond_the_photos_edge_are_never_read():
    """A grid whose last column lies mostly beyond the photo's right edge (a 5x5 grown
    over a 4x4 board's edge, the rim read as letters) is refused, naming the cells."""
    def off_the_edge(image, size=None, *, debug=None):
        return _grid(5, x0=10, side=100)  # the 5th column's cube tops: x 90..110 of 100 px
    with pytest.raises(NoBoardError) as e:
        Scanner(reader=_Reader(), tray_finder=off_the_edge).scan_image(IMAGE)
    assert "outside the photo" in e.value.message and "r1c5" in e.value.message
    assert "r1c4" not in e.value.message


def test_a_cube_top_cut_by_the_frame_is_read_and_doubtful():
    def cut(image, size=None, *, debug=None):
        return _grid(4, x0=-3, side=80)  # the first column loses a sliver of its tops
    res = Scanner(reader=_Reader(), tray_finder=cut).scan_image(IMAGE)
    cut_cells = [c for row in res.reading.cells for c in row if c.outside_photo > 0.1]
    assert cut_cells and all(c.flagged and c.outside_photo < 0.5 for c in cut_cells)
