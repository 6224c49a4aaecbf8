"""Doubtful sheet words read again when the round's board becomes known or changes:
the plan (what to read, from which images) and its result applied as a compare-and-swap."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...game.board import Board
from ...store.sql import Conn
from .. import sheets
from ..model import Phase, Room
from ..view import current_board, round_settings
from .core import ServiceCore


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


class RereadActions(ServiceCore):
    """The server's own change of a room: doubtful words read again (web.reread)."""

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
        def change(room: Room, conn: Conn) -> None:
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
