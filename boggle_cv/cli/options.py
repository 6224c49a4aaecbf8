"""Options shared by the commands: their types, choices and parsers.

Choices are Enums and ranges are Typer's min/max, so `--help` lists them and a bad
value is a usage error (exit 2) before any work starts. Parsers turn option text
into the library's values (cells, corrections, word lists, the dictionary).
"""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from .help_format import HelpCommand
from ..game.board import Cell, cell_label, describe_text, normalise_face, parse_cell
from ..game.dictionary import Dictionary
from ..errors import ImageReadError, UsageError
from ..game.scoring import MIN_LENGTH_RANGE, LongWords
from .terminal import echo_error


class SizeChoice(str, Enum):
    """--size: the board's side, or auto (found in the photo)."""

    auto = "auto"
    four = "4"
    five = "5"
    six = "6"

    @property
    def size(self) -> int | None:
        return None if self is SizeChoice.auto else int(self.value)


class Lang(str, Enum):
    """--lang: the edition (boggle_cv.game.editions): dictionary, folding, shortest word, cube sets."""

    en = "en"
    fr = "fr"
    de = "de"
    es = "es"
    it = "it"
    nl = "nl"


LangOption = Annotated[Lang, typer.Option(
    "--lang", help="Edition: en (English), fr (French), de (German), es (Spanish), it (Italian), nl (Dutch): "
                   "its dictionary, letter folding (été = ete, Straße = strasse), shortest word and cube sets.")]
DictOption = Annotated[Optional[Path], typer.Option(
    "--dict", metavar="FILE", help="One-word-per-line list to use instead of the built-in dictionary.")]
MinLengthOption = Annotated[Optional[int], typer.Option(
    "--min-length", min=MIN_LENGTH_RANGE[0], max=MIN_LENGTH_RANGE[1], metavar="N",
    help="Shortest word that counts (default 3 on 4x4, 4 in Italian; 4 on 5x5 and 6x6).")]
JsonOption = Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")]


class OrderedCommand(HelpCommand):
    """A command that keeps the order its options were given in: ctx.meta["option_order"]
    names the parameter of each occurrence, first to last (so that `--sheet ann=...
    --player bob=...` can keep ann before bob, though each option's values come apart)."""

    def make_parser(self, ctx: Any) -> Any:
        parser = super().make_parser(ctx)
        parse = parser.parse_args

        def parse_args(args: list[str]) -> Any:
            opts, rest, order = parse(args)
            ctx.meta["option_order"] = [p.name for p in order]
            return opts, rest, order

        parser.parse_args = parse_args  # type: ignore[method-assign]
        return parser


def given_order(ctx: Any, groups: dict[str, list[str]]) -> list[str]:
    """The items of several repeated options ({parameter name: its values in order}),
    in the order they were given on the command line (OrderedCommand); each option's
    own order, one option after another, when that order is not known."""
    order = [n for n in ctx.meta.get("option_order", []) if n in groups]
    if sorted(order) != sorted(n for n, values in groups.items() for _ in values):
        order = [n for n, values in groups.items() for _ in values]
    queues = {n: iter(values) for n, values in groups.items()}
    return [next(queues[n]) for n in order]
LongWordsOption = Annotated[LongWords, typer.Option(
    "--long-words", help="6x6 words above 8 letters: per-letter (2 a letter), eleven-plus, flat.")]
BonusOption = Annotated[Optional[str], typer.Option("--bonus", metavar="CELLS", help="Bonus cells that double a word, e.g. r1c1,r3c4.")]
ChallengeCellOption = Annotated[Optional[str], typer.Option(
    "--challenge-cell", metavar="CELL", help="Cell of the red challenge cube, e.g. r2c3 (challenge scoring).")]


