"""The fallbacks look only where there is something to find: a window is searched
only where the detector's candidates of the view it is cut from lie (a photo with
none searches no window), a stretched copy's windows only where the copy shows
candidates the photo itself did not, and a zoom only when its view shows a candidate
the coarser view did not. A lattice too small to hold a board is not judged in a
fallback's view (whose reasons nobody reads): the boards found are the same."""
from __future__ import annotations

import itertools
from dataclasses import astuple

import numpy as np
import pytest

from boggle_cv.errors import NoBoardError
from boggle_cv.vision.tray import TrayConfig, find_tray, finder
from boggle_cv.vision.tray.blobs import Blobs
from boggle_cv.vision.tray.board import Refusal, board_from_lattice, can_hold_board
from boggle_cv.vision.tray.config import BoardConfig
from boggle_cv.vision.tray import fallbacks
from boggle_cv.vision.tray.fallbacks import (Stretch, StretchConfig, WindowConfig, Windows, Zoom, ZoomConfig,
                                             default_fallbacks, something_new, window_boxes, with_evidence,
                                             zoom_box)
from boggle_cv.vision.tray.image_search import search_image
from boggle_cv.vision.tray.lattice import Lattice
from boggle_cv.vision.tray.plan import Evidence, Plan, SearchContext, Seen


def _evidence(points: list[tuple[float, float]], side: float = 10.0, scale: float = 0.5) -> Evidence:
    """Detector candidates at `points` (image px), in a working copy of `scale`."""
    k = len(points)
    centres = np.array(points, np.float64).reshape(-1, 2) * scale
    blobs = Blobs(centres, np.full(k, side * scale), np.full(k, 0.3), np.zeros((k, 4, 2)), np.full(k, 200.0))
    return Evidence(blobs, [], (300, 400), scale)


def test_a_window_is_searched_only_where_the_view_holds_a_candidate():
    boxes = window_boxes((600, 800), 0.67)
    assert with_evidence(boxes, _evidence([]), 1) == []  # nothing seen: no window
    corner = with_evidence(boxes, _evidence([(20.0, 20.0)]), 1)
    assert corner and all(x0 <= 20 < x1 and y0 <= 20 < y1 for x0, y0, x1, y1 in corner)
    assert len(corner) < len(boxes)
    assert with_evidence(boxes, None, 1) == boxes  # no detector ran: every window
    assert with_evidence(boxes, _evidence([]), 0) == boxes  # evidence=0: every window


def test_a_lone_new_candidate_is_no_reason_for_a_window():
    """The shipped setting: a board shows as at least two new cube tops in the coarser
    view; one alone (a letter of a page, a tile, the empty slot of a tray) is not
    looked at closer, in the photo's windows nor in a stretched copy's."""
    least = WindowConfig().evidence
    boxes = window_boxes((600, 800), 0.67)
    assert with_evidence(boxes, _evidence([(400.0, 300.0)]), least) == []
    pair = with_evidence(boxes, _evidence([(400.0, 300.0), (430.0, 300.0)]), least)
    assert pair and all(x0 <= 400 and 430 < x1 and y0 <= 300 < y1 for x0, y0, x1, y1 in pair)
    elsewhere = Seen(np.array([[700.0, 500.0]]), np.array([10.0]))
    assert with_evidence(boxes, _evidence([(400.0, 300.0), (700.0, 500.0)]), least, elsewhere) == []
    assert with_evidence(boxes, _evidence([(400.0, 300.0), (430.0, 300.0)]), least, elsewhere) == [
        b for b in boxes if b[0] <= 400 and 430 < b[2] and b[1] <= 300 < b[3]]


def test_a_stretched_copy_is_made_once_for_the_stretch_and_its_windows(monkeypatch):
    """Step 4 (the stretched copies' windows) searches the copies step 2 made: one
    warp per copy however many Stretch fallbacks look at it, the same pixels."""
    warps: list[object] = []
    real = fallbacks.cv2.warpAffine
    monkeypatch.setattr(fallbacks.cv2, "warpAffine", lambda *a, **k: warps.append(a[2]) or real(*a, **k))
    searched: list[np.ndarray] = []

    def search(view: np.ndarray, *args: object) -> None:
        searched.append(view)

    photo = np.random.default_rng(5).integers(0, 256, (300, 400, 3), dtype=np.uint8)
    tries = ((90, 2.0), (0, 1.5))
    ctx = SearchContext(search, None, {})
    for label in ("stretch_retry", "stretch_window_retry"):
        assert Stretch(Plan(), StretchConfig(tries=tries), label).attempt(photo, None, ctx) is None
    assert len(warps) == len(tries) and len(searched) == 2 * len(tries)
    # (the copies may be searched side by side: tray.views; each attempt ends with its searches)
    assert {id(v) for v in searched[len(tries):]} == {id(v) for v in searched[:len(tries)]}
    other = SearchContext(search, None, {})
    Stretch(Plan(), StretchConfig(tries=tries)).attempt(photo, None, other)
    assert len(warps) == 2 * len(tries)  # another image's search makes its own
    key = lambda v: (v.shape, v.tobytes())  # noqa: E731
    assert sorted(map(key, searched[:len(tries)])) == sorted(map(key, searched[2 * len(tries):]))


