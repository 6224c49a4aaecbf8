"""Reading and refereeing one photo of `boggle-cv scan`: what every photo of the
command shares (ScanJob), the read (with --debug-dir images), the questions about
doubtful cells on a terminal, and the referee's call. Used by the command one photo
after another and by its worker processes (scan_jobs) alike.
"""
from __future__ import annotations

import dataclasses
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ..board import Board, normalise_face
from ..dictionary import Dictionary
from ..errors import BoggleError, ImageReadError
from ..referee import Corrections, MarksPolicy, RoundRequest, RoundResult, RulesOptions, referee_round
from ..store_sql import DbLocation

if TYPE_CHECKING:
    import numpy as np

    from ..vision.pipeline import ScanResult, Scanner
    from ..vision.sheet.types import SheetReading
    from ..vision.stages import ImageU8


@dataclass(frozen=True)
class ScanJob:
    """What every photo of one `scan` command shares (the parsed command line)."""

    engine: str
    size: int | None
    corrections: Corrections
    options: RulesOptions
    marks: MarksPolicy
    lists: dict[str, list[str]]
    dictionary: Dictionary
    as_json: bool
    annotate: Path | None
    debug_dir: Path | None
    game: str | None
    db: DbLocation | None
    timings: bool
    strict: bool
    ask: bool
    several: bool
    start: float
    sheets: tuple[tuple[str, Path], ...] = ()  # --sheet NAME=PHOTO, read once the board is known


def ask_doubtful(scan: ScanResult, board: Board) -> dict[tuple[int, int], str]:
    """On a terminal: ask about each flagged cell that still shows its reading
    ("row 2, col 3: M (62%) or W (35%)? [M]"); the answers as cell corrections."""
    answers: dict[tuple[int, int], str] = {}
    for row in scan.reading.cells:
        for c in row:
            if not c.flagged or board.faces[c.row][c.col] != c.face:
                continue
            prompt = (f"row {c.row + 1}, col {c.col + 1}: {c.face} ({c.confidence:.0%}) or "
                      f"{c.runner_up} ({c.runner_up_confidence:.0%})? [{c.face}] ")
            while True:
                typer.echo(prompt, err=True, nl=False)
                answer = sys.stdin.readline().strip()  # "" at the end of input: keep the reading
                if not answer:
                    break
                try:
                    face = normalise_face(answer)
                except ValueError:
                    typer.echo("  a letter, Qu, An Er He In Th, or # for a blank", err=True)
                    continue
                if face != c.face:
                    answers[(c.row, c.col)] = face
                break
    return answers


Outcome = tuple["RoundResult", "ScanResult | None", "np.ndarray | None", "dict[str, SheetReading]"]


