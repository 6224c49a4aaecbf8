"""The questions `scan` asks about its doubtful cells on a terminal.

Asked only when stdin and stdout are terminals (`can_ask`), on stdout, where the
report goes: first the board as read (doubtful cells marked '?'), then each doubtful
cell's cube drawn in half blocks (cli.ink_preview) above one line that gives the
reading, its runner-up and the default (`row 2, col 3: M (62%) or W (35%)? [M]`).
Every line fits in 80 columns.
"""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

from ..game.board import Board, normalise_face
from ..game.wording import counted

if TYPE_CHECKING:
    import numpy as np

    from boggle_cv.vision.decode import CellReading
    from boggle_cv.vision.pipeline import ScanResult

#: The widest line a question may take (a terminal's usual width).
WIDTH = 80
#: Text rows of a cube's drawing (two pixel rows each).
CUBE_ROWS = 6
#: Share of the crop cut off each side: the tray's gaps between cubes are not ink.
CUBE_MARGIN = 0.15


def can_ask() -> bool:
    """True when stdin and stdout are both terminals (as gh decides to prompt)."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def say(text: str, out: TextIO | None = None, end: str = "\n") -> None:
    """Write `text` on `out` (stdout) now, flushed: the question is on the screen
    before its answer is read."""
    stream = out if out is not None else sys.stdout
    stream.write(text + end)
    stream.flush()


def show_board(scan: ScanResult, board: Board, out: TextIO | None = None) -> None:
    """The board as read, before any question: its size, the doubtful cells' count and
    the grid (report.reading_lines)."""
    from ..game.report import reading_lines
    n = len(scan.reading.flagged)
    say(f"Board read: {board.size}x{board.size}, {counted(n, 'doubtful cell')} (marked ?)", out)
    say(reading_lines(scan, board, notes=False), out)


def cube_pictures(image: np.ndarray | None, scan: ScanResult, cells: list[CellReading]) -> dict[tuple[int, int], list[str]]:
    """Each cell's cube top cut from the photo, turned upright as the board reads, as
    CUBE_ROWS lines of half blocks; {} without the photo."""
    if image is None or not cells:
        return {}
    import cv2
    import numpy as np

    from .ink_preview import ink_lines
    px = 96
    crops = scan.cube_crops(image, px)
    m = int(px * CUBE_MARGIN)
    out: dict[tuple[int, int], list[str]] = {}
    for c in cells:
        turns = (c.turn // 90 - scan.reading.rotation) % 4  # the face's quarter turns in the photo's crop
        crop = np.ascontiguousarray(np.rot90(crops[c.photo_cell], turns))
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)[m:px - m, m:px - m]
        out[(c.row, c.col)] = ink_lines(grey, rows=CUBE_ROWS, max_columns=WIDTH - 8)
    return out


def cell_question(c: CellReading) -> str:
    """`row 2, col 3: M (62%) or W (35%)? [M] ` (the default in brackets)."""
    return (f"row {c.row + 1}, col {c.col + 1}: {c.face} ({c.confidence:.0%}) or "
            f"{c.runner_up} ({c.runner_up_confidence:.0%})? [{c.face}] ")


def ask_cells(scan: ScanResult, board: Board, image: np.ndarray | None = None,
              out: TextIO | None = None, answers: TextIO | None = None) -> dict[tuple[int, int], str]:
    """Ask about each flagged cell that still shows its reading, its cube drawn above
    the question; the answers as cell corrections. An empty line (or the end of
    input) keeps the reading; an answer that is not a face is asked again."""
    source = answers if answers is not None else sys.stdin
    asked = [c for row in scan.reading.cells for c in row
             if c.flagged and board.faces[c.row][c.col] == c.face]
    pictures = cube_pictures(image, scan, asked)
    chosen: dict[tuple[int, int], str] = {}
    for c in asked:
        for line in pictures.get((c.row, c.col), []):
            say("    " + line, out)
        while True:
            say(cell_question(c), out, end="")
            answer = source.readline().strip()
            if not answer:
                break
            try:
                face = normalise_face(answer)
            except ValueError:
                say("  a letter, Qu, An Er He In Th, or # for a blank", out)
                continue
            if face != c.face:
                chosen[(c.row, c.col)] = face
            break
    return chosen
