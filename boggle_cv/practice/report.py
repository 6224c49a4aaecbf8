"""The practice record as text for the terminal: a round's summary and the history.
Pure functions: data in, str out."""
from __future__ import annotations

import time
from collections.abc import Sequence

from ..game.editions import EDITIONS
from ..game.report import STATUS_TEXT, board_text
from ..game.board import Board
from .clock import clock_text
from .record import PracticeRound, Record
from .round import Summary

#: Rounds of each record the history lists (the JSON lists them all).
HISTORY_SHOWN = 10


def when(ts: float) -> str:
    """Unix seconds -> "2025-05-03 14:02" in local time."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))


def _points(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def kind(size: int, lang: str, seconds: int) -> str:
    """"4x4 English, 3:00"."""
    edition = EDITIONS[lang].name if lang in EDITIONS else lang
    return f"{size}x{size} {edition}, {clock_text(seconds)}"


def summary_text(s: Summary) -> str:
    """After a round: the board, this round, the best, the average of the last ten,
    the share found, the best words missed, then the player's words."""
    p, rec = s.played, s.record
    out = [board_text(Board.parse(p.board)), ""]
    out.append(f"{p.player}: {_points(p.score)}, {p.words_scored} word{'s' if p.words_scored != 1 else ''} "
               f"({kind(p.size, p.lang, p.seconds)})")
    out.append(f"Found {p.share:.0%} of the board's {_points(p.max_points)} "
               f"({p.words_scored} of {p.board_words} words)")
    if not s.stored:
        out.append("This round was NOT recorded: " + (s.error.one_line() if s.error else "the store failed"))
    elif not s.new:
        out.append("This round was recorded before (sent twice): the record counts it once")
    if rec is not None:
        before = s.best_before
        if s.new_best:
            out.append("New personal best!" + (f" (before: {before})" if before is not None else " (your first round)"))
        else:
            out.append(f"Personal best: {rec.best.score} ({when(rec.best.played_at)})")
        last = min(len(rec.rounds), 10)
        out.append(f"Average of the last {last} round{'s' if last != 1 else ''}: {rec.average:.1f} "
                   f"({len(rec.rounds)} round{'s' if len(rec.rounds) != 1 else ''} in this record)")
    seed = (s.extra or {}).get("seed")
    if p.source == "shake" and seed is not None:
        out.append(f"Board {p.board} ({p.dice} dice, seed {seed}: --seed {seed} shakes it again)")
    if s.missed:
        out.append("Best words missed: " + ", ".join(f"{w.word.upper()} {w.points}" for w in s.missed))
    words = s.result.sheet.players[0].words
    if words:
        out.append("")
        out.append("Your words:")
        for w in words:
            out.append(f"  {w.word.upper() or w.written:<18} {w.points:>3}  {STATUS_TEXT[w.status]}".rstrip())
    return "\n".join(out)


def round_line(r: PracticeRound) -> str:
    """One round of a record: when, points, share, how it was played, the board."""
    how = f"shake ({r.dice})" if r.source == "shake" else "tray"
    return f"  {when(r.played_at)}  {r.score:>4} pts  {r.share:>4.0%}  {how:<18} {r.board}"


def history_text(records: Sequence[Record], shown: int = HISTORY_SHOWN) -> str:
    """Every record: a header line (rounds, best, average of the last ten) and its
    latest rounds."""
    if not records:
        return "No practice rounds recorded yet (play one: boggle-cv practice)"
    out: list[str] = []
    for rec in records:
        best = rec.best
        out.append(f"{rec.player}, {kind(rec.size, rec.lang, rec.seconds)}: {len(rec.rounds)} "
                   f"round{'s' if len(rec.rounds) != 1 else ''}, best {best.score} ({when(best.played_at)}), "
                   f"average of the last {min(len(rec.rounds), 10)}: {rec.average:.1f}")
        latest = rec.rounds[-shown:]
        if len(rec.rounds) > len(latest):
            out.append(f"  ... {len(rec.rounds) - len(latest)} earlier round(s) (--json lists them all)")
        out.extend(round_line(r) for r in latest)
        out.append("")
    return "\n".join(out).rstrip()
