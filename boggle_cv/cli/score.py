"""`boggle-cv score BOARD --player NAME=FILE ...`: referee a round from a typed board."""
from __future__ import annotations

import json
from typing import Annotated, Optional

import typer

from ..game.board import Board
from ..errors import UsageError
from ..game.referee import Corrections, RoundRequest, RulesOptions, referee_round
from ..game.scoring import LongWords, Variant
from .options import (BonusOption, ChallengeCellOption, DictOption, JsonOption, Lang, LangOption, LongWordsOption,
                      MinLengthOption, load_dictionary, parse_cells, parse_one_cell, read_player_lists)
from .terminal import echo


def register(app: typer.Typer) -> None:
    @app.command("score")
    def score_cmd(
        board: Annotated[str, typer.Argument(metavar="BOARD", help="Board text, rows joined by '/', e.g. PERS/LATG/SINE/TERS.")],
        player: Annotated[list[str], typer.Option("--player", "-p", metavar="NAME=FILE", help="A player's word list: one word per line (or several, split by spaces or commas); FILE '-' reads stdin. Repeat per player.")],
        dict_path: DictOption = None,
        min_length: MinLengthOption = None,
        as_json: JsonOption = False,
        variant: Annotated[Optional[Variant], typer.Option("--variant", help="standard or challenge (challenge-cube table, +5 through the cube; the default when --challenge-cell is given).")] = None,
        challenge_cell: ChallengeCellOption = None,
        bonus: BonusOption = None,
        long_words: LongWordsOption = LongWords.per_letter,
        lang: LangOption = Lang.en,
    ) -> None:
        """Score the players' lists on a typed board.

        The report gives each player's words with their status and points, the
        totals and the winner, then the words nobody found.

        Example: boggle-cv score PERS/LATG/SINE/TERS -p ann=ann.txt -p bob=bob.txt
        """
        from ..game.report import sheet_text
        b = Board.parse(board)
        if variant is Variant.challenge and challenge_cell is None:
            raise UsageError("--variant challenge needs --challenge-cell", "e.g. --challenge-cell r2c3")
        options = RulesOptions(variant.value if variant else None, min_length, long_words.value,
                               frozenset(parse_cells(bonus, "--bonus")),
                               parse_one_cell(challenge_cell, "--challenge-cell"), lang.value)
        lists = read_player_lists(player, lang.value)
        result = referee_round(RoundRequest(corrections=Corrections(board=b), options=options, players=lists),
                               load_dictionary(dict_path, lang.value))
        if as_json:
            typer.echo(json.dumps(result.to_dict()))
        else:
            echo(sheet_text(result.sheet))
