"""The tray finder's stages through their public functions: the board window's typed
result, the fallbacks tried in order by one search, the debug sink, and the pipeline
handing its sink on."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from boggle_cv.errors import ArgumentTypeError, NoBoardError
from boggle_cv.vision.stages import DebugImages, TrayResult
from boggle_cv.vision.tray import TrayConfig, find_tray
from boggle_cv.vision.tray.blobs import Blobs
from boggle_cv.vision.tray.board import FittedGrid, Refusal, board_from_lattice
from boggle_cv.vision.tray.config import BoardConfig
from boggle_cv.vision.tray.fallbacks import Stretch, StretchConfig, Windows, Zoom, default_fallbacks
from boggle_cv.vision.tray.plan import Plan, SearchContext, without
from boggle_cv.vision.tray.lattice import Lattice

PITCH = 50.0
ORIGIN = 100.0


def _lattice(members: list[tuple[int, int]], quality: dict[tuple[int, int], float],
             residual: float = 0.0) -> tuple[Lattice, Blobs]:
    """A lattice whose cell (col, row) lies at (100 + 50 col, 100 + 50 row) px, one
    candidate per member (peak 0.9 unless ``quality`` says otherwise, whiteness 200)."""
    H = np.array([[PITCH, 0, ORIGIN], [0, PITCH, ORIGIN], [0, 0, 1]], np.float64)
    centres = np.array([(ORIGIN + PITCH * c, ORIGIN + PITCH * r) for c, r in members], np.float64)
    k = len(members)
    q = np.array([quality.get(m, 0.9) for m in members], np.float64)
    blobs = Blobs(centres, np.full(k, 40.0), q, np.zeros((k, 4, 2)), np.full(k, 200.0))
    return Lattice({m: j for j, m in enumerate(members)}, H, PITCH, residual), blobs


def _maps(height: int = 320) -> tuple[np.ndarray, np.ndarray]:
    """A uniform whiteness map and a uniformly hot detector heatmap, 320 px wide."""
    return np.full((height, 320), 200, np.uint8), np.full((height, 320), 0.9, np.float32)


ROWS_0_2 = [(c, r) for r in range(3) for c in range(4)]


def test_board_window_is_a_fitted_grid():
    """A 4x4 whose last row holds one confident detected top (the others hot in the
    heatmap) is a board: a FittedGrid in working px, corners half a pitch out."""
    lat, blobs = _lattice(ROWS_0_2 + [(1, 3)], {})
    white, heat = _maps()
    res = board_from_lattice(lat, blobs, white, 4, BoardConfig(), heat)
    assert isinstance(res, FittedGrid)
    assert res.size == 4 and res.centres.shape == (4, 4, 2)
    np.testing.assert_allclose(res.corners[0], (ORIGIN - PITCH / 2, ORIGIN - PITCH / 2))
    np.testing.assert_allclose(res.centres[3, 1], (ORIGIN + PITCH, ORIGIN + 3 * PITCH))
    assert 0.45 <= res.confidence <= 1


def test_row_held_up_only_by_an_unsure_peak_is_refused():
    """The same window whose last row's only detected top is an unsure peak (below
    0.7 x the members' median: a polka dot on the lattice) is refused, with a reason."""
    lat, blobs = _lattice(ROWS_0_2 + [(1, 3)], {(1, 3): 0.3})
    white, heat = _maps()
    res = board_from_lattice(lat, blobs, white, 4, BoardConfig(), heat)
    assert isinstance(res, Refusal) and "4x4" in res.reason


def test_row_outside_the_photo_needs_no_cube_top():
    """A last row wholly outside the frame (cut-off cubes) needs no detected top."""
    lat, blobs = _lattice(ROWS_0_2, {})
    white, heat = _maps(height=int(ORIGIN + 2.5 * PITCH))
    assert isinstance(board_from_lattice(lat, blobs, white, 4, BoardConfig(), heat), FittedGrid)


def test_irregular_lattice_is_refused_with_its_fit_error():
    lat, blobs = _lattice(ROWS_0_2 + [(1, 3)], {}, residual=0.3)
    white, heat = _maps()
    res = board_from_lattice(lat, blobs, white, 4, BoardConfig(), heat)
    assert res == Refusal("the cube tops do not lie on a regular grid (fit error 0.30)")


