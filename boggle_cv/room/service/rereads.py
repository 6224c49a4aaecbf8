"""Sheet words read again when the round's board becomes known or changes: the plan
(what to read, from which images) and its result applied as a compare-and-swap.

Every word a sheet added that is still the reader's (nobody confirmed or typed it),
sure or doubtful, read against another lexicon than the board's now, is read again;
a word a person confirmed or typed is never read again (room.sheets.reread)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...game.board import Board
from ...store.sql import Conn
from .. import sheets
from ..model import Phase, Room
from ..view import current_board, round_settings
from .core import ServiceCore


@dataclass(frozen=True)
class RereadItem:
    """One word to read again: whose, and the entry as it was when the reading started
    (the compare-and-swap's expected values: word, mark, image id, what it was read
    against; against None: a round stored before every entry's was kept)."""

    player_id: str
    word: str
    mark: tuple[tuple[str, float], ...]
    image_id: str
    against: str | None = None

    def expect(self) -> sheets.RereadExpect:
        return sheets.RereadExpect(self.word, self.mark, self.image_id, self.against)


@dataclass(frozen=True)
class RereadPlan:
    """The words of round `number` to read again against `board` (its text
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


Reading = Mapping[str, Any] | Sequence[tuple[str, float]] | None


class RereadActions(ServiceCore):
    """The server's own change of a room: sheet words read again (web.reread)."""

    def reread_plan(self, code: str) -> RereadPlan | None:
        """What to read again now: every word of the current round (playing or locked)
        that a sheet added, still the reader's, with an image, read against another
        lexicon than the board's now (the dictionary, another board; a doubtful word of
        a round stored before, not recorded), as it is; None when there is nothing (no
        board, no such word, a round scored)."""
        room = self.room(code)
        r = room.round
        board = current_board(r.board)
        if board is None or r.phase not in (Phase.playing, Phase.locked):
            return None
        text = board.to_text()
        items = []
        for p in room.players:
            sheet = self._sheet(r, p.id)
            for w in sheet.entries:
                reader_owned = sheet.entries[w].by is None and (w in sheet.against or w in sheet.marks)
                if reader_owned and sheet.images.get(w) and sheet.against.get(w) != text:
                    items.append(RereadItem(p.id, w, tuple(sheet.marks.get(w, ())), sheet.images[w],
                                            sheet.against.get(w)))
        if not items:
            return None
        data = self.db.word_images(room.code, [i.image_id for i in items])
        return RereadPlan(room.code, r.number, board, text, round_settings(room).lang, tuple(items),
                          tuple(data.get(i.image_id) for i in items))

    def apply_reread(self, code: str, plan: RereadPlan, readings: Sequence[Reading]) -> Room | None:
        """The new readings of `plan`'s words (each {"alternatives", "flagged", "free"},
        or its alternatives alone, best first; None: not read) applied in one
        transaction (room.sheets.reread): only while the round is the plan's, not
        scored, and its board still the plan's; only to a word still as it was (a word
        confirmed, typed over, typed away or changed meanwhile is left). A word
        replaced changes its list: that list's revision bumps, as a save. The room
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
            for item, doc in zip(plan.items, readings):
                reading = sheets.WordReread.of(doc)
                if reading is None or room.player(item.player_id) is None:
                    continue
                pid = item.player_id
                words = r.lists.get(pid, [])
                done = sheets.reread(words, self._sheet(r, pid), item.expect(), reading, plan.board_text)
                if done is None:
                    continue
                new_words, sheet, _now = done
                updated += 1
                if new_words != words:
                    r.lists[pid] = new_words
                    moved.add(pid)
                    replaced += 1
                self._keep_sheet(conn, room, pid, sheet)
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
