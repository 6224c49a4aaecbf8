"""The room and its players: making a room, joining, renaming, removing a player,
the host's settings."""
from __future__ import annotations

from typing import Any

from ...game.editions import get_edition
from ...errors import LimitReached, UsageError
from ...game.scoring import Rules
from ...store.sql import Conn
from .. import sheets
from ..model import Player, Room, Settings, new_code, new_token, token_hash
from .core import ServiceCore


class PlayerActions(ServiceCore):
    """Making a room and changing who plays in it and how (the host's settings)."""

    def create(self, game: str | None = None, seconds: int | None = 180, target: int | None = 50,
               lang: str | None = None) -> tuple[Room, str]:
        """A new room (and its host token); lang: its edition (None: the server's).
        LimitReached when the server holds max_rooms live rooms (counted in the
        insert's transaction, after idle rooms are deleted)."""
        settings = Settings(seconds=self._seconds(seconds), target=self._target(target),
                            lang=get_edition(lang).code if lang is not None else self.lang)
        token = new_token()
        for _ in range(20):
            code = new_code()
            name = self._name(game, "game name") if game else f"room {code}"
            room = Room(code, name, token_hash(token), self.clock(), settings)
            if self.db.create(room, self.limits.max_rooms, self.limits.idle_s):
                return room, token
        raise LimitReached("no free room code was found", "try again", code="room.no_free_code")

    def join(self, code: str, name: str) -> tuple[Room, Player, str]:
        """A player joins with their own phone: (room, player, the player's token)."""
        token = new_token()
        room, player = self._update(code, lambda room, conn: self._add_player(room, name, token, False))
        return room, player, token

    def add_hosted(self, code: str, token: str | None, name: str) -> tuple[Room, Player]:
        """Host: a player without a phone, added on the host's device; the host acts for
        them (their words, their sheet) and no token of their own is given out."""
        def add(room: Room, conn: Conn) -> Player:
            self._host(room, token)
            return self._add_player(room, name, new_token(), True)
        return self._update(code, add)

    def _add_player(self, room: Room, name: str, token: str, hosted: bool) -> Player:
        clean = self._unique_name(room, name, None)
        if len(room.players) >= self.limits.max_players:
            raise LimitReached(f"the room is full ({self.limits.max_players} players)", code="room.full",
                               params={"max": self.limits.max_players})
        now = self.clock()
        player = Player(f"p{len(room.players) + 1}{token_hash(token)[:6]}", clean, token_hash(token), now, hosted)
        room.players.append(player)
        room.last_change = {"what": "join", "by": "host" if hosted else clean, "player": clean, "at": now}
        return player

    def rename(self, code: str, player_id: str, token: str | None, name: str) -> Room:
        def change(room: Room, conn: Conn) -> None:
            player, who = self._own(room, player_id, token)
            old, player.name = player.name, self._unique_name(room, name, player.id)
            room.last_change = {"what": "rename", "by": player.name if who != "host" else who, "old": old,
                                "player": player.name, "at": self.clock()}
        return self._update(code, change)[0]

    def remove(self, code: str, token: str | None, player_id: str) -> Room:
        def change(room: Room, conn: Conn) -> None:
            self._host(room, token)
            player = self._player(room, player_id)
            room.players = [p for p in room.players if p.id != player.id]
            room.round.lists.pop(player.id, None)
            room.round.revisions.pop(player.id, None)
            self._keep_sheet(conn, room, player.id, sheets.SheetWords())
            room.last_change = {"what": "remove", "by": "host", "player": player.name, "at": self.clock()}
        return self._update(code, change)[0]

    def settings(self, code: str, token: str | None, changes: dict[str, Any]) -> Room:
        """Host: timer seconds (or null), target, rules (variant, min_length, long_words), marks,
        the edition (lang). A round takes them when its clock starts."""
        def change(room: Room, conn: Conn) -> None:
            self._host(room, token)
            s = Settings.from_dict({**room.settings.to_dict(), **changes})
            unknown = set(changes) - set(Settings.__dataclass_fields__)
            if unknown:
                raise UsageError(f"unknown setting(s): {', '.join(sorted(unknown))}")
            s.seconds, s.target = self._seconds(s.seconds), self._target(s.target)
            if s.marks not in ("use", "ignore"):
                raise UsageError(f"marks must be 'use' or 'ignore', not {s.marks!r}")
            s.lang = get_edition(s.lang).code
            Rules(size=4, variant=s.variant or "standard", min_length=s.min_length,
                  long_words=s.long_words, lang=s.lang)  # checks the rules' values
            room.settings = s
            room.last_change = {"what": "settings", "by": "host", "at": self.clock()}
        return self._update(code, change)[0]
