"""The game a room plays: each scored round added to the players' totals, the game
ended when someone reaches the target, and a new game with the same players."""
from __future__ import annotations

import re
from typing import Any

from ...errors import RoundStateError
from ...store.sql import Conn, tables
from ..model import Phase, Room, Round
from ..view import round_settings
from .core import ServiceCore

_NUMBERED = re.compile(r"^(.*) · (\d+)$")


def add_round(room: Room, report: dict[str, Any]) -> None:
    """The round's scores added to the game's totals (by player id, so a rename keeps
    them); the game ends when a total reaches the round's target: won by the highest
    total among those who reached it (equal totals share the win)."""
    ids = {p.name: p.id for p in room.players}
    for p in report.get("players") or []:
        pid = ids.get(str(p["name"]))
        if pid is not None:
            room.totals[pid] = room.totals.get(pid, 0) + int(p["score"])
    target = round_settings(room).target
    if target is None or room.game_over is not None:
        return
    reached = {pid: total for pid, total in room.totals.items() if total >= target and room.player(pid)}
    if reached:
        top = max(reached.values())
        winners = [p.name for p in room.players if reached.get(p.id) == top]
        room.game_over = {"winners": winners, "target": target, "round": room.round.number, "total": top}


def next_game_name(game: str, number: int) -> str:
    """"room KQ7M2XP" -> "room KQ7M2XP · 2"; "friday · 2" -> "friday · 3"."""
    m = _NUMBERED.match(game)
    return f"{m.group(1) if m else game} · {number}"


class GameActions(ServiceCore):
    """The host's new game: the same players, totals from zero, round 1 waiting."""

    def new_game(self, code: str, token: str | None) -> Room:
        def change(room: Room, conn: Conn) -> None:
            self._host(room, token)
            if room.round.phase in (Phase.playing, Phase.locked):
                raise RoundStateError(f"round {room.round.number} is not scored yet",
                                      "score it first, or start again with discard",
                                      code="round.not_scored", params={"round": room.round.number})
            number = room.game_number + 1
            name = next_game_name(room.game, number)
            while _stored(conn, name):
                number += 1
                name = next_game_name(room.game, number)
            self.db.drop_word_images(conn, room.code, before_round=room.round.number + 1)
            self.db.drop_photos(conn, room.code)
            room.game, room.game_number, room.totals, room.game_over = name, number, {}, None
            room.round = Round(1)
            room.last_change = {"what": "new_game", "by": "host", "at": self.clock(), "game": number}
        return self._update(code, change)[0]


def _stored(conn: Conn, name: str) -> bool:
    """Whether the games database already holds a game called `name`."""
    if "games" not in tables(conn):
        return False
    return conn.execute("SELECT 1 FROM games WHERE name = ?", (name,)).fetchone() is not None
