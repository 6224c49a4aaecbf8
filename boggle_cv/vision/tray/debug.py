"""The tray finder's debug images (BGR uint8, drawn on copies of the working image).

Names sort in stage order and are those ``find_tray`` hands its DebugSink:
``0_work``, ``1_whiteness``; per candidate source tried (tag ``d`` for the detector,
none for the classical blobs) ``2d_heat`` or ``2_mask_*``, ``3{tag}_blobs``,
``4{tag}_lattice``; then ``5_grid`` (a board) or ``5_refused`` (the last lattice
image with the reason written on it).
"""
from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from ..annotate import draw_grid
from ..stages import DebugSink, ImageU8, TrayResult
from .blobs import Blobs, GreyU8
from .lattice import Lattice

#: Colours (BGR) of the first three lattices drawn.
LATTICE_COLOURS = ((0, 255, 0), (255, 128, 0), (0, 0, 255))
#: Text colour (BGR) of a refusal's reason.
REFUSED_COLOUR = (0, 0, 255)


def grey_to_bgr(grey: GreyU8) -> ImageU8:
    """A (H, W) uint8 map as a (H, W, 3) BGR image."""
    return np.asarray(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), np.uint8)


def heat_image(heat: npt.NDArray[np.float32]) -> ImageU8:
    """The detector's (H, W) heat (0..1) in the JET colour map."""
    return np.asarray(cv2.applyColorMap((255 * heat).astype(np.uint8), cv2.COLORMAP_JET), np.uint8)


def draw_blobs(work: ImageU8, blobs: Blobs) -> ImageU8:
    """Each candidate's box, red (poor shape or peak) to green (good)."""
    out: ImageU8 = work.copy()
    for bx, q in zip(blobs.boxes, blobs.quality):
        cv2.polylines(out, [bx.astype(np.int32)], True, (0, int(255 * q), 255 - int(255 * q)), 1)
    return out


def draw_lattice(work: ImageU8, blobs: Blobs, lattices: list[Lattice]) -> ImageU8:
    """The members of up to three lattices, each labelled with its (col, row)."""
    out: ImageU8 = work.copy()
    for lat, col in zip(lattices, LATTICE_COLOURS):
        for (c, r), j in lat.members.items():
            x, y = blobs.centres[j]
            cv2.circle(out, (int(x), int(y)), 4, col, -1)
            cv2.putText(out, f"{c},{r}", (int(x) + 5, int(y)), cv2.FONT_HERSHEY_SIMPLEX,
                        0.35, col, 1)
    return out


def grid_image(work: ImageU8, scale: float, tray: TrayResult) -> ImageU8:
    """The board found (in image px) drawn on the working image (scale: working px
    per image px): outline, cells, cube centres."""
    return draw_grid(work, tray.corners * scale, tray.size, tray.cell_centres * scale)


def refused_image(lattice_image: ImageU8, why: str) -> ImageU8:
    """A copy of the last lattice image with the refusal's reason written on it."""
    img: ImageU8 = lattice_image.copy()
    cv2.putText(img, why[:80], (5, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.5, REFUSED_COLOUR, 1)
    return img


class LastLattice:
    """A DebugSink that passes every image on to ``sink`` and keeps the last lattice
    image (``4*``), from which ``5_refused`` is drawn."""

    def __init__(self, sink: DebugSink) -> None:
        self.sink = sink
        self.image: ImageU8 | None = None

    def __call__(self, name: str, image: ImageU8, /) -> None:
        if name.startswith("4"):
            self.image = image
        self.sink(name, image)
