"""`boggle-cv sheet PHOTO [--board TEXT | --tray-photo PHOTO] [--json]`: the words written on
one player's sheet, read against the board's lexicon when the board is given."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from ..errors import UsageError
from .options import DictOption, JsonOption, Lang, LangOption
from .terminal import echo

if TYPE_CHECKING:
    from ..game.board import Board
    from ..game.dictionary import Dictionary
    from ..vision.sheet.types import SheetReading


def register(app: typer.Typer) -> None:
    @app.command("sheet")
    def sheet_cmd(
        photo: Annotated[Path, typer.Argument(metavar="PHOTO", help="Photo of a player's handwritten sheet.")],
        board_text: Annotated[Optional[str], typer.Option("--board", metavar="BOARD", help="The board as text (e.g. PERS/LATG/SINE/TERS): words are read against its words.")] = None,
        tray: Annotated[Optional[Path], typer.Option("--tray-photo", metavar="PHOTO", help="A photo of the tray: its board gives the words to read against.")] = None,
        dict_path: DictOption = None,
        as_json: JsonOption = False,
        annotate: Annotated[Optional[Path], typer.Option("--annotate", metavar="FILE", help="Write the sheet photo with each word's box and reading drawn (PNG/JPEG).")] = None,
        lang: LangOption = Lang.en,
        free: Annotated[bool, typer.Option("--free", help="Without a board: read each word as written, not against the dictionary.")] = False,
    ) -> None:
        """Read the words written on a player's sheet (exit 5 if none is written).

        Without --board or --tray-photo each word is read against the whole dictionary (the
        edition's, or --dict), or as written with --free.

        Example: boggle-cv sheet ann.jpg --board DRML/HCNL/XEHD/YTOC
        """
        from .sheets import read_one_sheet, sheet_lexicon
        if board_text and tray:
            raise UsageError("give --board or --tray-photo, not both")
        if annotate is not None:
            from ..files.outputs import refuse_overwriting_inputs
            refuse_overwriting_inputs({"--annotate": annotate}, [photo, tray, dict_path], None, [])
        board = _board(board_text, tray, lang.value)
        if board is not None and free:
            raise UsageError("--free reads without a board: give it without --board and --tray-photo")
        lexicon = dictionary = None
        if board is not None or not free:
            from .options import load_dictionary
            dictionary = load_dictionary(dict_path, lang.value)
        if board is not None and dictionary is not None:
            lexicon = sheet_lexicon(board, dictionary, lang.value)
        reading = read_one_sheet(photo, lexicon, lang.value, dictionary)
        if annotate is not None:
            _draw(annotate, photo, reading)
        _show(photo, board, reading, as_json, lang.value, dictionary)


def _board(board_text: str | None, tray: Path | None, lang: str) -> Board | None:
    """The board that the sheet is read against: --board's text, or --tray-photo's photo read."""
    if board_text:
        from ..game.board import Board
        return Board.parse(board_text)
    if tray is not None:
        from ..vision.pipeline import read_board
        from .options import existing_photo
        return read_board(existing_photo(tray), lang=lang).board
    return None


def _draw(annotate: Path, photo: Path, reading: SheetReading) -> None:
    """--annotate: the sheet's photo with each word's box and reading drawn."""
    from ..files.outputs import write_image_atomic
    from ..vision.imageio import load_image
    from ..vision.sheet.draw import draw_sheet
    write_image_atomic(annotate, draw_sheet(load_image(photo), reading))


def _show(photo: Path, board: Board | None, reading: SheetReading, as_json: bool, lang: str,
          dictionary: Dictionary | None) -> None:
    """The reading on stdout: one JSON document, or one line a word; with a board, the
    words asked about are the referee's questions (sheets.sheet_decision)."""
    from .sheets import sheet_decision, sheet_text, terminal_ink
    decision = sheet_decision(reading, board, dictionary, lang) if board is not None and dictionary else None
    if as_json:
        from ..game.referee import SCHEMA_VERSION
        doc = {"schema_version": SCHEMA_VERSION, "photo": str(photo),
               "board": board.to_text() if board is not None else None, **reading.to_dict()}
        if decision is not None:
            doc.update(decision.to_dict())
        typer.echo(json.dumps(doc))
    else:
        echo(sheet_text(reading, terminal_ink(photo, reading), decision))
