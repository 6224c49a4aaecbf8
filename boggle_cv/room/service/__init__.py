"""What can be done in a room, by whom, and when: every change is one method of
`RoomService`, which gathers the actions by their job:

  core     who may act (host and player tokens), the limits, one transaction a change
  players  making a room, joining, renaming, removing a player, the host's settings
  rounds   the clock started, the lists locked and reopened, the round scored
  board    the tray's photo, a typed board, fixed cells, the red marks
  lists    a list saved, a sheet's words added, a doubtful word settled, handwriting shown
  rereads  doubtful sheet words read again when the board becomes known or changes
  games    the game's totals, its end at the target, a new game with the same players

The methods run in worker threads (SQLite), raise boggle_cv.errors Room* errors
(each with its HTTP status) and return the changed Room; `room.view` shapes what one
viewer may see (other players' words only once the lists are locked).
"""
from __future__ import annotations

from .board import NOT_GIVEN, BoardActions, NotGiven
from .core import RoomLimits, Saver, save_to_games
from .games import GameActions
from .lists import ListActions
from .players import PlayerActions
from .rereads import RereadActions, RereadItem, RereadPlan
from .rounds import ROOM_TIMER, RoomTimer, RoundActions

__all__ = ["NOT_GIVEN", "ROOM_TIMER", "NotGiven", "RereadItem", "RereadPlan", "RoomLimits", "RoomService",
           "RoomTimer", "Saver", "save_to_games"]


class RoomService(PlayerActions, RoundActions, BoardActions, ListActions, RereadActions, GameActions):
    """The rooms of one server. save_round(conn, game, result) -> round number
    stores a scored round in the games database inside the room's transaction."""
