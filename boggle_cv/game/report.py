"""Formatting of referee results for the terminal and for `--json` (shared by
`solve`, `score` and `scan`; a round's JSON is RoundResult.to_dict()). Pure
functions: data in, str / dict out; no printing.

JSON (schema_version = boggle_cv.game.scoring.SCHEMA_VERSION):
  words[]   {word, points, path: [[row, col], ...], common}   best first
  max_points, word_count
  players[] {name, score, words[]: {word, status, points, path?, crossed_off_by?}}
  winners[] names with the top score ([] when nobody scored a point), missed[] like words[]
"""
from __future__ import annotations

from collections.abc import Collection
from itertools import groupby
from typing import TYPE_CHECKING, Any

from .board import Board, Cell, cell_label
from .scoring import SCHEMA_VERSION, Rules, ScoredWord, ScoreSheet
from .wording import counted

if TYPE_CHECKING:
    from .referee import RoundResult
    from .photo_reading import PhotoReading

STATUS_TEXT = {
    "scored": "",
    "crossed_off": "crossed off",
    "not_on_board": "not on the board",
    "not_in_dictionary": "not in the dictionary",
    "too_short": "too short",
    "repeated": "repeated",
    "not_a_word": "not a word (only letters A-Z count)",
}


def board_dict(board: Board) -> dict[str, Any]:
    """{size, faces (rows of face strings), text}."""
    return {"size": board.size, "faces": board.to_rows(), "text": board.to_text()}


def board_text(board: Board) -> str:
    """The grid, one row a line, faces padded to two characters ("Qu", "#" for blank)."""
    return "\n".join(" ".join(f"{f:<2}" for f in row).rstrip() for row in board.faces)


def solve_dict(board: Board, words: list[ScoredWord], rules: Rules, dictionary: str) -> dict[str, Any]:
    """The JSON document of `solve` (also the `words` part of `scan`)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "board": board_dict(board),
        "rules": rules.to_dict(),
        "dictionary": dictionary,
        "words": [w.to_dict() for w in words],
        "word_count": len(words),
        "max_points": sum(w.points for w in words),
    }


def words_text(words: list[ScoredWord], width: int = 78, mark_common: bool = False) -> str:
    """Words grouped by points, best group first, wrapped to `width` columns.

    mark_common: put a '*' after common words (used for missed words).
    """
    lines = []
    for pts, grp in groupby(sorted(words, key=lambda w: (-w.points, w.word)), key=lambda w: w.points):
        items = [w.word.upper() + ("*" if mark_common and w.common else "") for w in grp]
        head = f"{pts:>3} pt{'s' if pts != 1 else ' '} ({len(items)}): "
        line = head
        for it in items:
            if len(line) + len(it) + 1 > width and line.strip() != head.strip():
                lines.append(line.rstrip())
                line = " " * len(head)
            line += it + " "
        lines.append(line.rstrip())
    return "\n".join(lines)


def solve_text(board: Board, words: list[ScoredWord], with_board: bool = True) -> str:
    """Terminal report of `solve`: board (unless with_board=False), words by points,
    count and maximum score."""
    total = sum(w.points for w in words)
    parts = ([board_text(board), ""] if with_board else []) + [
        words_text(words) if words else "(no words)", "", f"{len(words)} words, {total} points at most"]
    return "\n".join(parts)


def sheet_text(sheet: ScoreSheet, missed_limit: int = 40, with_board: bool = True) -> str:
    """Terminal report of a round: each player's words with status and points, totals,
    winner(s) ("Nobody scored this round" when everyone has 0), then the words nobody found (best first; '*' marks common words)."""
    out = [board_text(sheet.board), ""] if with_board else []
    for p in sheet.players:
        out.append(f"{p.name}: {p.score} point{'s' if p.score != 1 else ''}")
        for w in p.words:
            note = STATUS_TEXT[w.status]
            if w.crossed_with:
                note += " (also " + ", ".join(w.crossed_with) + ")"
            label = w.word.upper()
            if sheet.rules.lang != "en" and w.word and w.written.strip().lower() != w.word:
                label += f" ({w.written.strip()})"   # as written, beside the letters it was judged by
            out.append(f"  {label:<18} {w.points:>3}  {note}".rstrip())
        out.append("")
    if sheet.players:
        scores = ", ".join(f"{p.name} {p.score}" for p in sheet.players)
        if not sheet.winners:  # everyone at 0 (the page says the same)
            out.append(f"Nobody scored this round ({scores})")
        elif len(sheet.winners) > 1:
            out.append(f"Tie: {' and '.join(sheet.winners)} ({scores})")
        else:
            out.append(f"Winner: {sheet.winners[0]} ({scores})")
        out.append("")
    missed = sheet.missed
    out.append(f"Missed: {len(missed)} words, {sum(w.points for w in missed)} points "
               f"(of {len(sheet.words)} words, {sheet.max_points} points on the board; * = common)")
    shown = missed[:missed_limit]
    if shown:
        out.append(words_text(shown, mark_common=True))
    if len(missed) > len(shown):
        out.append(f"... and {len(missed) - len(shown)} more (--json lists them all)")
    return "\n".join(out)


def sets_fit(sets: list[str], doubtful: int) -> str:
    """The cube sets a reading fits, or why none may: the doubtful cells when there are
    some; else the cubes of another edition, or a cell misread with confidence."""
    if sets:
        return ", ".join(sets)
    if doubtful:
        return "no known cube set (check the doubtful cells)"
    return "no known cube set (another edition's cubes, or a misread cell: compare the board with the tray)"


def round_header(result: RoundResult) -> str:
    """The first lines of a round's report: how the board was obtained, the marks used."""
    scan, board = result.scan, result.board
    if scan is None:
        return f"Board (given): {board.size}x{board.size}"
    r = scan.reading
    fits = sets_fit(r.sets, len(r.flagged))
    text = (f"Board read: {board.size}x{board.size}, mean confidence {r.mean_confidence:.0%}, "
            f"{counted(len(r.flagged), 'doubtful cell')}; cube sets that fit: {fits}")
    seen = set(scan.bonus_cells) | {m.cell for m in scan.marks}
    rings = [c for c in sorted(result.rules.bonus_cells) if c in seen]
    if "photo" in result.rules_why.get("bonus_cells", "") and rings:
        text += ("\nRed bonus rings seen at " + ", ".join(cell_label(c) for c in rings)
                 + " (words through them score double; --no-marks ignores them)")
    if result.rules_why.get("challenge_cell") == "photo" and result.rules.challenge_cell is not None:
        text += f"\nRed challenge cube seen at {cell_label(result.rules.challenge_cell)}: challenge scoring (+5 through it)"
    for kind, cell in result.doubtful_marks:
        what, option = ("a red bonus ring", "--bonus") if kind == "bonus" else ("the red challenge cube", "--challenge-cell")
        text += f"\nSeen too faintly to count: {what} at {cell_label(cell)} (check it; {option} {cell_label(cell)} counts it)"
    return text


