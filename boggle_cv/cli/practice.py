"""`boggle-cv practice`: one player against the clock and their personal best.

Without a tray, a virtual shake (practice.shake) is shown and the player types words
until the time is up; with a real tray (--tray), the command runs the clock, then
reads the tray's photo and the player's list (typed, --words, --sheet). A photo with
a list and no --tray scores a round played already (the sand timer kept the time).
Every round goes into the player's record in the games database (practice.record);
--history prints the record. This module parses, calls and prints; the terminal
session is cli/practice_play.py. docs/practice.md.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ..errors import UsageError
from ..store.sql import DbLocation, optional_location
from .options import JsonOption, Lang, LangOption, SizeChoice, parse_fixes
from .practice_play import PracticeArgs, Terminal
from .terminal import echo

if TYPE_CHECKING:
    import numpy as np

    from ..game.board import Board
    from ..game.dictionary import Dictionary
    from ..practice.clock import Typed
    from ..practice.round import Summary
    from ..game.referee import RoundResult
    from ..vision.pipeline import ScanResult
    from ..vision.sheet.types import SheetReading


def register(app: typer.Typer) -> None:
    @app.command("practice")
    def practice_cmd(
        name: Annotated[Optional[str], typer.Option("--name", metavar="NAME", help="Your name in the record (default: your login name).")] = None,
        size: Annotated[SizeChoice, typer.Option("--size", show_default=False, help="Board size 4, 5 or 6 (default 4; with a photo, the tray's).")] = SizeChoice.auto,
        lang: LangOption = Lang.en,
        dice: Annotated[Optional[str], typer.Option("--dice", metavar="SET", help="The cube set to shake (classic-4, modern-4, big-1979, big-deluxe, super-big-6, fr-4, it-4; default: the edition's own).")] = None,
        minutes: Annotated[Optional[float], typer.Option("--minutes", metavar="MINUTES", help="The clock in minutes (default 3, 4 on 6x6; 10 seconds to 60 minutes).")] = None,
        seed: Annotated[Optional[int], typer.Option("--seed", metavar="N", help="Shake the same board again: the seed a round printed.")] = None,
        tray: Annotated[bool, typer.Option("--tray", help="Play a real tray: shake it, the clock runs here, then give its photo and your list.")] = False,
        photo: Annotated[Optional[Path], typer.Option("--photo", metavar="PHOTO", help="The tray's photo (with --tray; alone, a round played already with the sand timer).")] = None,
        words: Annotated[Optional[Path], typer.Option("--words", metavar="FILE", help="Your list for a tray round: one word per line ('-' reads stdin).")] = None,
        sheet: Annotated[Optional[Path], typer.Option("--sheet", metavar="PHOTO", help="A photo of your handwritten list for a tray round.")] = None,
        fix: Annotated[Optional[list[str]], typer.Option("--fix", metavar="CELL=FACE", help="Correct one cell of the photo's reading: r2c3=W. Repeatable.")] = None,
        annotate: Annotated[Optional[Path], typer.Option("--annotate", metavar="FILE", help="Write the tray's photo with your best word and the best words missed drawn, each named in a legend.")] = None,
        history: Annotated[bool, typer.Option("--history", help="Print the record (with --name: yours only).")] = False,
        as_json: JsonOption = False,
        db: Annotated[Optional[str], typer.Option("--db", metavar="FILE|URL", help="Games database: a file (default: $BOGGLE_CV_DB, else games.sqlite3 in the user's data folder) or a postgresql:// URL.")] = None,
        no_ask: Annotated[bool, typer.Option("--no-ask", help="Never ask about doubtful cells or words.")] = False,
    ) -> None:
        """Practise alone against the clock, on a virtual shake or your own tray, for a personal best.

        Without --tray the real cubes of the size and edition are shaken and the board
        shown; type a word and Enter until the clock runs out. With --tray the clock
        runs while you play your own tray, then its photo and your list are read.
        --history prints the record kept per player, size, edition and clock.

        Example: boggle-cv practice --name ann --size 5
        """
        from ..game.names import clean_name
        from .practice_play import default_player
        player = clean_name(name, "--name") if name is not None else default_player()
        args = PracticeArgs(player, size.size, lang.value, dice, minutes, seed, tray, photo, words, sheet,
                            parse_fixes(fix or []), annotate, as_json, optional_location(db), not no_ask)
        if history:
            _history(args, name is not None)
            return
        _check(args)
        summary = _tray(args) if tray or photo is not None else _shake(args)
        _finish(args, summary)


def _db(args: PracticeArgs) -> DbLocation:
    from ..store import database as store
    return args.db or store.default_db_path()


def _terminal() -> Terminal:
    from .scan import interactive
    return Terminal(sys.stdin, interactive())


def _check(args: PracticeArgs) -> None:
    """Options that do not go together, refused before the round starts."""
    tray = args.tray or args.photo is not None
    if not tray:
        extra = [o for o, v in (("--words", args.words), ("--sheet", args.sheet), ("--annotate", args.annotate),
                                ("--fix", args.fixes or None)) if v is not None]
        if extra:
            raise UsageError(f"{extra[0]} goes with a real tray", "add --tray (or --photo), or type your words")
    elif args.dice is not None or args.seed is not None:
        raise UsageError("--dice and --seed are for a virtual shake", "leave them out with a real tray")
    if args.words is not None and args.sheet is not None:
        raise UsageError("give one list: --words or --sheet")
    from ..files.outputs import check_image_path, refuse_overwriting_inputs
    if args.annotate is not None:
        check_image_path(args.annotate)
    refuse_overwriting_inputs({"--annotate": args.annotate, "--db": args.db if isinstance(args.db, Path) else None},
                              [args.photo, args.words if args.words != Path("-") else None, args.sheet], None, [])


def _best(args: PracticeArgs, size: int, seconds: int) -> int | None:
    """The best before the round (read-only: a damaged or foreign database is refused
    here, before the player plays)."""
    from ..practice import record
    rec = record.record(_db(args), args.player, size, args.lang, seconds)
    return rec.best.score if rec is not None else None


def _shake(args: PracticeArgs) -> Summary:
    from ..game.dictionary import load_default
    from ..practice.clock import check_seconds, clock_from_env
    from ..practice.round import practice_round, record_round, score_practice
    from ..practice.shake import shake
    from .practice_play import heading, play_board, typed_words
    size = args.size or 4
    seconds = check_seconds(args.minutes, size)
    deal = shake(size, args.lang, args.dice, args.seed)
    clock = clock_from_env()
    term = _terminal()
    best = _best(args, size, seconds)
    typed = play_board(term, clock, deal.board, seconds, heading(size, args.lang, deal.dice, seconds, best))
    words = typed_words(typed.lines, args.lang)
    if not words:
        raise UsageError("no words were typed: the round is not recorded", f"the board's seed is {deal.seed}")
    result = score_practice(args.player, words, load_default(args.lang), args.lang, board=deal.board)
    played = practice_round(result, seconds, "shake", deal.dice)
    return record_round(_db(args), played, result, {"seed": deal.seed, "ended": typed.ended})


def _tray(args: PracticeArgs) -> Summary:
    from ..game.dictionary import load_default
    from ..practice.clock import check_seconds
    from ..practice.round import merge_words, practice_request, practice_round, record_round
    from ..game.referee import apply_fixes
    from .practice_play import read_tray, referee_tray
    term = _terminal()
    typed, seconds = _tray_clock(term, args)
    scan, image, board, label = read_tray(term, args, args.lang)
    fixes = dict(args.fixes)
    dictionary = load_default(args.lang)
    known = board if board is not None else apply_fixes(scan.board, fixes) if scan is not None else None
    if known is None:  # read_tray gives a scan or a board
        raise UsageError("no board for the round", "give --photo")
    lists, sheet = _tray_lists(term, args, typed.lines, known, dictionary)
    request = practice_request(args.player, merge_words(*lists, lang=args.lang), args.lang, board, scan, fixes, label)
    result = referee_tray(term, args, request, dictionary, scan, sheet)
    drawn = _annotated(args.annotate, scan, image, result)
    seconds = seconds if seconds is not None else check_seconds(args.minutes, result.board.size)
    summary = record_round(_db(args), practice_round(result, seconds, "tray"), result, {"ended": typed.ended})
    if args.annotate is not None and drawn is not None:  # after the round is recorded: a full disk loses no round
        _write_annotation(args, summary, drawn)
    return summary


def _tray_clock(term: Terminal, args: PracticeArgs) -> tuple[Typed, int | None]:
    """--tray: the clock runs here while the tray is played (Typed, its seconds); else
    no clock (the round was played already)."""
    from ..game.editions import EDITIONS
    from ..practice.clock import Typed, check_seconds, clock_from_env
    from .practice_play import run_tray_clock
    if not args.tray:
        return Typed(ended="given"), None
    seconds = check_seconds(args.minutes, args.size or 4)
    _best(args, args.size or 4, seconds)
    return run_tray_clock(term, clock_from_env(), seconds, EDITIONS[args.lang].name), seconds


def _tray_lists(term: Terminal, args: PracticeArgs, lines: list[str], known: Board,
                dictionary: Dictionary) -> tuple[list[list[str]], tuple[SheetReading, Path] | None]:
    """The player's words: typed during the clock, from --words, else asked for now;
    and --sheet's photo read against the board (its doubts are the referee's to ask)."""
    from .practice_play import asked_list, file_list, sheet_list, typed_words
    lists = [typed_words(lines, args.lang)]
    if args.words is not None:
        lists.append(file_list(args.words, args.lang, term.stdin))
    sheet = sheet_list(args.sheet, known, dictionary, args.lang) if args.sheet is not None else None
    if not any(lists) and sheet is None:
        got = asked_list(term, known, dictionary, args.lang)
        if isinstance(got, tuple):
            sheet = got
        else:
            lists.append(got)
    return lists, sheet


def _annotated(out: Path | None, scan: ScanResult | None, image: np.ndarray | None,
               result: RoundResult) -> np.ndarray | None:
    """The photo with the player's best word and the best missed words drawn and named
    (vision.overlay.draw_round), for --annotate."""
    if out is None:
        return None
    if scan is None or image is None:
        raise UsageError("cannot annotate: the board was typed, not read from a photo",
                         "give the tray's photo, or leave --annotate out")
    from ..vision.round_photo import draw_round
    drawn: np.ndarray = draw_round(image, scan, result, found=1)
    return drawn


def _write_annotation(args: PracticeArgs, summary: Summary, drawn: np.ndarray) -> None:
    """Write --annotate; when it fails, the summary is shown first (the round is recorded)."""
    from ..errors import StorageError
    from ..files.outputs import write_image_atomic
    assert args.annotate is not None
    try:
        write_image_atomic(args.annotate, drawn)
    except StorageError:
        _finish(args, summary)
        raise


def _finish(args: PracticeArgs, summary: Summary) -> None:
    """Print the summary (text or JSON); a round the store refused fails after it."""
    from ..practice.report import summary_text
    if args.as_json:
        typer.echo(json.dumps(summary.to_dict()))
    else:
        echo(summary_text(summary))
    if summary.error is not None:
        raise summary.error


def _history(args: PracticeArgs, one: bool) -> None:
    from ..practice import record
    from ..practice.report import history_text
    records = record.history(_db(args), args.player if one else None)
    if args.as_json:
        typer.echo(json.dumps({"schema_version": 1, "records": [r.to_dict() for r in records]}))
    else:
        echo(history_text(records))
