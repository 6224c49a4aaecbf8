"""Reading and refereeing one photo of `boggle-cv scan`: what every photo of the
command shares (ScanJob), the read (with --debug-dir images), the questions about
doubtful cells on a terminal, and the referee's call. Used by the command one photo
after another and by its worker processes (scan_jobs) alike.
"""
from __future__ import annotations

import dataclasses
import functools
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable


from ..game.board import Board
from ..game.dictionary import Dictionary
from ..errors import BoggleError, ImageReadError
from ..game.referee import (Corrections, MarksPolicy, RoundRequest, RoundResult, RulesOptions, referee_round, seen_marks)

if TYPE_CHECKING:
    from ..store.sql import DbLocation
    import numpy as np

    from ..game.questions import WordDoubt
    from ..vision.imageio import DecodedPhoto
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
    jsonl: bool = False                         # --jsonl: a line a photo (as_json is then set too)
    order: tuple[str, ...] = ()                 # the players' names, --player and --sheet, as given
    replace: bool = False                       # --replace: a repeated --game round replaces the one stored
    annotate_full: bool = False                 # --annotate-full: drawn at the photo's resolution


def ask_marks(scan: ScanResult, options: RulesOptions) -> dict[tuple[int, int], bool]:
    """On a terminal: ask about each red mark seen too faintly to count that no option
    settles ("row 1, col 2: a red bonus ring (faint)? [y/N]"); the answers, cell ->
    counts (the referee's Corrections.marks)."""
    import sys

    from .questions import say
    answers: dict[tuple[int, int], bool] = {}
    for kind, (r, c) in seen_marks(scan, {}, options)[2]:
        what = "a red bonus ring" if kind == "bonus" else "the red challenge cube"
        say(f"row {r + 1}, col {c + 1}: {what} (faint)? [y/N] ", end="")
        answers[(r, c)] = sys.stdin.readline().strip().lower() in ("y", "yes")
    return answers


@dataclass(frozen=True)
class Sheets:
    """The --sheet photos read against the board: each player's reading, the entries
    each adds to that player's list, their doubts, and the sheets that could not be
    read (a photo with no writing, or none at all): that player's list is left out of
    the round, which the command says after the report (one bad photo of a sheet does
    not stop the round for the others)."""

    readings: dict[str, SheetReading] = field(default_factory=dict)
    lists: dict[str, list[str]] = field(default_factory=dict)
    doubts: tuple[WordDoubt, ...] = ()
    failed: dict[str, BoggleError] = field(default_factory=dict)


Outcome = tuple["RoundResult", "ScanResult | None", "np.ndarray | None", Sheets]
#: Where a photo's stage images go (--debug-dir): (photo, stage name -> BGR image).
DebugOut = Callable[[Path, "dict[str, ImageU8]"], None]