@dataclass(frozen=True)
class _Recorder:
    """A fallback that logs its name and returns ``result`` (None: nothing found)."""

    label: str
    log: list[str] = field(default_factory=list, compare=False, hash=False)
    result: TrayResult | None = None

    @property
    def name(self) -> str:
        return self.label

    def attempt(self, image, size, ctx: SearchContext):
        self.log.append(self.label)
        return self.result

    def without(self, names):
        return None if self.label in names else self


def _result(n: int = 4) -> TrayResult:
    corners = np.array([[10, 10], [90, 10], [90, 90], [10, 90]], np.float64)
    return TrayResult(n, corners, 0.8, np.zeros((n, n, 2)))


BLANK = np.full((120, 160, 3), 128, np.uint8)


def test_fallbacks_are_tried_in_order_until_one_finds_a_board():
    log: list[str] = []
    found = _result()
    cfg = TrayConfig(sources=(), fallbacks=(_Recorder("a", log), _Recorder("b", log, found),
                                            _Recorder("c", log)))
    res = find_tray(BLANK, config=cfg)
    assert log == ["a", "b"]
    assert res.size == 4 and np.array_equal(res.corners, found.corners)
    with pytest.raises(NoBoardError, match="no grid of cube tops"):
        find_tray(BLANK, config=TrayConfig(sources=(), fallbacks=(_Recorder("a", log),)))
    assert log == ["a", "b", "a"]


@dataclass(frozen=True)
class _SearchesAView:
    """A fallback that searches the left half of the image with its inner plan and
    shifts nothing (the half starts at x = 0)."""

    inner: Plan

    @property
    def name(self) -> str:
        return "half"

    def attempt(self, image, size, ctx: SearchContext):
        return ctx.search(image[:, : image.shape[1] // 2], size, self.inner)

    def without(self, names):
        return self


def test_a_fallback_searches_its_views_with_its_inner_plan():
    """The inner plan's own fallbacks run on the view (here: none finds a board,
    then one does), not the outer ones."""
    log: list[str] = []
    inner = Plan((), (_Recorder("inner-1", log), _Recorder("inner-2", log, _result(5))))
    res = find_tray(BLANK, config=TrayConfig(sources=(), fallbacks=(_SearchesAView(inner),)))
    assert res.size == 5 and log == ["inner-1", "inner-2"]


def test_default_fallbacks_order_and_without():
    """zoom, stretch, windows, stretched windows; ``without`` removes a kind at every
    depth and drops a stretch left with nothing to search."""
    fb = default_fallbacks()
    assert [f.name for f in fb] == ["zoom_retry", "stretch_retry", "window_retry",
                                    "stretch_window_retry"]
    assert isinstance(fb[0], Zoom) and fb[0].inner.fallbacks == ()  # a zoom's crop: the detector alone
    assert isinstance(fb[2], Windows) and isinstance(fb[2].inner.fallbacks[0], Zoom)
    assert isinstance(fb[3], Stretch) and fb[3].inner.sources == ()
    # step 2 stretches every way; step 4 searches the windows of the x2 copies only
    assert fb[1].settings.tries == StretchConfig().tries
    assert fb[3].settings.tries == ((90, 2.0), (0, 2.0), (45, 2.0), (135, 2.0))
    left = without(fb, "window_retry")
    assert [f.name for f in left] == ["zoom_retry", "stretch_retry"]
    assert left[0].inner.fallbacks == ()
    assert without(fb, "zoom_retry", "stretch_retry", "stretch_window_retry", "window_retry") == ()
    assert TrayConfig().fallbacks == fb


def test_debug_sink_gets_the_stages_of_a_refusal():
    """A refusal hands its stages to the sink (the last one names the reason); the
    error itself carries no images."""
    sink = DebugImages()
    with pytest.raises(NoBoardError) as e:
        find_tray(np.full((240, 320, 3), 90, np.uint8), config=TrayConfig(fallbacks=()), debug=sink)
    assert {"0_work", "1_whiteness", "4d_lattice", "5_refused"} <= set(sink.images)
    assert "5_grid" not in sink.images
    assert not hasattr(e.value, "debug")
    for im in sink.images.values():
        assert im.dtype == np.uint8 and im.ndim == 3 and im.shape[2] == 3


def test_debug_must_be_a_sink():
    with pytest.raises(ArgumentTypeError, match="DebugSink"):
        find_tray(BLANK, debug=True)


def test_forced_size_must_be_a_board_size():
    with pytest.raises(ValueError, match="size must be one of"):
        find_tray(BLANK, 7)
