"""The sheet reader's one chain: photo -> paper -> upright -> ink -> words -> readings.

    load_image / check_image -> find_paper -> upright_turn -> ink_mask -> find_words
    -> crop_word (each) -> read_words (all at once) -> SheetReading

``read_sheet`` is the library's call (``boggle_cv.read_sheet``). The word reader
defaults to ``vision.handwriting.read_words`` (imported only here, when a sheet is
read, so that neither ``import boggle_cv`` nor a tray scan loads the handwriting
model); tests and other engines pass any callable with its signature as ``reader``.
Debug images go to the caller's DebugSink: "s1_paper", "s2_flat", "s3_words".
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import ArgumentTypeError, NoWritingError
from ..stages import DebugSink, ImageU8, check_image
from .ink import ink_mask
from .layout import crop_word, find_words
from .paper import find_paper, upright_turn
from .types import SheetReading, SheetWord

#: read_words(images, lexicon) -> one reading per image, each with .word,
#: .confidence, .alternatives, .flagged and .free (handwriting.WordReading).
WordReader = Callable[[Sequence[ImageU8], "Iterable[str] | None"], Sequence[Any]]

MAX_INK_SHARE = 0.1  # more of the paper dark than this: not a sheet of writing
NO_WRITING_HINT = "give a photo of a player's sheet, the words written on it dark enough to see"


def _default_reader() -> WordReader:
    from ..handwriting import read_words
    reader: WordReader = read_words
    return reader


def read_sheet(photo: str | Path | ImageU8, lexicon: Iterable[str] | None = None, *,
               reader: WordReader | None = None, debug: DebugSink | None = None) -> SheetReading:
    """Read a player's handwritten sheet: the words in writing order, each with its
    reading, box (4 (x, y) photo px) and crossed-out state (types.SheetWord).

    photo: a path (read by imageio.load_image: pixel cap, EXIF turn; ImageReadError,
    exit 4) or a BGR uint8 array (H, W, 3). lexicon: the words a reading is weighed
    against (the board's words and their neighbours: handwriting.board_lexicon); None
    reads freely. Raises NoWritingError (exit 5) when the photo shows no writing (a
    blank page, the tray given as a sheet: no ink, or far more dark than a page of
    writing holds). A sheet with writing but no word on it (only a score, marks)
    reads as no words."""
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    label = "the photo"
    if isinstance(photo, (str, Path)):
        from ..imageio import load_image
        label = str(photo)
        image = load_image(photo)
    elif isinstance(photo, np.ndarray):
        image = check_image(photo, "photo")
    else:
        raise ArgumentTypeError(f"photo must be a path or a BGR uint8 array, not {type(photo).__name__}")
    timings["load"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    paper = find_paper(image, debug)
    ink = ink_mask(paper.flat)
    turn = upright_turn(ink)
    if turn:
        paper = paper.turned(turn)
        ink = ink_mask(paper.flat)
    timings["paper"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    if not _looks_written(ink.mask):
        raise NoWritingError(f"no writing found in {label}", NO_WRITING_HINT)
    boxes = find_words(ink, debug, paper.flat)
    timings["layout"] = time.perf_counter() - t0
    corners = tuple((float(x), float(y)) for x, y in paper.corners)
    if not boxes:  # writing, but no word: a name, a score, marks only
        return SheetReading((), corners, turn, timings)
    t0 = time.perf_counter()
    crops = [crop_word(paper.flat, ink, b) for b in boxes]
    read = reader if reader is not None else _default_reader()
    # one call: read_words batches crops of like width itself (padding each by at
    # most recogniser.MAX_PAD_PX, so a batch reads as each crop alone)
    readings = read(crops, list(lexicon) if lexicon is not None else None)
    timings["read"] = time.perf_counter() - t0
    words = []
    for b, r in zip(boxes, readings):
        quad = paper.to_photo(np.array([[b.x0, b.y0], [b.x1, b.y0], [b.x1, b.y1], [b.x0, b.y1]], np.float64))
        words.append(SheetWord(r.word, float(r.confidence), tuple((str(w), float(p)) for w, p in r.alternatives),
                               bool(r.flagged), str(r.free), tuple((float(x), float(y)) for x, y in quad),
                               b.crossed_out))
    return SheetReading(tuple(words), corners, turn, timings)


def _looks_written(mask: np.ndarray) -> bool:
    """Ink covers a sheet thinly (composed sheets 0.5-3% of the paper); a tray's
    cubes and grid darken 13-26% of what is taken for paper (measured on the sample
    and real tray photos), a blank page nothing."""
    share = float(np.count_nonzero(mask)) / max(mask.size, 1)
    return 0.0005 < share < MAX_INK_SHARE
