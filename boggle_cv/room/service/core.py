"""Who may act in a room, and the steps every change of a room shares.

Tokens: the host's (returned when the room is made) allows the host actions
(settings, start, lock, reopen, score, next round, remove a player, add a player
without a phone); a player's (returned on joining) allows changing that player's own
name and list. The host acts for a player without a phone (`Player.hosted`): their
name and list as their own token would. A sheet's photo, and the words a sheet added
(confirmed, typed over, dropped): that player's token or the host's. Either allows
reading the room, sending a photo, typing the board and correcting cells.
Every change is one `_update` (one SQLite transaction, room.db): the change function
checks who acts and what the round allows, raises a boggle_cv.errors Room* error
(each with its HTTP status) or changes the room in place.
"""
from __future__ import annotations

import hmac
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from ...game.dictionary import Dictionary
from ...game.editions import DEFAULT_LANG, get_edition
from ...errors import NotAllowed, NotAuthenticated, RoomNotFound, UsageError
from ...game.names import MAX_NAME, clean_name, name_key
from ...game.referee import RoundResult, round_record
from ...store.sql import Conn
from .. import sheets
from ..db import RoomDB, Unchanged
from ..dictionaries import Dictionaries
from ..model import Phase, Player, Room, Round, normalise_code, screen_key, token_matches
from ..view import room_view

V = TypeVar("V")


@dataclass(frozen=True)
class RoomLimits:
    """max_rooms: rooms one server keeps; max_players per room; max_words per list;
    max_name: characters of a name; seconds: the timer's range (s); grace_s: a list
    saved this long after the timer's end or the host's lock still counts (the
    phone's last save in flight); target: the game's winning total's range;
    idle_s: a room without a change for this long (s) is deleted when a room is made,
    and does not count against max_rooms."""

    max_rooms: int = 200
    max_players: int = 12
    max_words: int = 2000
    max_name: int = MAX_NAME
    seconds: tuple[int, int] = (10, 3600)
    grace_s: float = 3.0
    target: tuple[int, int] = (1, 100_000)
    idle_s: float = 24 * 3600.0


Saver = Callable[[Conn, str, RoundResult], int]


def save_to_games(conn: Conn, game: str, result: RoundResult) -> int:
    """The default Saver: the round into the games tables, inside the room's transaction."""
    from ...store import database as store
    return store.insert_round(conn, game, **round_record(result))


