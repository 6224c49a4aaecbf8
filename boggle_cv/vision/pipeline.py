"""The one place that chains the vision stages: photo -> tray -> cells -> reader -> board.

    load_image  ->  find_tray  ->  cut_cells  ->  reader.read  ->  decode
    (BGR uint8)     (corners)      (N,N,S,S,3)    (probabilities)  (BoardReading)

Stages are plain functions (see their modules); `Scanner` only holds the reader so
that several photos share one loaded model. The tray finder and the reader can be
swapped for tests or other engines: any ``stages.TrayFinder`` and ``stages.Reader``.
Debug images go to a ``stages.DebugSink`` the caller hands in (``DebugImages``
collects them): the tray finder's stages, then "6_rectified" and "7_cells"; on a
refusal the sink holds the stages that led to it.
"""
from __future__ import annotations

import functools
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..game.board import Board
from ..game.photo_reading import register_scan_reader
from ..errors import ArgumentTypeError, NoBoardError, UsageError
from .cells import cut_cells, mosaic, outside_fraction, rectify
from .decode import BoardReading, CellReading, DecodeConfig, decode, implausible
from .imageio import TRAY_LOAD, DecodedPhoto, load_photo
from .marks import CellMarks, MarkEvidence, find_marks
from .stages import DebugSink, FloatArray, ImageU8, Reader, TrayFinder, TrayResult, check_image
from .tray import SIZES, find_tray

CELL_PX = 96  # crop side handed to the reader (the reader resizes to its input)
# A board whose cells the classifier reads at a mean confidence below this is refused
# (no board): measured lowest on a real tray 0.40 (a blurred Boggle Boards photo),
# grids over empty or broken trays from 0.25. Tesseract's confidences are not
# calibrated the same way (real trays from 0.37), so it gets no bar.
MIN_MEAN_CONFIDENCE = {"classifier": 0.3, "both": 0.3}
# A cell whose cube top lies this much (or more) beyond the photo's edge is not seen:
# the board is refused. Measured: real photos with a cut-off row 0.12 at most (read
# right, flagged as doubtful); cells read off the tray's rim or the table under a
# wrong --size 0.67-1.0.
UNSEEN_OUTSIDE = 0.5
CUT_FLAG = 0.1  # a cube top cut by more than this share is flagged (decode.mark_cut_cells)


