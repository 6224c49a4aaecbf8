"""The annotated photo shows one board: the report's. Whichever way the tray lay in
the photo, the drawing is turned so that the report's row 1 runs along the top; rows
and columns are labelled as `--fix` names them; nothing drawn covers a cube's letter;
the drawing fits a phone (longest side at most 2000 px unless asked otherwise)."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from boggle_cv.game.dictionary import load_default
from boggle_cv.game.referee import RoundRequest, referee_round
from boggle_cv.vision.round_photo import draw_round
from boggle_cv.vision.board_view import board_view
from boggle_cv.vision.overlay import OverlayStyle, draw_scan, number_spots, photo_view

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "samples" / "sample-5x5-a.jpg"
TURNS = (None, cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE)


@pytest.fixture(scope="module")
def scanner():
    from boggle_cv.errors import EngineMissingError
    from boggle_cv.vision.pipeline import Scanner
    try:
        return Scanner("classifier")
    except EngineMissingError as err:
        pytest.skip(err.one_line())


@pytest.fixture(scope="module")
def turned(scanner):
    """The sample photo as it is and turned by each quarter turn, each scanned."""
    photo = cv2.imread(str(SAMPLE))
    images = [photo if t is None else np.ascontiguousarray(cv2.rotate(photo, t)) for t in TURNS]
    return [(image, scanner.scan_image(image)) for image in images]


def test_row_1_is_on_top_whichever_way_the_photo_lies(turned):
    boards = {scan.board.to_text() for _, scan in turned}
    assert len(boards) == 1  # the reading is the same board
    views = [board_view(image, scan) for image, scan in turned]
    assert sorted(v.turns for v in views) == [0, 1, 2, 3]
    for view in views:
        n = view.size
        centres = np.array([[view.cell_centre(r, c) for c in range(n)] for r in range(n)])
        assert (np.diff(centres[:, :, 0], axis=1) > 0.5 * view.pitch).all()  # columns left to right
        assert (np.diff(centres[:, :, 1], axis=0) > 0.5 * view.pitch).all()  # rows top to bottom
    first = views[0].image.astype(np.float32)
    for view in views[1:]:  # the same picture, whichever way the photo was taken (to a pixel of rounding)
        h, w = (min(a, b) for a, b in zip(view.image.shape[:2], first.shape[:2]))
        assert max(abs(a - b) for a, b in zip(view.image.shape[:2], first.shape[:2])) <= 2
        assert float(np.abs(view.image[:h, :w].astype(np.float32) - first[:h, :w]).mean()) < 6.0


def _letter_areas(view, share: float = 0.22):
    """(row, col) -> the slice of each cube's letter: a square of `share` pitches
    either side of the cell's centre."""
    half = int(share * view.pitch)
    out = {}
    for r in range(view.size):
        for c in range(view.size):
            x, y = (int(round(v)) for v in view.cell_centre(r, c))
            out[(r, c)] = (slice(y - half, y + half), slice(x - half, x + half))
    return out


def test_nothing_drawn_covers_a_letter(turned):
    """The readings, the grid, the row and column labels leave every letter as it is
    in the photo; the paths' numbers sit in corners of their first cells, off every
    letter, also when three paths start on one cube."""
    image, scan = turned[1]
    result = referee_round(RoundRequest(scan), load_default())
    bare = draw_scan(image, scan, result.board.to_rows())
    view = photo_view(image, scan)
    assert bare.shape == view.image.shape
    areas = _letter_areas(view)
    for area in areas.values():
        assert np.array_equal(bare[area], view.image[area])
    for paths in ([w.path for w in result.sheet.missed[:3]], [((2, 2), (2, 3))] * 3):
        spots, radius = number_spots(view, paths)
        for x, y in spots:
            for rows, cols in areas.values():  # the disc's box misses every letter's square
                assert (x + radius <= cols.start or x - radius >= cols.stop
                        or y + radius <= rows.start or y - radius >= rows.stop), (x, y, rows, cols)
        assert len({(round(x), round(y)) for x, y in spots}) == 3


def test_rows_and_columns_are_labelled_outside_the_grid(turned):
    """r1.. left of the rows and c1.. above the columns: dark text on a white box,
    beside the grid (the photo gains a white band where the labels need room)."""
    image, scan = turned[2]
    drawn = draw_scan(image, scan)
    view = photo_view(image, scan)
    half = int(0.12 * view.pitch)
    for spot in [view.point(-0.4, r + 0.5) for r in range(view.size)] + \
                [view.point(c + 0.5, -0.35) for c in range(view.size)]:
        x, y = (int(round(v)) for v in spot)
        patch = drawn[y - half:y + half, x - half:x + half].min(axis=2)
        assert patch.size and (patch > 230).mean() > 0.3 and (patch < 120).mean() > 0.05


def test_the_drawing_fits_2000_px_unless_asked_for_full_size(scanner):
    big = cv2.resize(cv2.imread(str(SAMPLE)), None, fx=3.2, fy=3.2, interpolation=cv2.INTER_CUBIC)
    scan = scanner.scan_image(big)
    result = referee_round(RoundRequest(scan), load_default())
    small = draw_round(big, scan, result)
    assert max(small.shape[:2]) <= 2000 and max(small.shape[:2]) >= 1990
    full = draw_round(big, scan, result, style=OverlayStyle(max_side=None))
    assert max(full.shape[:2]) > 1.4 * max(small.shape[:2])
