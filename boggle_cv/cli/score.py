"""`boggle-cv score BOARD --player NAME=FILE ...`: referee a round."""
from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from ..board import Board
from ..errors import UsageError
from .solve import DictOption, JsonOption, MinLengthOption, check_min_length, load_dictionary

def parse_cells(text: str, option: str) -> list[tuple[int, int]]:
    """"r2c3,r1c1" (1-based) -> [(1, 2), (0, 0)] (0-based (row, col)); board.parse_cells."""
    from ..board import parse_cells as board_cells
    return board_cells(text, option)


def read_player_lists(options: list[str]) -> dict[str, list[str]]:
    """--player NAME=FILE options -> {name: words}, in order; warnings on stderr.

    Refuses two players with one name and more than one list on stdin."""
    from ..wordlists import parse_player_option, read_lists
    specs = [parse_player_option(p) for p in options]
    names = [n for n, _ in specs]
    if len(set(names)) != len(names):
        raise UsageError("two --player options have the same name", "give each player a different NAME")
    if sum(1 for _, f in specs if f == "-") > 1:
        raise UsageError("only one player's list can come from stdin", "give the others as files")
    notes: list[str] = []
    lists = read_lists(specs, notes=notes)
    for note in notes:
        typer.echo(f"boggle-cv: warning: {note}", err=True)
    return lists


def register(app: typer.Typer) -> None:
    @app.command("score")
    def score_cmd(
        board: Annotated[str, typer.Argument(help="Board text, rows joined by '/', e.g. PERS/LATG/SINE/TERS.")],
        player: Annotated[list[str], typer.Option("--player", "-p", help="NAME=FILE, one word per line; FILE '-' reads stdin. Repeat per player.")],
        dict_path: DictOption = None,
        min_length: MinLengthOption = None,
        as_json: JsonOption = False,
        variant: Annotated[str, typer.Option("--variant", help="standard or challenge (challenge-cube table, +5 through the cube).")] = "standard",
        challenge_cell: Annotated[Optional[str], typer.Option("--challenge-cell", help="Cell of the challenge cube, e.g. r2c3 (with --variant challenge).")] = None,
        bonus: Annotated[Optional[str], typer.Option("--bonus", help="Bonus cells that double a word, e.g. r1c1,r3c4.")] = None,
        long_words: Annotated[str, typer.Option("--long-words", help="6x6 words above 8 letters: per-letter (2 a letter), eleven-plus, flat.")] = "per-letter",
    ) -> None:
        """Each player's words with status and points, totals, winner(s), then the words nobody found."""
        from ..report import sheet_text
        from ..scoring import Rules, score_round
        check_min_length(min_length)
        b = Board.parse(board)
        if variant == "challenge" and challenge_cell is None:
            raise UsageError("--variant challenge needs --challenge-cell", "e.g. --challenge-cell r2c3")
        if challenge_cell is not None and variant != "challenge":
            raise UsageError("--challenge-cell needs --variant challenge")
        cc = parse_cells(challenge_cell, "--challenge-cell") if challenge_cell is not None else None
        if cc is not None and len(cc) != 1:
            raise UsageError("--challenge-cell takes one cell", "e.g. --challenge-cell r2c3")
        rules = Rules(size=b.size, variant=variant, min_length=min_length, long_words=long_words,
                      bonus_cells=frozenset(parse_cells(bonus, "--bonus")) if bonus is not None else frozenset(),
                      challenge_cell=cc[0] if cc else None)
        lists = read_player_lists(player)
        d = load_dictionary(dict_path)
        sheet = score_round(b, lists, d, rules)
        if as_json:
            typer.echo(json.dumps(sheet.to_dict()))
        else:
            typer.echo(sheet_text(sheet))
