"""One round, refereed: the one place that decides a round's rules and board.

    RoundRequest  ->  referee_round(request, dictionary)  ->  RoundResult

A request holds the board's source (a ScanResult read from a photo, or a board
given as text), the players' corrections, the marks policy (do red rings and the
red challenge cube seen in the photo count?), the rules options the players chose
and the players' lists. The result holds the board as read and as corrected, the
rules in force and where each came from, the cells still doubtful, the score
sheet and notes for the table. `scan`, `score`, the page and the room all call
`referee_round`; they only parse, format and store.

`RoundResult.to_dict()` is the JSON document of `scan --json` / `score --json`
(docs/json.md) and `RoundResult.from_dict()` rebuilds the result from it.
Cells are (row, col) from 0 in the reported board's orientation.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .board import Board, Cell, cell_label
from .dictionary import Dictionary
from .errors import UsageError
from .scoring import Rules, ScoreSheet, check_players, score_round
from .store_sql import DbLocation

if TYPE_CHECKING:  # the vision stack is imported only where a photo is read
    from .vision.pipeline import ScanResult

SCHEMA_VERSION = 1


class MarksPolicy(str, Enum):
    """Whether red marks seen in the photo change the rules."""

    use = "use"          # red rings double words, the red cube means challenge scoring
    ignore = "ignore"    # only the options count (`--no-marks`)


@dataclass(frozen=True)
class RulesOptions:
    """The rules the players asked for; None means "decide from the board and photo".

    variant: "standard", "challenge", or None (challenge when a challenge cube's cell
    is known, from the options or the photo). min_length: None = by board size and
    edition. bonus_cells / challenge_cell: (row, col) cells, added to what the photo
    shows. lang: the edition (boggle_cv.editions; "en" the default): its dictionary
    when none is given, its folding of the players' words, its shortest word.
    """

    variant: str | None = None
    min_length: int | None = None
    long_words: str = "per-letter"
    bonus_cells: frozenset[Cell] = frozenset()
    challenge_cell: Cell | None = None
    lang: str = "en"


@dataclass(frozen=True)
class Corrections:
    """The players' corrections: a whole board (replaces the reading) and/or single
    cells {(row, col): face} applied on top of it."""

    board: Board | None = None
    cells: Mapping[Cell, str] = field(default_factory=dict)


@dataclass(frozen=True)
class GameRef:
    """Where a stored round lives: the game's name and the round's number (from 1)."""

    name: str
    round: int


@dataclass(frozen=True)
class RoundRequest:
    """Everything one round needs besides the dictionary.

    scan: the photo's reading, or None when the board is given (corrections.board).
    photo: the photo's label for reports (a path), kept even when no scan was made.
    players: name -> words as written, in the table's order.
    timings: stage -> seconds measured so far (reported in timings_ms).
    """

    scan: ScanResult | None = None
    corrections: Corrections = Corrections()
    marks: MarksPolicy = MarksPolicy.use
    options: RulesOptions = RulesOptions()
    players: Mapping[str, Sequence[str]] = field(default_factory=dict)
    photo: str | None = None
    timings: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class RoundResult:
    """A refereed round.

    board: the board scored (the reading with the corrections); read_board: as read
    (None when the board was given); corrected: cells that differ from the reading;
    unresolved: cells flagged as doubtful that no correction touched;
    rules_why: rule -> where it came from ("option", "photo", "board size",
    "default"); notes: one line each for the table; game: set once stored.
    """

    board: Board
    read_board: Board | None
    sheet: ScoreSheet
    rules_why: Mapping[str, str]
    corrected: tuple[Cell, ...] = ()
    unresolved: tuple[Cell, ...] = ()
    notes: tuple[str, ...] = ()
    scan: ScanResult | None = None
    photo: str | None = None
    timings: Mapping[str, float] = field(default_factory=dict)
    game: GameRef | None = None

    @property
    def rules(self) -> Rules:
        return self.sheet.rules

    @property
    def given(self) -> bool:
        """True when the board was given, not read from the photo."""
        return self.scan is None

    def stored_as(self, game: GameRef) -> RoundResult:
        """This result, recorded as stored in `game`."""
        return dataclasses.replace(self, game=game)

    def to_dict(self) -> dict[str, Any]:
        """The round's JSON document (docs/json.md, schema_version 1)."""
        doc: dict[str, Any] = {"schema_version": SCHEMA_VERSION}
        if self.photo is not None:
            doc["photo"] = self.photo
        faces, text = self.board.to_rows(), self.board.to_text()
        if self.scan is not None:
            scan_doc = self.scan.to_dict()
            scan_doc.pop("photo", None)
            read = scan_doc["board"]
            scan_doc["board"] = {**read, "faces": faces, "text": text, "read_faces": read["faces"]}
            doc.update(scan_doc)
        elif self.photo is not None:
            doc["board"] = {"size": self.board.size, "faces": faces, "text": text, "given": True}
            doc["tray"] = None
        else:
            doc["board"] = {"size": self.board.size, "faces": faces, "text": text}
        sheet = self.sheet.to_dict()
        for key in ("rules", "dictionary", "words", "word_count", "max_points", "players", "winners", "missed"):
            doc[key] = sheet[key]
        doc["rules_why"] = dict(self.rules_why)
        doc["corrected"] = [list(c) for c in self.corrected]
        doc["unresolved"] = [list(c) for c in self.unresolved]
        doc["notes"] = list(self.notes)
        if self.timings:
            doc["timings_ms"] = {k: round(v * 1000, 1) for k, v in self.timings.items()}
        if self.game is not None:
            doc["game"] = {"name": self.game.name, "round": self.game.round}
        return doc

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> RoundResult:
        """Rebuild a result from its to_dict() document (UsageError if malformed)."""
        try:
            sheet = ScoreSheet.from_dict(doc)
            b = doc["board"]
            scan = None
            if "cells" in b:
                from .vision.pipeline import ScanResult
                scan = ScanResult.from_dict({**doc, "board": {**b, "faces": b["read_faces"]}})
            read_board = scan.board if scan is not None else None
            timings = {k: float(v) / 1000 for k, v in doc.get("timings_ms", {}).items()}
            game = GameRef(str(doc["game"]["name"]), int(doc["game"]["round"])) if doc.get("game") else None
            return cls(board=sheet.board, read_board=read_board, sheet=sheet,
                       rules_why={str(k): str(v) for k, v in doc.get("rules_why", {}).items()},
                       corrected=tuple(_cells(doc.get("corrected", []))),
                       unresolved=tuple(_cells(doc.get("unresolved", []))),
                       notes=tuple(str(n) for n in doc.get("notes", [])), scan=scan,
                       photo=doc.get("photo"), timings=timings, game=game)
        except (KeyError, TypeError, ValueError, IndexError) as e:
            why = e.message if isinstance(e, UsageError) else f"{type(e).__name__}: {e}"
            raise UsageError(f"not a boggle-cv round document: {why}") from None


