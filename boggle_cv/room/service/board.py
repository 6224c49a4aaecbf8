"""The round's board: the tray's photo read, a board typed, cells fixed, the red
marks chosen by the table."""
from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any

from ...game.board import Board, cell_label, normalise_face, parse_cell
from ...errors import RoundStateError, UsageError
from ...store.sql import Conn
from ..model import BoardState, Correction, Phase, Room
from ..view import current_board
from .core import ServiceCore


class NotGiven(enum.Enum):
    """set_board(challenge=NOT_GIVEN): the challenge cell is left as it is."""

    not_given = "not given"


NOT_GIVEN = NotGiven.not_given


class BoardActions(ServiceCore):
    """What a member of the room may do to the board until the round is scored."""

    def set_photo(self, code: str, token: str | None, scan_doc: dict[str, Any], preview: bytes) -> Room:
        def change(room: Room, conn: Conn) -> None:
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
        face already read confirms a doubtful cell (it is no longer doubtful), and
        puts any other cell back as it was first read (no longer corrected). bonus: the red
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

        def change(room: Room, conn: Conn) -> None:
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
                if _first_reading(b, r, c) == face and not _flagged(b, r, c):
                    b.corrections.pop(key, None)  # back to its first reading: no longer corrected
                else:
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
                                "cells": [cell_label(cell_of(k)) for k in cells]}
        return self._update(code, change)[0]

    def _board_open(self, room: Room) -> None:
        if room.round.phase is Phase.scored:
            raise RoundStateError("this round is scored; its board can no longer change", "start the next round",
                                  code="round.scored_board")


def _first_reading(b: BoardState, r: int, c: int) -> str | None:
    """The face (r, c) had before any correction: typed, else read in the photo."""
    if b.text is not None:
        rows = Board.parse(b.text).to_rows()
    elif b.scan is not None:
        rows = b.scan["board"]["faces"]
    else:
        return None
    return str(rows[r][c]) if r < len(rows) and c < len(rows[r]) else None


def _flagged(b: BoardState, r: int, c: int) -> bool:
    """Whether the photo's reader flagged (r, c) as doubtful (a typed board has no doubts)."""
    if b.text is not None or b.scan is None:
        return False
    return any(x["flagged"] and x["row"] == r and x["col"] == c for x in b.scan["board"]["cells"])


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


def cell_of(key: str) -> tuple[int, int]:
    """A correction's key "r,c" -> (r, c)."""
    r, c = key.split(",")
    return int(r), int(c)
