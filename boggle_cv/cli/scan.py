"""`boggle-cv scan PHOTO ...`: photo and players' lists in, referee's report out.

Per photo: read it (vision.pipeline.Scanner), ask about doubtful cells on a
terminal, referee the round (boggle_cv.game.referee), then draw, store and print.
This module only parses, calls, formats and picks the exit code.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..game.board import Board, cell_label
from ..errors import BoggleError, LowConfidenceError, UsageError
from ..game.referee import Corrections, MarksPolicy, RoundResult, RulesOptions
from ..game.scoring import LongWords, Variant
from ..vision.engines import Engine
from .options import (BonusOption, ChallengeCellOption, DictOption, JsonOption, Lang, LangOption, LongWordsOption,
                      MinLengthOption, OrderedCommand, SizeChoice, given_order, load_dictionary, parse_cells,
                      parse_fixes, parse_one_cell, read_player_lists)
from .progress import progress_bar
from .scan_round import EarlyLoad, Outcome, ScanJob, Sheets, referee_photo
from .terminal import echo, echo_error

if TYPE_CHECKING:
    from ..store.sql import DbLocation
    import numpy as np

    from ..game.dictionary import Dictionary
    from ..vision.pipeline import ScanResult, Scanner
    from ..vision.sheet.types import SheetReading

PROGRESS_MIN_PHOTOS = 4
ANNOTATE_SUFFIXES = (".png", ".jpg", ".jpeg")


def interactive(stream_names: tuple[str, ...] = ("stdin", "stderr")) -> bool:
    """True when all the named streams are terminals (practice's session: stdin and stderr)."""
    try:
        return all(getattr(sys, name).isatty() for name in stream_names)
    except (AttributeError, ValueError):
        return False


def register(app: typer.Typer) -> None:
    @app.command("scan", cls=OrderedCommand)
    def scan_cmd(
        ctx: typer.Context,
        photos: Annotated[list[Path], typer.Argument(metavar="PHOTO", help="Photo(s) of the tray (JPEG, PNG, WebP, TIFF, BMP).")],
        player: Annotated[Optional[list[str]], typer.Option("--player", "-p", metavar="NAME=FILE", help="A player's word list: one word per line (or several, split by spaces or commas); FILE '-' reads stdin. Repeat per player.")] = None,
        sheet: Annotated[Optional[list[str]], typer.Option("--sheet", metavar="NAME=PHOTO", help="A photo of the player's handwritten sheet (doubtful words asked on a terminal). Repeat per player; mixes with --player.")] = None,
        size: Annotated[SizeChoice, typer.Option("--size", help="Board size: auto, 4, 5 or 6.")] = SizeChoice.auto,
        dict_path: DictOption = None,
        min_length: MinLengthOption = None,
        variant: Annotated[Optional[Variant], typer.Option("--variant", help="standard or challenge (default: challenge when the red challenge cube is seen or --challenge-cell is given).")] = None,
        challenge_cell: ChallengeCellOption = None,
        bonus: BonusOption = None,
        long_words: LongWordsOption = LongWords.per_letter,
        board_text_opt: Annotated[Optional[str], typer.Option("--board", metavar="BOARD", help="The board as text: replaces the reading (e.g. PERS/LATG/SINE/TERS).")] = None,
        fix: Annotated[Optional[list[str]], typer.Option("--fix", metavar="CELL=FACE", help="Correct one cell of the reading: r2c3=W (rows, cols from 1). Repeatable.")] = None,
        engine: Annotated[Engine, typer.Option("--engine", help="classifier, tesseract or both.")] = Engine.classifier,
        as_json: JsonOption = False,
        jsonl: Annotated[bool, typer.Option("--jsonl", help="JSON Lines: each photo's document (or error record) on one line as soon as it is done.")] = False,
        annotate: Annotated[Optional[Path], typer.Option("--annotate", metavar="FILE", help="Write the photo turned as the report prints the board, with the reading, rows and columns (r1.., c1..) and the best missed words drawn, at most 2000 px a side (.png, .jpg or .jpeg); with --sheet, each sheet too, with its words' readings, as OUT's name + -sheet-NAME.")] = None,
        annotate_full: Annotated[bool, typer.Option("--annotate-full", help="Draw --annotate at the photo's full resolution.")] = False,
        debug_dir: Annotated[Optional[Path], typer.Option("--debug-dir", metavar="FOLDER", help="Write each stage's image into this folder.")] = None,
        game: Annotated[Optional[str], typer.Option("--game", metavar="NAME", help="Store the round in this game (see `standings`); the same photo with the same lists again is refused (exit 7).")] = None,
        replace: Annotated[bool, typer.Option("--replace", help="With --game: the same photo with the same lists replaces the round stored before.")] = False,
        db: Annotated[Optional[str], typer.Option("--db", metavar="FILE|URL", help="Games database: a file (default: $BOGGLE_CV_DB, else games.sqlite3 in the user's data folder) or a postgresql:// URL.")] = None,
        timings: Annotated[bool, typer.Option("--timings", help="Print stage times on stderr.")] = False,
        strict: Annotated[bool, typer.Option("--strict", help="Exit 6 while a doubt whose answer changes a score is open (a cell read below the confidence bar, a sheet word).")] = False,
        no_ask: Annotated[bool, typer.Option("--no-ask", help="Never ask about doubtful cells, even on a terminal.")] = False,
        no_marks: Annotated[bool, typer.Option("--no-marks", help="Ignore red bonus rings and the red challenge cube seen in the photo.")] = False,
        jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", min=1, max=64, metavar="N", help="Worker processes for several photos (default: the number of cores).")] = None,
        lang: LangOption = Lang.en,
    ) -> None:
        """Read the board in a photo of the tray, then solve it and score the players' lists.

        The report starts with the board as read. On a terminal each doubtful cell is
        asked about before scoring; --fix and --board correct the reading without
        asking. --sheet NAME=PHOTO reads a player's handwritten list from a photo of
        their sheet instead of a typed list.

        Example: boggle-cv scan tray.jpg --player ann=ann.txt --player bob=bob.txt
        """
        start = time.perf_counter()
        _refuse_together(as_json, jsonl, replace, game)
        corrections = _corrections(photos, size, board_text_opt, fix or [], annotate)
        options = RulesOptions(variant.value if variant else None, min_length, long_words.value,
                               frozenset(parse_cells(bonus, "--bonus")), parse_one_cell(challenge_cell, "--challenge-cell"),
                               lang.value)
        sheets = _sheet_specs(sheet or [], player or [], len(photos))
        db_at = _refuse_overwriting(photos, player or [], sheets, dict_path, annotate, db, debug_dir)
        lists = read_player_lists(player or [], lang.value)
        workers = (jobs or os.cpu_count() or 1) if len(photos) > 1 else 1
        early = None
        if (corrections.board is None or annotate is not None) and workers == 1:
            early = EarlyLoad(photos[0])  # decoded while the models and the dictionary load
        try:
            scanner = _early_scanner(engine, lang) if early is not None else None
            dictionary, setup = _timed_dictionary(dict_path, lang)
            order = tuple(given_order(ctx, {"player": list(lists), "sheet": [n for n, _ in sheets]}))
            job = ScanJob(engine.value, size.size, corrections, options,
                          MarksPolicy.ignore if no_marks else MarksPolicy.use, lists,
                          dictionary, as_json or jsonl, annotate, debug_dir, game, db_at, timings, strict,
                          not (as_json or jsonl or no_ask) and interactive(("stdin", "stdout")) and len(photos) == 1, len(photos) > 1,
                          start, sheets, jsonl, order, replace, annotate_full)
            _scan_all(photos, scanner, job, setup, workers, early)
        finally:
            if early is not None:  # an error (a missing model) must not be printed while the
                early.settle()     # decoder has stderr silenced, nor the process end inside it


def _refuse_together(as_json: bool, jsonl: bool, replace: bool, game: str | None) -> None:
    """UsageError for options that do not go together: --json and --jsonl (one
    document, or a line a photo: one of them), --replace without --game."""
    if as_json and jsonl:
        raise UsageError("--json and --jsonl cannot be used together",
                         "--json writes one document, a list for several photos; --jsonl a line a photo: choose one")
    if replace and game is None:
        raise UsageError("--replace applies to --game", "name the game the round replaces one of")


def _corrections(photos: list[Path], size: SizeChoice, board_text: str | None, fix: list[str],
                 annotate: Path | None) -> Corrections:
    """--board and --fix as the round's corrections; UsageError when --board is not of
    --size, when they (or --annotate) are given with several photos, or when
    --annotate's name does not end in .png, .jpg or .jpeg."""
    given = Board.parse(board_text) if board_text else None
    if given is not None and size.size is not None and given.size != size.size:
        raise UsageError(f"--board is {given.size}x{given.size} but --size is {size.size}")
    corrections = Corrections(given, parse_fixes(fix))
    if len(photos) > 1 and (annotate or given or corrections.cells):
        raise UsageError("--annotate, --board and --fix apply to one photo", "scan the photos one at a time")
    if annotate is not None and not annotate.is_dir() and annotate.suffix.lower() not in ANNOTATE_SUFFIXES:
        raise UsageError(f"--annotate {annotate}: unknown image type {annotate.suffix or '(none)'}",
                         "end the name with .png, .jpg or .jpeg")
    return corrections


def _sheet_specs(sheet: list[str], player: list[str], photos: int) -> tuple[tuple[str, Path], ...]:
    """The --sheet NAME=PHOTO options as (name, photo) pairs; UsageError with several
    photos of the tray, or for a player who has both --player and --sheet."""
    if not sheet:
        return ()
    from ..game.names import name_key
    from ..game.wordlists import parse_player_option
    from .sheets import parse_sheet_options
    sheets = tuple(parse_sheet_options(sheet))
    if photos > 1:
        raise UsageError("--sheet applies to one photo", "scan the photos one at a time")
    typed = {name_key(parse_player_option(p)[0]) for p in player}
    if any(name_key(n) in typed for n, _ in sheets):
        raise UsageError("a player has both --player and --sheet", "give each player one list")
    return sheets


def _refuse_overwriting(photos: list[Path], player: list[str], sheets: tuple[tuple[str, Path], ...],
                        dict_path: Path | None, annotate: Path | None, db: str | None,
                        debug_dir: Path | None) -> DbLocation | None:
    """Before any work: OutputError (exit 7) when an output (--annotate and each
    sheet's drawing beside it, --db, --debug-dir's images) is one of the inputs (the
    photos, the lists, --dict); UsageError when two sheets would be drawn to one file,
    or for a --db that names no database (store_sql.parse_location). The --db location."""
    location = None
    if db is not None or os.environ.get("BOGGLE_CV_DB"):  # a scan without a database loads none of it
        from ..store.sql import optional_location
        location = optional_location(db)
    from ..files.outputs import check_image_path, refuse_overwriting_inputs
    from ..game.wordlists import parse_player_option
    drawn_sheets: dict[str, Path] = {}
    if annotate is not None:
        check_image_path(annotate)
        from .sheets import sheet_annotation_path
        drawn_sheets = {f"--annotate (sheet {n})": sheet_annotation_path(annotate, n) for n, _ in sheets}
        if len(set(drawn_sheets.values()) | {annotate}) != len(drawn_sheets) + 1:
            raise UsageError("two --sheet names give the same --annotate file name",
                             "give the players names that differ in letters or digits")
    db_file = location if isinstance(location, Path) else None
    refuse_overwriting_inputs({"--annotate": annotate, "--db": db_file, **drawn_sheets}, [*photos, dict_path, *(
        parse_player_option(p)[1] for p in player), *(p for _, p in sheets)], debug_dir, [p.stem for p in photos])
    return location


def _early_scanner(engine: Engine, lang: Lang) -> Scanner:
    """The reader's models, loaded while the first photo decodes (EarlyLoad)."""
    from ..vision.decode import DecodeConfig
    from ..vision.pipeline import Scanner
    return Scanner(engine.value, decode_config=DecodeConfig(edition=lang.value))


def _timed_dictionary(dict_path: Path | None, lang: Lang) -> tuple[Dictionary, dict[str, float]]:
    """The round's dictionary, and the seconds it took to load ({"dictionary": s}, for --timings)."""
    t0 = time.perf_counter()
    dictionary = load_dictionary(dict_path, lang.value)
    return dictionary, {"dictionary": time.perf_counter() - t0}


def _scan_all(photos: list[Path], scanner: Scanner | None, job: ScanJob, setup: dict[str, float],
              jobs: int = 1, early: EarlyLoad | None = None) -> None:
    """Each photo in turn (or read by `jobs` worker processes, reported in the same
    order); with several, a bad photo does not stop the others, a progress bar shows
    on a terminal and a summary ends the run (exit code: the worst failure's,
    scan_documents.worst_exit_code). With --json and several photos, one list of
    documents is written at the end; with --jsonl, a line each as it is done."""
    from ..files.outputs import undone_on_interrupt
    from .scan_documents import worst_exit_code
    drawn = [job.annotate] if job.annotate is not None else []
    if job.annotate is not None and job.sheets:
        from .sheets import sheet_annotation_path
        drawn += [sheet_annotation_path(job.annotate, name) for name, _ in job.sheets]
    with undone_on_interrupt(job.debug_dir, [p.stem for p in photos], drawn):
        tally = _report_all(photos, scanner, job, setup, jobs, early)
    failures = tally.failures
    if job.as_json and job.several and not job.jsonl:
        typer.echo(json.dumps(tally.documents))
    if job.several:
        typer.echo(f"{len(photos)} photos: {len(photos) - len(failures)} read, {len(failures)} failed"
                   + "".join(f"\n  {p}: exit {e.exit_code}" for p, e in failures), err=True)  # paths: never broken
        if failures:
            raise typer.Exit(worst_exit_code(e.exit_code for _, e in failures))


@dataclasses.dataclass
class Tally:
    """What several photos leave for the end of the run: the photos that failed
    (with their errors) and the documents of --json's list."""

    failures: list[tuple[Path, BoggleError]] = dataclasses.field(default_factory=list)
    documents: list[dict[str, Any]] = dataclasses.field(default_factory=list)


def _report_all(photos: list[Path], scanner: Scanner | None, job: ScanJob, setup: dict[str, float],
                jobs: int, early: EarlyLoad | None) -> Tally:
    """Read, referee and report each photo (_scan_all), a progress bar on a terminal
    with PROGRESS_MIN_PHOTOS or more (progress.progress_bar: no line of the reports
    meets it); the photos that failed, and the documents to write (--json with
    several photos)."""
    tally = Tally()
    shown = len(photos) if len(photos) >= PROGRESS_MIN_PHOTOS else 0
    with progress_bar("scanning", shown) as progress, _outcomes(photos, scanner, job, setup, jobs, early) as outcomes:
        for done, (photo, outcome) in enumerate(outcomes, start=1):
            _report_one(photo, outcome, job, tally)
            progress(done, len(photos))
    return tally


@contextlib.contextmanager
def _outcomes(photos: list[Path], scanner: Scanner | None, job: ScanJob, setup: dict[str, float], jobs: int,
              early: EarlyLoad | None) -> Iterator[Iterator[tuple[Path, Outcome | BoggleError]]]:
    """Each photo with its outcome, in the order given: read here one after another,
    or by `jobs` worker processes (scan_jobs; their stage images written here as each
    photo comes back). Leaving the block early stops the workers at once."""
    if jobs <= 1 or len(photos) <= 1:
        yield ((photo, _outcome(photo, scanner, job, setup, early)) for photo in photos)
        return
    from .scan_jobs import read_in_workers
    from .scan_round import write_debug
    with read_in_workers(photos, job, setup, jobs) as read:
        def written() -> Iterator[tuple[Path, Outcome | BoggleError]]:
            for photo, outcome, images in read:
                if job.debug_dir is not None and images:
                    write_debug(job.debug_dir, photo, images)
                yield photo, outcome
        yield written()


def _report_one(photo: Path, outcome: Outcome | BoggleError, job: ScanJob, tally: Tally) -> None:
    """Report one photo: draw, store, print (_report), or its error. With several
    photos an error is one line and the run goes on (raised with one photo), and
    --json keeps each photo's document or error record."""
    from .scan_documents import emit, error_record
    doc: dict[str, Any] | None = None
    try:
        if isinstance(outcome, BoggleError):
            raise outcome
        result, doc = _report(photo, *outcome, job)
        refusal = _sheet_refusal(outcome[3], job) or _strict_refusal(photo, result, job)
        if refusal is not None:
            raise refusal
    except BoggleError as err:
        if not job.several:
            raise
        echo_error(f"boggle-cv: error: {photo}: {err.one_line()}")
        tally.failures.append((photo, err))
        doc = error_record(photo, err, doc) if job.as_json else None
    finally:
        if doc is not None:  # a --strict refusal of one photo prints its document first
            emit(doc, job, tally.documents)


def _outcome(photo: Path, scanner: Scanner | None, job: ScanJob, setup: dict[str, float],
             early: EarlyLoad | None = None) -> Outcome | BoggleError:
    """A photo's refereed round (or, with several photos, the error that stopped it)."""
    if job.several:
        try:
            return referee_photo(photo, scanner, job, setup, early)
        except BoggleError as err:
            return err
    return referee_photo(photo, scanner, job, setup, early)


def _report(photo: Path, result: RoundResult, scan: ScanResult | None, image: np.ndarray | None,
            sheets: Sheets, job: ScanJob) -> tuple[RoundResult, dict[str, Any] | None]:
    """Draw (--annotate), store (--game; not while a sheet could not be read), print
    the text report: the round as stored, and its JSON document with --json/--jsonl
    (for _scan_all to write)."""
    stages = dict(result.timings)
    game = job.game if not sheets.failed else None
    fingerprint = None
    if game is not None:  # a repeat is refused before anything is drawn
        from .scan_game import refuse_repeat
        fingerprint = refuse_repeat(photo, result, game, job.db, job.replace)
    if job.annotate is not None:
        stages["annotate"] = _annotate(job.annotate, photo, scan, image, result, sheets.readings, job.sheets,
                                       job.annotate_full)
    if game is not None:
        from ..game.referee import store_round
        result = store_round(job.db, game, dataclasses.replace(result, timings=stages), fingerprint, job.replace)
    result = dataclasses.replace(result, timings={**stages, "total": time.perf_counter() - job.start})
    doc = None
    if job.as_json:
        from .scan_documents import scan_document
        doc = scan_document(result, {name: (path, sheets.readings[name]) for name, path in job.sheets
                                     if name in sheets.readings})
    else:
        from ..game.report import round_text
        if job.several:
            typer.echo(f"== {photo}")  # a path: not prose, never broken
        echo(round_text(result))
    if job.timings:
        typer.echo("timings (ms): " + ", ".join(f"{k} {v * 1000:.0f}" for k, v in result.timings.items()), err=True)
    return result, doc


def _sheet_refusal(sheets: Sheets, job: ScanJob) -> BoggleError | None:
    """The error that follows a report scored without the list of a player whose
    sheet could not be read (None when every sheet was): the worst of those errors'
    kind, naming each sheet, and that the round was not stored."""
    if not sheets.failed:
        return None
    said = "; ".join(err.message for err in sheets.failed.values())
    names = " and ".join(f"{name}'s" for name in sheets.failed)
    stored = f", and not stored in game {job.game!r}" if job.game is not None else ""
    first = next(iter(sheets.failed.values()))
    return type(first)(f"{said}: the round above is scored without {names} list{stored}",
                       f"{first.hint}, then scan again" if first.hint else "scan again with a photo of the sheet")


def _strict_refusal(photo: Path, result: RoundResult, job: ScanJob) -> LowConfidenceError | None:
    """--strict: the error for a round left with a doubt whose answer changes a score,
    or with faint red marks (None when it is clean)."""
    if not (job.strict and (result.questions or result.doubtful_marks)):
        return None
    return _below_the_bar(photo, result)


def _below_the_bar(photo: Path, result: RoundResult) -> LowConfidenceError:
    """--strict's refusal: the open doubts and the red marks seen too faintly, in one line."""
    what, hints = [], []
    if result.questions:
        what.append(f"{len(result.questions)} doubt(s) that change a score are open: " + ", ".join(result.questions))
        hints.append("answer them on a terminal, or pass --fix rRcC=FACE")
    if result.doubtful_marks:
        what.append("red marks seen too faintly to count: " + ", ".join(
            ("ring " if k == "bonus" else "red cube ") + cell_label(c) for k, c in result.doubtful_marks))
        hints.append("--bonus rRcC / --challenge-cell rRcC counts a mark, --no-marks drops them")
    return LowConfidenceError(f"{photo}: " + "; ".join(what), "; ".join(hints))


def _annotate(out: Path, photo: Path, scan: ScanResult | None, image: np.ndarray | None,
              result: RoundResult, sheets: dict[str, SheetReading] | None = None,
              sheet_photos: tuple[tuple[str, Path], ...] = (), full: bool = False) -> float:
    """Write the photo with the reading and the three best missed words drawn, and
    each --sheet photo with its words' readings beside it (sheets.draw_sheets: OUT's
    stem + "-sheet-NAME"); seconds taken."""
    if scan is None or image is None:
        raise UsageError(f"cannot annotate {photo}: no board was found in it")
    if result.board.size != scan.board.size:
        n, m = result.board.size, scan.board.size
        raise UsageError(f"cannot annotate {photo}: --board is {n}x{n} but the tray in the photo is {m}x{m}",
                         "give the board of this photo, or leave --annotate out")
    from ..files.outputs import write_bytes_atomic, write_image_atomic
    from ..vision.round_photo import draw_round
    from ..vision.overlay import OverlayStyle
    t0 = time.perf_counter()
    if full and image.shape[:2] != scan.image_shape:  # read reduced: drawn from the whole photo
        from ..vision.imageio import FULL_LOAD, load_image
        image = load_image(photo, FULL_LOAD)
    drawn = draw_round(image, scan, result, style=OverlayStyle(max_side=None) if full else OverlayStyle())
    sheet_files: list[tuple[Path, bytes]] = []
    if sheets:  # all drawn before anything is written: a failure leaves no file behind
        from .sheets import draw_sheets
        sheet_files = draw_sheets(out, sheets, sheet_photos)
    write_image_atomic(out, drawn)
    for path, data in sheet_files:
        write_bytes_atomic(path, data)
    return time.perf_counter() - t0


