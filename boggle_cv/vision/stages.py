"""The vision stages' contracts: what each stage takes and returns, and the protocols
a replacement stage must satisfy (ARCHITECTURE.md: detection and recognition are
separate objects handed to the pipeline, so either can be swapped or faked).

    TrayFinder(image_bgr, size, debug=sink) -> TrayResult     where the cubes are
    Reader.read(crops)                      -> Reading        what each cube says

Conventions: images are uint8 (H, W, 3) BGR (OpenCV's order; convert an RGB array
with ``image[..., ::-1]``); points are float (x, y) photo pixels; cells are
indexed [row, col]. Debug images go to a ``DebugSink`` the caller hands in (a
``DebugImages`` collects them), never onto results or exceptions.

This module imports nothing else of the package but ``errors``, so every stage can
import it without a cycle.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from ..errors import ArgumentTypeError, UsageError

#: A uint8 image (H, W, 3) in BGR order, or a stack of them.
ImageU8 = npt.NDArray[np.uint8]
#: A float array of points or probabilities.
FloatArray = npt.NDArray[np.floating[Any]]


class DebugSink(Protocol):
    """Receives a stage's debug image: ``sink(name, image_bgr)``; names sort in
    stage order ("1_work", "2_whiteness", ...). A stage calls it only when given one."""

    def __call__(self, name: str, image: ImageU8, /) -> None: ...


class DebugImages:
    """A DebugSink that keeps every image it is given: ``images`` name -> BGR uint8."""

    def __init__(self) -> None:
        self.images: dict[str, ImageU8] = {}

    def __call__(self, name: str, image: ImageU8, /) -> None:
        self.images[name] = image

    def __bool__(self) -> bool:
        return bool(self.images)


@dataclass
class TrayResult:
    """Where the board is.

    size: N (4, 5 or 6). corners: float (4, 2) (x, y) in pixels of the image passed to
    the tray finder, order r0c0, r0c(N-1), r(N-1)c(N-1), r(N-1)c0 (may lie outside the
    frame). confidence: 0..1. cell_centres: float (N, N, 2) (x, y) of each cube top's
    centre, indexed [row, col] in the same orientation as the corners. timings: stage
    name -> seconds.
    """

    size: int
    corners: FloatArray
    confidence: float
    cell_centres: FloatArray
    timings: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary: size, corners (rounded to 0.1 px), confidence."""
        return {"size": self.size, "corners": np.asarray(self.corners).round(1).tolist(),
                "confidence": round(float(self.confidence), 3)}


@dataclass
class Reading:
    """Per-crop probabilities from a Reader, rows summing to 1, float32:

    faces (K, len(FACES)): columns in ``reader_model.FACES`` order;
    turns (K, 4): column k means the printed face appears rotated k * 90 degrees
    CLOCKWISE from upright in the crop (``np.rot90(crop, k)`` makes it upright).
    """

    faces: npt.NDArray[np.float32]
    turns: npt.NDArray[np.float32]


@runtime_checkable
class Reader(Protocol):
    """Reads cube crops. ``name`` labels the engine in reports."""

    name: str

    def read(self, crops: ImageU8) -> Reading:
        """crops: uint8 BGR (K, S, S, 3), one cell pitch each (``cells.cut_cells``
        reshaped to K crops, row-major photo grid) -> their Reading (K rows)."""
        ...


class TrayFinder(Protocol):
    """Finds the tray: ``finder(image_bgr, size, debug=sink) -> TrayResult``.

    image_bgr: uint8 (H, W, 3) BGR; size: N if known (4, 5 or 6), else None.
    Raises errors.NoBoardError when no complete board is seen. ``vision.tray.find_tray``
    is the shipped one; any callable with this signature can replace it.
    """

    def __call__(self, image_bgr: ImageU8, size: int | None = None, *,
                 debug: DebugSink | None = None) -> TrayResult: ...


def check_image(image: object, what: str = "image") -> ImageU8:
    """The array if it is a uint8 BGR photo (H, W, 3) with H, W >= 8; else
    ArgumentTypeError (a TypeError) for a non-array, UsageError (a ValueError) for a bad shape."""
    if not isinstance(image, np.ndarray):
        raise ArgumentTypeError(f"{what} must be a numpy uint8 array (H, W, 3) in BGR order, "
                                f"not {type(image).__name__}", "load a photo with cv2.imread or boggle_cv.load_image")
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise UsageError(f"{what} must be uint8 (H, W, 3) BGR, got {image.dtype} {image.shape}",
                         "convert with cv2.cvtColor (grey, BGRA) or image[..., ::-1] (RGB)")
    if min(image.shape[:2]) < 8:
        raise UsageError(f"{what} is only {image.shape[1]}x{image.shape[0]} pixels")
    return image


def check_crops(crops: object) -> ImageU8:
    """crops as uint8 BGR (K, S, S, 3) with S >= 8 (a single (S, S, 3) crop becomes
    K = 1); UsageError (a ValueError) otherwise."""
    a = np.asarray(crops)
    if a.ndim == 3:
        a = a[None]
    if a.ndim != 4 or a.shape[-1] != 3 or a.dtype != np.uint8 or a.shape[1] < 8 or a.shape[2] < 8:
        raise UsageError("reader: crops must be uint8 BGR (K, S, S, 3) with S >= 8")
    return a