def round_board_lines(result: RoundResult) -> str:
    """The board as scored, doubtful cells still open marked '?' (runner-up listed
    below), corrected ones '!', confirmed ones plain (both listed below); a given board
    is printed plain."""
    if result.scan is None:
        return board_text(result.board)
    flagged = {(c.row, c.col) for row in result.scan.reading.cells for c in row if c.flagged}
    return reading_lines(result.scan, result.board, settled=flagged - set(result.unresolved))


def reading_lines(scan: PhotoReading, board: Board, notes: bool = True, settled: Collection[Cell] = ()) -> str:
    """The grid of a photo's reading with `board`'s faces: doubtful cells marked '?',
    corrected ones '!'; `settled`: the cells a player answered or fixed (a doubtful
    cell confirmed as read is no longer marked). With `notes`, the lines that say each
    open cell's reading ("Check these cells"), then each settled one's ("Corrected",
    "Confirmed")."""
    lines, check, fixed = [], [], []
    for row in scan.reading.cells:
        parts = []
        for c in row:
            face = board.faces[c.row][c.col]
            where = cell_label((c.row, c.col))
            if face != c.face:
                mark = "!"
                fixed.append(f"  {where}: {face} (corrected; read {c.face} {c.confidence:.0%})")
            elif (c.row, c.col) in settled:
                mark = " "
                fixed.append(f"  {where}: {face} (confirmed; read {c.face} {c.confidence:.0%})")
            elif c.flagged:
                mark = "?"
                cut = " (partly outside the photo)" if c.outside_photo > 0.1 else ""
                check.append(f"  {where}: {c.face} {c.confidence:.0%}, "
                             f"or {c.runner_up} {c.runner_up_confidence:.0%}{cut}")
            else:
                mark = " "
            parts.append(f"{face:<2}{mark}")
        lines.append(" ".join(parts).rstrip())
    if notes and check:
        lines.append("Check these cells (fix with --fix rRcC=FACE):")
        lines.extend(check)
    if notes and fixed:
        kinds = {"corrected" if "(corrected;" in line else "confirmed" for line in fixed}
        lines.append(" and ".join(sorted(kinds, reverse=True)).capitalize() + ":")
        lines.extend(fixed)
    return "\n".join(lines)


def round_text(result: RoundResult, heading: str | None = None) -> str:
    """Terminal report of a refereed round: heading (e.g. "== photo.jpg"), header,
    board, then the score sheet (or every word when nobody played), where stored."""
    sheet = result.sheet
    out = [heading] if heading else []
    out += [round_header(result), round_board_lines(result), ""]
    out.append(sheet_text(sheet, with_board=False) if sheet.players
               else solve_text(result.board, sheet.words, with_board=False))
    if result.game is not None:
        how = "Replaced" if result.game.replaced else "Stored as"
        out.append(f"\n{how} round {result.game.round} of game {result.game.name!r}.")
    return "\n".join(out)