def test_a_zoom_inside_a_window_crops_only_around_a_lattice():
    """A window is a closer look already: its zoom crops around a lattice the
    detector saw there, not around loose peaks; the photo's own zoom and a stretched
    copy's crop around the peaks too."""
    ev = _evidence([(100.0, 100.0), (300.0, 180.0), (200.0, 240.0)])
    loose = zoom_box(ev.blobs, [], ev.work_shape, ZoomConfig())
    assert loose is not None
    assert zoom_box(ev.blobs, [], ev.work_shape, ZoomConfig(lattice_only=True)) is None
    lattice = Lattice({(0, 0): 0, (1, 0): 1, (2, 0): 2}, np.eye(3), 10.0, 0.0)
    strict = zoom_box(ev.blobs, [lattice], ev.work_shape, ZoomConfig(lattice_only=True))
    either = zoom_box(ev.blobs, [lattice], ev.work_shape, ZoomConfig())
    assert strict is not None and either is not None
    assert strict[0] == either[0] and np.array_equal(strict[1], either[1])
    photo_zoom, stretch, windows, stretched_windows = default_fallbacks()
    assert isinstance(photo_zoom, Zoom) and not photo_zoom.settings.lattice_only
    stretch_zoom = stretch.inner.fallbacks[0]
    assert isinstance(stretch_zoom, Zoom) and not stretch_zoom.settings.lattice_only
    for w in (windows, stretched_windows.inner.fallbacks[0]):
        assert isinstance(w, Windows)
        window_zoom = w.inner.fallbacks[0]
        assert isinstance(window_zoom, Zoom) and window_zoom.settings.lattice_only


def test_a_candidate_another_view_saw_is_no_reason_for_a_window():
    boxes = window_boxes((600, 800), 0.67)
    seen = Seen(np.array([[21.0, 19.0]]), np.array([10.0]))
    assert with_evidence(boxes, _evidence([(20.0, 20.0)]), 1, seen) == []
    elsewhere = Seen(np.array([[700.0, 500.0]]), np.array([10.0]))
    assert with_evidence(boxes, _evidence([(20.0, 20.0)]), 1, elsewhere) == with_evidence(
        boxes, _evidence([(20.0, 20.0)]), 1)


def test_a_zoom_looks_only_when_its_view_shows_something_new():
    ev = _evidence([(100.0, 100.0), (130.0, 100.0), (160.0, 100.0)])
    assert something_new(ev, None)
    assert not something_new(ev, Seen(np.array([[101.0, 99.0], [131.0, 100.0], [160.0, 102.0]]), np.full(3, 10.0)))
    assert something_new(ev, Seen(np.array([[101.0, 99.0], [131.0, 100.0]]), np.full(2, 10.0)))
    calls: list[object] = []

    def search(*args: object) -> None:
        calls.append(args)

    all_seen = Seen(np.array([[100.0, 100.0], [130.0, 100.0], [160.0, 100.0]]), np.full(3, 10.0))
    zoom = Zoom(Plan(("detector",)), ZoomConfig())
    assert zoom.attempt(np.zeros((600, 800, 3), np.uint8), None, SearchContext(search, ev, {}, all_seen)) is None
    assert calls == []


@pytest.mark.parametrize("n_members, size", [(4, None), (4, 4), (7, 5), (10, 6)])
def test_a_lattice_too_small_for_a_board_is_refused_whatever_it_sees(n_members, size):
    """can_hold_board is exact: board_from_lattice refuses such a lattice even where
    every cell is white, inked and hot."""
    cells = list(itertools.product(range(3), range(4)))[:n_members]
    H = np.array([[50.0, 0, 100], [0, 50.0, 100], [0, 0, 1]])
    centres = np.array([(100 + 50 * c, 100 + 50 * r) for c, r in cells], np.float64)
    k = len(cells)
    blobs = Blobs(centres, np.full(k, 40.0), np.full(k, 0.9), np.zeros((k, 4, 2)), np.full(k, 200.0))
    lat = Lattice({m: j for j, m in enumerate(cells)}, H, 50.0, 0.0)
    assert not can_hold_board(lat, size, BoardConfig())
    white = np.full((500, 500), 200, np.uint8)
    white[::7, ::7] = 20  # ink in every cell
    res = board_from_lattice(lat, blobs, white, size, BoardConfig(), np.full((500, 500), 0.9, np.float32))
    assert isinstance(res, Refusal)


