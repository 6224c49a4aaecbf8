"""What one viewer of a room sees (the JSON of `GET /api/rooms/{code}`).

Never in a view: tokens or their hashes. Other players' words appear only once the
round's lists are locked (before that, only how many words each has, the list's
revision: how many saves this round, and `doubtful_count`: how many of its words a
sheet photo read with doubt; the doubtful words themselves, with their alternatives,
and `images`, word -> the id of its handwriting's image for the words a sheet added,
go with the words: the images are fetched one by one, never inlined; so does
`sheet_words`, what the room knows of each word a sheet added: sheet_words_view; the
host sees the words of a player without a phone, `hosted`, as that player does); the report
only once the round is scored, its players in rank order (`rank`, `tied`), with
the round's highlights for the table screen (`round_highlights`: the best word scored
and who found it, a few of the words everyone missed, each with its points and path). The
round shows the settings it is played with (`round_settings`) and the red marks that
count (`round_marks`: chosen on the page, else seen in the photo). Board cells are
(row, col) from 0 in the reported board's orientation ("r2c3" labels from 1 where
named); `server_time` lets every phone run the timer in step.

What a phone calls a cell's state comes from here, not from the page's guesses: a
correction to the face first read is a confirmation (`confirmed`: ✓, not ✎); the
faces a cell may show are those the referee would weigh (`read.options`: the reading,
and its runner-up only from the referee's threshold, questions.MIN_P); a cell or a
word is in doubt while the referee has a question open about it (`round.questions`,
computed by the service once the lists are locked: the answer changes a score).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..game.board import Board, Cell, cell_label, parse_cell
from ..errors import BoardTextError
from ..game.questions import MIN_P, considered
from ..game.referee import apply_fixes
from .model import BoardState, Phase, Player, Room, Round, Settings, screen_key
from .sheets import reread_change


def ranked(rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """`rows` in rank order, best `key` first, each with "rank" (standard competition
    ranking: equal scores share a rank, the next rank skips: 1, 1, 3) and "tied"
    (another row has the same score); equal scores keep their given order."""
    out = sorted(rows, key=lambda row: -int(row[key]))
    scores = [int(row[key]) for row in out]
    return [{**row, "rank": 1 + sum(1 for s in scores if s > scores[i]), "tied": scores.count(scores[i]) > 1}
            for i, row in enumerate(out)]


def ranked_report(report: dict[str, Any] | None) -> dict[str, Any] | None:
    """The round's report with its players in rank order (winner first, ranks and ties marked)."""
    if report is None:
        return None
    return {**report, "players": ranked(list(report.get("players") or []), "score")}


#: How many of the words everyone missed the table screen shows (the report lists them all).
HIGHLIGHT_MISSED = 5


def _word_order(w: dict[str, Any]) -> tuple[int, int, str]:
    """Best first: the most points, then the longest word, then alphabetical."""
    return (-int(w.get("points") or 0), -len(str(w["word"])), str(w["word"]))


def round_highlights(report: dict[str, Any] | None, missed: int = HIGHLIGHT_MISSED) -> dict[str, Any] | None:
    """What the table screen tells of a scored round besides its podium:

    best: the word that scored the most points ({word, points, path, by: [the player who
        found it], written?}; ties: the longer word, then alphabetical), None when no word scored;
    missed: up to `missed` of the words everyone missed ({word, points, path, common}),
        the ones a family would know first (the report's common words), each part best first,
        as the report orders them.

    Paths are [[row, col], ...] from 0 in the report's board. None for no report."""
    if report is None:
        return None
    scored = [(w, p["name"]) for p in report.get("players") or [] for w in p.get("words") or []
              if w.get("status") == "scored" and int(w.get("points") or 0) > 0]
    best = None
    if scored:
        word, name = min(scored, key=lambda wp: _word_order(wp[0]))
        best = {"word": word["word"], "points": int(word["points"]), "path": word.get("path"), "by": [name]}
        if word.get("written"):
            best["written"] = word["written"]
    every = list(report.get("missed") or [])
    ordered = [w for w in every if w.get("common")] + [w for w in every if not w.get("common")]
    shown = [{"word": w["word"], "points": int(w.get("points") or 0), "path": w.get("path"),
              "common": bool(w.get("common"))} for w in ordered[:max(0, missed)]]
    return {"best": best, "missed": shown, "missed_total": len(every)}


