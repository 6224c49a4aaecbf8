"""One practice round scored, recorded and summed up.

A practice round is refereed like any other (referee.referee_round) with one player,
the edition's shipped dictionary and the standard rules of the size and edition:
no variant, no bonus cells, marks in a photo ignored, so that every round of a
record is scored alike. After it the player sees this round, the best, the average of
the last ten, the share of the board's points found and the best words missed
(`Summary`).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..game.board import Board
from ..game.dictionary import Dictionary
from ..errors import StorageError
from ..game.questions import WordDoubt
from ..game.referee import Corrections, MarksPolicy, RoundRequest, RoundResult, RulesOptions, referee_round
from ..game.scoring import ScoredWord, spelled
from ..store.sql import DbLocation
from . import record
from .record import PracticeRound, Record

if TYPE_CHECKING:
    from ..vision.pipeline import ScanResult

SCHEMA_VERSION = 1
#: How many of the best missed words a summary lists.
MISSED_SHOWN = 5
#: Most words of one practice round (a round's list is a few dozen): typed on the
#: terminal or sent by the page; past it the rest is dropped.
MAX_WORDS = 2000


def merge_words(*lists: Sequence[str], lang: str = "en") -> list[str]:
    """The words of several lists (typed, a file, a sheet) in order, each word once
    (as the edition spells it: "Cat" and "cat" are one word)."""
    seen: set[str] = set()
    out: list[str] = []
    for words in lists:
        for w in words:
            key = spelled(w, lang)
            if key not in seen:
                seen.add(key)
                out.append(w)
    return out


def score_practice(player: str, words: Sequence[str], dictionary: Dictionary, lang: str,
                   board: Board | None = None, scan: ScanResult | None = None,
                   fixes: Mapping[tuple[int, int], str] | None = None, photo: str | None = None) -> RoundResult:
    """Referee one practice round: `board` (a virtual shake, or a tray's board typed
    or corrected in full) or `scan` (a tray's photo, with cell `fixes`)."""
    return referee_round(practice_request(player, words, lang, board, scan, fixes, photo), dictionary)


def practice_request(player: str, words: Sequence[str], lang: str, board: Board | None = None,
                     scan: ScanResult | None = None, fixes: Mapping[tuple[int, int], str] | None = None,
                     photo: str | None = None, doubts: Sequence[WordDoubt] = ()) -> RoundRequest:
    """The referee's request of a practice round (score_practice); doubts: those of the
    words read from a sheet (questions.append_sheet)."""
    corrections = Corrections(board, dict(fixes or {}))
    return RoundRequest(scan, corrections, MarksPolicy.ignore, RulesOptions(lang=lang), {player: list(words)},
                        photo, doubts=tuple(doubts))


def practice_round(result: RoundResult, seconds: int, source: str, dice: str | None = None,
                   deal: str | None = None) -> PracticeRound:
    """What the record keeps of a refereed practice round."""
    sheet = result.sheet
    player = sheet.players[0]
    return PracticeRound(player.name, result.board.size, sheet.rules.lang, seconds, source, result.board.to_text(),
                         player.score, sheet.max_points, sum(1 for w in player.words if w.status == "scored"),
                         len(sheet.words), result.to_dict(), dice, deal)


@dataclass(frozen=True)
class Summary:
    """What the player sees after a round: the round as stored (or not: `stored`
    False and `error` the reason), the record with it, the best words missed."""

    played: PracticeRound
    record: Record | None
    missed: tuple[ScoredWord, ...]
    result: RoundResult
    new: bool = True
    stored: bool = True
    error: StorageError | None = None
    extra: Mapping[str, Any] | None = None

    @property
    def best_before(self) -> int | None:
        """The best score before this round (None on the first round of the record)."""
        if self.record is None:
            return None
        before = [r.score for r in self.record.rounds if r.id != self.played.id]
        return max(before) if before else None

    @property
    def new_best(self) -> bool:
        before = self.best_before
        return self.stored and (before is None or self.played.score > before)

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of `practice --json` (docs/practice.md)."""
        p, rec = self.played, self.record
        doc: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION, "player": p.player, "size": p.size, "lang": p.lang,
            "seconds": p.seconds, "source": p.source, "dice": p.dice, "board": p.board,
            "score": p.score, "max_points": p.max_points, "share": round(p.share, 4),
            "words_scored": p.words_scored, "board_words": p.board_words,
            "stored": self.stored, "sent_before": not self.new, "id": p.id,
            "best": None if rec is None else {"score": rec.best.score, "id": rec.best.id,
                                              "played_at": round(rec.best.played_at, 3),
                                              "before": self.best_before, "new": self.new_best},
            "average_last_10": None if rec is None else round(rec.average, 2),
            "round_count": 0 if rec is None else len(rec.rounds),
            "best_missed": [w.to_dict() for w in self.missed],
            "round": self.result.to_dict(),
        }
        if self.error is not None:
            doc["error"] = self.error.one_line()
        doc.update(self.extra or {})
        return doc


def record_round(db: DbLocation, played: PracticeRound, result: RoundResult,
                 extra: Mapping[str, Any] | None = None) -> Summary:
    """Store the round and sum it up. When the database cannot be written (locked,
    damaged, a full disk), the round is summed up against the record as it can be
    read (`stored` False, `error` the reason): the caller shows it, then fails."""
    missed = tuple(result.sheet.missed[:MISSED_SHOWN])
    try:
        stored, rec, new = record.save(db, played)
    except StorageError as err:
        try:
            before = record.record(db, played.player, played.size, played.lang, played.seconds)
        except StorageError:
            before = None
        return Summary(played, before, missed, result, stored=False, error=err, extra=extra)
    return Summary(stored, rec, missed, result, new=new, extra=extra)
