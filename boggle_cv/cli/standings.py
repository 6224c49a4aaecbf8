"""`boggle-cv standings NAME`: totals per player over a game's rounds."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..store import database as store
from .terminal import echo


def register(app: typer.Typer) -> None:
    @app.command("standings")
    def standings(
        game: Annotated[Optional[str], typer.Argument(metavar="GAME", help="The game's name, as given to scan --game (or the room's). Without it: the list of games.")] = None,
        target: Annotated[Optional[int], typer.Option("--target", min=1, metavar="POINTS", help="Points to win the game (50, 100, ...): shows who reached it first.")] = None,
        db: Annotated[Optional[str], typer.Option("--db", metavar="FILE|URL", help="Games database: a file (default: $BOGGLE_CV_DB, else games.sqlite3 in the user's data folder) or a postgresql:// URL.")] = None,
        list_: Annotated[bool, typer.Option("--list", help="List the stored games.")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="One JSON document on stdout.")] = False,
        remove: Annotated[Optional[int], typer.Option("--remove", min=1, metavar="ROUND", help="Remove this round of the game first (its number as scan --game said it; later rounds' numbers go down by one).")] = None,
    ) -> None:
        """Show a game's totals per player, and who reached the target first.

        The games are those stored by scan --game (and by the room). The database is
        opened read-only and never changed, except by --remove, which removes one
        round (one line on stderr says which) before the standings are shown.

        Example: boggle-cv standings friday --target 100
        """
        path = store.optional_location(db) or store.default_db_path()
        if remove is not None:
            _remove(path, game, remove)
        if list_ or game is None:
            names = store.list_games(path)
            if as_json:
                typer.echo(json.dumps({"schema_version": 1, "games": names}))
            else:
                typer.echo("\n".join(names) if names else "no games stored yet")
            return
        s = store.standings(path, game, target)
        if as_json:
            typer.echo(json.dumps({"schema_version": 1, **s.to_dict()}, indent=2))
        else:
            echo(standings_text(s, target))


def _remove(path: store.DbLocation, game: str | None, number: int) -> None:
    """--remove: round `number` of `game` removed, said in one line on stderr."""
    from ..errors import UsageError
    from ..store.rounds import remove_round
    if game is None:
        raise UsageError("--remove needs the game's name", "e.g. boggle-cv standings friday --remove 2")
    left = remove_round(path, game, number)
    echo(f"removed round {number} of game {game!r} ({left} round{'s' if left != 1 else ''} left)", err=True)


def standings_text(s: store.Standings, target: int | None) -> str:
    """The standings as a table: each player's total, rounds and best round (and the
    round they reached the target in), then the personal best of a lone player and
    who reached the target first."""
    lines = [f"Game {s.game!r}: {s.rounds} round{'s' if s.rounds != 1 else ''}"]
    width = max([len(p.player) for p in s.players] + [6])
    lines.append(f"  {'player':<{width}}  total  rounds  best")
    for p in s.players:
        mark = f"  reached {target} in round {p.reached_target_in_round}" if p.reached_target_in_round else ""
        lines.append(f"  {p.player:<{width}}  {p.total:>5}  {p.rounds:>6}  {p.best_round:>4}{mark}")
    if len(s.players) == 1:
        lines.append(f"Personal best: {s.players[0].best_round} points in one round")
    if target is not None:
        if s.first_to_target:
            who = " and ".join(s.first_to_target)
            lines.append(f"First to {target}: {who}" + (" (a tie)" if len(s.first_to_target) > 1 else ""))
        else:
            lines.append(f"Nobody has reached {target} yet")
    return "\n".join(lines)