def round_settings(room: Room) -> Settings:
    """The settings the round is played with: its copy taken when the clock started,
    else (a waiting round, or a round stored by an older version) the room's."""
    return room.round.settings or room.settings


@dataclass(frozen=True)
class Marks:
    """The red marks that count for the round: bonus cells and the challenge cube's
    cell, (row, col) from 0; each from "page" (the table chose it), "photo" (seen
    in the photo, settings marks "use") or "none"."""

    bonus: tuple[Cell, ...]
    challenge: Cell | None
    bonus_from: str
    challenge_from: str


def round_marks(room: Room) -> Marks:
    """What the table chose on the page, else what the photo showed (the photo's
    marks count only for a photo board, not a typed one, and with marks "use")."""
    b = room.round.board
    photo: dict[str, Any] = {}
    if b.scan is not None and b.text is None and round_settings(room).marks == "use":
        photo = b.scan.get("marks") or {}
    if b.bonus is not None:
        bonus, bonus_from = tuple(parse_cell(c) for c in b.bonus), "page"
    else:
        bonus = tuple((int(r), int(c)) for r, c in photo.get("bonus_cells") or [])
        bonus_from = "photo" if bonus else "none"
    seen = photo.get("challenge_cell")
    if b.challenge_chosen:
        challenge, challenge_from = (parse_cell(b.challenge) if b.challenge else None), "page"
    else:
        challenge = (int(seen[0]), int(seen[1])) if seen else None
        challenge_from = "photo" if challenge else "none"
    return Marks(bonus, challenge, bonus_from, challenge_from)


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


def first_faces(b: BoardState) -> list[list[str]] | None:
    """The faces before any correction: the typed board, else the photo's reading."""
    if b.text is not None:
        return Board.parse(b.text).to_rows()
    if b.scan is not None:
        return [[str(f) for f in row] for row in b.scan["board"]["faces"]]
    return None


def correction_view(b: BoardState, key: str, first: list[list[str]] | None) -> dict[str, Any]:
    """One correction as the view shows it: {face, by, at, confirmed}; confirmed: the
    face is the one first read (a doubtful cell said to be right), not a new face."""
    r, c = (int(v) for v in key.split(","))
    corr = b.corrections[key]
    read = first[r][c] if first is not None and r < len(first) and c < len(first[r]) else None
    return {**corr.to_dict(), "confirmed": b.text is None and read == corr.face}


def cell_options(cell: dict[str, Any]) -> list[list[Any]]:
    """The faces worth offering for a read cell, best first, as [face, probability]:
    the reading, and its runner-up where the referee would weigh it (its share of the
    two at least questions.MIN_P): a runner-up at 0.1% is no choice."""
    pairs = [(str(cell["face"]), float(cell.get("confidence", 1.0)))]
    if cell.get("runner_up"):
        pairs.append((str(cell["runner_up"]), float(cell.get("runner_up_confidence", 0.0))))
    return [[f, round(p, 4)] for f, p in considered(pairs, MIN_P)]


