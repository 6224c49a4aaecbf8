"""What can be done in a room, by whom, and when: every change is one function here.

Tokens: the host's (returned when the room is made) allows the host actions
(settings, start, lock, reopen, score, next round, remove a player); a player's
(returned on joining) allows changing that player's own name and list. Either
allows reading the room, sending a photo, typing the board and correcting cells.
The functions run in worker threads (SQLite), raise boggle_cv.errors Room* errors
(each with its HTTP status) and return the changed Room; `view` shapes what one
viewer may see (other players' words only once the lists are locked).
"""
from __future__ import annotations

import dataclasses
import enum
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..board import Board, cell_label, normalise_face, parse_cell
from ..dictionary import Dictionary
from ..editions import DEFAULT_LANG, get_edition
from ..errors import (LimitReached, NotAllowed, NotAuthenticated, NotDoubtful, RoomNotFound, RoundChanged,
                      RoundStateError, StaleList, UsageError)
from ..names import clean_name, name_key
from ..referee import (Corrections, GameRef, MarksPolicy, RoundRequest, RoundResult, RulesOptions, referee_round,
                       round_record)
from ..scoring import Rules
from ..wordlists import MAX_NAME, MAX_TOKEN
from .db import RoomDB
from .dictionaries import Dictionaries
from . import sheets
from .model import (BoardState, Correction, Phase, Player, Room, Round, Settings, new_code, new_image_id,
                    new_token, normalise_code, token_hash, token_matches)
from .view import current_board, room_view, round_marks, round_settings


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


class RoomTimer(enum.Enum):
    """start(seconds=ROOM_TIMER): the round's timer is the room's setting."""

    room = "room"


class NotGiven(enum.Enum):
    """set_board(challenge=NOT_GIVEN): the challenge cell is left as it is."""

    not_given = "not given"


@dataclass(frozen=True)
class RereadItem:
    """One doubtful word to read again: whose, the word, its mark and image id as they
    were when the reading started (the compare-and-swap's expected values)."""

    player_id: str
    word: str
    mark: tuple[tuple[str, float], ...]
    image_id: str


@dataclass(frozen=True)
class RereadPlan:
    """The doubtful words of round `number` to read again against `board` (its text
    `board_text`, in edition `lang`), and each word's image (bytes; None: gone)."""

    code: str
    number: int
    board: Board
    board_text: str
    lang: str
    items: tuple[RereadItem, ...]
    images: tuple[bytes | None, ...]


class _NothingToApply(Exception):
    """apply_reread found nothing to change: the transaction writes nothing."""


ROOM_TIMER = RoomTimer.room
NOT_GIVEN = NotGiven.not_given

Saver = Callable[[sqlite3.Connection, str, RoundResult], int]


def save_to_games(conn: sqlite3.Connection, game: str, result: RoundResult) -> int:
    """The default Saver: the round into the games tables, inside the room's transaction."""
    from .. import store
    return store.insert_round(conn, game, **round_record(result))


