"""`boggle-cv solve BOARD`: every word on a board, grouped by points."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..board import Board
from ..dictionary import Dictionary, load_default, load_word_list
from ..errors import UsageError


def load_dictionary(path: Optional[Path]) -> Dictionary:
    """The --dict list (skipped lines reported on stderr) or the default dictionary."""
    if path is None:
        return load_default()
    d = load_word_list(path, common_from=load_default())
    if d.skipped:
        typer.echo(f"boggle-cv: {d.skipped} line(s) of {path} are not words and were skipped", err=True)
    return d


DictOption = Annotated[Optional[Path], typer.Option("--dict", help="One-word-per-line list to use instead of the built-in dictionary.")]
MinLengthOption = Annotated[Optional[int], typer.Option("--min-length", help="Shortest word that counts (default 3 on 4x4, 4 on 5x5/6x6).")]
JsonOption = Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")]


def check_min_length(n: Optional[int]) -> None:
    if n is not None and not 1 <= n <= 72:
        raise UsageError(f"--min-length {n} is out of range", "give 1 to 72")


def register(app: typer.Typer) -> None:
    @app.command("solve")
    def solve_cmd(
        board: Annotated[str, typer.Argument(help="Board text, rows joined by '/', e.g. PERS/LATG/SINE/TERS.")],
        dict_path: DictOption = None,
        min_length: MinLengthOption = None,
        as_json: JsonOption = False,
    ) -> None:
        """Every word on BOARD with its points, the count and the maximum score."""
        from ..report import solve_dict, solve_text
        from ..scoring import Rules, board_words
        check_min_length(min_length)
        b = Board.parse(board)
        d = load_dictionary(dict_path)
        rules = Rules.for_board(b, min_length=min_length)
        words = board_words(b, d, rules)
        if as_json:
            typer.echo(json.dumps(solve_dict(b, words, rules, d.source)))
        else:
            typer.echo(solve_text(b, words))
