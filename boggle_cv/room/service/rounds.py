"""The round: its clock started, the lists locked and reopened, the round scored
(refereed and stored in the game, exactly once)."""
from __future__ import annotations

import dataclasses
import enum
from typing import Any

from ...errors import QuestionsOpen, RoundStateError, UsageError
from ...game.questions import WordDoubt, shown
from ...game.sheet_doubts import marked_doubts
from ...game.referee import (Corrections, GameRef, MarksPolicy, RoundRequest, RoundResult, RulesOptions, referee_round)
from ...store.sql import Conn
from ..model import Phase, Room, Round
from ..view import current_board, doubtful, round_marks, round_settings
from .board import cell_of
from .core import ServiceCore
from .games import add_round


class RoomTimer(enum.Enum):
    """start(seconds=ROOM_TIMER): the round's timer is the room's setting."""

    room = "room"


ROOM_TIMER = RoomTimer.room
#: Rooms' open questions kept (one entry per room and version; the oldest goes first).
ASKED_KEPT = 256


class RoundActions(ServiceCore):
    """The host's moves of the round (waiting -> playing -> locked -> scored)."""

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

        def change(room: Room, conn: Conn) -> None:
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
        def change(room: Room, conn: Conn) -> None:
            self._host(room, token)
            if room.round.phase is not Phase.playing:
                raise RoundStateError(f"the lists cannot be locked: the round is {room.round.phase.value}",
                                      code="round.cannot_lock", params={"phase": room.round.phase.value})
            self._lock(room, "host")
        return self._update(code, change)[0]

    def reopen(self, code: str, token: str | None) -> Room:
        """Host: unlock the lists of a locked (not yet scored) round; the timer is off."""
        def change(room: Room, conn: Conn) -> None:
            self._host(room, token)
            r = room.round
            if r.phase is not Phase.locked:
                raise RoundStateError(f"only locked lists can be reopened: the round is {r.phase.value}",
                                      code="round.cannot_reopen", params={"phase": r.phase.value})
            r.move(Phase.playing)
            r.deadline, r.locked_at, r.locked_by = None, None, None
            room.last_change = {"what": "reopen", "by": "host", "at": self.clock()}
        return self._update(code, change)[0]

    def score(self, code: str, token: str | None) -> tuple[Room, dict[str, Any]]:
        """Host: referee the round from every list and store it in the game, exactly
        once; scoring again returns the stored report. The rules are the round's
        settings (copied when its clock started), not the room's current ones."""
        def change(room: Room, conn: Conn) -> dict[str, Any]:
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
            if result.asked:
                raise _questions_open(room, result)
            number = self.save_round(conn, room.game, result)
            r.report = {**result.stored_as(GameRef(room.game, number)).to_dict(), "round": r.number}
            r.move(Phase.scored)
            r.game_round = number
            add_round(room, r.report)
            room.last_change = {"what": "score", "by": "host", "at": self.clock()}
            return r.report
        return self._update(code, change)

    def open_questions(self, room: Room) -> list[dict[str, Any]] | None:
        """The doubts whose answer changes a score, as Score would ask them now (each a
        questions.Question.to_dict, first to settle first): [] when none, None before
        the lists are locked or while the round cannot be refereed (no board, no
        challenge cell). Worked out once per version of the room, and only when the
        round has a doubt (a flagged cell of the photo, a sheet word marked)."""
        r = room.round
        if r.phase is not Phase.locked or current_board(r.board) is None:
            return None
        if not doubtful(r.board) and not any(r.doubtful.values()):
            return []
        key = (room.code, room.version)
        if key not in self.asked_cache:
            try:
                asked: list[dict[str, Any]] | None = [q.to_dict() for q in self._referee(room).asked]
            except (RoundStateError, UsageError):
                asked = None
            while len(self.asked_cache) >= ASKED_KEPT:
                self.asked_cache.pop(next(iter(self.asked_cache)))
            self.asked_cache[key] = asked
        return self.asked_cache[key]

    def _referee(self, room: Room) -> RoundResult:
        b = room.round.board
        board = current_board(b)
        if board is None:
            raise RoundStateError("there is no board yet", "take a photo of the tray or type the board",
                                  code="board.missing")
        players = {p.name: room.round.lists.get(p.id, []) for p in room.players}
        doubts = tuple(marked_doubts(players, {p.name: room.round.doubtful.get(p.id, {}) for p in room.players}))
        fixes = {cell_of(k): c.face for k, c in b.corrections.items()}
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
            request = RoundRequest(corrections=Corrections(board, {}), options=options, players=players, doubts=doubts)
        else:
            from ...vision.pipeline import ScanResult
            scan = ScanResult.from_dict(b.scan)
            if b.bonus is not None:
                scan = dataclasses.replace(scan, bonus_cells=[])
            if b.challenge_chosen:
                scan = dataclasses.replace(scan, challenge_cell=None)
            request = RoundRequest(scan, Corrections(cells=fixes), MarksPolicy(s.marks), options, players,
                                   doubts=doubts)
        return referee_round(request, self.dictionaries.get(s.lang))


def _questions_open(room: Room, result: RoundResult) -> QuestionsOpen:
    """The refusal of Score while a doubt that changes a score is open: the first
    question in words ("r2c3 L (or I)", "Ann: pest (or past)"), all of them in the body."""
    first = result.asked[0].doubt
    text = f"{first.player}: {shown(first)}" if isinstance(first, WordDoubt) else shown(first)
    n = len(result.asked)
    return QuestionsOpen(f"{n} doubt(s) change a score, the first: {text}",
                         "confirm or fix it (a doubtful cell or word), then score",
                         [q.to_dict() for q in result.asked], params={"question": text})
