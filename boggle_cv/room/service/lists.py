"""The players' lists: a list saved from a phone, a sheet photo's words added, a
doubtful word settled, the handwriting of a word shown."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...game.board import Board
from ...errors import (LimitReached, NotAllowed, NotDoubtful, NotOnSheet, RoomNotFound, RoundChanged,
                       RoundStateError, StaleList)
from ...store.sql import Conn
from ...game.wordlists import MAX_TOKEN
from .. import sheets
from ..model import Phase, Room, new_image_id
from ..view import current_board, round_settings
from .core import ServiceCore


class ListActions(ServiceCore):
    """Each player's list in the current round: typed, added from a sheet, settled."""

    def put_words(self, code: str, player_id: str, token: str | None, words: Sequence[str], base: int) -> Room:
        """That player's list, saved from revision `base` (what the phone last saw): the
        revision becomes base + 1. StaleList (409, nothing stored, the server's list in
        `current`) when another save came first: the phone merges and saves again."""
        def change(room: Room, conn: Conn) -> None:
            player, who = self._own(room, player_id, token)
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
            self._keep_sheet(conn, room, player.id, self._sheet(r, player.id).pruned(r.lists[player.id]))
            room.last_change = {"what": "words", "by": who, "player_id": player.id,
                                "revision": revision + 1, "at": now}
        return self._update(code, change)[0]

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
        def change(room: Room, conn: Conn) -> tuple[sheets.SheetAdded, int]:
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
                sheet = self._sheet(r, player.id)
                sheet.marks = marks
                sheet.entries.update(sheets.added_entries(done))
                sheet.against.update({w: read_against for w in done.added})
                self._keep_sheet(conn, room, player.id, sheet)
                kept = self._keep_images(conn, room, player.id, done, images)
            room.last_change = {"what": "sheet", "by": who, "player_id": player.id, "revision": revision,
                                "added": len(done.added), "doubtful": len(done.doubtful), "at": now}
            return done, kept
        room, (done, kept) = self._update(code, change)
        return room, done, kept

    def _keep_images(self, conn: Conn, room: Room, player_id: str, done: sheets.SheetAdded,
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

    def settle_word(self, code: str, player_id: str, token: str | None, word: str, choice: str | None,
                    image: str | None = None) -> Room:
        """A question about a word of that player's sheet answered: the doubtful `word`
        confirmed (choice == word), replaced by choice (an alternative, the word as
        written, or a word typed) or dropped (None): room.sheets.correct. NotDoubtful
        (409) when the word is not (or no longer) asked about; `image`: see
        correct_entry."""
        return self._set_entry(code, player_id, token, word, choice, image, asked=True)

    def correct_entry(self, code: str, player_id: str, token: str | None, word: str, choice: str | None,
                      image: str | None = None) -> Room:
        """Any word a sheet added to that player's list (asked about or not) set by a
        person: confirmed (choice == word), typed over (another word: in its place, with
        its handwriting) or dropped (None): room.sheets.correct. It is then the person's:
        never read again. The player or the host, while the round is playing or locked
        (the lock stops new words, not corrections of what a sheet read). `word` is the
        word the phone showed (a compare-and-swap: NotOnSheet, 409, when it is no such
        entry now); `image`, the id of that word's handwriting, finds the entry a re-read
        renamed meanwhile (the person's word wins over the reader's), never one that a
        person set since."""
        return self._set_entry(code, player_id, token, word, choice, image, asked=False)

    def _set_entry(self, code: str, player_id: str, token: str | None, word: str, choice: str | None,
                   image: str | None, asked: bool) -> Room:
        def change(room: Room, conn: Conn) -> None:
            player, who = self._own_or_host(room, player_id, token)
            self._sheet_open(room, None)
            r = room.round
            sheet = self._sheet(r, player.id)
            key = _entry_key(sheet, word, image)
            if key is None or (asked and key not in sheet.marks):
                raise (NotDoubtful(f"{word!r} is not a word to confirm in {player.name}'s list",
                                   "it was confirmed or changed meanwhile", code="word.not_doubtful",
                                   params={"word": word}) if asked else
                       NotOnSheet(f"{word!r} is not a word of {player.name}'s sheet",
                                  "it was typed, or changed meanwhile", code="word.not_on_sheet",
                                  params={"word": word}))
            words, sheet = sheets.correct(r.lists.get(player.id, []), sheet, key, choice, who)
            revision = r.revision(player.id) + 1
            r.lists[player.id], r.revisions[player.id] = words, revision
            self._keep_sheet(conn, room, player.id, sheet)
            room.last_change = {"what": "words", "by": who, "player_id": player.id, "revision": revision,
                                "settled": key, "choice": choice, "at": self.clock()}
        return self._update(code, change)[0]

    def word_image(self, code: str, player_id: str, image_id: str, token: str | None) -> bytes:
        """The image of one word's handwriting (GET .../players/{id}/images/{image_id}):
        for a member of the room, of a player of the room, an image of that player's
        list in the current round; the player's own before the lists lock, every
        member's (the host's too) after, as the words themselves (room.view)."""
        room = self.room(code)
        _host, viewer = self._who(room, token)
        target = self._player(room, player_id)
        r = room.round
        if not ((viewer is not None and viewer.id == target.id) or (_host and target.hosted)
                or r.phase in (Phase.locked, Phase.scored)):
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


def _entry_key(sheet: sheets.SheetWords, word: str, image: str | None) -> str | None:
    """The entry a person acts on: `word` as the phone showed it, else (a re-read
    renamed it meanwhile) the entry holding handwriting `image` while it is still the
    reader's word; None when neither is."""
    key = sheet.key_of(word)
    if key is not None or not image:
        return key
    key = sheet.key_of_image(image)
    return key if key is not None and sheet.entries[key].by is None else None
