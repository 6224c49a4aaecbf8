"""`boggle-cv solve BOARD`: every word on a board, grouped by points."""
from __future__ import annotations

import json
from typing import Annotated

import typer

from ..game.board import Board
from .options import DictOption, JsonOption, Lang, LangOption, MinLengthOption, load_dictionary
from .terminal import echo


def register(app: typer.Typer) -> None:
    @app.command("solve")
    def solve_cmd(
        board: Annotated[str, typer.Argument(metavar="BOARD", help="Board text, rows joined by '/', e.g. PERS/LATG/SINE/TERS.")],
        dict_path: DictOption = None,
        min_length: MinLengthOption = None,
        as_json: JsonOption = False,
        lang: LangOption = Lang.en,
    ) -> None:
        """List every word on a board with its points, then the count and the highest score.

        A board is its rows joined by "/", one character a face: Q (or Qu) is the Qu
        face, a two-letter face goes in brackets, # is a blank.

        Example: boggle-cv solve PERS/LATG/SINE/TERS
        """
        from ..game.report import solve_dict, solve_text
        from ..game.scoring import Rules, solve
        b = Board.parse(board)
        d = load_dictionary(dict_path, lang.value)
        rules = Rules.for_board(b, min_length=min_length, lang=lang.value)
        words = solve(b, d, rules=rules)
        if as_json:
            typer.echo(json.dumps(solve_dict(b, words, rules, d.source)))
        else:
            echo(solve_text(b, words))