def parse_cells(text: str | None, option: str) -> list[Cell]:
    """"r2c3,r1c1" (rows and columns from 1) -> [(1, 2), (0, 0)]; None -> [].
    UsageError for a bad cell, an empty value or a cell given twice."""
    if text is None:
        return []
    parts = [p.strip() for p in text.split(",")]
    if not any(parts):
        raise UsageError(f"{option} is empty", "give cells such as r1c1,r3c4, or leave the option out")
    cells: list[Cell] = []
    for part in parts:
        if not part:
            raise UsageError(f"{option} {text!r} has an empty item", "remove the extra ','")
        try:
            cell = parse_cell(part)
        except ValueError:
            raise UsageError(f"{option} {describe_text(part)} is not a cell",
                             "write r<row>c<col> from 1, e.g. r2c3") from None
        if cell in cells:
            raise UsageError(f"{option} names {cell_label(cell)} twice")
        cells.append(cell)
    return cells


def parse_one_cell(text: str | None, option: str) -> Cell | None:
    """One cell ("r2c3") or None; UsageError for more than one."""
    cells = parse_cells(text, option)
    if len(cells) > 1:
        raise UsageError(f"{option} takes one cell", f"e.g. {option} r2c3")
    return cells[0] if cells else None


def parse_fixes(items: list[str]) -> dict[Cell, str]:
    """["r2c3=W", "r1c1=qu"] -> {(1, 2): "W", (0, 0): "Qu"} (rows and columns from 1).
    UsageError for a bad item or two different faces for one cell."""
    out: dict[Cell, str] = {}
    given: dict[Cell, str] = {}
    for item in items:
        where, sep, face_text = item.strip().partition("=")
        try:
            cell = parse_cell(where)
        except ValueError:
            cell = None
        if not sep or cell is None:
            raise UsageError(f"--fix {item!r} is not r<row>c<col>=FACE", "e.g. --fix r2c3=W (rows and columns from 1)")
        try:
            face = normalise_face(face_text)
        except ValueError:
            raise UsageError(f"--fix {item.strip()!r}: {describe_text(face_text.strip())} is not a face",
                             "a letter, Qu, An Er He In Th, or # for a blank") from None
        if out.get(cell, face) != face:
            raise UsageError(f"--fix {given[cell]!r} and --fix {item.strip()!r} give {cell_label(cell)} "
                             "two different faces", "keep the one you mean")
        out[cell] = face
        given[cell] = item.strip()
    return out


def read_player_lists(options: list[str], lang: str = "en") -> dict[str, list[str]]:
    """--player NAME=FILE options -> {name: words}, in order; warnings on stderr
    (tokens judged by the folding of edition `lang`).

    Refuses two players with one name and more than one list on stdin."""
    from ..game.wordlists import parse_player_option, read_lists
    from ..game.names import name_key
    specs = [parse_player_option(p) for p in options]
    names = [name_key(n) for n, _ in specs]
    if len(set(names)) != len(names):
        raise UsageError("two --player options have the same name", "give each player a different NAME")
    if sum(1 for _, f in specs if f == "-") > 1:
        raise UsageError("only one player's list can come from stdin", "give the others as files")
    notes: list[str] = []
    lists = read_lists(specs, notes=notes, lang=lang)
    for note in notes:
        echo_error(f"boggle-cv: warning: {note}")
    return lists


def load_dictionary(path: Optional[Path], lang: str = "en") -> Dictionary:
    """The --dict list (folded by edition `lang`; skipped lines reported on stderr)
    or the edition's shipped dictionary. English lists take their common words from
    the English dictionary; the other editions flag none."""
    from ..game.dictionary import load_default, load_word_list
    if path is None:
        return load_default(lang)
    d = load_word_list(path, common_from=load_default() if lang == "en" else None, lang=lang)
    if d.skipped:
        echo_error(f"boggle-cv: {d.skipped} line(s) of {path} are not words and were skipped")
    return d


def existing_photo(path: Path, hint: str | None = None) -> Path:
    """`path` when it is a file; else ImageReadError (exit 4) saying only that it is not
    there, or is a directory (a typo needs no list of image formats)."""
    if path.is_file():
        return path
    if path.is_dir():
        raise ImageReadError(f"cannot read image {path}: it is a directory", hint or "give a photo's file name")
    raise ImageReadError(f"cannot read image {path}: no such file", hint)