def _cells(items: Iterable[Sequence[int]]) -> list[Cell]:
    return [(int(c[0]), int(c[1])) for c in items]


def apply_fixes(board: Board, fixes: Mapping[Cell, str]) -> Board:
    """The board with the fixed cells replaced (faces in any accepted spelling);
    UsageError for a cell off the board or a face that is not one."""
    rows = board.to_rows()
    for (r, c), face in fixes.items():
        if not (0 <= r < board.size and 0 <= c < board.size):
            raise UsageError(f"the fix of {cell_label((r, c))} is outside the {board.size}x{board.size} board")
        rows[r][c] = face
    return Board.from_rows(rows)


def doubtful_cells(scan: ScanResult, board: Board, fixed: Iterable[Cell] = ()) -> list[Cell]:
    """Cells the reader flagged that still show what was read and were not fixed."""
    fixed_set = set(fixed)
    return [(c.row, c.col) for row in scan.reading.cells for c in row
            if c.flagged and board.faces[c.row][c.col] == c.face and (c.row, c.col) not in fixed_set]


def decide_rules(board: Board, options: RulesOptions, seen_bonus: Sequence[Cell] = (),
                 seen_challenge: Cell | None = None) -> tuple[Rules, dict[str, str], list[str]]:
    """The rules in force, where each came from, and notes for the table.

    seen_*: red marks found in the photo (already empty under MarksPolicy.ignore).
    A challenge cube's cell comes from the options, else from the photo (unless the
    players chose the standard variant); the variant is challenge when such a cell
    is known, unless chosen. Bonus cells are the union of both sources.
    """
    why: dict[str, str] = {}
    notes: list[str] = []
    challenge = options.challenge_cell
    why["challenge_cell"] = "option" if challenge is not None else "none"
    if challenge is None and seen_challenge is not None and options.variant in (None, "challenge"):
        challenge = seen_challenge
        why["challenge_cell"] = "photo"
        notes.append(f"red challenge cube seen at {cell_label(challenge)}: challenge scoring (+5 through it)")
    variant = options.variant
    why["variant"] = "option"
    if variant is None:
        variant = "challenge" if challenge is not None else "standard"
        why["variant"] = why["challenge_cell"] if challenge is not None else "default"
    if variant == "challenge" and challenge is None:
        raise UsageError("the challenge variant needs the challenge cube's cell and none was "
                         + ("seen in the photo" if seen_challenge is None and options.variant else "given"),
                         "name the red cube's cell, e.g. r2c3")
    if variant == "standard" and options.challenge_cell is not None:
        raise UsageError("a challenge cell was given but the variant is standard",
                         "choose the challenge variant (--variant challenge) or drop the cell")
    bonus = set(options.bonus_cells) | set(seen_bonus)
    from_photo = set(seen_bonus) - set(options.bonus_cells)
    why["bonus_cells"] = ("option+photo" if options.bonus_cells and from_photo
                          else "photo" if from_photo else "option" if options.bonus_cells else "none")
    if from_photo:
        notes.append("red bonus rings seen at " + ", ".join(cell_label(c) for c in sorted(from_photo))
                     + ": words through them score double")
    why["min_length"] = "option" if options.min_length is not None else "board size"
    why["long_words"] = "option" if options.long_words != "per-letter" else "default"
    if options.lang != "en":  # English rounds keep the keys they always had
        why["lang"] = "option"
    rules = Rules(size=board.size, variant=variant, min_length=options.min_length,
                  long_words=options.long_words, bonus_cells=frozenset(bonus), challenge_cell=challenge,
                  lang=options.lang)
    return rules, why, notes