class ServiceCore:
    """The rooms of one server: their database, dictionaries, limits and clock, and
    the checks and steps that the actions (players, rounds, board, lists, re-reads)
    share. save_round(conn, game, result) -> round number stores a scored round in
    the games database inside the room's transaction."""

    def __init__(self, db: RoomDB, dictionary: Dictionary | Dictionaries, save_round: Saver = save_to_games,
                 limits: RoomLimits = RoomLimits(), clock: Callable[[], float] = time.time,
                 lang: str = DEFAULT_LANG) -> None:
        self.db, self.save_round = db, save_round
        self.dictionaries = Dictionaries.of(dictionary)
        self.limits, self.clock = limits, clock
        self.lang = get_edition(lang).code  # a new room's edition (serve --lang)
        #: the referee's open questions per (room, version): worked out once per change
        self.asked_cache: dict[tuple[str, int], list[dict[str, Any]] | None] = {}

    def room(self, code: str) -> Room:
        room = self.db.load(normalise_code(code)) if code else None
        if room is None:
            raise RoomNotFound("no room with that code", "check the code, or ask the host for the link",
                               code="room.not_found")
        return room

    def view(self, code: str, token: str | None) -> dict[str, Any]:
        room = self.expire(code) or self.room(code)
        if token is not None and hmac.compare_digest(token, screen_key(room.host_digest)):
            # the table screen: reads only
            return room_view(room, False, None, self.clock(), screen=True, questions=self.open_questions(room))
        host, player = self._who(room, token)
        return room_view(room, host, player, self.clock(), questions=self.open_questions(room))

    def open_questions(self, room: Room) -> list[dict[str, Any]] | None:
        """The questions Score would ask now (RoundActions works them out; None here:
        not known)."""
        return None

    def expire(self, code: str) -> Room | None:
        """Lock the lists if the timer has run out (whoever notices first); the
        changed room, or None when nothing was due."""
        room = self.room(code)
        if not self._due(room):
            return None

        def change(room: Room, conn: Conn) -> bool:
            if not self._due(room):  # another server process locked it first
                raise Unchanged(False)
            self._lock(room, "timer")
            return True
        room, changed = self._update(code, change)
        return room if changed else None

    def _update(self, code: str, change: Callable[[Room, Conn], Any]) -> tuple[Room, Any]:
        try:
            return self.db.update(normalise_code(code), change)
        except LookupError:
            raise RoomNotFound("no room with that code", "check the code, or ask the host for the link",
                               code="room.not_found") from None

    def _due(self, room: Room) -> bool:
        r = room.round
        return r.phase is Phase.playing and r.deadline is not None and self.clock() >= r.deadline

    def _lock(self, room: Room, by: str) -> None:
        r = room.round
        r.move(Phase.locked)
        r.locked_at, r.locked_by = self.clock(), by
        room.last_change = {"what": "lock", "by": by, "at": r.locked_at}

    def _who(self, room: Room, token: str | None) -> tuple[bool, Player | None]:
        if token is None:
            raise NotAuthenticated("this needs the room's link on this phone", "join the room first",
                                   code="auth.no_token")
        if token_matches(token, room.host_digest):
            return True, None
        player = next((p for p in room.players if token_matches(token, p.token_digest)), None)
        if player is None:
            raise NotAuthenticated("this phone's pass for the room is not valid (removed, or another room)",
                                   "join the room again", code="auth.bad_token")
        return False, player

    def _member(self, room: Room, token: str | None) -> str:
        host, player = self._who(room, token)
        return player.name if player is not None else "host"

    def _host(self, room: Room, token: str | None) -> None:
        host, _ = self._who(room, token)
        if not host:
            raise NotAllowed("only the host can do that", "ask the host", code="auth.host_only")

    def _player(self, room: Room, player_id: str) -> Player:
        player = room.player(player_id)
        if player is None:
            raise RoomNotFound("no such player in this room", "they may have been removed", code="player.not_found")
        return player

    def _own(self, room: Room, player_id: str, token: str | None) -> tuple[Player, str]:
        """(the player named in the URL, who acts: their name or "host") for that
        player's own token, or the host's for a player without a phone (hosted: the
        host types their words). Anyone else: NotAllowed (403)."""
        target = self._player(room, player_id)
        host, player = self._who(room, token)
        if host and target.hosted:
            return target, "host"
        if player is None or player.id != target.id:
            raise NotAllowed(f"only {target.name} can change {target.name}'s name and words", code="auth.not_yours",
                             params={"name": target.name})
        return target, target.name

    def _own_or_host(self, room: Room, player_id: str, token: str | None) -> tuple[Player, str]:
        """(the player named in the URL, who acts: their name or "host") for that
        player's own token or the host's (the host photographs a sheet for a player
        without a phone)."""
        target = self._player(room, player_id)
        host, player = self._who(room, token)
        if not host and (player is None or player.id != target.id):
            raise NotAllowed(f"only {target.name} or the host can add {target.name}'s sheet or settle its words",
                             code="auth.not_yours_sheet", params={"name": target.name})
        return target, "host" if host else target.name

    def _name(self, text: object, what: str = "name") -> str:
        return clean_name(text, what, self.limits.max_name)

    def _unique_name(self, room: Room, name: object, own_id: str | None) -> str:
        clean = self._name(name)
        key = name_key(clean)
        if any(name_key(p.name) == key and p.id != own_id for p in room.players):
            raise UsageError(f"{clean!r} is already playing in this room", "choose another name", code="name.taken",
                             params={"name": clean})
        return clean

    def _seconds(self, value: object) -> int | None:
        if value is None:
            return None
        lo, hi = self.limits.seconds
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise UsageError(f"the timer must be {lo} to {hi} seconds, or off (null)", code="settings.timer",
                             params={"min": lo, "max": hi})
        return value

    def _target(self, value: object) -> int | None:
        lo, hi = self.limits.target
        if value is None:
            return None  # no target: the game goes on
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise UsageError(f"the target must be a whole number from {lo} to {hi}", code="settings.target",
                             params={"min": lo, "max": hi})
        return value

    def _images(self, conn: Conn, room: Room, player_id: str, refs: sheets.Images) -> None:
        """That player's word images are now `refs`; the images it no longer names are
        deleted (same transaction)."""
        r = room.round
        gone = set(r.images.get(player_id, {}).values()) - set(refs.values())
        if refs:
            r.images[player_id] = refs
        else:
            r.images.pop(player_id, None)
        if gone:
            self.db.drop_word_images(conn, room.code, sorted(gone))

    @staticmethod
    def _sheet(r: Round, player_id: str) -> sheets.SheetWords:
        """That player's tables of words from sheets (room.sheets.SheetWords); in a round
        stored before entries were kept, a word with a mark or an image is an entry, as
        first read."""
        marks, images = dict(r.doubtful.get(player_id, {})), dict(r.images.get(player_id, {}))
        entries = dict(r.sheet_words.get(player_id, {}))
        for w in [*images, *marks]:
            entries.setdefault(w, sheets.SheetEntry(w))
        return sheets.SheetWords(marks, images, dict(r.read_against.get(player_id, {})), entries)

    def _keep_sheet(self, conn: Conn, room: Room, player_id: str, sheet: sheets.SheetWords) -> None:
        """That player's tables are now `sheet` (an empty table is not kept); the images
        it no longer names are deleted (same transaction)."""
        r = room.round
        _keep_rows(r.doubtful, player_id, sheet.marks)
        _keep_rows(r.read_against, player_id, sheet.against)
        _keep_rows(r.sheet_words, player_id, sheet.entries)
        self._images(conn, room, player_id, dict(sheet.images))


def _keep_rows(table: dict[str, dict[str, V]], player_id: str, rows: Mapping[str, V]) -> None:
    """table[player_id] = rows, or no entry at all when there are none."""
    if rows:
        table[player_id] = dict(rows)
    else:
        table.pop(player_id, None)
