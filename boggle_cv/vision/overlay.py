"""The annotated photo of a scan: tray outline, each cube's reading, doubtful cells,
and the paths of the best words nobody found, each path numbered at its start and
named in a legend under the photo (vision.legend: the word, and when the round is
known, its points and who found it: boggle_cv.round_photo.draw_round).

Input and output images are BGR uint8 (H, W, 3); points are (x, y) photo pixels.
Board cells are (row, col) in the reported board's orientation; they are mapped to
the photo through each cell's `photo_cell` (decode.CellReading).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import cv2
import numpy as np

from .annotate import draw_grid
from .cells import grid_pitch
from .legend import LegendStyle, PathLabel, apart, draw_number, spelled_by, text_px, with_legend
from .stages import FloatArray, ImageU8

if TYPE_CHECKING:  # only for the annotations: the overlay does not need the pipeline loaded
    from .pipeline import ScanResult


@dataclass(frozen=True)
class OverlayStyle:
    """Colours (BGR) and sizes relative to the cell pitch (fractions of one pitch)."""

    sure: tuple[int, int, int] = (40, 170, 40)
    doubtful: tuple[int, int, int] = (0, 0, 230)
    label_bg: tuple[int, int, int] = (255, 255, 255)
    path_colours: tuple[tuple[int, int, int], ...] = ((255, 120, 0), (200, 0, 200), (0, 160, 255),
                                                      (40, 140, 40), (120, 60, 160), (0, 90, 200))
    label_height: float = 0.30     # text height, fraction of the pitch
    path_width: float = 0.06       # line width, fraction of the pitch
    max_paths: int = 3
    number_radius: float = 0.17    # the disc numbering a path at its start, fraction of the pitch
    mark: tuple[int, int, int] = (255, 0, 255)  # a special cell: bonus ring "x2", challenge cube "+5"
    legend: LegendStyle = LegendStyle()


def _photo_centres(scan: ScanResult) -> FloatArray:
    """(N, N, 2) photo (x, y) of each board cell's cube top, in board orientation."""
    tray = scan.tray
    n = tray.size
    photo = tray.cell_centres
    out = np.zeros((n, n, 2), np.float64)
    for row in scan.reading.cells:
        for c in row:
            pr, pc = c.photo_cell
            out[c.row, c.col] = photo[pr, pc]
    return out


def draw_scan(image: ImageU8, scan: ScanResult, faces: Sequence[Sequence[str]] | None = None,
              paths: Sequence[Sequence[tuple[int, int]]] = (),
              style: OverlayStyle = OverlayStyle(), labels: Sequence[PathLabel] | None = None,
              marks: Sequence[tuple[str, tuple[int, int], bool]] = ()) -> ImageU8:
    """A copy of the photo with the scan drawn on it, and under it the legend of the
    paths (the photo is taller by the legend's band when paths are drawn).

    faces: the final faces per board cell (after corrections); default the reading.
    paths: board-cell paths of words to draw (e.g. the best missed words), at most
    style.max_paths of them; each starts at a disc with its number.
    labels: what each path spells (word, points, who found it), in the paths' order;
    default the word its cells spell on `faces`.
    marks: special cells (kind "bonus" or "challenge", board cell, counted): a circle
    round the cube and "x2" / "+5" at its lower left ("?" after it and a thin line
    when the mark is doubtful and not counted).
    """
    n = scan.tray.size
    out = draw_grid(image, scan.tray.corners, n)
    centres = _photo_centres(scan)
    pitch = grid_pitch(scan.tray.corners, n)
    lw = max(2, int(round(style.path_width * pitch)))
    drawn = list(paths)[:style.max_paths]
    shown = faces if faces is not None else [[c.face for c in row] for row in scan.reading.cells]
    names = list(labels or [])[:len(drawn)]
    names += [PathLabel(spelled_by(shown, p)) for p in drawn[len(names):]]
    starts = []
    for k, path in enumerate(drawn):
        pts = np.array([centres[r, c] for r, c in path])
        # shift each path a little so overlapping paths stay apart
        pts = pts + (k - (len(drawn) - 1) / 2) * 0.08 * pitch
        colour = style.path_colours[k % len(style.path_colours)]
        cv2.polylines(out, [np.round(pts).astype(np.int32)], False, colour, lw, cv2.LINE_AA)
        starts.append((float(pts[0][0]), float(pts[0][1])))
    scale = style.label_height * pitch / 22.0  # Hershey simplex cap height is about 22 px at scale 1
    thick = max(1, int(round(scale * 2)))
    for row in scan.reading.cells:
        for c in row:
            face = faces[c.row][c.col] if faces is not None else c.face
            changed = faces is not None and face != c.face
            doubtful = c.flagged and not changed
            label = face + ("?" if doubtful else "")
            colour = style.doubtful if doubtful else style.sure
            x, y = centres[c.row, c.col]
            (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
            x0, y0 = int(x + 0.15 * pitch), int(y - 0.15 * pitch)
            cv2.rectangle(out, (x0 - 3, y0 - th - 3), (x0 + tw + 3, y0 + base + 1), style.label_bg, -1)
            cv2.putText(out, label, (x0, y0), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)
            if doubtful:
                half = 0.45 * pitch
                cv2.rectangle(out, (int(x - half), int(y - half)), (int(x + half), int(y + half)),
                              style.doubtful, max(2, lw // 2))
    for kind, (mr, mc), counted in marks:
        x, y = centres[mr, mc]
        cv2.circle(out, (int(x), int(y)), int(0.46 * pitch), style.mark, lw if counted else max(1, lw // 2), cv2.LINE_AA)
        text = ("x2" if kind == "bonus" else "+5") + ("" if counted else "?")
        small = 0.7 * scale  # in the cube's corner, clear of its letter
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, small, thick)
        x0, y0 = int(x - 0.47 * pitch), int(y + 0.47 * pitch) - base
        cv2.rectangle(out, (x0 - 2, y0 - th - 2), (x0 + tw + 2, y0 + base + 1), style.label_bg, -1)
        cv2.putText(out, text, (x0, y0), cv2.FONT_HERSHEY_SIMPLEX, small, style.mark, thick, cv2.LINE_AA)
    radius = max(int(round(style.number_radius * pitch)), int(0.6 * text_px(out.shape[1], style.legend)))
    for k, start in enumerate(apart(starts, radius)):  # last, over the letters: never hidden
        draw_number(out, start, radius, k + 1, style.path_colours[k % len(style.path_colours)])
    return with_legend(out, names, style.path_colours, style.legend)