def board_view(room: Room) -> dict[str, Any]:
    b = room.round.board
    board = current_board(b)
    marks = round_marks(room)
    first = first_faces(b)
    out: dict[str, Any] = {
        "source": "text" if b.text is not None else "photo" if b.scan is not None else None,
        "set_by": b.set_by, "size": board.size if board else None,
        "faces": board.to_rows() if board else None, "text": board.to_text() if board else None,
        "doubtful": doubtful(b),
        "corrections": {cell_label((int(k.split(",")[0]), int(k.split(",")[1]))): correction_view(b, k, first)
                        for k in b.corrections},
        "photo_version": b.photo_version,
        "bonus": [cell_label(c) for c in marks.bonus], "challenge": cell_label(marks.challenge)
        if marks.challenge is not None else None,
        "marks_from": {"bonus": marks.bonus_from, "challenge": marks.challenge_from},
        "photo_url": (f"/api/rooms/{room.code}/rounds/current/photo?round={room.round.number}&v={b.photo_version}"
                      if b.scan is not None and b.text is None else None),
    }
    if b.scan is not None and b.text is None:
        s = b.scan
        out["read"] = {"faces": s["board"]["faces"], "cells": s["board"]["cells"],
                       "options": {f"{c['row']},{c['col']}": cell_options(c) for c in s["board"]["cells"]},
                       "rotation": s["board"]["rotation"], "image": s.get("image"),
                       "geometry": s.get("geometry"), "sets": s.get("sets"), "marks": s.get("marks")}
    return out


def game_view(room: Room) -> dict[str, Any]:
    """The game being played: its number, target (None: none), the players' totals in
    rank order (every player, 0 before their first round) and, once someone reached
    the target, `over`: {winners, target, round, total}."""
    rows = [{"player_id": p.id, "name": p.name, "total": room.totals.get(p.id, 0)} for p in room.players]
    return {"number": room.game_number, "name": room.game, "target": room.settings.target,
            "standings": ranked(rows, "total"), "over": room.game_over}


def sheet_words_view(r: Round, player_id: str) -> dict[str, dict[str, Any]]:
    """The words a sheet added to that player's list, each {"free": its open reading
    (as written, "" none), "was": the word as first read when a re-read with the board
    changed it and nobody has confirmed or typed it since (else null), "by": who
    confirmed or typed it (a name, "host"; null: still the reader's word)}: computed
    from the round as it is, so a change shown goes once it is no longer true."""
    return {w: {"free": e.free, "was": reread_change(w, e), "by": e.by}
            for w, e in r.sheet_words.get(player_id, {}).items()}


def room_view(room: Room, host: bool, player: Player | None, now: float, screen: bool = False,
              questions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The room as `host` / `player` sees it, or the table screen (`screen`: neither,
    it only reads; see the module docstring). The host's view carries the screen's
    pass (`you.screen_key`). questions: the referee's open questions (each as
    questions.Question.to_dict), None when not known (the lists are not locked): shown
    only while the round is locked, when every list is open to every viewer."""
    r = room.round
    open_lists = r.phase in (Phase.locked, Phase.scored)
    players = []
    for p in room.players:
        words = r.lists.get(p.id, [])
        mine = (player is not None and p.id == player.id) or (host and p.hosted)  # the host acts for the hosted
        marks = r.doubtful.get(p.id, {})
        shown = mine or open_lists
        players.append({"id": p.id, "name": p.name, "hosted": p.hosted, "word_count": len(words),
                        "revision": r.revision(p.id), "words": words if shown else None, "doubtful_count": len(marks),
                        "doubtful": {w: [[a, q] for a, q in alts] for w, alts in marks.items()} if shown else None,
                        "images": dict(r.images.get(p.id, {})) if shown else None,
                        "sheet_words": sheet_words_view(r, p.id) if shown else None})
    return {
        "code": room.code, "game": room.game, "version": room.version, "server_time": now,
        "you": {"host": host, "player_id": player.id if player else None, "name": player.name if player else None,
                "screen": screen, "screen_key": screen_key(room.host_digest) if host else None},
        "game_state": game_view(room),
        "settings": room.settings.to_dict(),
        "players": players,
        "round": {"number": r.number, "phase": r.phase.value, "seconds": r.seconds, "started_at": r.started_at,
                  "deadline": r.deadline, "locked_at": r.locked_at, "locked_by": r.locked_by,
                  "settings": round_settings(room).to_dict(), "settings_fixed": r.settings is not None,
                  "board": board_view(room), "report": ranked_report(r.report) if r.phase is Phase.scored else None,
                  "questions": questions if r.phase is Phase.locked else None,
                  "highlights": round_highlights(r.report) if r.phase is Phase.scored else None},
        "last_change": room.last_change,
    }
