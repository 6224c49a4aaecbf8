"""The terminal side of `boggle-cv practice`: the board shown, the clock run while
the player types, then (a real tray) the photo and the player's list, asked for when
they were not given. The live session goes to stderr; the command prints the
summary on stdout (cli/practice.py).
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, TextIO

import typer

from ..game.board import Board
from ..game.dictionary import Dictionary
from ..game.editions import EDITIONS
from ..errors import BoggleError, UsageError
from ..practice.clock import Clock, LineSource, Typed, clock_text, line_source, type_against_clock
from ..game.report import board_text
from ..store.sql import DbLocation
from .terminal import echo, echo_error

if TYPE_CHECKING:
    import numpy as np

    from ..game.referee import RoundRequest, RoundResult
    from ..vision.pipeline import ScanResult
    from ..vision.sheet.types import SheetReading


@dataclass(frozen=True)
class PracticeArgs:
    """The parsed command line of `practice`."""

    player: str
    size: int | None
    lang: str
    dice: str | None
    minutes: float | None
    seed: int | None
    tray: bool
    photo: Path | None
    words: Path | None
    sheet: Path | None
    fixes: dict[tuple[int, int], str] = field(default_factory=dict)
    annotate: Path | None = None
    as_json: bool = False
    db: DbLocation | None = None
    ask: bool = True


class Terminal:
    """The player's side: lines to stderr, answers from `stdin` (a LineSource while
    the clock runs), `interactive` when both are a terminal."""

    def __init__(self, stdin: TextIO, interactive: bool) -> None:
        self.stdin = stdin
        self.interactive = interactive
        self.lines: LineSource = line_source(stdin)

    def say(self, text: str = "", nl: bool = True) -> None:
        echo(text, err=True, nl=nl)

    def ask(self, prompt: str) -> str | None:
        """One answer (stripped), None at the end of the input."""
        self.say(prompt, nl=False)
        try:
            line = self.lines.read_line(24 * 3600.0)
        except EOFError:
            return None
        return "" if line is None else line.strip()

    def show(self, clock_total: float) -> Callable[[str, float, int], None]:
        """The callback of type_against_clock: a prompt with the time left and the words
        so far on a terminal; nothing but the end elsewhere."""
        def show(event: str, left: float, count: int) -> None:
            if event == "up":
                self.say("\n\aTime's up! Pens down." if self.interactive else "Time's up.")
            elif not self.interactive:
                return
            elif event == "notice":
                self.say(f"\n  {clock_text(left)} left")
                self.say(f"[{clock_text(left)}, {count} word{'s' if count != 1 else ''}] > ", nl=False)
            else:
                self.say(f"[{clock_text(left)}, {count} word{'s' if count != 1 else ''}] > ", nl=False)
        return show


def default_player() -> str:
    """The login name, as a player's name (names.clean_name), else "me"."""
    import getpass

    from ..game.names import clean_name
    try:
        return clean_name(getpass.getuser(), "login name")
    except (BoggleError, KeyError, OSError, ImportError):
        return "me"


def typed_words(lines: list[str], lang: str) -> list[str]:
    """The words of the typed lines (wordlists.parse_words: several on a line, commas),
    [] when they hold none; past MAX_TYPED_WORDS the rest is dropped, with a warning."""
    from ..errors import WordListError
    from ..practice.round import MAX_WORDS as MAX_TYPED_WORDS
    from ..game.wordlists import parse_words
    notes: list[str] = []
    try:
        words = parse_words(lines, "your words", notes, lang=lang)
    except WordListError:
        return []
    if len(words) > MAX_TYPED_WORDS:
        echo_error(f"boggle-cv: warning: {len(words):,} words were typed; the first {MAX_TYPED_WORDS:,} count")
        words = words[:MAX_TYPED_WORDS]
    return words


def play_board(term: Terminal, clock: Clock, board: Board, seconds: int, heading: str) -> Typed:
    """Show the board and read words until the time is up or the input ends."""
    term.say(heading)
    term.say(board_text(board))
    if term.interactive:
        term.say(f"Type each word you find and Enter ({clock_text(seconds)} on the clock; Ctrl-D ends early).")
    return type_against_clock(term.lines, clock, seconds, term.show(seconds))


def run_tray_clock(term: Terminal, clock: Clock, seconds: int, edition: str) -> Typed:
    """A real tray: wait for the shake (Enter), then run the clock; the player writes
    on paper or types here."""
    if term.interactive:
        answer = term.ask(f"Shake the tray ({edition} rules) and set it down; press Enter to start the clock "
                          f"({clock_text(seconds)}). ")
        if answer is None:
            raise typer.Exit(130)
        term.say("The clock runs. Write your words on paper, or type them here (Enter after each; "
                 "Ctrl-D ends early).")
    return type_against_clock(term.lines, clock, seconds, term.show(seconds))