@dataclass
class ScanResult:
    """What a photo holds: where the tray is and what the cubes read.

    image_shape: the photo's own (H, W), EXIF-turned, whatever size it was decoded at;
    tray (corners, cell_centres) in the photo's own pixels (x, y), in the tray finder's
    corner order (``corners_in_board_order``: from the reported board's r0c0, then
    clockwise). timings: stage -> seconds.
    """

    photo: str | None
    image_shape: tuple[int, int]
    tray: TrayResult
    reading: BoardReading
    engine: str
    timings: dict[str, float] = field(default_factory=dict)
    bonus_cells: list[tuple[int, int]] = field(default_factory=list)   # board (row, col) with a sure red ring
    challenge_cell: tuple[int, int] | None = None                      # board (row, col) of a sure red cube
    marks: list[MarkEvidence] = field(default_factory=list)            # every mark seen, sure or doubtful

    @property
    def board(self) -> Board:
        return self.reading.board

    def _centre(self, photo_cell: tuple[int, int]) -> FloatArray:
        """Photo (x, y) of the cube top in the given photo-grid cell."""
        centre: FloatArray = np.asarray(self.tray.cell_centres)[photo_cell[0], photo_cell[1]]
        return centre

    def to_image(self, points: FloatArray, shape: tuple[int, ...]) -> FloatArray:
        """(..., 2) photo (x, y) -> the same points in an image of the photo decoded
        at another size, shape (h, w, ...) (the inverse of DecodedPhoto.to_photo)."""
        sx, sy = self.image_shape[1] / shape[1], self.image_shape[0] / shape[0]
        out: FloatArray = (np.asarray(points, np.float64) + 0.5) / np.array([sx, sy]) - 0.5
        return out

    def cube_crops(self, image: ImageU8, px: int) -> ImageU8:
        """(N, N, px, px, 3) crops of the cube tops, indexed by the photo grid's
        [row, col] (``CellReading.photo_cell``), cut from ``image``: this photo
        decoded at any size (BGR uint8 (h, w, 3))."""
        corners = self.to_image(np.asarray(self.tray.corners), image.shape)
        centres = self.to_image(np.asarray(self.tray.cell_centres), image.shape)
        return cut_cells(image, corners, self.tray.size, px, centres=centres)

    def corners_in_board_order(self) -> FloatArray:
        """Tray corners (4, 2) (x, y) starting at the reported board's r0c0, clockwise."""
        corners: FloatArray = np.roll(np.asarray(self.tray.corners), self.reading.rotation, axis=0)
        return corners

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: board (size, faces, text, per-cell detail), tray, sets, engine."""
        r = self.reading
        seen = {m.cell: m for m in self.marks}
        return {
            "photo": self.photo,
            "image": {"width": int(self.image_shape[1]), "height": int(self.image_shape[0])},
            "engine": self.engine,
            "board": {
                "size": r.size,
                "faces": r.board.to_rows(),
                "text": r.board.to_text(),
                "rotation": r.rotation * 90,
                "cells": [dict(c.to_dict(), centre=[round(float(v), 1) for v in self._centre(c.photo_cell)],
                               mark=seen[(c.row, c.col)].to_dict() if (c.row, c.col) in seen else None)
                          for row in r.cells for c in row],
                "flagged": [[c.row, c.col] for row in r.cells for c in row if c.flagged],
                "mean_confidence": round(float(r.mean_confidence), 4),
            },
            "sets": list(r.sets),
            "marks": {"bonus_cells": [list(c) for c in self.bonus_cells],
                      "challenge_cell": list(self.challenge_cell) if self.challenge_cell else None},
            "tray": {"corners": self.corners_in_board_order().round(1).tolist(),
                     "confidence": round(float(self.tray.confidence), 3)},
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ScanResult:
        """Rebuild a scan from to_dict()'s document (coordinates and confidences as
        rounded there; timings are not part of it)."""
        b = d["board"]
        n, rotation = int(b["size"]), int(b["rotation"]) // 90
        by_cell: dict[tuple[int, int], CellReading] = {}
        centres = np.zeros((n, n, 2), np.float64)
        seen: list[MarkEvidence] = []
        for cd in b["cells"]:
            c = CellReading.from_dict(cd)
            by_cell[(c.row, c.col)] = c
            centres[c.photo_cell] = cd["centre"]
            if cd.get("mark"):
                mark = cd["mark"]
                seen.append(MarkEvidence(str(mark["kind"]), (c.row, c.col), float(mark["strength"]), bool(mark["sure"])))
        if len(by_cell) != n * n:
            raise ValueError(f"the board's cells do not cover the {n}x{n} grid")
        cells = [[by_cell[(r, c)] for c in range(n)] for r in range(n)]
        reading = BoardReading(Board.from_rows(b["faces"]), cells, rotation, list(d.get("sets", [])),
                               reported_mean=float(b["mean_confidence"]))
        corners = np.roll(np.asarray(d["tray"]["corners"], np.float64), -rotation, axis=0)
        tray = TrayResult(n, corners, float(d["tray"]["confidence"]), centres)
        marks = d.get("marks") or {}
        cc = marks.get("challenge_cell")
        return cls(d.get("photo"), (int(d["image"]["height"]), int(d["image"]["width"])), tray, reading,
                   str(d["engine"]), {}, [(int(r), int(c)) for r, c in marks.get("bonus_cells", [])],
                   (int(cc[0]), int(cc[1])) if cc else None, sorted(seen, key=lambda m: m.cell))


class Scanner:
    """Reads boards from photos with one reader (loaded once, reused per photo).

    engine: the reader by name (``engines.make_reader``) when ``reader`` is None, and
    the name reports carry. reader: a stages.Reader. tray_finder: a stages.TrayFinder
    (default ``tray.find_tray``). model_path: the classifier's model file.
    """

    def __init__(self, engine: str = "classifier", reader: Reader | None = None,
                 tray_finder: TrayFinder | None = None,
                 decode_config: DecodeConfig = DecodeConfig(),
                 model_path: str | Path | None = None) -> None:
        if reader is None:
            from .engines import make_reader
            reader = make_reader(engine, model_path)
        self.engine = engine
        self.reader: Reader = reader
        self.tray_finder: TrayFinder = tray_finder or find_tray
        self.decode_config = decode_config

    def scan_image(self, image: ImageU8 | DecodedPhoto, size: int | None = None, photo: str | None = None,
                   debug: DebugSink | None = None,
                   timings: dict[str, float] | None = None) -> ScanResult:
        """Find, cut, read and decode one photo: BGR uint8 (H, W, 3), or a DecodedPhoto
        (perhaps decoded reduced: the result is in the photo's own pixels). debug:
        receives the tray finder's images, then "6_rectified" and "7_cells" (the crops;
        also when the reading is refused)."""
        decoded = image if isinstance(image, DecodedPhoto) else DecodedPhoto(image, (image.shape[0], image.shape[1]))
        image_bgr = decoded.pixels
        t = dict(timings or {})
        t0 = time.perf_counter()
        tray = self.find_tray(image_bgr, size, debug)
        t1 = time.perf_counter()
        n = tray.size
        crops = cut_cells(image_bgr, tray.corners, n, CELL_PX, centres=tray.cell_centres)
        t2 = time.perf_counter()
        if debug is not None:
            debug("6_rectified", rectify(image_bgr, tray.corners, n, CELL_PX))
            debug("7_cells", mosaic(crops))
        reading = self.reader.read(crops.reshape(n * n, CELL_PX, CELL_PX, 3))
        t3 = time.perf_counter()
        outside = outside_fraction(tray.corners, n, image_bgr.shape, tray.cell_centres)
        board_reading = decode(reading, n, self.decode_config, outside=outside)
        refuse_unseen(board_reading)
        why = implausible(board_reading,
                          min_mean_confidence=MIN_MEAN_CONFIDENCE.get(self.engine, 0.0))
        if why:
            raise NoBoardError(f"no board found: {why}",
                               "photograph the whole tray, full of cubes, from above, in focus")
        t4 = time.perf_counter()
        seen = mark_evidence(find_marks(crops), board_reading)
        bonus, challenge = sure_marks(seen)
        t5 = time.perf_counter()
        t.update({"tray": t1 - t0, "cells": t2 - t1, "read": t3 - t2, "decode": t4 - t3, "marks": t5 - t4})
        return ScanResult(photo, decoded.shape, in_photo_pixels(tray, decoded), board_reading,
                          self.engine, t, bonus, challenge, seen)

    def find_tray(self, image_bgr: ImageU8, size: int | None, debug: DebugSink | None = None) -> TrayResult:
        """The tray, its size as the photo shows it. A size given is checked against the
        photo, never imposed on it: the photo is searched without it first, and a board
        of another size there refuses the size (NoBoardError naming --size); only a photo
        in which no board is seen without it is searched again for a board of that size."""
        if size is None:
            return self.tray_finder(image_bgr, None, debug=debug)
        try:
            seen = self.tray_finder(image_bgr, None, debug=debug)
        except NoBoardError:
            seen = None
        if seen is None:
            try:
                return self.tray_finder(image_bgr, size, debug=debug)
            except NoBoardError as err:
                raise NoBoardError(err.message, f"--size {size} was given: check it, or leave it out "
                                   "and photograph the whole tray from above") from None
        if seen.size != size:
            m = seen.size
            raise NoBoardError(f"the photo shows a {m}x{m} board, not the {size}x{size} that --size {size} says",
                               f"leave --size out to read the {m}x{m} board, or photograph the {size}x{size} tray")
        return seen

    def scan_file(self, path: str | Path, size: int | None = None,
                  debug: DebugSink | None = None) -> tuple[ScanResult, ImageU8]:
        """Load a photo (EXIF-turned, bounded memory: above 8 MP reduced, TRAY_LOAD) and
        scan it; returns (result, the decoded pixels). The result is in the photo's own
        pixels (ScanResult.to_image maps them into the pixels)."""
        t0 = time.perf_counter()
        decoded = load_photo(path, TRAY_LOAD)
        load_s = time.perf_counter() - t0
        return self.scan_image(decoded, size, str(path), debug, {"load": load_s}), decoded.pixels


def in_photo_pixels(tray: TrayResult, decoded: DecodedPhoto) -> TrayResult:
    """The tray found in a decode's pixels, in the photo's own pixels (the same
    result when it was decoded whole)."""
    if not decoded.reduced:
        return tray
    return TrayResult(tray.size, decoded.to_photo(np.asarray(tray.corners)), tray.confidence,
                      decoded.to_photo(np.asarray(tray.cell_centres)), tray.timings)


def refuse_unseen(reading: BoardReading) -> None:
    """NoBoardError when a cell's cube top lies mostly beyond the photo's edge
    (outside_photo >= UNSEEN_OUTSIDE): whatever it reads there (a blank, the tray's
    rim, the table) is not a cube, and a board is never scored with it."""
    unseen = [(c.row, c.col) for row in reading.cells for c in row if c.outside_photo >= UNSEEN_OUTSIDE]
    if unseen:
        from ..game.board import cell_label
        from ..game.wording import counted
        cells = ", ".join(cell_label(c) for c in unseen)
        raise NoBoardError(f"no board found: {counted(len(unseen), 'cell lies', 'cells lie')} outside the photo ({cells})",
                           "photograph the whole tray, or give the board with --board")


def mark_evidence(marks: list[list[CellMarks]], reading: BoardReading) -> list[MarkEvidence]:
    """Every red mark in board coordinates, sure or doubtful, sorted by cell.

    marks: find_marks output indexed [photo row][photo col]. At most one challenge cube
    exists; if several cells look like one, the reddest is taken. A mark on a cube top
    cut by the photo's edge (a cell flagged for it) is never sure.
    """
    bonus: list[MarkEvidence] = []
    challenge: list[tuple[float, MarkEvidence]] = []
    for row in reading.cells:
        for c in row:
            m = marks[c.photo_cell[0]][c.photo_cell[1]]
            sure = m.sure and c.outside_photo <= CUT_FLAG
            if m.challenge:
                challenge.append((m.ring_red, MarkEvidence("challenge", (c.row, c.col), m.strength, sure)))
            elif m.bonus:
                bonus.append(MarkEvidence("bonus", (c.row, c.col), m.strength, sure))
    if challenge:
        bonus.append(max(challenge, key=lambda x: x[0])[1])
    return sorted(bonus, key=lambda m: m.cell)


def sure_marks(seen: list[MarkEvidence]) -> tuple[list[tuple[int, int]], tuple[int, int] | None]:
    """The sure marks of mark_evidence: (bonus cells, challenge cell or None)."""
    challenge = [m.cell for m in seen if m.kind == "challenge" and m.sure]
    return [m.cell for m in seen if m.kind == "bonus" and m.sure], (challenge[0] if challenge else None)


def board_marks(marks: list[list[CellMarks]], reading: BoardReading) -> tuple[list[tuple[int, int]], tuple[int, int] | None]:
    """The sure red marks in board coordinates: (bonus cells, challenge cell or None)."""
    return sure_marks(mark_evidence(marks, reading))


@functools.lru_cache(maxsize=8)
def _shared_scanner(engine: str, lang: str = "en") -> Scanner:
    """One Scanner per engine and edition for read_board (the model is loaded and
    checked once per process, whatever the edition)."""
    return Scanner(engine, decode_config=DecodeConfig(edition=lang))


def read_board(photo: str | os.PathLike[str] | np.ndarray, *, size: int | None = None,
               engine: str = "classifier", colour: str = "bgr", lang: str = "en") -> ScanResult:
    """Read the board in a photo: a file path, or a uint8 (H, W, 3) array.

    An array is in OpenCV's BGR order (``cv2.imread``); pass ``colour="rgb"`` for an
    RGB array (Pillow, imageio, matplotlib). size: 4, 5 or 6 when known, else found.
    engine: "classifier" (default), "tesseract" or "both". The models are loaded once
    per engine and reused by later calls; for several photos with other settings,
    keep a ``Scanner``. lang: the edition whose cube sets are the reader's prior
    (boggle_cv.game.editions: "fr" weighs the French set, "de" none). Raises ArgumentTypeError (a TypeError) for something that is
    neither, UsageError (a ValueError) for a bad size, engine, colour or array shape,
    ImageReadError for an unreadable file, NoBoardError when no board is found (or
    the photo shows a board of another size than `size`: Scanner.find_tray).
    """
    if size is not None and (isinstance(size, bool) or size not in SIZES):
        raise UsageError(f"size must be 4, 5, 6 or None, not {size!r}")
    if colour not in ("bgr", "rgb"):
        raise UsageError(f"colour must be 'bgr' or 'rgb', not {colour!r}")
    from ..game.editions import get_edition
    lang = get_edition(lang).code
    label: str | None = None
    image: ImageU8 | DecodedPhoto
    if isinstance(photo, (str, os.PathLike)):
        label = os.fspath(photo)
        image = load_photo(label, TRAY_LOAD)
    else:
        image = check_image(photo, "photo")
        if colour == "rgb":
            image = np.ascontiguousarray(image[..., ::-1])
    if not isinstance(engine, str):
        raise ArgumentTypeError(f"engine must be a name (classifier, tesseract, both), not {type(engine).__name__}")
    return _shared_scanner(engine, lang).scan_image(image, size, photo=label)


register_scan_reader(ScanResult.from_dict)  # RoundResult.from_dict rebuilds scans with it