def referee_round(request: RoundRequest, dictionary: Dictionary | None = None) -> RoundResult:
    """Referee one round (see the module docstring). Raises UsageError (a ValueError)
    for a request that cannot be scored: no board, a fix off the board, a challenge
    variant without its cell, bad rules, lists that are not lists of words."""
    scan, corr = request.scan, request.corrections
    players = check_players(request.players)
    if corr.board is not None:
        base = corr.board
    elif scan is not None:
        base = scan.board
    else:
        raise UsageError("a round needs a board: a photo's reading or a given board")
    board = apply_fixes(base, corr.cells)
    read_board = scan.board if scan is not None and corr.board is None else None
    corrected: tuple[Cell, ...] = ()
    unresolved: tuple[Cell, ...] = ()
    if read_board is not None and scan is not None:
        corrected = tuple((r, c) for r, c in board.cells() if board.faces[r][c] != read_board.faces[r][c])
        unresolved = tuple(doubtful_cells(scan, board, corr.cells))
    use_marks = scan is not None and request.marks is MarksPolicy.use and read_board is not None
    rules, why, notes = decide_rules(board, request.options,
                                     scan.bonus_cells if use_marks and scan is not None else (),
                                     scan.challenge_cell if use_marks and scan is not None else None)
    if unresolved:
        notes.append(f"{len(unresolved)} doubtful cell(s) to check: " + ", ".join(cell_label(c) for c in unresolved))
    sheet = score_round(board, players, dictionary, rules)
    return RoundResult(board=board, read_board=read_board, sheet=sheet, rules_why=why, corrected=corrected,
                       unresolved=unresolved, notes=tuple(notes),
                       scan=scan if read_board is not None else None, photo=request.photo,
                       timings=dict(request.timings))


def round_record(result: RoundResult) -> dict[str, Any]:
    """What the games database keeps of a round (store.save_round's keyword arguments
    besides the database and the game): board text, scores, words, the report, photo,
    the edition."""
    sheet = result.sheet
    return {"board_text": result.board.to_text(), "scores": {p.name: p.score for p in sheet.players},
            "words": {p.name: [w.to_dict() for w in p.words] for p in sheet.players},
            "report": result.to_dict(), "photo": result.photo, "lang": sheet.rules.lang}


def store_round(db_path: DbLocation | None, game: str, result: RoundResult) -> RoundResult:
    """Store the round in `game` of the games database (default location when
    db_path is None), one transaction; the result, recorded as stored."""
    from . import store
    number = store.save_round(db_path or store.default_db_path(), game, **round_record(result))
    return result.stored_as(GameRef(game, number))
