"""Players' sheets on the command line (issue 22), shared by `sheet` and `scan --sheet`:
the lexicon of a board, the questions about doubtful words, the text of a reading.

Nothing here loads the sheet reader or its model until a sheet is read.
"""
from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from ..errors import UsageError

if TYPE_CHECKING:
    from ..board import Board
    from ..dictionary import Dictionary
    from ..vision.sheet.types import SheetReading


def parse_sheet_options(options: Iterable[str]) -> list[tuple[str, Path]]:
    """--sheet NAME=PHOTO options -> [(name, photo), ...] in order; names checked as
    --player names are (names.py), each once."""
    from ..wordlists import parse_player_option
    from ..names import name_key
    specs = [parse_player_option(o) for o in options]
    out: list[tuple[str, Path]] = []
    for name, file in specs:
        if file == "-":
            raise UsageError(f"--sheet {name}=-: a sheet is a photo file", "give the photo's path")
        out.append((name, Path(file)))
    keys = [name_key(n) for n, _ in out]
    if len(set(keys)) != len(keys):
        raise UsageError("two --sheet options have the same name", "give each player a different NAME")
    return out


def sheet_annotation_path(annotate: Path, name: str) -> Path:
    """Where `scan --annotate OUT --sheet NAME=PHOTO` draws that sheet: beside OUT,
    OUT's stem + "-sheet-" + the name (letters, digits, - and _ kept; others "_") +
    OUT's suffix (board.png, ann -> board-sheet-ann.png)."""
    slug = "".join(c if c.isalnum() or c in "-_" else "_" for c in name) or "_"
    return annotate.with_name(f"{annotate.stem}-sheet-{slug}{annotate.suffix}")


def draw_sheets(annotate: Path, sheets: dict[str, SheetReading], photos: Iterable[tuple[str, Path]]) -> list[tuple[Path, bytes]]:
    """Each sheet's photo with its words' boxes and readings drawn (vision.sheet.draw),
    encoded by `annotate`'s extension: [(sheet_annotation_path, bytes), ...] for the
    caller to write (outputs.write_bytes_atomic) once everything is drawn."""
    import cv2
    from ..errors import OutputError
    from ..outputs import IMAGE_EXTENSIONS
    from ..vision.imageio import load_image
    from ..vision.sheet.draw import draw_sheet
    ext = annotate.suffix.lower()
    if ext not in IMAGE_EXTENSIONS:
        raise OutputError(f"cannot write {annotate}: unknown image type {ext or '(none)'}",
                          "end the name with " + ", ".join(IMAGE_EXTENSIONS))
    encoded: list[tuple[Path, bytes]] = []
    for name, photo in photos:
        if name not in sheets:
            continue
        out = sheet_annotation_path(annotate, name)
        ok, buf = cv2.imencode(ext, draw_sheet(load_image(photo), sheets[name]))
        if not ok:
            raise OutputError(f"cannot encode the image as {annotate.suffix}", "use .png or .jpg")
        encoded.append((out, buf.tobytes()))
    return encoded


def sheet_lexicon(board: Board, dictionary: Dictionary, lang: str = "en") -> list[str]:
    """The words a sheet of this board is read against: the board's words and every
    dictionary word one edit away from one (handwriting.board_lexicon)."""
    from ..scoring import Rules, solve
    from ..vision.handwriting import board_lexicon
    words = [w.word for w in solve(board, dictionary, rules=Rules.for_board(board, lang=lang))]
    return board_lexicon(words, dictionary)


def read_one_sheet(photo: Path, lexicon: list[str] | None, lang: str = "en",
                   dictionary: Dictionary | None = None) -> SheetReading:
    """read_sheet on a photo file (ImageReadError exit 4, NoWritingError exit 5); lang
    "de" also matches the lexicon's words as written with ä, ö, ü, ß; with no lexicon,
    the words are read against `dictionary` when given, else freely."""
    from ..vision.sheet import read_sheet
    return read_sheet(photo, lexicon, lang=lang, dictionary=dictionary)


def ask_words(name: str, reading: SheetReading) -> list[str]:
    """On a terminal: ask about each doubtful word that counts
    (`ann, word 7: "seat" (71%), "sat" (22%) or type it [seat]`); the player's words
    as confirmed (an answer replaces the reading; an empty line keeps it)."""
    out: list[str] = []
    for i, w in enumerate(reading.words, start=1):
        if w.crossed_out or not (w.word or w.free):
            continue
        word = w.word or w.free
        if w.flagged:
            options = ", ".join(f'"{a}" ({p:.0%})' for a, p in w.alternatives[:3]) or f'"{word}"'
            typer.echo(f"{name}, word {i}: {options} or type it [{word}] ", err=True, nl=False)
            answer = sys.stdin.readline().strip().lower()
            if answer:
                word = answer
        out.append(word)
    return out


def sheet_words(reading: SheetReading) -> list[str]:
    """The words that count without asking: read and not crossed out (the free
    reading where no lexicon word was given)."""
    return [w.word or w.free for w in reading.words if not w.crossed_out and (w.word or w.free)]


def sheet_text(reading: SheetReading) -> str:
    """One line a word: number, reading, confidence, runners-up, ? when doubtful,
    (crossed out)."""
    lines = []
    for i, w in enumerate(reading.words, start=1):
        word = w.word or w.free or "?"
        runners = ", ".join(f"{a} {p:.0%}" for a, p in w.alternatives[1:3])
        tail = (" (crossed out)" if w.crossed_out else "") + ("  ?" if w.flagged else "")
        lines.append(f"{i:3d}  {word:<16} {w.confidence:4.0%}" + (f"  ({runners})" if runners else "") + tail)
    counted = len([w for w in reading.words if not w.crossed_out])
    lines.append(f"{len(reading.words)} word(s) read, {counted} counted"
                 + (f", the sheet turned {reading.turn} degrees" if reading.turn else ""))
    return "\n".join(lines)
