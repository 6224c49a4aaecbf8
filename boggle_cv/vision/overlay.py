"""The annotated photo of a scan, turned as the report prints its board
(vision.board_view: row 1 at the top, the photo scaled to a phone's size): the tray
outline and grid, rows and columns labelled r1.. and c1.. as `--fix` names them,
each cube's reading in its cell's top-left corner (doubtful cells boxed, with "?"),
and the paths of the best words, each numbered by a disc in a corner of its first
cell and named in a legend under the photo (vision.legend: the word, and when the
round is known, its points and who found it: boggle_cv.vision.round_photo.draw_round).
Labels and discs sit in the cells' corners and outside the grid, off the letters.

Input and output images are BGR uint8 (H, W, 3). Board cells are (row, col) in the
reported board's orientation.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import cv2
import numpy as np

from .board_view import BoardView, board_view, turned_geometry
from .legend import LegendStyle, PathLabel, apart, band_height, draw_number, spelled_by, with_legend
from .stages import ImageU8

if TYPE_CHECKING:  # only for the annotations: the overlay does not need the pipeline loaded
    from .pipeline import ScanResult

#: Where a path's number goes in its first cell (board units from the cell's
#: top-left): bottom-left, bottom-right, top-right; the reading has the top-left.
NUMBER_SPOTS = ((0.15, 0.85), (0.85, 0.85), (0.85, 0.15))
FONT = cv2.FONT_HERSHEY_SIMPLEX


@dataclass(frozen=True)
class OverlayStyle:
    """Colours (BGR); sizes in cell pitches; max_side: the longest side of the drawn
    photo in pixels (None: the photo's own size)."""

    sure: tuple[int, int, int] = (40, 140, 40)
    doubtful: tuple[int, int, int] = (0, 0, 230)
    label_bg: tuple[int, int, int] = (255, 255, 255)
    grid: tuple[int, int, int] = (0, 200, 255)
    outline: tuple[int, int, int] = (0, 255, 0)
    axis_ink: tuple[int, int, int] = (60, 60, 60)
    path_colours: tuple[tuple[int, int, int], ...] = ((255, 120, 0), (200, 0, 200), (0, 160, 255),
                                                      (40, 140, 40), (120, 60, 160), (0, 90, 200))
    label_height: float = 0.17     # the reading's text height
    axis_height: float = 0.2       # r1.. / c1.. text height
    path_width: float = 0.05       # line width
    max_paths: int = 3
    number_radius: float = 0.12    # the disc numbering a path
    max_side: int | None = 2000
    mark: tuple[int, int, int] = (255, 0, 255)  # a special cell: bonus ring "x2", challenge cube "+5"
    legend: LegendStyle = LegendStyle()


def _text(out: ImageU8, text: str, anchor: tuple[float, float], px: float, colour: tuple[int, int, int],
          background: tuple[int, int, int], centred: bool = False) -> None:
    """`text` about `px` pixels high on a box of `background`: its top-left at
    `anchor` (or its centre, `centred`)."""
    scale = px / 22.0  # Hershey simplex cap height is about 22 px at scale 1
    thick = max(1, int(round(scale * 2)))
    (tw, th), base = cv2.getTextSize(text, FONT, scale, thick)
    pad = max(2, int(round(px * 0.15)))
    x, y = anchor
    if centred:
        x, y = x - tw / 2 - pad, y - th / 2 - pad
    x0, y0 = int(round(x)), int(round(y))
    cv2.rectangle(out, (x0, y0), (x0 + tw + 2 * pad, y0 + th + base + 2 * pad), background, -1)
    cv2.putText(out, text, (x0 + pad, y0 + pad + th), FONT, scale, colour, thick, cv2.LINE_AA)


def _axis_pads(view: BoardView, width: int, height: int, style: OverlayStyle) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) bands to add to a width x height view so that the
    r1.. / c1.. labels stay on it."""
    n, px = view.size, style.axis_height * view.pitch
    spots = view.points(np.array([[c + 0.5, -0.35] for c in range(n)] + [[-0.4, r + 0.5] for r in range(n)]))
    half_w, half_h = 1.4 * px, 0.9 * px
    left, top, right, bottom = (max(0, int(np.ceil(v))) for v in (
        half_w - spots[:, 0].min(), half_h - spots[:, 1].min(),
        spots[:, 0].max() + half_w - width, spots[:, 1].max() + half_h - height))
    return left, top, right, bottom


def fit_scale(shape: tuple[int, ...], scan: ScanResult, style: OverlayStyle, paths: int) -> float:
    """The photo's scale (at most 1) that keeps the whole drawing, label bands and
    legend included, within style.max_side pixels on its longest side."""
    if style.max_side is None:
        return 1.0
    h, w = shape[:2]

    def longest(scale: float) -> float:
        view = turned_geometry(scan, w, h, scale)
        left, top, right, bottom = _axis_pads(view, view.width, view.height, style)
        width = view.width + left + right
        return max(width, view.height + top + bottom + band_height(width, paths, style.legend))

    scale = min(1.0, style.max_side / longest(1.0))
    for _ in range(4):  # the bands do not scale quite with the photo (their sizes are rounded)
        if longest(scale) <= style.max_side:
            break
        scale *= (style.max_side - 1) / longest(scale)
    return scale


def photo_view(image: ImageU8, scan: ScanResult, style: OverlayStyle = OverlayStyle(), paths: int = 0) -> BoardView:
    """The photo as draw_scan draws on it: scaled (fit_scale), turned to the report's
    orientation and given room for the row and column labels."""
    view = board_view(image, scan, fit_scale(image.shape, scan, style, paths))
    return view.padded(*_axis_pads(view, view.image.shape[1], view.image.shape[0], style), style.label_bg)


def _grid(out: ImageU8, view: BoardView, style: OverlayStyle, lw: int) -> None:
    n = view.size
    for k in range(n + 1):
        for line in (((k, 0), (k, n)), ((0, k), (n, k))):
            pts = view.points(np.linspace(line[0], line[1], 2 * n + 1))
            cv2.polylines(out, [np.round(pts).astype(np.int32)], False, style.grid, max(1, lw // 2), cv2.LINE_AA)
    outline = view.points(np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float64))
    cv2.polylines(out, [np.round(outline).astype(np.int32)], True, style.outline, lw, cv2.LINE_AA)


def draw_scan(image: ImageU8, scan: ScanResult, faces: Sequence[Sequence[str]] | None = None,
              paths: Sequence[Sequence[tuple[int, int]]] = (),
              style: OverlayStyle = OverlayStyle(), labels: Sequence[PathLabel] | None = None,
              marks: Sequence[tuple[str, tuple[int, int], bool]] = ()) -> ImageU8:
    """The photo turned and scaled as the report shows the board, with the scan drawn
    on it, and under it the legend of the paths (when paths are drawn).

    faces: the final faces per board cell (after corrections); default the reading.
    paths: board-cell paths of words to draw (e.g. the best missed words), at most
    style.max_paths of them; each is numbered by a disc in a corner of its first cell.
    labels: what each path spells (word, points, who found it), in the paths' order;
    default the word its cells spell on `faces`.
    marks: special cells (kind "bonus" or "challenge", board cell, counted): a circle
    round the cube and "x2" / "+5" at its lower left ("?" after it and a thin line
    when the mark is doubtful and not counted).
    """
    drawn = list(paths)[:style.max_paths]
    view = photo_view(image, scan, style, len(drawn))
    out: ImageU8 = view.image.copy()
    pitch = view.pitch
    lw = max(2, int(round(style.path_width * pitch)))
    _grid(out, view, style, lw)
    shown = faces if faces is not None else [[c.face for c in row] for row in scan.reading.cells]
    names = list(labels or [])[:len(drawn)]
    names += [PathLabel(spelled_by(shown, p)) for p in drawn[len(names):]]
    for k, path in enumerate(drawn):
        shift = (k - (len(drawn) - 1) / 2) * 0.08  # paths over the same cells stay apart
        pts = view.points(np.array([[c + 0.5 + shift, r + 0.5 + shift] for r, c in path], np.float64))
        colour = style.path_colours[k % len(style.path_colours)]
        cv2.polylines(out, [np.round(pts).astype(np.int32)], False, colour, lw, cv2.LINE_AA)
    for row in scan.reading.cells:
        for c in row:
            face = shown[c.row][c.col]
            doubtful = c.flagged and (faces is None or face == c.face)
            if doubtful:
                box = view.points(np.array([[c.col + dx, c.row + dy] for dx, dy in
                                            ((0.04, 0.04), (0.96, 0.04), (0.96, 0.96), (0.04, 0.96))]))
                cv2.polylines(out, [np.round(box).astype(np.int32)], True, style.doubtful, lw, cv2.LINE_AA)
            _text(out, face + ("?" if doubtful else ""), view.point(c.col + 0.02, c.row + 0.02),
                  style.label_height * pitch, style.doubtful if doubtful else style.sure, style.label_bg)
    for kind, (mr, mc), counted in marks:
        x, y = view.point(mc + 0.5, mr + 0.5)
        cv2.circle(out, (int(x), int(y)), int(0.46 * pitch), style.mark, lw if counted else max(1, lw // 2), cv2.LINE_AA)
        text = ("x2" if kind == "bonus" else "+5") + ("" if counted else "?")
        _text(out, text, view.point(mc + 0.04, mr + 0.72), style.axis_height * pitch, style.mark, style.label_bg)
    for r in range(view.size):
        _text(out, f"r{r + 1}", view.point(-0.4, r + 0.5), style.axis_height * pitch, style.axis_ink,
              style.label_bg, centred=True)
    for col in range(view.size):
        _text(out, f"c{col + 1}", view.point(col + 0.5, -0.35), style.axis_height * pitch, style.axis_ink,
              style.label_bg, centred=True)
    _numbers(out, view, drawn, style)
    return with_legend(out, names, style.path_colours, style.legend)


def number_spots(view: BoardView, paths: Sequence[Sequence[tuple[int, int]]],
                 style: OverlayStyle = OverlayStyle()) -> tuple[list[tuple[float, float]], int]:
    """Where each path's number goes, and the discs' radius: a free corner of its
    first cell (the reading's corner excepted); past three paths from one cell,
    stepped apart."""
    radius = max(6, int(round(style.number_radius * view.pitch)))
    used: dict[tuple[int, int], int] = {}
    spots = []
    for path in paths:
        r, c = path[0]
        k = used.get((r, c), 0)
        used[(r, c)] = k + 1
        dx, dy = NUMBER_SPOTS[min(k, len(NUMBER_SPOTS) - 1)]
        spots.append(view.point(c + dx, r + dy))
    return apart(spots, radius), radius


def _numbers(out: ImageU8, view: BoardView, paths: Sequence[Sequence[tuple[int, int]]], style: OverlayStyle) -> None:
    """Each path's number on a disc of its colour (number_spots)."""
    spots, radius = number_spots(view, paths, style)
    for k, spot in enumerate(spots):
        draw_number(out, spot, radius, k + 1, style.path_colours[k % len(style.path_colours)])