def referee_photo(photo: Path, scanner: Scanner | None, job: ScanJob, setup: dict[str, float],
                  early: EarlyLoad | None = None) -> Outcome:
    """Read one photo (unless --board replaces it), ask about doubtful cells on a
    terminal, referee the round: (result, scan, image). Runs in a worker with --jobs."""
    scan, image, stages = _read(photo, scanner, job, early)
    corrections = job.corrections
    if job.ask and scan is not None and corrections.board is None and scan.reading.flagged:
        board = scan.board if not corrections.cells else _fixed(scan.board, corrections)
        corrections = Corrections(None, {**ask_doubtful(scan, board), **corrections.cells})
    lists: dict[str, list[str]] = job.lists
    sheets: dict[str, SheetReading] = {}
    if job.sheets:
        t0 = time.perf_counter()
        if corrections.board is not None:
            board = corrections.board
        elif scan is not None:
            board = _fixed(scan.board, corrections) if corrections.cells else scan.board
        else:  # not reached: without --board a photo with no board is refused
            raise ImageReadError(f"cannot read the sheets of {photo}: no board", "give the board with --board")
        sheets, read_lists = read_sheets(job, board)
        lists = {**job.lists, **read_lists}
        stages["sheets"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    result = referee_round(RoundRequest(scan, corrections, job.marks, job.options, lists, str(photo)), job.dictionary)
    stages = {**setup, **stages, "solve+score": time.perf_counter() - t0}
    return dataclasses.replace(result, timings=stages), scan, image, sheets


def read_sheets(job: ScanJob, board: Board) -> tuple[dict[str, SheetReading], dict[str, list[str]]]:
    """Each --sheet photo read against the board's lexicon: (name -> reading, name ->
    the words that count); on a terminal the doubtful words are asked first. The
    sheet reader and its model load here, only when a sheet is given."""
    from .sheets import ask_words, read_one_sheet, sheet_lexicon, sheet_words
    lexicon = sheet_lexicon(board, job.dictionary, job.options.lang)
    readings: dict[str, SheetReading] = {}
    lists: dict[str, list[str]] = {}
    for name, path in job.sheets:
        reading = read_one_sheet(path, lexicon, job.options.lang)
        readings[name] = reading
        lists[name] = ask_words(name, reading, path) if job.ask else sheet_words(reading)
    return readings, lists


def _fixed(board: Board, corrections: Corrections) -> Board:
    from ..referee import apply_fixes
    return apply_fixes(board, corrections.cells)


class EarlyLoad:
    """A photo decoded on a thread while the program loads its models and dictionary
    (the decoder releases the GIL: the two overlap on two cores). ``take()`` gives
    (image, seconds) or raises what loading raised (ImageReadError), at the point
    the photo is needed, so errors come in the same order as without it."""

    def __init__(self, photo: Path) -> None:
        from ..vision.imageio import load_image  # imported here, not on the thread
        self.photo = photo
        self._load = load_image
        self._result: tuple[ImageU8, float] | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="early-load", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        t0 = time.perf_counter()
        try:
            self._result = (self._load(self.photo), time.perf_counter() - t0)
        except BaseException as err:  # handed to the main thread by take()
            self._error = err

    def settle(self) -> None:
        """Wait for the decode to end, whatever its outcome (the decoder sends the
        process's stderr to /dev/null while it runs: vision.imageio)."""
        self._thread.join()

    def take(self) -> tuple[ImageU8, float]:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result


def _read(photo: Path, scanner: Scanner | None, job: ScanJob,
          early: EarlyLoad | None = None) -> tuple[ScanResult | None, np.ndarray | None, dict[str, float]]:
    """(scan, image, stage timings) of a photo (already being decoded by `early` when
    given); with --board a photo that holds no board is fine (scan None), and without
    a scanner the photo need only exist."""
    if scanner is None:  # --board alone does not decode the photo
        if not photo.is_file():
            raise ImageReadError(f"cannot read image {photo}: " + ("it is a directory" if photo.is_dir() else "no such file"),
                                 "give the photo of this round (or use `boggle-cv score` with the board text)")
        return None, None, {}
    from ..vision.stages import DebugImages
    debug = DebugImages() if job.debug_dir is not None else None
    try:
        if early is not None and early.photo == photo:
            image, load_s = early.take()
            scan = scanner.scan_image(image, job.size, str(photo), debug, {"load": load_s})
        else:
            scan, image = scanner.scan_file(photo, job.size, debug=debug)
    except BoggleError:
        if job.debug_dir is not None and debug:
            _write_debug(job.debug_dir, photo, debug.images)  # show the stages that led to a refusal
        if job.corrections.board is None:
            raise
        return None, None, {}
    if job.debug_dir is not None and debug:
        _write_debug(job.debug_dir, photo, debug.images)
    return scan, image, dict(scan.timings)


def _write_debug(folder: Path, photo: Path, images: dict[str, ImageU8]) -> None:
    """Write each stage's image (name -> BGR array) as PHOTO-STEM_NAME.png in folder."""
    from ..outputs import write_images_into
    write_images_into(folder, {f"{photo.stem}_{name}.png": img for name, img in sorted(images.items())})