def referee_photo(photo: Path, scanner: Scanner | None, job: ScanJob, setup: dict[str, float],
                  early: EarlyLoad | None = None, debug_out: DebugOut | None = None) -> Outcome:
    """Read one photo (unless --board replaces it), ask about doubtful cells on a
    terminal, referee the round: (result, scan, image, sheets). Runs in a worker with
    --jobs. Each stage's image (--debug-dir) goes to `debug_out` as soon as the photo
    is read, also when it holds no board (default: written into the folder)."""
    if debug_out is None and job.debug_dir is not None:
        debug_out = functools.partial(write_debug, job.debug_dir)
    scan, image, stages = _read(photo, scanner, job, early, debug_out)
    corrections = job.corrections
    if job.ask and scan is not None and corrections.board is None and job.marks is MarksPolicy.use:
        corrections = dataclasses.replace(corrections, marks=ask_marks(scan, job.options))
    sheets = Sheets()
    if job.sheets:
        t0 = time.perf_counter()
        sheets = read_sheets(job, _sheets_board(photo, scan, corrections))
        stages["sheets"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    lists = in_order({**job.lists, **sheets.lists}, job.order)
    request = RoundRequest(scan, corrections, job.marks, job.options, lists, str(photo), doubts=sheets.doubts)
    if job.ask:
        from .asking import ask_round
        read = {n: (sheets.readings[n], p) for n, p in job.sheets if n in sheets.readings}
        result = ask_round(request, job.dictionary, scan, read, image)
    else:
        result = referee_round(request, job.dictionary)
    stages = {**setup, **stages, "solve+score": time.perf_counter() - t0}
    return dataclasses.replace(result, timings=stages), scan, image, sheets


def _sheets_board(photo: Path, scan: ScanResult | None, corrections: Corrections) -> Board:
    """The board the sheets are read against: --board, else the photo's reading with
    its fixes."""
    if corrections.board is not None:
        return corrections.board
    if scan is None:  # not reached: without --board a photo with no board is refused
        raise ImageReadError(f"cannot read the sheets of {photo}: no board", "give the board with --board")
    return _fixed(scan.board, corrections) if corrections.cells else scan.board


def in_order(lists: dict[str, list[str]], order: tuple[str, ...]) -> dict[str, list[str]]:
    """The players' lists in the order their options were given (any not named last)."""
    ordered = {name: lists[name] for name in order if name in lists}
    return {**ordered, **lists}


def read_sheets(job: ScanJob, board: Board) -> Sheets:
    """Each --sheet photo read against the board's lexicon (Sheets). The sheet reader
    and its model load here, only when a sheet is given. A photo that cannot be read
    or shows no writing leaves its player with no list (Sheets.failed)."""
    from ..errors import NoWritingError
    from ..game.sheet_doubts import sheet_entries
    from .sheets import read_one_sheet, sheet_lexicon
    lexicon = sheet_lexicon(board, job.dictionary, job.options.lang)
    sheets = Sheets()
    doubts: list[WordDoubt] = []
    for name, path in job.sheets:
        try:
            reading = read_one_sheet(path, lexicon, job.options.lang)
        except (ImageReadError, NoWritingError) as err:
            sheets.failed[name] = err
            sheets.lists[name] = []
            continue
        sheets.readings[name] = reading
        sheets.lists[name], mine = sheet_entries(name, reading.words)
        doubts += mine
    return dataclasses.replace(sheets, doubts=tuple(doubts))


def _fixed(board: Board, corrections: Corrections) -> Board:
    from ..game.referee import apply_fixes
    return apply_fixes(board, corrections.cells)


class EarlyLoad:
    """A photo decoded on a thread while the program loads its models and dictionary
    (the decoder releases the GIL: the two overlap on two cores). ``take()`` gives
    (image, seconds) or raises what loading raised (ImageReadError), at the point
    the photo is needed, so errors come in the same order as without it."""

    def __init__(self, photo: Path) -> None:
        import functools

        from ..vision.imageio import TRAY_LOAD, load_photo  # imported here, not on the thread
        self.photo = photo
        self._load = functools.partial(load_photo, config=TRAY_LOAD)
        self._result: tuple[DecodedPhoto, float] | None = None
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

    def take(self) -> tuple[DecodedPhoto, float]:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result


def _read(photo: Path, scanner: Scanner | None, job: ScanJob, early: EarlyLoad | None,
          debug_out: DebugOut | None) -> tuple[ScanResult | None, np.ndarray | None, dict[str, float]]:
    """(scan, image, stage timings) of a photo (already being decoded by `early` when
    given); with --board a photo that holds no board is fine (scan None), and without
    a scanner the photo need only exist. ImageReadError naming only that for a photo
    that is not there."""
    from .options import existing_photo
    existing_photo(photo, "give the photo of the round's tray" if photo.is_dir() else None)
    if scanner is None:  # --board alone does not decode the photo
        return None, None, {}
    from ..vision.stages import DebugImages
    debug = DebugImages() if debug_out is not None else None
    try:
        if early is not None and early.photo == photo:
            decoded, load_s = early.take()
            scan, image = scanner.scan_image(decoded, job.size, str(photo), debug, {"load": load_s}), decoded.pixels
        else:
            scan, image = scanner.scan_file(photo, job.size, debug=debug)
    except BoggleError:
        if debug_out is not None and debug:
            debug_out(photo, debug.images)  # show the stages that led to a refusal
        if job.corrections.board is None:
            raise
        return None, None, {}
    if debug_out is not None and debug:
        debug_out(photo, debug.images)
    return scan, image, dict(scan.timings)


def write_debug(folder: Path, photo: Path, images: dict[str, ImageU8]) -> None:
    """Write each stage's image (name -> BGR array) as PHOTO-STEM_NAME.png in `folder`."""
    from ..files.outputs import write_images_into
    write_images_into(folder, {f"{photo.stem}_{name}.png": img for name, img in sorted(images.items())})
