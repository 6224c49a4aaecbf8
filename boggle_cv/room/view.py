"""What one viewer of a room sees (the JSON of `GET /api/rooms/{code}`).

Never in a view: tokens or their hashes. Other players' words appear only once the
round's lists are locked (before that, only how many words each has); the report
only once the round is scored. Board cells are (row, col) from 0 in the reported
board's orientation; `server_time` lets every phone run the timer in step.
"""
from __future__ import annotations

from typing import Any

from ..board import Board, cell_label
from ..errors import BoardTextError
from ..referee import apply_fixes
from .model import BoardState, Player, Room


def current_board(b: BoardState) -> Board | None:
    """The round's board as the players see it now: the typed board or the photo's
    reading, with every correction applied; None before either exists."""
    if b.text is not None:
        base = Board.parse(b.text)
    elif b.scan is not None:
        base = Board.from_rows(b.scan["board"]["faces"])
    else:
        return None
    fixes = {(int(k.split(",")[0]), int(k.split(",")[1])): c.face for k, c in b.corrections.items()}
    try:
        return apply_fixes(base, {rc: f for rc, f in fixes.items() if rc[0] < base.size and rc[1] < base.size})
    except BoardTextError:
        return base


def doubtful(b: BoardState) -> list[list[int]]:
    """Cells the reader flagged that no player has corrected or confirmed."""
    if b.scan is None or b.text is not None:
        return []
    return [[c["row"], c["col"]] for c in b.scan["board"]["cells"]
            if c["flagged"] and f"{c['row']},{c['col']}" not in b.corrections]


def board_view(room: Room) -> dict[str, Any]:
    b = room.round.board
    board = current_board(b)
    out: dict[str, Any] = {
        "source": "text" if b.text is not None else "photo" if b.scan is not None else None,
        "set_by": b.set_by, "size": board.size if board else None,
        "faces": board.to_rows() if board else None, "text": board.to_text() if board else None,
        "doubtful": doubtful(b),
        "corrections": {cell_label((int(k.split(",")[0]), int(k.split(",")[1]))): c.to_dict()
                        for k, c in b.corrections.items()},
        "photo_version": b.photo_version,
        "photo_url": (f"/api/rooms/{room.code}/rounds/current/photo?round={room.round.number}&v={b.photo_version}"
                      if b.scan is not None and b.text is None else None),
    }
    if b.scan is not None and b.text is None:
        s = b.scan
        out["read"] = {"faces": s["board"]["faces"], "cells": s["board"]["cells"],
                       "rotation": s["board"]["rotation"], "image": s.get("image"),
                       "geometry": s.get("geometry"), "sets": s.get("sets"), "marks": s.get("marks")}
    return out


def room_view(room: Room, host: bool, player: Player | None, now: float) -> dict[str, Any]:
    """The room as `host` / `player` sees it (see the module docstring)."""
    r = room.round
    open_lists = r.phase in ("locked", "scored")
    players = []
    for p in room.players:
        words = r.lists.get(p.id, [])
        mine = player is not None and p.id == player.id
        players.append({"id": p.id, "name": p.name, "word_count": len(words),
                        "words": words if (mine or open_lists) else None})
    return {
        "code": room.code, "game": room.game, "version": room.version, "server_time": now,
        "you": {"host": host, "player_id": player.id if player else None, "name": player.name if player else None},
        "settings": room.settings.to_dict(),
        "players": players,
        "round": {"number": r.number, "phase": r.phase, "seconds": r.seconds, "started_at": r.started_at,
                  "deadline": r.deadline, "locked_at": r.locked_at, "locked_by": r.locked_by,
                  "board": board_view(room), "report": r.report if r.phase == "scored" else None},
        "last_change": room.last_change,
    }
