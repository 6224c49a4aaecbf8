"""`boggle-cv db copy SRC DEST`: the games database moved between a SQLite file and
a PostgreSQL server (boggle_cv.store.copy)."""
from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer


class DbAction(str, Enum):
    copy = "copy"


def register(app: typer.Typer) -> None:
    @app.command("db")
    def db_cmd(
        action: Annotated[DbAction, typer.Argument(metavar="ACTION", help="What to do: copy (every row of SRC into the empty DEST).")],
        src: Annotated[str, typer.Argument(metavar="SRC", help="The games database to read: a file or a postgresql:// URL.")],
        dest: Annotated[str, typer.Argument(metavar="DEST", help="The empty games database to write: a file or a postgresql:// URL.")],
    ) -> None:
        """Copy a games database into another one, between SQLite files and PostgreSQL.

        Every game, round, room (with its photos and word images) and practice round
        of SRC is written to DEST in one transaction, keeping their numbers; DEST must
        be a new file or an empty PostgreSQL database, and SRC is only read.

        Example: boggle-cv db copy games.sqlite3 postgresql://host/boggle
        """
        from ..store.copy import copy
        from ..store.sql import parse_location
        copied = copy(parse_location(src, "SRC"), parse_location(dest, "DEST"))
        typer.echo(f"copied {rows_copied(copied.rows)} into {parse_location(dest, 'DEST')}", err=True)


#: What a row of each table is, one and many.
ROW_NAMES = {"games": ("game", "games"), "rounds": ("round", "rounds"),
             "round_players": ("player's score", "players' scores"), "rooms": ("room", "rooms"),
             "room_photos": ("room photo", "room photos"), "room_word_images": ("word image", "word images"),
             "practice_rounds": ("practice round", "practice rounds")}


def rows_copied(rows: dict[str, int]) -> str:
    """{"games": 1, "rounds": 2} -> "1 game, 2 rounds" (a table not named above: "3 rows of TABLE")."""
    def one(table: str, n: int) -> str:
        if table not in ROW_NAMES:
            return f"{n} row{'s' if n != 1 else ''} of {table}"
        return f"{n} {ROW_NAMES[table][0 if n == 1 else 1]}"
    return ", ".join(one(table, n) for table, n in rows.items())