class RoomService:
    """The rooms of one server. save_round(conn, game, result) -> round number
    stores a scored round in the games database inside the room's transaction."""

    def __init__(self, db: RoomDB, dictionary: Dictionary | Dictionaries, save_round: Saver = save_to_games,
                 limits: RoomLimits = RoomLimits(), clock: Callable[[], float] = time.time,
                 lang: str = DEFAULT_LANG) -> None:
        self.db, self.save_round = db, save_round
        self.dictionaries = Dictionaries.of(dictionary)
        self.limits, self.clock = limits, clock
        self.lang = get_edition(lang).code  # a new room's edition (serve --lang)

    # ---- reading ---------------------------------------------------------------------------------
    def room(self, code: str) -> Room:
        room = self.db.load(normalise_code(code)) if code else None
        if room is None:
            raise RoomNotFound("no room with that code", "check the code, or ask the host for the link",
                               code="room.not_found")
        return room

    def view(self, code: str, token: str | None) -> dict[str, Any]:
        room = self.expire(code) or self.room(code)
        host, player = self._who(room, token)
        return room_view(room, host, player, self.clock())

    # ---- the room and its players ----------------------------------------------------------------
    def create(self, game: str | None = None, seconds: int | None = 180, target: int = 50,
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
        token = new_token()
        now = self.clock()

        def add(room: Room, conn: sqlite3.Connection) -> Player:
            clean = self._unique_name(room, name, None)
            if len(room.players) >= self.limits.max_players:
                raise LimitReached(f"the room is full ({self.limits.max_players} players)", code="room.full",
                                   params={"max": self.limits.max_players})
            player = Player(f"p{len(room.players) + 1}{token_hash(token)[:6]}", clean, token_hash(token), now)
            room.players.append(player)
            room.last_change = {"what": "join", "by": clean, "at": now}
            return player
        room, player = self._update(code, add)
        return room, player, token

    def rename(self, code: str, player_id: str, token: str | None, name: str) -> Room:
        def change(room: Room, conn: sqlite3.Connection) -> None:
            player = self._own(room, player_id, token)
            old, player.name = player.name, self._unique_name(room, name, player.id)
            room.last_change = {"what": "rename", "by": player.name, "old": old, "at": self.clock()}
        return self._update(code, change)[0]

    def remove(self, code: str, token: str | None, player_id: str) -> Room:
        def change(room: Room, conn: sqlite3.Connection) -> None:
            self._host(room, token)
            player = self._player(room, player_id)
            room.players = [p for p in room.players if p.id != player.id]
            room.round.lists.pop(player.id, None)
            room.round.revisions.pop(player.id, None)
            room.round.doubtful.pop(player.id, None)
            room.round.read_against.pop(player.id, None)
            self._images(conn, room, player.id, {})
            room.last_change = {"what": "remove", "by": "host", "player": player.name, "at": self.clock()}
        return self._update(code, change)[0]

    def settings(self, code: str, token: str | None, changes: dict[str, Any]) -> Room:
        """Host: timer seconds (or null), target, rules (variant, min_length, long_words), marks,
        the edition (lang). A round takes them when its clock starts."""
        def change(room: Room, conn: sqlite3.Connection) -> None:
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

    # ---- the round -------------------------------------------------------------------------------
    def start(self, code: str, token: str | None, seconds: int | None | RoomTimer = ROOM_TIMER,
              discard: bool = False, wait: bool = False) -> Room:
        """Host: start the clock of the waiting round, or open the next round (the current
        one must be scored, or dropped with discard=True). wait=True opens the next round
        without a clock (phase waiting: the tray is shaken, the timer may change); a
        start without wait then starts it. seconds: the round's timer (None: none;
        ROOM_TIMER: the room's setting); the room's settings are copied into the round
        when its clock starts. The players stay."""
        if wait and seconds is not ROOM_TIMER:
            raise UsageError("a waiting round has no clock yet", "send seconds when the round starts")

        def change(room: Room, conn: sqlite3.Connection) -> None:
            self._host(room, token)
            r, now = room.round, self.clock()
            if r.phase in (Phase.playing, Phase.locked) and not discard:
                raise RoundStateError(f"round {r.number} is not scored yet",
                                      "score it first, or start again with discard",
                                      code="round.not_scored", params={"round": r.number})
            if wait:
                if r.phase is not Phase.waiting:
                    room.round = Round(r.number + 1)
                    self.db.drop_word_images(conn, room.code, before_round=room.round.number)
                room.last_change = {"what": "wait", "by": "host", "round": room.round.number, "at": now}
                return
            secs = room.settings.seconds if isinstance(seconds, RoomTimer) else self._seconds(seconds)
            if r.phase is not Phase.waiting:
                room.round = r = Round(r.number + 1)
                self.db.drop_word_images(conn, room.code, before_round=r.number)
            r.move(Phase.playing)
            r.seconds, r.started_at, r.deadline = secs, now, now + secs if secs else None
            r.settings = dataclasses.replace(room.settings, seconds=secs)
            room.last_change = {"what": "start", "by": "host", "round": r.number, "at": now}
        return self._update(code, change)[0]

    def lock(self, code: str, token: str | None) -> Room:
        def change(room: Room, conn: sqlite3.Connection) -> None:
            self._host(room, token)
            if room.round.phase is not Phase.playing:
                raise RoundStateError(f"the lists cannot be locked: the round is {room.round.phase.value}",
                                      code="round.cannot_lock", params={"phase": room.round.phase.value})
            self._lock(room, "host")
        return self._update(code, change)[0]

    def reopen(self, code: str, token: str | None) -> Room:
        """Host: unlock the lists of a locked (not yet scored) round; the timer is off."""
        def change(room: Room, conn: sqlite3.Connection) -> None:
            self._host(room, token)
            r = room.round
            if r.phase is not Phase.locked:
                raise RoundStateError(f"only locked lists can be reopened: the round is {r.phase.value}",
                                      code="round.cannot_reopen", params={"phase": r.phase.value})
            r.move(Phase.playing)
            r.deadline, r.locked_at, r.locked_by = None, None, None
            room.last_change = {"what": "reopen", "by": "host", "at": self.clock()}
        return self._update(code, change)[0]

    def expire(self, code: str) -> Room | None:
        """Lock the lists if the timer has run out (whoever notices first); the
        changed room, or None when nothing was due."""
        room = self.room(code)
        if not self._due(room):
            return None

        def change(room: Room, conn: sqlite3.Connection) -> bool:
            if self._due(room):
                self._lock(room, "timer")
                return True
            return False
        room, changed = self._update(code, change)
        return room if changed else None

    def put_words(self, code: str, player_id: str, token: str | None, words: Sequence[str], base: int) -> Room:
        """That player's list, saved from revision `base` (what the phone last saw): the
        revision becomes base + 1. StaleList (409, nothing stored, the server's list in
        `current`) when another save came first: the phone merges and saves again."""
        def change(room: Room, conn: sqlite3.Connection) -> None:
            player = self._own(room, player_id, token)
            r, now = room.round, self.clock()
            # a save in flight when the lists locked still counts (timer: from the deadline; host: from the lock)
            locked_at = r.deadline if r.locked_by == "timer" and r.deadline is not None else r.locked_at
            late_ok = r.phase is Phase.locked and locked_at is not None and now <= locked_at + self.limits.grace_s
            if self._due(room) and now <= (r.deadline or 0) + self.limits.grace_s:
                self._lock(room, "timer")
                late_ok = True
            if r.phase is not Phase.playing and not late_ok:
                locked = r.phase in (Phase.locked, Phase.scored)
                raise RoundStateError("the lists are locked" if locked else "the round has not started",
                                      "wait for the host", code="round.locked" if locked else "round.not_started")
            if len(words) > self.limits.max_words:
                raise LimitReached(f"{player.name}'s list has {len(words)} words; at most {self.limits.max_words}",
                                   code="list.too_long", params={"max": self.limits.max_words})
            revision = r.revision(player.id)
            if base != revision:
                raise StaleList(f"{player.name}'s list was saved elsewhere since (revision {revision}, "
                                f"this save was made from {base})", "merge, then save again from that revision",
                                current={"words": list(r.lists.get(player.id, [])), "revision": revision},
                                params={"revision": revision, "base": base})
            r.lists[player.id] = [str(w)[:MAX_TOKEN] for w in words]
            r.revisions[player.id] = revision + 1
            self._marks(r, player.id, sheets.prune(r.lists[player.id], r.doubtful.get(player.id, {})))
            self._images(conn, room, player.id, sheets.keep_images(r.lists[player.id], r.images.get(player.id, {})))
            room.last_change = {"what": "words", "by": player.name, "player_id": player.id,
                                "revision": revision + 1, "at": now}
        return self._update(code, change)[0]

    # ---- paper lists (issue 22): a sheet photo's words, the doubtful ones settled ---------------
    def sheet_target(self, code: str, player_id: str, token: str | None) -> tuple[int, Board | None, str]:
        """Before a sheet photo is read: (the round's number, its board as corrected or
        None, its edition). The player's own token or the host's; the round must be
        playing or locked (a paper round is photographed once the time is up)."""
        room = self.expire(code) or self.room(code)
        self._own_or_host(room, player_id, token)
        self._sheet_open(room, None)
        return room.round.number, current_board(room.round.board), round_settings(room).lang

    def add_sheet(self, code: str, player_id: str, token: str | None, number: int,
                  read: Sequence[dict[str, Any]], images: Sequence[bytes | None] = (), read_against: str = ""
                  ) -> tuple[Room, sheets.SheetAdded, int]:
        """A sheet's words (SheetWord.to_dict each, writing order) added to that player's
        list in round `number` (room.sheets.add_sheet: nothing replaced, no word twice,
        crossed-out words left out, doubtful ones marked): a save like any other (the
        revision bumps, every phone hears of it). images: the handwriting of each word
        read (its image, or None), kept for each word added, in the same transaction,
        within the caps of room.sheets. RoundChanged (409, nothing stored) when the round
        is no longer `number` or was scored while the sheet was read. read_against: the
        text of the board whose lexicon the sheet was read against ("" the dictionary),
        kept for each doubtful word (a later board reads it again: reread_plan).
        (room, what was done, how many images were kept)."""
        def change(room: Room, conn: sqlite3.Connection) -> tuple[sheets.SheetAdded, int]:
            player, who = self._own_or_host(room, player_id, token)
            self._sheet_open(room, number)
            r, now = room.round, self.clock()
            words, marks, done = sheets.add_sheet(r.lists.get(player.id, []), r.doubtful.get(player.id, {}), read)
            if len(words) > self.limits.max_words:
                raise LimitReached(f"{player.name}'s list would have {len(words)} words; at most "
                                   f"{self.limits.max_words}", code="list.too_long",
                                   params={"max": self.limits.max_words})
            revision = r.revision(player.id)
            kept = 0
            if done.added:
                r.lists[player.id] = words
                r.revisions[player.id] = revision = revision + 1
                self._marks(r, player.id, marks)
                for w in done.doubtful:
                    r.read_against.setdefault(player.id, {})[w] = read_against
                kept = self._keep_images(conn, room, player.id, done, images)
            room.last_change = {"what": "sheet", "by": who, "player_id": player.id, "revision": revision,
                                "added": len(done.added), "doubtful": len(done.doubtful), "at": now}
            return done, kept
        room, (done, kept) = self._update(code, change)
        return room, done, kept

    def _keep_images(self, conn: sqlite3.Connection, room: Room, player_id: str, done: sheets.SheetAdded,
                     images: Sequence[bytes | None]) -> int:
        """Store the image of each word added (done.sources: where it is in `images`)
        while it is an image within MAX_IMAGE_BYTES and the player's images of the round
        stay within MAX_PLAYER_IMAGE_BYTES; how many were stored."""
        r = room.round
        refs = dict(r.images.get(player_id, {}))
        held = self.db.word_image_bytes(conn, room.code, r.number, player_id)
        kept = 0
        for word, at in zip(done.added, done.sources):
            data = images[at] if at < len(images) else None
            if (not data or len(data) > sheets.MAX_IMAGE_BYTES or sheets.media_type(data) is None
                    or held + len(data) > sheets.MAX_PLAYER_IMAGE_BYTES):
                continue
            image_id = new_image_id()
            self.db.put_word_image(conn, image_id, room.code, r.number, player_id, bytes(data))
            refs[word], held, kept = image_id, held + len(data), kept + 1
        self._images(conn, room, player_id, refs)
        return kept

    def settle_word(self, code: str, player_id: str, token: str | None, word: str, choice: str | None) -> Room:
        """A doubtful word of that player's list confirmed (choice == word), replaced by
        choice (an alternative or a word typed) or dropped (None): room.sheets.settle.
        The player or the host, while the round is playing or locked (the lists are
        locked for typing, not for settling what a sheet read). NotDoubtful (409) when
        the word is not marked (settled meanwhile)."""
        def change(room: Room, conn: sqlite3.Connection) -> None:
            player, who = self._own_or_host(room, player_id, token)
            self._sheet_open(room, None)
            r = room.round
            try:
                words, marks = sheets.settle(r.lists.get(player.id, []), r.doubtful.get(player.id, {}), word, choice)
            except KeyError:
                raise NotDoubtful(f"{word!r} is not a word to confirm in {player.name}'s list",
                                  "it was confirmed or changed meanwhile", code="word.not_doubtful",
                                  params={"word": word}) from None
            revision = r.revision(player.id) + 1
            r.lists[player.id], r.revisions[player.id] = words, revision
            self._marks(r, player.id, marks)
            self._images(conn, room, player.id, sheets.settled_images(r.images.get(player.id, {}), words, word, choice))
            room.last_change = {"what": "words", "by": who, "player_id": player.id, "revision": revision,
                                "settled": word, "choice": choice, "at": self.clock()}
        return self._update(code, change)[0]

    @staticmethod
    def _marks(r: Round, player_id: str, marks: sheets.Marks) -> None:
        """That player's doubtful words are now `marks` (and what each was read against
        is kept for those only)."""
        if marks:
            r.doubtful[player_id] = marks
        else:
            r.doubtful.pop(player_id, None)
        against = {w: b for w, b in r.read_against.get(player_id, {}).items() if w in marks}
        if against:
            r.read_against[player_id] = against
        else:
            r.read_against.pop(player_id, None)

    # ---- doubtful words read again when the board becomes known or changes --------------------
    def reread_plan(self, code: str) -> RereadPlan | None:
        """What to read again now: every doubtful word of the current round (playing or
        locked) with an image, read against another lexicon than the board's now (the
        dictionary, another board, or not recorded), with its mark and image as they
        are; None when there is nothing (no board, no such word, a round scored)."""
        room = self.room(code)
        r = room.round
        board = current_board(r.board)
        if board is None or r.phase not in (Phase.playing, Phase.locked):
            return None
        text = board.to_text()
        items = []
        for p in room.players:
            refs, against = r.images.get(p.id, {}), r.read_against.get(p.id, {})
            for w, mark in r.doubtful.get(p.id, {}).items():
                if refs.get(w) and against.get(w) != text:
                    items.append(RereadItem(p.id, w, tuple(mark), refs[w]))
        if not items:
            return None
        data = self.db.word_images(room.code, [i.image_id for i in items])
        return RereadPlan(room.code, r.number, board, text, round_settings(room).lang, tuple(items),
                          tuple(data.get(i.image_id) for i in items))

    def apply_reread(self, code: str, plan: RereadPlan,
                     readings: Sequence[Sequence[tuple[str, float]] | None]) -> Room | None:
        """The new readings of `plan`'s words (each its alternatives best first, or None:
        not read) applied in one transaction (room.sheets.reread): only while the round
        is the plan's, not scored, and its board still the plan's; only to a word still
        marked as it was (a word settled, typed away or changed meanwhile is left). A
        word replaced changes its list: that list's revision bumps, as a save. The room
        changed (last_change "reread"), or None when nothing was applied."""
        def change(room: Room, conn: sqlite3.Connection) -> None:
            r = room.round
            board = current_board(r.board)
            if (r.number != plan.number or r.phase not in (Phase.playing, Phase.locked) or board is None
                    or board.to_text() != plan.board_text):
                raise _NothingToApply
            players: list[str] = []
            moved: set[str] = set()  # players whose list changed: one save each
            replaced = updated = 0
            for item, alts in zip(plan.items, readings):
                if alts is None or room.player(item.player_id) is None:
                    continue
                pid = item.player_id
                words = r.lists.get(pid, [])
                done = sheets.reread(words, r.doubtful.get(pid, {}), r.images.get(pid, {}), item.word, item.mark,
                                     item.image_id, alts)
                if done is None:
                    continue
                new_words, marks, refs, now = done
                updated += 1
                if new_words != words:
                    r.lists[pid] = new_words
                    moved.add(pid)
                    replaced += 1
                self._marks(r, pid, marks)
                self._images(conn, room, pid, refs)
                r.read_against.setdefault(pid, {})[now] = plan.board_text
                if pid not in players:
                    players.append(pid)
            if not updated:
                raise _NothingToApply
            for pid in moved:
                r.revisions[pid] = r.revision(pid) + 1
            room.last_change = {"what": "reread", "by": "server", "player_ids": players, "words": updated,
                                "replaced": replaced, "at": self.clock()}
        try:
            return self._update(code, change)[0]
        except _NothingToApply:
            return None

    def _images(self, conn: sqlite3.Connection, room: Room, player_id: str, refs: sheets.Images) -> None:
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

    def word_image(self, code: str, player_id: str, image_id: str, token: str | None) -> bytes:
        """The image of one word's handwriting (GET .../players/{id}/images/{image_id}):
        for a member of the room, of a player of the room, an image of that player's
        list in the current round; the player's own before the lists lock, every
        member's (the host's too) after, as the words themselves (room.view)."""
        room = self.room(code)
        _host, viewer = self._who(room, token)
        target = self._player(room, player_id)
        r = room.round
        if not ((viewer is not None and viewer.id == target.id) or r.phase in (Phase.locked, Phase.scored)):
            raise NotAllowed(f"{target.name}'s words are shown once the lists are locked", code="image.hidden",
                             params={"name": target.name})
        if image_id not in r.images.get(target.id, {}).values():
            raise RoomNotFound("no such handwriting in this round", "it was removed with its word",
                               code="image.not_found")
        data = self.db.word_image(room.code, image_id, target.id)
        if data is None:
            raise RoomNotFound("no such handwriting in this round", "it was removed with its word",
                               code="image.not_found")
        return data

    def _sheet_open(self, room: Room, number: int | None) -> None:
        r = room.round
        if number is not None and (r.number != number or r.phase is Phase.scored):
            moved = r.number != number
            raise RoundChanged(f"the sheet was read for round {number}, and round {r.number} is "
                               f"{'scored' if r.phase is Phase.scored else 'on'} now: nothing was added",
                               "photograph the sheet of this round",
                               code="sheet.round_moved" if moved else "sheet.round_scored",
                               params={"sent": number, "round": r.number} if moved else {"sent": number})
        if r.phase is Phase.waiting:
            raise RoundStateError("the round has not started", "wait for the host", code="round.not_started")
        if r.phase is Phase.scored:
            raise RoundStateError("this round is scored; its lists can no longer change", "start the next round",
                                  code="round.scored_lists")

    # ---- the board -------------------------------------------------------------------------------
    def set_photo(self, code: str, token: str | None, scan_doc: dict[str, Any], preview: bytes) -> Room:
        def change(room: Room, conn: sqlite3.Connection) -> None:
            who = self._member(room, token)
            self._board_open(room)
            b = room.round.board
            room.round.board = BoardState(scan_doc, None, who, {}, b.photo_version + 1)
            self.db.put_photo(conn, room.code, room.round.number, b.photo_version + 1, preview)
            room.last_change = {"what": "photo", "by": who, "at": self.clock()}
        return self._update(code, change)[0]

    def set_board(self, code: str, token: str | None, text: str | None = None,
                  fixes: dict[str, str] | None = None, bonus: Sequence[str] | None = None,
                  challenge: str | None | NotGiven = NOT_GIVEN) -> Room:
        """A typed board (replaces the reading) and/or fixes {"r2c3": "W"}; a fix to the
        face already read confirms the cell (it is no longer doubtful). bonus: the red
        bonus cells ("r2c3"), challenge: the challenge cube's cell (None: there is none),
        as the table chose them: each replaces what the photo showed, for this round's
        board (NOT_GIVEN / None bonus: unchanged)."""
        parsed = Board.parse(text) if text is not None else None
        cells: dict[str, str] = {}
        for where, face in (fixes or {}).items():
            try:
                r, c = parse_cell(where)
                cells[f"{r},{c}"] = normalise_face(str(face))
            except ValueError as e:
                raise UsageError(f"fix {where!r}: {e}", "e.g. {\"fix\": {\"r2c3\": \"W\"}}") from None
        bonus_cells = sorted({_label_cell(c, "a bonus cell") for c in bonus}) if bonus is not None else None
        challenge_cell = (_label_cell(challenge, "the challenge cell")
                          if isinstance(challenge, str) else None)

        def change(room: Room, conn: sqlite3.Connection) -> None:
            who = self._member(room, token)
            self._board_open(room)
            b = room.round.board
            if parsed is not None:
                b.text, b.set_by, b.corrections = parsed.to_text(), who, {}
                _drop_marks_outside(b, parsed.size)
            board = current_board(b)
            marking = bonus_cells is not None or not isinstance(challenge, NotGiven)
            if board is None and (cells or marking):
                raise RoundStateError("there is no board to correct yet", "take a photo or type the board",
                                      code="board.none_to_correct")
            now = self.clock()
            for key, face in cells.items():
                r, c = (int(v) for v in key.split(","))
                if board is not None and not (0 <= r < board.size and 0 <= c < board.size):
                    raise UsageError(f"{cell_label((r, c))} is outside the {board.size}x{board.size} board",
                                     code="board.cell_outside", params={"cell": cell_label((r, c)), "size": board.size})
                b.corrections[key] = Correction(face, who, now)
            for cell in (bonus_cells or []) + ([challenge_cell] if challenge_cell is not None else []):
                if board is not None and not (0 <= cell[0] < board.size and 0 <= cell[1] < board.size):
                    raise UsageError(f"{cell_label(cell)} is outside the {board.size}x{board.size} board",
                                     code="board.cell_outside", params={"cell": cell_label(cell), "size": board.size})
            if bonus_cells is not None:
                b.bonus = [cell_label(c) for c in bonus_cells]
            if not isinstance(challenge, NotGiven):
                b.challenge = cell_label(challenge_cell) if challenge_cell is not None else None
                b.challenge_chosen = True
            what = "board" if parsed is not None else "fix" if cells else "marks"
            room.last_change = {"what": what, "by": who, "at": now,
                                "cells": [cell_label(_cell_of(k)) for k in cells]}
        return self._update(code, change)[0]

    # ---- the report ------------------------------------------------------------------------------
    def score(self, code: str, token: str | None) -> tuple[Room, dict[str, Any]]:
        """Host: referee the round from every list and store it in the game, exactly
        once; scoring again returns the stored report. The rules are the round's
        settings (copied when its clock started), not the room's current ones."""
        def change(room: Room, conn: sqlite3.Connection) -> dict[str, Any]:
            self._host(room, token)
            r = room.round
            if r.phase is Phase.scored and r.report is not None:
                return r.report
            if self._due(room):
                self._lock(room, "timer")
            if r.phase is not Phase.locked:
                raise RoundStateError(f"the round is {r.phase.value}", "lock the lists first",
                                      code="round.score_not_locked", params={"phase": r.phase.value})
            result = self._referee(room)
            number = self.save_round(conn, room.game, result)
            r.report = {**result.stored_as(GameRef(room.game, number)).to_dict(), "round": r.number}
            r.move(Phase.scored)
            r.game_round = number
            room.last_change = {"what": "score", "by": "host", "at": self.clock()}
            return r.report
        return self._update(code, change)

    def _referee(self, room: Room) -> RoundResult:
        b = room.round.board
        board = current_board(b)
        if board is None:
            raise RoundStateError("there is no board yet", "take a photo of the tray or type the board",
                                  code="board.missing")
        players = {p.name: room.round.lists.get(p.id, []) for p in room.players}
        fixes = {_cell_of(k): c.face for k, c in b.corrections.items()}
        s = round_settings(room)
        m = round_marks(room)
        challenge = m.challenge if s.variant != "standard" else None
        if s.variant == "challenge" and challenge is None:
            raise RoundStateError("this round is scored with the challenge cube, and its cell is not known",
                                  "tap the red cube's cell", code="board.challenge_missing")
        # the table's choices go in as options; what the photo showed counts where they chose nothing
        options = RulesOptions(s.variant, s.min_length, s.long_words,
                               frozenset(m.bonus) if m.bonus_from == "page" else frozenset(),
                               challenge if m.challenge_from == "page" else None, s.lang)
        if b.scan is None or b.text is not None:
            request = RoundRequest(corrections=Corrections(board, {}), options=options, players=players)
        else:
            from ..vision.pipeline import ScanResult
            scan = ScanResult.from_dict(b.scan)
            if b.bonus is not None:
                scan = dataclasses.replace(scan, bonus_cells=[])
            if b.challenge_chosen:
                scan = dataclasses.replace(scan, challenge_cell=None)
            request = RoundRequest(scan, Corrections(cells=fixes), MarksPolicy(s.marks), options, players)
        return referee_round(request, self.dictionaries.get(s.lang))

    # ---- helpers ---------------------------------------------------------------------------------
    def _update(self, code: str, change: Callable[[Room, sqlite3.Connection], Any]) -> tuple[Room, Any]:
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

    def _own(self, room: Room, player_id: str, token: str | None) -> Player:
        target = self._player(room, player_id)
        host, player = self._who(room, token)
        if player is None or player.id != target.id:
            raise NotAllowed(f"only {target.name} can change {target.name}'s name and words", code="auth.not_yours",
                             params={"name": target.name})
        return target

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

    def _board_open(self, room: Room) -> None:
        if room.round.phase is Phase.scored:
            raise RoundStateError("this round is scored; its board can no longer change", "start the next round",
                                  code="round.scored_board")

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

    def _target(self, value: object) -> int:
        lo, hi = self.limits.target
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise UsageError(f"the target must be a whole number from {lo} to {hi}", code="settings.target",
                             params={"min": lo, "max": hi})
        return value


def _label_cell(label: str, what: str) -> tuple[int, int]:
    """"r2c3" -> (1, 2); UsageError naming `what` otherwise."""
    try:
        return parse_cell(label)
    except ValueError as e:
        raise UsageError(f"{what}: {e}", "cells are written r<row>c<col> from 1, e.g. r2c3") from None


def _drop_marks_outside(b: BoardState, size: int) -> None:
    """Chosen marks that a new, smaller board no longer has are forgotten."""
    def inside(label: str) -> bool:
        r, c = parse_cell(label)
        return r < size and c < size
    if b.bonus is not None and not all(inside(c) for c in b.bonus):
        b.bonus = None
    if b.challenge is not None and not inside(b.challenge):
        b.challenge, b.challenge_chosen = None, False


def _cell_of(key: str) -> tuple[int, int]:
    """A correction's key "r,c" -> (r, c)."""
    r, c = key.split(",")
    return int(r), int(c)