def ask_path(term: Terminal, what: str, option: str) -> str:
    """A path asked on a terminal (UsageError elsewhere, or at the end of input)."""
    if not term.interactive:
        raise UsageError(f"{what} is needed", f"give {option}")
    while True:
        answer = term.ask(f"{what}: ")
        if answer is None:
            raise UsageError(f"{what} was not given", f"give {option}")
        if answer:
            return str(Path(answer.strip("'\"")).expanduser())


def read_tray(term: Terminal, args: PracticeArgs, lang: str) -> tuple[ScanResult | None, np.ndarray | None,
                                                                       Board | None, str]:
    """The tray's board: from --photo, else asked (a photo's path or the board typed
    as text); on a terminal a photo that cannot be read is asked again. (scan, image,
    typed board, the photo's label)."""
    from ..vision.decode import DecodeConfig
    from ..vision.pipeline import Scanner
    scanner: Scanner | None = None
    given = str(args.photo) if args.photo is not None else None
    while True:
        answer = given or ask_path(term, "Photo of the tray (its path, or the board typed as PERS/LATG/...)",
                                   "--photo PHOTO")
        given = None
        if not Path(answer).exists() and "/" in answer.strip("/") and " " not in answer:
            try:
                return None, None, Board.parse(answer), "typed"
            except UsageError:
                pass
        try:
            from .options import existing_photo
            scanner = scanner or Scanner("classifier", decode_config=DecodeConfig(edition=lang))
            scan, image = scanner.scan_file(existing_photo(Path(answer)), args.size)
            return scan, image, None, answer
        except BoggleError as err:
            if not term.interactive:
                raise
            term.say(f"boggle-cv: {err.one_line()}")


def sheet_list(photo: Path, board: Board, dictionary: Dictionary, lang: str) -> tuple[SheetReading, Path]:
    """A sheet photo read against the board (its doubtful words are the referee's to
    ask: referee_tray), with the photo."""
    from .sheets import read_one_sheet, sheet_lexicon
    return read_one_sheet(photo, sheet_lexicon(board, dictionary, lang), lang), photo


def referee_tray(term: Terminal, args: PracticeArgs, request: RoundRequest, dictionary: Dictionary,
                 scan: ScanResult | None, sheet: tuple[SheetReading, Path] | None) -> RoundResult:
    """The tray round refereed, its sheet's words (when one was read) added to the list;
    on a terminal the referee's questions (doubtful cells, sheet words: only those that
    change the score) are asked first (cli.asking)."""
    import dataclasses
    from ..game.sheet_doubts import append_sheet
    from ..game.referee import referee_round
    sheets: dict[str, tuple[SheetReading, Path]] = {}
    if sheet is not None:
        words, doubts = append_sheet(request.players[args.player], args.player, sheet[0].words, args.lang)
        request = dataclasses.replace(request, players={args.player: words}, doubts=tuple(doubts))
        sheets[args.player] = sheet
    if term.interactive and args.ask:
        from .asking import ask_round
        return ask_round(request, dictionary, scan, sheets)
    return referee_round(request, dictionary)


def file_list(path: Path, lang: str, stdin: TextIO) -> list[str]:
    """A word-list file ('-': stdin), warnings on stderr."""
    from ..game.wordlists import read_word_list
    notes: list[str] = []
    words = read_word_list(str(path), getattr(stdin, "buffer", sys.stdin.buffer), notes, lang=lang)
    for note in notes:
        echo_error(f"boggle-cv: warning: {note}")
    return words


def asked_list(term: Terminal, board: Board, dictionary: Dictionary,
               lang: str) -> list[str] | tuple[SheetReading, Path]:
    """Nothing typed and no list given: ask for a word-list file (its words) or a sheet
    photo (its reading: sheet_list)."""
    from ..files.outputs import IMAGE_EXTENSIONS
    answer = Path(ask_path(term, "Your list (a word-list file, or a photo of your sheet)", "--words or --sheet"))
    if answer.suffix.lower() in IMAGE_EXTENSIONS:
        return sheet_list(answer, board, dictionary, lang)
    return file_list(answer, lang, term.stdin)


def heading(size: int, lang: str, dice: str, seconds: int, best: int | None) -> str:
    """"Practice: 4x4 English (modern-4 dice), 3:00 on the clock; your best: 23"."""
    text = f"Practice: {size}x{size} {EDITIONS[lang].name} ({dice} dice), {clock_text(seconds)} on the clock"
    return text + (f"; your best: {best}" if best is not None else "; your first round of this kind")
