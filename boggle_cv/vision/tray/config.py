"""Settings of the tray finder (``tray.find_tray``), one group per stage.

Units: ``px`` working-image pixels (the copy reduced to ``work_side`` long side);
``pitch`` the lattice's cell pitch; "members" the lattice cells holding a detected
cube top; whiteness = min(B, G, R) in grey levels (0..255); detector heat and peaks
are probabilities (0..1). The fallbacks' settings live with them
(:mod:`.fallbacks`: ZoomConfig, StretchConfig, WindowConfig).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .blobs import BlobConfig
from .detector import DetectorConfig
from .fallbacks import default_fallbacks
from .lattice import LatticeConfig
from .plan import Fallback

#: The board sizes a tray can hold.
SIZES = (4, 5, 6)


@dataclass(frozen=True)
class BoardConfig:
    """How an N x N window of lattice cells is judged a board (:mod:`.board`).

    corner_margin: corners lie this many pitches beyond the outer cube centres.
    min_fill: share of the window's visible cells that must hold a detected cube top.
    min_visible: share of the N x N cells that must be (mostly) inside the frame.
    unknown_frac: a cell with at least this share of its centre patch outside the
        frame is "cut off" (unknown) rather than empty.
    min_ink: a cell not recognised as a cube top still counts as one when at least
        this share of its centre patch is dark ink (a letter) on a bright face.
    cube_like: a cell counts as holding a cube when its centre patch's whiteness is at
        least this fraction of the members' median whiteness.
    max_residual: lattice fit error bound (fraction of the pitch).
    min_confidence: below this the board is refused (classical blobs);
        min_confidence_detector: the same bar for a grid of detector peaks (whose
        cells are also checked against the heatmap, so a lower bar is safe).
    heat_cube / heat_rel: a cell whose detector heat within 0.2 pitch of its centre
        reaches max(heat_cube, heat_rel x the members' median peak) holds a cube,
        whatever its whiteness.
    max_doubtful / doubtful_like / doubtful_fill / doubtful_factor: with the detector's
        candidates, a visible cell that is not a recognised cube top but is bright
        (whiteness at least doubtful_like x the members' median; a blank or shaded
        cube?) or red (a challenge cube?) is "doubtful"; a window may hold
        max_doubtful of them when at least doubtful_fill of its visible cells are
        recognised tops; its confidence is multiplied by doubtful_factor per
        doubtful cell.
    red_ratio: a cell is red when R > red_ratio x max(G, B) (2.2 keeps orange trays,
        G ~ R/2, out).
    weak_quality: with the detector's candidates, a member whose peak is below
        weak_quality x the members' median peak is "unsure": it never holds up a row
        or column of a window; an unsure member whose whiteness is also below
        cube_like x the median (not a cube top by either cue: a polka dot, the
        tray's rim) may be left outside the window (at most 2 other members may).
    """

    corner_margin: float = 0.5
    min_fill: float = 0.6
    min_visible: float = 0.5
    unknown_frac: float = 0.6
    min_ink: float = 0.04
    cube_like: float = 0.8
    max_residual: float = 0.15
    min_confidence: float = 0.6
    min_confidence_detector: float = 0.45
    heat_cube: float = 0.08
    heat_rel: float = 0.4
    max_doubtful: int = 2
    doubtful_like: float = 0.6
    doubtful_fill: float = 0.85
    doubtful_factor: float = 0.85
    red_ratio: float = 2.2
    weak_quality: float = 0.7


@dataclass(frozen=True)
class SnapConfig:
    """Refining a grid found from detector peaks (coarse: 4 input px of a 320 px
    letterbox) with classical blobs (``image_search.snap``).

    enabled: snap at all. blobs: a lighter blob search (fewer thresholds) used for
    the snapping only. A cell centre snaps to a blob within ``radius`` pitch whose
    side is within ``side`` (low, high) x pitch; the refit is used when at least
    ``min_share`` of the cells snapped and no corner moves more than ``max_move``
    pitch.
    """

    enabled: bool = True
    blobs: BlobConfig = field(default_factory=lambda: BlobConfig(
        levels=(95, 140, 180, 220), local_windows=(61,), local_offsets=(5, 20)))
    radius: float = 0.3
    side: tuple[float, float] = (0.45, 1.1)
    min_share: float = 0.6
    max_move: float = 0.5


@dataclass(frozen=True)
class TrayConfig:
    """Settings of find_tray.

    work_side: long side (px of the photo) of the working copy every search runs on.
    sources: candidate sources tried in order until one gives a board: "detector"
        (learned cube-top heatmap, models/cube_detector.onnx) and "blobs" (classical
        thresholded blobs).
    board: judging a window of lattice cells (BoardConfig); snap: refining a
        detector grid (SnapConfig); blobs, detector: the two candidate sources;
        lattice / detector_lattice: the lattice fit for blobs / detector peaks.
    fallbacks: what runs, in order, when the search of the whole photo found no
        board (``fallbacks.default_fallbacks()``: zoom, stretch, windows,
        stretched windows); ``()`` for none, ``plan.without(...)`` to leave
        some out.
    """

    work_side: int = 800
    sources: tuple[str, ...] = ("detector", "blobs")
    board: BoardConfig = field(default_factory=BoardConfig)
    snap: SnapConfig = field(default_factory=SnapConfig)
    blobs: BlobConfig = field(default_factory=BlobConfig)
    detector: DetectorConfig = field(default_factory=DetectorConfig)
    lattice: LatticeConfig = field(default_factory=LatticeConfig)
    detector_lattice: LatticeConfig = field(
        default_factory=lambda: LatticeConfig(min_pitch=0.55, unshear=True))
    fallbacks: tuple[Fallback, ...] = field(default_factory=default_fallbacks)