def _count_views(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    views = [0]
    real = finder.search_image

    def counted(*args: object, **kwargs: object) -> object:
        views[0] += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(finder, "search_image", counted)
    return views


def test_a_photo_the_detector_sees_nothing_in_is_refused_without_its_windows(monkeypatch):
    """A plain table: no candidate anywhere, so the whole photo and the six stretched
    copies are searched, and none of the 9 windows nor of the 54 stretched windows;
    the stretched copies are not looked at again for their windows (what the
    detector saw in them while they were searched serves)."""
    rng = np.random.default_rng(0)
    photo = np.clip(rng.normal(150, 3, (900, 1200, 3)), 0, 255).astype(np.uint8)
    views = _count_views(monkeypatch)
    looks: list[object] = []
    real_look = finder.look
    monkeypatch.setattr(finder, "look", lambda *a: looks.append(a) or real_look(*a))
    with pytest.raises(NoBoardError):
        find_tray(photo)
    assert views[0] == 1 + 6 and looks == []


def test_a_fallbacks_view_finds_the_same_boards_without_judging_small_lattices():
    from boggle_cv.synth import render_photo
    for seed in (1, 2, 4):
        img, _ = render_photo(np.random.default_rng(seed), long_side=700, kind="tray")
        told = search_image(img, None, TrayConfig(), ("detector", "blobs"), {})
        quiet = search_image(img, None, TrayConfig(), ("detector", "blobs"), {}, explain=False)
        assert (told.found is None) == (quiet.found is None)
        if told.found is not None and quiet.found is not None:
            assert np.array_equal(told.found.corners, quiet.found.corners)


def test_the_cells_read_at_once_read_as_one_by_one():
    """board.cell_states gives each cell's cell_state, for cells wholly inside the
    image, cut by its edge and wholly outside it, with and without a heat map."""
    from boggle_cv.vision.tray.board import cell_state, cell_states
    rng = np.random.default_rng(3)
    white = rng.integers(0, 256, (300, 400), dtype=np.uint8)
    heat = rng.random((300, 400)).astype(np.float32)
    H = np.array([[41.0, 6.0, 30.0], [-5.0, 39.0, 25.0], [0.0001, 0.0002, 1.0]])
    lat = Lattice({(0, 0): 0}, H, 40.0, 0.0)
    cells = [(c, r) for r in range(-2, 9) for c in range(-2, 11)]
    for h in (heat, None):
        at_once = cell_states(white, lat, cells, h)
        assert set(at_once) == set(cells)
        for k in cells:
            np.testing.assert_equal(astuple(at_once[k]), astuple(cell_state(white, lat, k, h)))  # NaN: NaN
    assert cell_states(white, lat, [], heat) == {}


def test_a_fallbacks_view_asks_the_blobs_only_about_a_lattice_the_detector_saw(monkeypatch):
    """In a fallback's view (explain=False) the classical blob source runs only when
    the detector saw a lattice that could hold a board; the photo's own search runs
    every source."""
    from boggle_cv.vision.tray import image_search
    ran: list[str] = []
    real = image_search._candidates

    def counted(source: str, *args: object, **kwargs: object) -> object:
        ran.append(source)
        return real(source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(image_search, "_candidates", counted)
    blank = np.full((480, 640, 3), 128, np.uint8)
    search_image(blank, None, TrayConfig(), ("detector", "blobs"), {}, explain=False)
    assert ran == ["detector"]
    ran.clear()
    search_image(blank, None, TrayConfig(), ("detector", "blobs"), {})
    assert ran == ["detector", "blobs"]


def test_a_candidate_chooses_the_photo_window_that_cuts_a_board_around_it_least():
    """The photo's own windows: each candidate is searched in the window that holds
    it farthest from the window's inner edges, the windows chosen most first."""
    boxes = window_boxes((600, 800), 0.67)
    centre = with_evidence(boxes, _evidence([(400.0, 300.0), (410.0, 310.0)]), 1)
    assert len(centre) == 1 and centre[0][0] < 400 < centre[0][2] and centre[0][1] < 300 < centre[0][3]
    x0, y0, x1, y1 = centre[0]
    assert abs((x0 + x1) / 2 - 400) < 1 and abs((y0 + y1) / 2 - 300) < 1  # the centre window
    two = with_evidence(boxes, _evidence([(30.0, 30.0), (770.0, 570.0), (780.0, 580.0)]), 1)
    assert len(two) == 2 and two[0][2] == 800 and two[1][0] == 0  # the bottom right first
    assert with_evidence(boxes, _evidence([(30.0, 30.0), (770.0, 570.0), (780.0, 580.0)]), 2) == two[:1]
